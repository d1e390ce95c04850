#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int N = 1000;
  float *x, *y;
  cudaMallocManaged(&x, N * sizeof(float));
  cudaMallocManaged(&y, N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  saxpy<<<(N + 255) / 256, 256>>>(N, 3.0f, x, y);
  cudaDeviceSynchronize();
  float sum = 0;
  for (int i = 0; i < N; ++i)
    sum += y[i];
  std::printf("sum %.1f\n", sum);
  return 0;
}
