// Translation unit B: its own kernel, two host threads on two streams, a
// kernel launched through cudaLaunchKernel directly, and an end chosen by
// argv[1]: "return", "exit" (from a helper) or "reset" (cudaDeviceReset,
// then one more launch) or "abort" (SIGABRT). "none" launches nothing.
#include "multi.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

__global__ void count_pos(const int *v, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] > 0)
    atomicAdd(count, 1);
}

static void finish(int code) { std::exit(code); }

static int work(int n, cudaStream_t s) {
  int *di, *count;
  float *df;
  if (cudaMalloc(&di, n * sizeof(int)) || cudaMalloc(&df, n * sizeof(float)) ||
      cudaMalloc(&count, sizeof(int)))
    return 1;
  cudaMemsetAsync(di, 1, n * sizeof(int), s);
  cudaMemsetAsync(count, 0, sizeof(int), s);
  if (launch_a(di, df, n, s))
    return 1;
  void *args[] = {&di, &n, &count};
  if (cudaLaunchKernel((const void *)count_pos, dim3((n + 63) / 64), dim3(64),
                       args, 0, s))
    return 1;
  return cudaStreamSynchronize(s) != cudaSuccess;
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "return";
  if (!std::strcmp(how, "none"))
    return 0;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  int r1 = 0, r2 = 0;
  std::thread t1([&] { r1 = work(1000, s1); });
  std::thread t2([&] { r2 = work(333, s2); });
  t1.join();
  t2.join();
  if (r1 || r2)
    return 1;
  if (!std::strcmp(how, "exit"))
    finish(0);
  if (!std::strcmp(how, "abort"))
    std::abort();
  if (!std::strcmp(how, "reset")) {
    if (cudaDeviceReset() || work(100, nullptr))
      return 1;
  }
  std::printf("done %s\n", how);
  return 0;
}
