// A kernel that traps in one thread after a kernel that runs cleanly.
#include <cstdio>

__global__ void ok(int *p) { p[threadIdx.x] += 1; }

__global__ void bad(int *p) {
  if (threadIdx.x == 3)
    __trap();
  p[threadIdx.x] = 2;
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  ok<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  bad<<<1, 32>>>(d);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  ok<<<1, 32>>>(d); // refused: the context is lost
  return 0;
}
