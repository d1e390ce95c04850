// Modeled PC sampling on the emulator (docs/timing-model.md): `warpscope run
// --emulate --pc-sampling` writes pcsamples-<pid>.json from the timing model
// (warpscope-pcsampling/3, source model, granularity ptx), the report shows
// its stall view labelled as modeled, warps waiting at __syncthreads() are
// barrier samples, and the same run gives the same samples (with 1 or 2
// emulator threads).
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.a %t.b
// RUN: %warpscope run --emulate --pc-sampling --sampling-period 6 -o %t.a -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: env WARPSCOPE_EMU_THREADS=1 %warpscope run --emulate --pc-sampling --sampling-period 6 -o %t.b -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Inputs/check_model_samples.py %t.a %t.b | FileCheck --check-prefix=SAMPLES %s
// RUN: ls %t.a/ptx-*.ptx
// RUN: %warpscope advise %t.a | FileCheck --check-prefix=ADVISE %s
// RUN: %warpscope report %t.a | FileCheck %s
// RUN: %warpscope report %t.a --format json | FileCheck --check-prefix=JSON %s
// RUN: %warpscope report %t.a --format html | FileCheck --check-prefix=HTML %s
// RUN: not %warpscope run --emulate --pc-sampling --sampling-period 40 -o %t.c -- %t.exe 2>&1 | FileCheck --check-prefix=PERIOD %s
// The emulator's own setting, out of range: one line, the default period.
// RUN: rm -rf %t.d
// RUN: env WARPSCOPE_OUT=%t.d LD_LIBRARY_PATH=%builddir/lib/emu WARPSCOPE_EMU_MODEL=h100-sxm WARPSCOPE_EMU_PC_SAMPLING=1 WARPSCOPE_SAMPLING_PERIOD=40 %t.exe 2>&1 | FileCheck --check-prefix=ENVPERIOD %s
// RUN: %python -c "import glob, json; print(json.load(open(glob.glob('%t.d/pcsamples-*.json')[0]))['sampling_period'])" | FileCheck --check-prefix=DEFAULT %s
// ENVPERIOD: warpscope-emu: warning: WARPSCOPE_SAMPLING_PERIOD='40'
// ENVPERIOD-NOT: warpscope-emu:
// ENVPERIOD: done
// DEFAULT: 9
// The advisor reads the modeled samples with the saved PTX, labelled.
// ADVISE: inputs used: PC samples, memory-efficiency counts, modeled time, instruction listing (the PC samples are modeled, not measured)
// ADVISE: Warp balance: estimated speedup {{[0-9.]+}}x (modeled)
// OUT: done
// SAMPLES: samples {{[0-9]+}} barrier lines timing-pc-sampling.cu:[[# @LINE + 23]]{{$}}
// SAMPLES: deterministic
// CHECK: Stall view (modeled PC sampling: emulator timing model, configuration h100-sxm, not measured):
// CHECK: waitForSlowWarp(float*)
// CHECK: stalls (all samples):{{.*}}barrier
// CHECK: timing-pc-sampling.cu:[[# @LINE + 18]]
// JSON: "stall_view": {
// JSON: "model_config": "h100-sxm"
// JSON: "source": "model"
// HTML: <h2>Stall view (modeled PC sampling: emulator timing model, configuration h100-sxm, not measured)</h2>
// PERIOD: error: --sampling-period 40 is not in 5..31 (one sample per 2^N cycles)
// PERIOD-NOT: error
#include <cstdio>

// Warp 0 runs a long dependent chain; the other warps wait for it at the
// barrier, so their samples are barrier stalls on the line after it.
__global__ void waitForSlowWarp(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = threadIdx.x;
  if (threadIdx.x < 32)
    for (int k = 0; k < 2000; ++k)
      v = v * 1.0001f + 0.5f;
  __syncthreads();
  out[i] = v;
}

int main() {
  float *out;
  cudaMalloc(&out, 8 * 256 * sizeof(float));
  waitForSlowWarp<<<8, 256>>>(out);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
