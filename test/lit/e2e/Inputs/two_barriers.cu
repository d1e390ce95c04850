// Warp 0 waits on named barrier 1, warp 1 on barrier 2, each for the whole
// block: neither can complete (on a GPU the launch hangs).
#include <cstdio>

__global__ void stuck(int *out) {
  if (threadIdx.x < 32)
    asm volatile("bar.sync 1;");
  else
    asm volatile("bar.sync 2;");
  out[threadIdx.x] = 1;
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  stuck<<<1, 64>>>(out);
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
