// Kernels whose algorithmic counts per launch are known by hand (CUDA
// Flux-style peer check, issue 22): per active thread, fma4 loads 2 floats,
// stores 1 and runs 4 FMAs; stage loads 1 float from global memory, stores it
// to shared memory, waits twice at a barrier, loads 1 float from shared
// memory, runs 1 FMA and stores 1 float.
#include <cstdio>

__global__ void fma4(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = x[i], acc = y[i];
    for (int k = 0; k < 4; ++k)
      acc = fmaf(acc, a, 1.0f);
    y[i] = acc;
  }
}

__global__ void stage(const float *x, float *out) {
  __shared__ float s[128];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  s[t] = x[g];
  __syncthreads();
  float v = s[127 - t];
  __syncthreads();
  out[g] = fmaf(v, 2.0f, 1.0f);
}

int main() {
  float *x, *y;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&y, 1024 * sizeof(float));
  cudaMemset(x, 0, 1024 * sizeof(float));
  cudaMemset(y, 0, 1024 * sizeof(float));
  fma4<<<4, 256>>>(x, y, 1000); // 1000 of 1024 threads active
  fma4<<<2, 256>>>(x, y, 300);  // 300 of 512
  stage<<<3, 128>>>(x, y);      // all 384
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("done\n");
  return 0;
}
