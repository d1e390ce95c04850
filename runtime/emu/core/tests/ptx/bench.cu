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
// Shared-memory heavy: a double-buffered 3-point stencil, one barrier per step.
__global__ void stencil(const float *in, float *out, int iters) {
  __shared__ float s[2][256 + 2];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[0][t + 1] = in[g];
  if (t == 0)
    s[0][0] = s[0][blockDim.x + 1] = s[1][0] = s[1][blockDim.x + 1] = 0.0f;
  __syncthreads();
  int cur = 0;
  for (int i = 0; i < iters; ++i) {
    s[cur ^ 1][t + 1] =
        0.25f * s[cur][t] + 0.5f * s[cur][t + 1] + 0.25f * s[cur][t + 2];
    cur ^= 1;
    __syncthreads();
  }
  out[g] = s[cur][t + 1];
}
