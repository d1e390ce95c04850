// Device functions that stay calls: one reached from one kernel only, one
// shared by two kernels, for the report's calling context.
#include <cstdio>

// Data-dependent work, so the callee has far more counts than its caller.
__device__ __noinline__ int steps(int x) {
  int s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}

__device__ __noinline__ int twice(int x) { return 2 * x + (x & 1); }

__global__ void own(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = steps(i + 1);
}

__global__ void shareA(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twice(i);
}

__global__ void shareB(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i & 1)
    out[i] = twice(i);
}

// Never launched: its call of steps() makes no call, so own()'s totals with
// steps() stay exact.
__global__ void never(int *out) { out[0] = steps(out[1]); }

int main() {
  int *d;
  cudaMalloc(&d, 128 * sizeof(int));
  own<<<2, 64>>>(d);
  shareA<<<2, 64>>>(d);
  shareB<<<2, 64>>>(d);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
