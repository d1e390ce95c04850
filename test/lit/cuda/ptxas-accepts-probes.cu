// Instrumented PTX must assemble at every optimization level, with and
// without debug info, including switches, loops (promoted loop counters
// too) and device functions.
// REQUIRES: ptxas
// RUN: %clang-cuda --cuda-device-only -S -O0 -fpass-plugin=%plugin -mllvm -warpscope-db-out=%t.json %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o /dev/null
// RUN: %clang-cuda --cuda-device-only -S -O1 -g -fpass-plugin=%plugin -mllvm -warpscope-db-out=%t.json %s -o %t.O1.ptx
// RUN: %ptxas -arch=sm_90 %t.O1.ptx -o /dev/null
// RUN: %clang-cuda --cuda-device-only -S -O2 -gline-tables-only -fpass-plugin=%plugin -mllvm -warpscope-db-out=%t.json %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o /dev/null
// RUN: %clang-cuda --cuda-device-only -S -O3 -fpass-plugin=%plugin -mllvm -warpscope-db-out=%t.json %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o /dev/null
// RUN: grep -c "ws:branch" %t.O3.ptx | FileCheck --check-prefix=COUNT %s
// RUN: grep -c "ws:flush" %t.O2.ptx | FileCheck --check-prefix=COUNT %s
// RUN: grep -c "(promoted)" %t.O0.ptx | FileCheck --check-prefix=COUNT %s
// COUNT: {{[1-9][0-9]*}}

__device__ __noinline__ int pick(int x) {
  switch (x & 3) {
  case 0: return x * 3;
  case 1: return x + 7;
  case 2: return x ^ 5;
  default: return -x;
  }
}

__global__ void kernel(int *a, float *f) {
  int t = threadIdx.x;
  int v = 0;
  for (int i = 0; i < (t & 7); ++i)
    v += pick(i + t);
  if (t < 17)
    f[t] = sqrtf(f[t]) + __shfl_down_sync(0xffffffffu, f[t], 1);
  a[t] = v;
}

__global__ void loops(int *a, int n) {
  int t = threadIdx.x;
  int s = 0;
  for (int i = t; i < n; i += 3) {
    if (i & 1)
      s += i;
    else
      s ^= i * 5;
  }
  a[t] = s;
}
