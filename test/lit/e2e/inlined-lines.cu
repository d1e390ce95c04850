// Inlined header code on the user's line (issue 35, item 5): LLVM 22 writes
// no inlined_at into PTX .loc, so the device pass gives code inlined from
// clang's CUDA headers the line of its nearest call site in user code
// (passes/InlinedLines.cpp, -warpscope-inlined-lines). The stall view of
// modeled exact stall cycles then names this file's lines, never
// __clang_cuda_*.h: threadIdx/blockIdx reads, one header line (__expf's)
// inlined at two lines, each getting its own, and sqrtf inside a user helper
// getting the helper's line. A __trap() in that helper names the helper's
// line. With inlined-lines=keep the PTX names the headers, and the two
// builds' PTX differ in .loc (and .file, debug labels) only.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/exe
// RUN: %warpscope run --emulate --stall-cycles -o %t/run -- %t/exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t/run --top 0 > %t/report.txt
// RUN: FileCheck --check-prefix=STALL %s < %t/report.txt
// RUN: not grep -n __clang_cuda %t/report.txt
// RUN: %warpscope run --emulate -o %t/fault -- %t/exe fault > %t/fault.txt 2>&1
// RUN: FileCheck --check-prefix=FAULT %s < %t/fault.txt
//
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) --cuda-device-only -S %s -o %t/default.ptx
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) --cuda-device-only -S %s -o %t/keep.ptx \
// RUN:   -Xarch_device -mllvm=-warpscope-inlined-lines=keep
// RUN: FileCheck --check-prefix=KEEP %s < %t/keep.ptx
// RUN: not grep -n '__clang_cuda' %t/default.ptx
// RUN: sed -E '/^\s*\.(loc|file)\s/d; /^\$L__tmp[0-9]+:$/d; s@//.*@@' %t/default.ptx > %t/default.code
// RUN: sed -E '/^\s*\.(loc|file)\s/d; /^\$L__tmp[0-9]+:$/d; s@//.*@@' %t/keep.ptx > %t/keep.code
// RUN: diff %t/default.code %t/keep.code
// RUN: not %clang-cuda -O2 $(%warpscope config --cflags) --cuda-device-only -S %s -o %t/bad.ptx \
// RUN:   -Xarch_device -mllvm=-warpscope-inlined-lines=all 2>&1 | FileCheck --check-prefix=BAD %s
// OUT: sync: no error
// STALL: Stall view (modeled exact stall cycles
// STALL: lines(float*, float const*, int):
// KEEP-DAG: .file {{[0-9]+}} "{{.*}}__clang_cuda_builtin_vars.h"
// KEEP-DAG: .file {{[0-9]+}} "{{.*}}__clang_cuda_device_functions.h"
// BAD: Cannot find option named 'all'!
#include <cstdio>
#include <cstdlib>

// A helper of the user's: its __trap() and sqrtf come from clang's headers.
__device__ __forceinline__ float checkedRoot(float x) {
  if (x < 0.0f)
    // FAULT: 'trap' at PTX line {{[0-9]+}} ({{.*}}inlined-lines.cu:[[# @LINE + 1]]:5): trap
    __trap();
  // STALL-DAG: inlined-lines.cu:[[# @LINE + 1]] {{ *[1-9][0-9]* }}
  return sqrtf(x);
}

__global__ void lines(float *out, const float *in, int n) {
  // STALL-DAG: inlined-lines.cu:[[# @LINE + 1]] {{ *[1-9][0-9]* }}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i];
  // Only __expf's code on each of these two lines.
  // STALL-DAG: inlined-lines.cu:[[# @LINE + 1]] {{ *[1-9][0-9]* }}
  float a = __expf(x);
  // STALL-DAG: inlined-lines.cu:[[# @LINE + 1]] {{ *[1-9][0-9]* }}
  float b = __expf(a);
  out[i] = checkedRoot(a + b - 3.0f);
}

int main(int argc, char **argv) {
  int n = 4096;
  float *host = (float *)std::malloc(n * sizeof(float)), *in, *out;
  // With an argument, one thread's root is of -2: the helper traps.
  for (int k = 0; k < n; ++k)
    host[k] = (argc > 1 && k == 77) ? -100.0f : 0.001f * k;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice);
  lines<<<n / 256, 256>>>(out, in, n);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
// The stall view ends here; the lines above are its rows.
// STALL: Memory view
