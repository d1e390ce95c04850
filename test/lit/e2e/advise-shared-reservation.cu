// Reserve only the shared memory the kernel uses (issue 35): a kernel that
// reserves 60 KB of dynamic shared memory per block and touches 1 KB.
// - The emulator records, per launch, the shared memory its blocks touched
//   (emu-*.json's shared_touched, split into static and dynamic bytes).
// - advise proposes launching with the 1 KB touched: 3 -> 8 blocks/SM and a
//   196 -> 16 KB carveout; a formula for the blocks without --what-if, the
//   timing model's re-run of the smaller reservation with it.
// - A malformed shared_touched is a one-line error naming the file.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.exe
// RUN: rm -rf %t.d %t.bad
// RUN: %warpscope run --emulate --pc-sampling -o %t.d -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json, glob; print([(l['shared_bytes'], l['shared_touched']) for f in glob.glob('%t.d/emu-*.json') for l in json.load(open(f))['launches']])" | FileCheck --check-prefix=TOUCHED %s
// RUN: %warpscope advise %t.d | FileCheck --check-prefix=FORMULA %s
// RUN: %warpscope advise %t.d --what-if | FileCheck --check-prefix=WHATIF %s
// RUN: cp -r %t.d %t.bad
// RUN: sed -i 's/"shared_touched":{"static":0,/"shared_touched":{"static":-1,/' %t.bad/emu-*.json
// RUN: not %warpscope advise %t.bad 2>&1 | FileCheck --check-prefix=BAD %s
// OUT: checksum
// TOUCHED: {{\[\(61440, \{'static': 0, 'dynamic': 1024\}\)\]}}
// FORMULA: Reserve only the shared memory the kernel uses: estimated speedup {{[0-9.]+}}x (modeled), formula
// FORMULA-NEXT: estimator: parallelism {{.*}}; the carveout 196 -> 16 KB changes the L1, which no formula estimates
// FORMULA-NEXT: hint: Reserve only the shared memory the kernel touches: launch it with 1024 B of dynamic shared memory (the third <<<>>> parameter; now 61440 B)
// FORMULA-NEXT: hotspot: {{.*}}3 blocks/SM (24/64 warps), limited by shared memory; its blocks touched 1024 B of the 61440 B they reserve (static 0 of 0 B, dynamic 1024 of 61440 B); reserving 1024 B: 8 blocks/SM and a 16 KB carveout (240 KB of L1), against a 196 KB carveout (60 KB of L1) now
// WHATIF: Reserve only the shared memory the kernel uses: estimated speedup {{[0-9.]+}}x, re-simulated
// WHATIF-NEXT: estimator: re-simulated: the timing model ran the program again with 1024 B shared/block: {{[0-9]+}} -> {{[0-9]+}} modeled cycles
// BAD: warpscope advise: error: {{.*}}emu-{{.*}}.json: has a launch whose 'shared_touched' is not {"static": n, "dynamic": n}; rerun under `warpscope run --emulate`
#include <cstdio>

__global__ void chase(const int *Next, int *Out, int N) {
  extern __shared__ int Seen[];
  const int T = blockIdx.x * blockDim.x + threadIdx.x;
  int J = T & (N - 1);
  for (int K = 0; K < 4; ++K)
    J = Next[J];
  Seen[threadIdx.x] = J;
  __syncthreads();
  Out[T] = Seen[255 - threadIdx.x];
}

int main() {
  const int N = 1 << 14, Blocks = 132 * 4;
  int *Next, *Out;
  cudaMallocManaged(&Next, N * sizeof(int));
  cudaMallocManaged(&Out, Blocks * 256 * sizeof(int));
  for (int I = 0; I < N; ++I)
    Next[I] = (I * 7919 + 13) & (N - 1);
  cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
  chase<<<Blocks, 256, 60 * 1024>>>(Next, Out, N);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  long long S = 0;
  for (int I = 0; I < Blocks * 256; ++I)
    S += Out[I];
  printf("checksum %lld\n", S);
}
