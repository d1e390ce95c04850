// Modeled time on the emulator (docs/timing-model.md): every launch of a
// `warpscope run --emulate` gets `modeled` figures in the ground truth, the
// report shows them labelled as modeled, and a bank-conflicted transpose
// takes more modeled cycles than a padded one. --model-config picks another
// configuration; warpscope run refuses a bad one before the program starts
// (driver/run-model-config.test), and the emulator, given one directly,
// says so in one line and the run keeps its counts.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.out
// RUN: %warpscope run --emulate -o %t.out -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Inputs/check_modeled.py %t.out h100-sxm | FileCheck --check-prefix=H100 %s
// RUN: %warpscope report %t.out | FileCheck %s
// RUN: %warpscope report %t.out --format json | FileCheck --check-prefix=JSON %s
// RUN: %warpscope report %t.out --format html | FileCheck --check-prefix=HTML %s
// The instrumented build: `features` gets the modeled columns.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.inst
// RUN: rm -rf %t.inst.out
// RUN: %warpscope run --emulate -o %t.inst.out -- %t.inst | FileCheck --check-prefix=OUT %s
// RUN: %warpscope features %t.inst.out | FileCheck --check-prefix=FEAT %s
// --model-sms all simulates every SM the launch uses: nothing scaled.
// RUN: rm -rf %t.all
// RUN: %warpscope run --emulate --model-sms all -o %t.all -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t.all | FileCheck --check-prefix=ALL %s
// ALL: scale(float*) grid (1000,1,1) block (128,1,1): {{[0-9]+}} modeled cycles, {{[0-9.]+}} modeled us, 132 SM(s) simulated{{$}}
// RUN: rm -rf %t.t4
// RUN: %warpscope run --emulate --model-config t4 -o %t.t4 -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Inputs/check_modeled.py %t.t4 t4 | FileCheck --check-prefix=T4 %s
// RUN: rm -rf %t.bad
// RUN: env LD_LIBRARY_PATH=%builddir/lib/emu WARPSCOPE_OUT=%t.bad WARPSCOPE_EMU_MODEL=h200 %t.exe 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: %python %S/Inputs/check_modeled.py %t.bad --none | FileCheck --check-prefix=NONE %s
// RUN: echo '{"name": "x", "sm_count": 4' > %t.json
// RUN: rm -rf %t.bad2
// RUN: env LD_LIBRARY_PATH=%builddir/lib/emu WARPSCOPE_OUT=%t.bad2 WARPSCOPE_EMU_MODEL=%t.json %t.exe 2>&1 | FileCheck --check-prefix=BADFILE %s
// RUN: %python %S/Inputs/check_modeled.py %t.bad2 --none | FileCheck --check-prefix=NONE %s
// OUT: done
// H100: modeled h100-sxm conflicted
// T4: modeled t4 conflicted
// NONE: no modeled time, counts kept
// BAD: warpscope-emu: unknown model configuration 'h200'; use one of h100-sxm, a100, t4 or a JSON file (docs/timing-model.md); running without the timing model
// BAD-NOT: warpscope-emu:
// BAD: done
// BADFILE: warpscope-emu: model configuration file '{{.*}}.json' is not a JSON object (see docs/timing-model.md for the format); running without the timing model
// BADFILE-NOT: warpscope-emu:
// BADFILE: done
// CHECK: Modeled time (emulator timing model, not measured), configuration h100-sxm
// CHECK-NEXT: per kernel:
// CHECK: void transposeTile<32>(float const*, float*) : 1 launch(es), {{[0-9]+}} modeled cycles, {{[0-9.]+}} modeled us
// One row per launch configuration, the first 20 of them: bump's four
// launches of grid 1 are one row; its 22 grids make 25 configurations.
// CHECK: per launch configuration:
// CHECK: scale(float*) grid (1000,1,1) block (128,1,1): {{[0-9]+}} modeled cycles, {{[0-9.]+}} modeled us, 8 SM(s) simulated, scaled
// CHECK-NEXT: bump(float*) grid (1,1,1) block (32,1,1): 4 launches, {{[0-9]+ modeled cycles and [0-9.]+ modeled us each|[0-9]+ to [0-9]+ modeled cycles}}
// CHECK-NEXT: bump(float*) grid (2,1,1) block (32,1,1): {{[0-9]+}} modeled cycles,
// CHECK: bump(float*) grid (17,1,1)
// CHECK-NEXT: ... and 5 more launch configurations (the JSON report lists every launch)
// JSON: "modeled_time": {
// JSON: "config": "h100-sxm"
// JSON: "modeled_cycles":
// JSON: "source": "model"
// HTML: <h2>Modeled time (emulator timing model, not measured)</h2>
// FEAT: ,exact,modeled_cycles,modeled_microseconds,modeled_config,modeled_fingerprint,modeled_launch_cycles{{$}}
// FEAT: {{^}}"void transposeTile<32>(float const*, float*)",{{.*}},{{[0-9]+}},{{[0-9]+\.[0-9]+}},h100-sxm,h100-sxm:{{[0-9a-f]+}},{{[0-9]+}}{{$}}
#include <cstdio>

// Reading tile[x][y] with rows of 32 floats puts a warp's 32 words in one
// bank: 32 wavefronts per request; rows of 33 spread them (1 wavefront).
template <int Pitch>
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[32][Pitch];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];
  __syncthreads();
  float s = 0;
  for (int k = 0; k < 16; ++k)
    s += tile[(x + k) % 32][y];
  out[y * 32 + x] = s;
}

// A large grid: the model simulates 8 of its SMs and says it scaled.
__global__ void scale(float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = p[i] * 2.0f + 1.0f;
}

__global__ void bump(float *p) { p[blockIdx.x * 32 + threadIdx.x] += 1.0f; }

int main() {
  float *in, *out, *p;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMalloc(&p, 1000 * 128 * sizeof(float));
  cudaMemset(in, 0, 1024 * sizeof(float));
  cudaMemset(p, 0, 1000 * 128 * sizeof(float));
  transposeTile<32><<<1, dim3(32, 32)>>>(in, out);
  transposeTile<33><<<1, dim3(32, 32)>>>(in, out);
  scale<<<1000, 128>>>(p);
  for (int Grid = 1; Grid <= 22; ++Grid)
    bump<<<Grid, 32>>>(p);
  for (int Again = 0; Again < 3; ++Again)
    bump<<<1, 32>>>(p);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
