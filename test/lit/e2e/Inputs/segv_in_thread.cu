// A segmentation fault on the main thread while another host thread keeps
// calling into the CUDA runtime.
#include <atomic>
#include <cstdio>
#include <thread>

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  std::atomic<bool> Busy{false};
  std::thread([&] {
    for (;;) {
      touch<<<1, 32>>>(d);
      cudaDeviceSynchronize();
      Busy = true;
    }
  }).detach();
  while (!Busy)
    ;
  std::printf("crashing\n");
  std::fflush(stdout);
  *(volatile int *)nullptr = 1;
  return 0;
}
