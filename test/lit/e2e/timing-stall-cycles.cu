// The timing model's exact stall cycles (docs/timing-model.md, "Modeled PC
// sampling"): `--stall-cycles` alone writes them as the pcsamples file's
// counts (method exact) and the stall view says so; with --pc-sampling they
// go beside the samples, which agree with them within their binomial error.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.exact %t.both
// RUN: %warpscope run --emulate --stall-cycles -o %t.exact -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope run --emulate --pc-sampling --sampling-period 5 --stall-cycles -o %t.both -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Inputs/check_stall_cycles.py %t.exact %t.both | FileCheck --check-prefix=CYCLES %s
// RUN: %warpscope report %t.exact | FileCheck %s
// RUN: %warpscope report %t.exact --format json | FileCheck --check-prefix=JSON %s
// RUN: not %warpscope run --emulate --stall-cycles --sass-metrics -o %t.bad -- %t.exe 2>&1 | FileCheck --check-prefix=BAD %s
// OUT: done
// CYCLES: methods exact sampled
// CYCLES: lines {{[0-9]+}} within 4 sigma
// CHECK: Stall view (modeled exact stall cycles, counted as samples: emulator timing model, configuration h100-sxm, not measured)
// CHECK: stalls (all samples):{{.*}}barrier
// JSON: "method": "exact"
// BAD: error: --stall-cycles and --sass-metrics collect in separate runs; give one
#include <cstdio>

// Warps of a block take turns: a dependent chain whose length depends on
// the warp, a shared-memory exchange and a barrier, repeated.
__global__ void turns(float *out) {
  __shared__ float s[256];
  float v = threadIdx.x;
  for (int k = 0; k < 8; ++k) {
    for (int j = 0; j < 4 + 4 * (threadIdx.x / 32); ++j)
      v = v * 1.0001f + 0.5f;
    s[threadIdx.x] = v;
    __syncthreads();
    v += s[(threadIdx.x * 33) % 256];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main() {
  float *out;
  cudaMalloc(&out, 16 * 256 * sizeof(float));
  for (int L = 0; L < 20; ++L)
    turns<<<16, 256>>>(out);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
