// A small kernel for instruction-mix tests: float FMAs, a divergent branch,
// a loop, shared memory and a barrier.
#include <cstdio>
__global__ void saxpy_mix(const float *x, float *y, float a, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  if (i < n) {
    for (int k = 0; k <= (threadIdx.x & 3); ++k)
      acc = fmaf(a, x[i], acc + y[i]);
  }
  tile[threadIdx.x] = acc;
  __syncthreads();
  if (i < n)
    y[i] = tile[(threadIdx.x + 1) % blockDim.x] * 0.5f;
}

int main() {
  const int n = 1000;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  saxpy_mix<<<(n + 127) / 128, 128>>>(x, y, 2.0f, n);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
