// An off-by-one store: thread 100 writes just past a 100-int cudaMalloc
// block. On a GPU: cudaErrorIllegalAddress (or silent corruption inside
// the page); it must never be a host crash or corrupt host memory.
#include <cstdio>

__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    a[i] = i;
}

int main() {
  int *a;
  cudaMalloc(&a, 100 * sizeof(int));
  fill<<<1, 128>>>(a, 100);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("peek: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  std::printf("again: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  void *b = nullptr;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&b, 4)));
  std::printf("reset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  std::printf("after reset: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
