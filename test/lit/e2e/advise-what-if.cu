// advise --what-if (issue 35, item 2): a change that is a launch parameter
// is estimated by re-simulating the kernel with it, and every format says
// which estimates are re-simulated and which are formulas.
// - A grid-stride loop launched with 4 blocks: block increase is
//   re-simulated with the grid it names (the recorded program runs again
//   with WARPSCOPE_EMU_WHATIF); without --what-if it is a formula.
// - The emulator's what-if runs the launch with the new grid and the same
//   results; a malformed setting is a one-line error, not a crash.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.exe
// RUN: rm -rf %t.d %t.w %t.b
// RUN: %warpscope run --emulate --pc-sampling -o %t.d -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope advise %t.d --what-if | FileCheck --check-prefix=WHATIF %s
// RUN: %warpscope advise %t.d | FileCheck --check-prefix=FORMULA %s
// RUN: %warpscope advise %t.d --what-if --format json | %python -c "import json, sys; \
// RUN:   d = [a for a in json.load(sys.stdin)['advice'] if a['optimizer'] == 'block_increase'][0]; \
// RUN:   print(d['estimate_kind'], d['estimated_speedup'] > 1)" | FileCheck --check-prefix=JSON %s
// RUN: %warpscope advise %t.d --what-if --format sarif | FileCheck --check-prefix=SARIF %s
// RUN: env WARPSCOPE_EMU_WHATIF=_Z4axpyPKfPfi:grid=64 %warpscope run --emulate -o %t.w -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python -c "import json, glob; print([l['grid'] for f in glob.glob('%t.w/emu-*.json') for l in json.load(open(f))['launches']])" | FileCheck --check-prefix=GRID %s
// RUN: env WARPSCOPE_EMU_WHATIF=_Z4axpyPKfPfi:grid=-3 not %warpscope run --emulate --force -o %t.b -- %t.exe 2>&1 | FileCheck --check-prefix=BAD %s
// OUT: checksum 1.9660800e+05
//
// WHATIF: Block increase: estimated speedup {{[0-9.]+}}x, re-simulated
// WHATIF-NEXT: estimator: re-simulated: the timing model ran the program again with {{[0-9]+}} blocks: {{[0-9]+}} -> {{[0-9]+}} modeled cycles, the launches' fixed cost included (the formula said {{[0-9.]+}}x: parallelism
// FORMULA: Block increase: estimated speedup {{[0-9.]+}}x (modeled), formula
// JSON: re-simulated True
// SARIF: "estimate_kind": "re-simulated"
// GRID: {{\[\[}}64, 1, 1]]
// BAD: warpscope-emu: error: WARPSCOPE_EMU_WHATIF '{{.*}}_Z4axpyPKfPfi{{.*}}:grid=-3' has 'grid=-3', not <key>=<n>
// BAD: launch failed
#include <cstdio>

__global__ void axpy(const float *X, float *Y, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    float V = X[I];
    for (int K = 0; K < 8; ++K)
      V = V * 0.5f + 1.0f;
    Y[I] = V + Y[I];
  }
}

int main() {
  const int N = 1 << 16;
  float *X, *Y;
  cudaMallocManaged(&X, N * sizeof(float));
  cudaMallocManaged(&Y, N * sizeof(float));
  for (int I = 0; I < N; ++I)
    X[I] = 2.0f, Y[I] = 1.0f;
  axpy<<<4, 256>>>(X, Y, N);
  if (cudaGetLastError() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  cudaDeviceSynchronize();
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += Y[I];
  printf("checksum %.7e\n", S);
}
