// Benchmark kernels for emu-core-bench.
__global__ void arith(float *out, int iters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float a = (float)t, b = 1.0001f;
  unsigned x = t;
  for (int i = 0; i < iters; ++i) {
    a = a * b + 0.5f;
    b = b * 0.9999f + 0.0001f;
    x = x * 1664525u + 1013904223u;
    x ^= x >> 7;
  }
  out[t] = a + b + (float)x;
}
__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
