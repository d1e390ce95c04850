#include <cstdio>
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
int main() {
  const int n = 1000;
  float *x, *y;
  if (cudaMalloc(&x, n * sizeof(float)) || cudaMalloc(&y, n * sizeof(float)))
    return 1;
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  return cudaDeviceSynchronize() != cudaSuccess;
}
