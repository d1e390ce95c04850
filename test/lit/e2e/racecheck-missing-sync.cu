// warpscope run --racecheck flags a missing __syncthreads(): warp 0 reads
// s[63 - t] before warp 1 wrote it (write-after-read), warp 1 reads what
// warp 0 wrote (read-after-write), each with both source lines, on stderr
// and in the ground truth. With the barrier (-DSYNCED), nothing is flagged.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t/racy
// RUN: not %warpscope run --emulate --racecheck -o %t/out -- %t/racy 2> %t/err | FileCheck --check-prefix=OUT %s
// RUN: FileCheck %s < %t/err
// RUN: %python %S/Inputs/hazards.py %t/out | FileCheck --check-prefix=JSON %s
// RUN: %clang-cuda -DSYNCED -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t/synced
// RUN: %warpscope run --emulate --racecheck -o %t/out2 -- %t/synced 2> %t/err2 | FileCheck --check-prefix=SYNCED-OUT %s
// RUN: not grep "warpscope-emu: racecheck" %t/err2
// RUN: %python %S/Inputs/hazards.py %t/out2 | FileCheck --check-prefix=NONE %s
// Without --racecheck, the racy program runs silently.
// RUN: %warpscope run --emulate -o %t/out3 -- %t/racy 2> %t/err3
// RUN: not grep "warpscope-emu: racecheck" %t/err3
#include <cstdio>

__global__ void reverse(int *d) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = d[t];
#ifdef SYNCED
  __syncthreads();
#endif
  d[t] = s[63 - t];
}

int main() {
  int h[64], *d;
  for (int i = 0; i < 64; ++i)
    h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  reverse<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("d[0] = %d, d[63] = %d\n", h[0], h[63]);
  return 0;
}
// The emulator runs warp 0 to its end before warp 1: without the barrier
// warp 0 reads zeros.
// OUT: d[0] = 0, d[63] = 0
// SYNCED-OUT: d[0] = 63, d[63] = 0
// CHECK: warpscope-emu: racecheck: kernel reverse(int*) [_Z7reversePi], block (0,0,0): write-after-read hazard on shared memory offset 128: 'ld.shared.b32' at PTX line {{[0-9]+}} ({{.*}}racecheck-missing-sync.cu:26:{{[0-9]+}}) by warp 0, then 'st.shared.b32' at PTX line {{[0-9]+}} ({{.*}}racecheck-missing-sync.cu:22:{{[0-9]+}}) by warp 1, with no barrier in between
// CHECK-NEXT: warpscope-emu: racecheck: kernel reverse(int*) [_Z7reversePi], block (0,0,0): read-after-write hazard on shared memory offset 124: 'st.shared.b32' at PTX line {{[0-9]+}} ({{.*}}racecheck-missing-sync.cu:22:{{[0-9]+}}) by warp 0, then 'ld.shared.b32' at PTX line {{[0-9]+}} ({{.*}}racecheck-missing-sync.cu:26:{{[0-9]+}}) by warp 1, with no barrier in between
// CHECK-NOT: warpscope-emu: racecheck
// JSON: _Z7reversePi write-after-read racecheck-missing-sync.cu:26 warp 0 -> racecheck-missing-sync.cu:22 warp 1 count 32
// JSON-NEXT: _Z7reversePi read-after-write racecheck-missing-sync.cu:22 warp 0 -> racecheck-missing-sync.cu:26 warp 1 count 32
// JSON-NEXT: 2 hazards
// NONE: 0 hazards
