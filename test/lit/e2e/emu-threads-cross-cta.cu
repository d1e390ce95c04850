// CTAs that communicate through global memory stay correct when the
// emulator runs them on several host threads (WARPSCOPE_EMU_THREADS): a
// last-block reduction (__threadfence + atomicInc ticket), a grid-wide
// atomic ticket counter, float/min/max atomics (compare-and-swap loops), a
// chain where each block waits for its predecessor's flag, and printf from
// every block, whose output must be the same (in block order) with 1 thread.
// REQUIRES: emulator
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t/app
// RUN: env LD_LIBRARY_PATH=%builddir/lib/emu WARPSCOPE_OUT=%t/o2 WARPSCOPE_EMU_THREADS=2 %t/app > %t/two.txt
// RUN: env LD_LIBRARY_PATH=%builddir/lib/emu WARPSCOPE_OUT=%t/o1 WARPSCOPE_EMU_THREADS=1 %t/app > %t/one.txt
// RUN: FileCheck %s < %t/two.txt
// RUN: diff %t/one.txt %t/two.txt
// CHECK: block 0 of 96
// CHECK-NEXT: block 1 of 96
// CHECK-NEXT: block 2 of 96
// CHECK: block 95 of 96
// CHECK-NEXT: last-block reduction: 1234567 ok
// CHECK-NEXT: tickets: 196608 unique ok
// CHECK-NEXT: float/min/max atomics ok
// CHECK-NEXT: chain: ok
#include <cstdio>

__device__ unsigned Count = 0;
constexpr int Rounds = 8;

// Each block sums its slice; the block that takes the last ticket adds the
// partial sums of all blocks.
__global__ void lastBlockSum(const int *in, int n, int *partial, int *result) {
  __shared__ int s[256];
  __shared__ bool isLast;
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o)
      s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(&Count, gridDim.x);
    isLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (isLast && threadIdx.x == 0) {
    int total = 0;
    for (int b = 0; b < gridDim.x; ++b)
      total += ((volatile int *)partial)[b];
    *result = total;
    Count = 0;
  }
}

// Every thread takes tickets from one counter and marks them.
__global__ void tickets(unsigned *counter, int *seen) {
  for (int k = 0; k < Rounds; ++k) {
    unsigned t = atomicAdd(counter, 1u);
    atomicAdd(&seen[t], 1);
  }
  if (threadIdx.x == 0)
    printf("block %d of %d\n", blockIdx.x, gridDim.x);
}

__global__ void floatMinMax(float *f, int *mn, int *mx) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(f, 1.0f);
  atomicMin(mn, 1000 - t);
  atomicMax(mx, t * 3);
}

// Block b waits until block b - 1 published its value (blocks start in
// index order, so the wait always ends).
__global__ void chain(volatile int *flag, int *val) {
  if (threadIdx.x == 0) {
    int prev = 0;
    if (blockIdx.x > 0) {
      while (flag[blockIdx.x - 1] == 0) {
      }
      __threadfence();
      prev = val[blockIdx.x - 1];
    }
    val[blockIdx.x] = prev + (int)blockIdx.x;
    __threadfence();
    flag[blockIdx.x] = 1;
  }
}

int main() {
  const int N = 1234567 / 7 + 1, Blocks = 96, Threads = 256;
  int *in, *partial, *result;
  cudaMallocManaged(&in, N * sizeof(int));
  cudaMallocManaged(&partial, Blocks * sizeof(int));
  cudaMallocManaged(&result, sizeof(int));
  long expect = 0;
  for (int i = 0; i < N; ++i) {
    in[i] = i == N - 1 ? 1234567 - 7 * (N - 1) : 7;
    expect += in[i];
  }
  lastBlockSum<<<Blocks, Threads>>>(in, N, partial, result);
  unsigned *counter;
  int *seen;
  const int T = Blocks * Threads * Rounds;
  cudaMallocManaged(&counter, sizeof(unsigned));
  cudaMallocManaged(&seen, T * sizeof(int));
  *counter = 0;
  for (int i = 0; i < T; ++i)
    seen[i] = 0;
  tickets<<<Blocks, Threads>>>(counter, seen);
  float *f;
  int *mn, *mx;
  cudaMallocManaged(&f, sizeof(float));
  cudaMallocManaged(&mn, sizeof(int));
  cudaMallocManaged(&mx, sizeof(int));
  *f = 0;
  *mn = 1 << 30;
  *mx = -1;
  floatMinMax<<<Blocks, Threads>>>(f, mn, mx);
  int *flag, *val;
  cudaMallocManaged(&flag, Blocks * sizeof(int));
  cudaMallocManaged(&val, Blocks * sizeof(int));
  for (int i = 0; i < Blocks; ++i)
    flag[i] = val[i] = 0;
  chain<<<Blocks, 32>>>(flag, val);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  printf("last-block reduction: %d %s\n", *result,
         *result == expect ? "ok" : "WRONG");
  int unique = 0;
  for (int i = 0; i < T; ++i)
    unique += seen[i] == 1;
  printf("tickets: %d unique %s\n", unique,
         unique == T && *counter == (unsigned)T ? "ok" : "WRONG");
  const int NT = Blocks * Threads;
  bool fmm =
      *f == (float)NT && *mn == 1000 - (NT - 1) && *mx == 3 * (NT - 1);
  printf("float/min/max atomics %s\n", fmm ? "ok" : "WRONG");
  bool ok = true;
  for (int b = 0; b < Blocks; ++b)
    ok &= val[b] == b * (b + 1) / 2 && flag[b] == 1;
  printf("chain: %s\n", ok ? "ok" : "WRONG");
  return 0;
}
