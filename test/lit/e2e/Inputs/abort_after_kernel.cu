// A kernel runs, then the program aborts before it exits normally.
#include <cstdlib>

__global__ void k(int *p) { p[threadIdx.x] = 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  std::abort();
}
