// Code of the user's own helpers that clang inlines keeps the helper's lines
// in every view: the divergence map, the JSON report's branches and
// source_lines, and the emulator's memory view (which reads the PTX's .loc).
// Only toolkit-header code moves to its call site (inlined-lines.cu). A
// branch of a helper inlined at two call sites is one source branch with two
// copies; a helper in the user's own header keeps the header's line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/exe
// RUN: %warpscope run --emulate -o %t/run -- %t/exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t/run > %t/report.txt
// RUN: FileCheck --check-prefix=MAP %s < %t/report.txt
// RUN: %warpscope report %t/run --format json -o %t/r.json
// The header, included as "./Inputs/...", has one name everywhere.
// RUN: not grep -n '/\./' %t/report.txt %t/r.json
// RUN: %python -c "import json,sys; \
// RUN:   k=[k for k in json.load(open('%t/r.json'))['kernels'] if k['mangled'].startswith('_Z5twice')][0]; \
// RUN:   print(sorted(set((b['file'].split('/')[-1], b['line']) for b in k['branches']))); \
// RUN:   print(sorted(set(l['file'].split('/')[-1] for l in k['source_lines'])))" \
// RUN:   | FileCheck --check-prefix=JSON %s
// OUT: sum 106
// MAP-LABEL: Kernel twice(int*, int const*, int)
// MAP: divergence map
// MAP-DAG: inlined-helper-lines.cu:[[#BRANCH:]]:{{[0-9]+}} 2 {{.*}} if (v > 0) // BRANCH
// MAP-DAG: helper_lines.cuh:6:{{[0-9]+}} {{.*}} while (v) { // HEADER-BRANCH
// MAP: Memory view
// MAP: Kernel twice(int*, int const*, int)
// MAP-DAG: /Inputs/helper_lines.cuh:14 load
// MAP-DAG: inlined-helper-lines.cu:[[#BRANCH+1]] atomic
// JSON: ('helper_lines.cuh', 6)
#include "./Inputs/helper_lines.cuh"
#include <cstdio>

__device__ inline void addPositive(int *sum, int v) {
  // JSON-SAME: ('inlined-helper-lines.cu', [[# @LINE + 1]])
  if (v > 0) // BRANCH
    atomicAdd(sum, v);
}

__global__ void twice(int *sum, const int *in, int n) {
  int t = threadIdx.x;
  if (t >= n)
    return;
  addPositive(sum, loadAt(in, t));
  addPositive(sum, in[t] + bitCount(t));
}
// The lines of the JSON report name only these two files, no header of
// clang's (threadIdx.x is on its user's line).
// JSON-NOT: __clang_cuda
// JSON: ['helper_lines.cuh', 'inlined-helper-lines.cu']

int main() {
  int h[32], *in, *sum, total = 0;
  for (int k = 0; k < 32; ++k)
    h[k] = k % 4 - 1; // -1 0 1 2: the branch diverges in every warp
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&sum, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, sizeof(int));
  twice<<<1, 32>>>(sum, in, 30);
  cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost);
  std::printf("sum %d\n", total);
  return 0;
}
