// The timing model treats probe instructions as free (docs/timing-model.md,
// "Probes"): on a kernel whose instrumented build runs the plain build's
// instructions opcode for opcode outside its probes, the instrumented run's
// modeled cycles and modeled PC samples (per PTX instruction of the
// program and its source line) equal the plain run's exactly; with
// --model-probes (WARPSCOPE_EMU_MODEL_PROBES=1) the probes cost modeled
// cycles again. Outputs say which: "probes" in the ground truth's modeled
// time, "model_probes" in the samples, and the report's labels.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t/plain
// The instrumented build keeps the compiler's lines (inlined-lines=keep), as
// the plain build without the plugin has them: by default it puts inlined
// header code (threadIdx.x) on the calling line (e2e/inlined-lines.cu).
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) -Xarch_device -mllvm=-warpscope-inlined-lines=keep %s $(%warpscope config --ldflags) -o %t/inst
// RUN: %warpscope run --emulate --pc-sampling --sampling-period 5 -o %t/p -- %t/plain | FileCheck --check-prefix=OUT %s
// RUN: %warpscope run --emulate --pc-sampling --sampling-period 5 -o %t/f -- %t/inst | FileCheck --check-prefix=OUT %s
// RUN: %warpscope run --emulate --pc-sampling --sampling-period 5 --model-probes -o %t/m -- %t/inst | FileCheck --check-prefix=OUT %s
// RUN: %python %S/Inputs/check_free_probes.py %t/p %t/f %t/m | FileCheck --check-prefix=SAME %s
// RUN: %warpscope report %t/f | FileCheck --check-prefix=FREE %s
// RUN: %warpscope report %t/m --format json | FileCheck --check-prefix=MODELED %s
// RUN: %warpscope report %t/p | FileCheck --check-prefix=PLAIN %s
// RUN: %warpscope advise %t/f | FileCheck --check-prefix=ADVISE %s
// A ground truth whose label is neither free nor modeled: one line.
// RUN: rm -rf %t/bad && cp -r %t/f %t/bad && sed -i 's/"probes":"free"/"probes":"cheap"/' %t/bad/emu-*.json
// RUN: not %warpscope report %t/bad 2>&1 | FileCheck --check-prefix=BAD %s
// OUT: checksum
// SAME: program instructions identical in 2 function(s)
// SAME: modeled cycles equal in 3 launch(es)
// SAME: modeled samples equal at {{[0-9]+}} instruction(s), {{[0-9]+}} samples
// SAME: with probes modeled: more cycles in 3 launch(es)
// FREE: Stall view (modeled PC sampling: emulator timing model, configuration h100-sxm, probe instructions free, not measured)
// FREE: Modeled time (emulator timing model, not measured), configuration h100-sxm, probe instructions free{{$}}
// MODELED: "model_probes": "modeled"
// MODELED: "probes": "modeled"
// PLAIN: Stall view (modeled PC sampling: emulator timing model, configuration h100-sxm, not measured)
// PLAIN: Modeled time (emulator timing model, not measured), configuration h100-sxm{{$}}
// BAD: error: {{.*}}emu-{{.*}}.json: has a launch whose 'modeled.probes' is neither free nor modeled; rerun under `warpscope run --emulate`
// ADVISE: inputs used: {{.*}} (the PC samples are modeled, not measured; probe instructions free)
#include <cstdio>

// A block-wide stencil with a barrier, a data-dependent loop and a guarded
// store: probes in every block, branch probes at the conditions. It reads
// buf[0, n) and writes buf[n, 2n): one pointer, so that the instrumented
// build loads the parameters in the plain build's order.
__global__ void smooth(float *buf, int n) {
  __shared__ float tile[258];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x + 1] = i < n ? buf[i] : 0.f;
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? buf[i - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1)
    tile[blockDim.x + 1] = i + 1 < n ? buf[i + 1] : 0.f;
  __syncthreads();
  float v = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];
  unsigned k = 0;
  do
    v = v * 0.5f + 1.f;
  while (++k <= (threadIdx.x & 7));
  if (i < n)
    buf[n + i] = v;
}

__global__ void total(const float *in, float *sum, int n) {
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    v += in[i];
  atomicAdd(sum, v);
}

int main() {
  const int n = 4000;
  float *buf, *sum;
  cudaMallocManaged(&buf, 3 * n * sizeof(float));
  cudaMallocManaged(&sum, sizeof(float));
  for (int i = 0; i < n; ++i)
    buf[i] = (i % 13) * 0.25f;
  *sum = 0.f;
  smooth<<<(n + 255) / 256, 256>>>(buf, n);
  smooth<<<(n + 255) / 256, 256>>>(buf + n, n);
  total<<<4, 128>>>(buf + 2 * n, sum, n);
  cudaDeviceSynchronize();
  std::printf("checksum %.3f\n", *sum);
  return 0;
}
