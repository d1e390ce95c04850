// A kernel whose loop never ends: it waits for a flag nobody sets.
#include <cstdio>

__global__ void spin(volatile int *flag, int *out) {
  while (*flag == 0)
    ;
  out[threadIdx.x] = 1;
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  spin<<<2, 32>>>(flag, out);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
