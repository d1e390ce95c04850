// Device functions that are called, not inlined: one kernel calls work();
// with TWO, a second kernel calls it too; with CONFIGS, the first kernel is
// launched with a second configuration.
#include <cstdio>

__device__ __noinline__ int work(int x) {
  int s = 0;
  for (int k = 0; k < (x & 7); ++k)
    s += k * x;
  return s;
}

__global__ void one(int *out) { out[threadIdx.x] = work(threadIdx.x); }
#ifdef TWO
__global__ void two(int *out) { out[threadIdx.x] += work(threadIdx.x + 1); }
#endif

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  one<<<2, 64>>>(out);
#ifdef TWO
  two<<<1, 32>>>(out);
#endif
#ifdef CONFIGS
  one<<<1, 32>>>(out);
#endif
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
