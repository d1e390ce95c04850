// A user's own small program, as issue 35 found it: a line that loads with
// a 128-byte stride and stores contiguously, a 32-way bank conflict and a
// divergent branch.
// - The memory view and the advisor judge each access apart: the load is
//   32 sectors/request, the store on the same line 4, never one 18.
// - Without PC samples the advice is a list of unranked findings whose
//   figures say what they are (not speedup estimates), the optimizers that
//   did not run are one line naming the run option that supplies their
//   inputs, and hotspots count excess units, not "samples".
// - With modeled PC samples the same advice is ranked by estimated speedup.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.exe
// RUN: rm -rf %t.plain %t.sampled
// RUN: %warpscope run --emulate -o %t.plain -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t.plain | FileCheck --check-prefix=MEM %s
// RUN: %warpscope advise %t.plain | FileCheck --check-prefix=FIND %s
// RUN: %warpscope advise %t.plain --format json | %python -c "import json, sys; d = json.load(sys.stdin); \
// RUN:   print(d['estimates'], all(a['speedup_if_free'] > 1 and a['estimated_speedup'] is None for a in d['advice']), \
// RUN:         sorted({h['unit'] for a in d['advice'] for h in a['hotspots']}), d['skipped'][0]['supplied_by'][0][:30])" \
// RUN:   | FileCheck --check-prefix=FINDJSON %s
// RUN: %warpscope run --emulate --pc-sampling -o %t.sampled -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope advise %t.sampled | FileCheck --check-prefix=RANKED %s
// OUT: done
//
// MEM: Memory view
// MEM: Kernel k(float const*, float*)
// MEM: advise-per-access.cu:[[# @LINE + 32]]{{ +}}load{{ +}}global 2048 req, 32.00 sectors/req (ideal 4.00)
// MEM-NEXT: advise-per-access.cu:[[# @LINE + 31]]{{ +}}store{{ +}}global 2048 req, 4.00 sectors/req (ideal 4.00)
// MEM-NEXT: advise-per-access.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 2048 req, 4.00 sectors/req (ideal 4.00)
// MEM-NEXT: advise-per-access.cu:[[# @LINE + 30]]{{ +}}store{{ +}}shared 2048 req, 32.00 wavefronts/req (ideal 1.00)
//
// FIND: not run (need PC samples, instruction listing: `warpscope run --pc-sampling` {{.*}}): {{.*}}loop_unrolling
// FIND-NOT: skipped:
// FIND: Findings, unranked: without PC samples there are no speedup estimates
// FIND-NOT: estimated speedup
// FIND: Coalesce global memory accesses: {{[0-9.]+}}x if the flagged excess were free (no PC samples: not an estimate)
// FIND: hotspot: advise-per-access.cu:[[# @LINE + 22]]: {{[0-9]+}} excess sectors; load: 32.00 sectors/request, ideal 4.00
// FIND-NOT: hotspot: {{.*}}store: 4.00
// FIND: Reduce branch divergence: {{[0-9.]+}}x if the flagged excess were free
// FIND: hotspot: advise-per-access.cu:[[# @LINE + 23]]: {{[0-9]+}} idle-lane warp instructions
// FIND: Remove shared-memory bank conflicts: {{[0-9.]+}}x if the flagged excess were free
// FIND: excess wavefronts; store: 32.00 wavefronts/request
// FINDJSON: False True ['excess sectors', 'excess wavefronts', 'idle-lane warp instructions'] `warpscope run --pc-sampling`
//
// RANKED: inputs used: {{.*}}PC samples{{.*}}(the PC samples are modeled, not measured
// RANKED-NOT: Findings, unranked
// GPA's stall-based optimizer and the exact-count one name the same bank
// conflict: one item, the other's figure in its estimator; no drain advice
// for the coalesced stores.
// RANKED: Remove shared-memory bank conflicts: estimated speedup {{[0-9.]+}}x (modeled)
// RANKED-NEXT: estimator: {{.*}}; the same shared-memory bank conflicts also found by shared_memory_access_adjustment ({{[0-9.]+}}x)
// RANKED-NOT: Shared memory access adjustment
// RANKED-NOT: drain
#include <cstdio>

__global__ void k(const float *in, float *out) {
  __shared__ float tile[32][32];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  out[i] = in[i * 32 % 8192]; // LOADSTORE
  tile[t % 32][0] = in[i];    // CONFLICT
  __syncthreads();
  float w = tile[t % 32][0];
  if (t % 2) // DIVERGENT
    w = w * 2.0f + sinf(w);
  out[65536 + i] = w;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 8192 * sizeof(float));
  cudaMalloc(&out, 2 * 65536 * sizeof(float));
  cudaMemset(in, 0, 8192 * sizeof(float));
  k<<<512, 128>>>(in, out); // enough work that memory, not the launch, counts
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
