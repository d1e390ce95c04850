// Fast-math advice after inlined header code moved onto the user's line
// (-warpscope-inlined-lines, issue 35 item 5): the precise expf/sinf
// sequences now carry this file's line, so the advisor finds them by the
// call sites the database records (`math_call_sites`, line and column of
// each call), not by a math header's name. The expf/sinf line is a math
// call site, the lines of plain arithmetic are not; advice from modeled
// exact stall cycles names fast math at the call line. With
// inlined-lines=keep the code is in the headers, the database has no call
// sites, and the advice is the same.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/exe
// RUN: %warpscope run --emulate --stall-cycles -o %t/run -- %t/exe > /dev/null
// RUN: cat %t/run/db-*.json | FileCheck --check-prefix=DB %s
// RUN: %warpscope advise %t/run --format json > %t/advice.json
// RUN: FileCheck --check-prefix=ADVICE %s < %t/advice.json
//
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/keep \
// RUN:   -Xarch_device -mllvm=-warpscope-inlined-lines=keep
// RUN: %warpscope run --emulate --stall-cycles -o %t/keep-run -- %t/keep > /dev/null
// RUN: not grep -l math_call_sites %t/keep-run/db-*.json
// RUN: %warpscope advise %t/keep-run --format json | FileCheck --check-prefix=ADVICE %s
//
// DB: "math_call_sites":[{"column":10,"file":"{{[^"]*}}advise-fast-math-lines.cu","line":[[#@LINE+12]]},{"column":27,"file":"{{[^"]*}}advise-fast-math-lines.cu","line":[[#@LINE+12]]}]
// ADVICE: "optimizer": "fast_math"
#include <cstdio>
#include <cstdlib>

__global__ void wave(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float X = In[T], S = 0;
  for (int K = 0; K < 16; ++K) {
    float Y = X + 0.1f * K;
    S += expf(Y * 0.5f) * sinf(Y);
    S = S * 0.999f;
  }
  Out[T] = S;
}

int main() {
  const int N = 1 << 14;
  float *In, *Out;
  cudaMallocManaged(&In, N * sizeof(float));
  cudaMallocManaged(&Out, N * sizeof(float));
  for (int I = 0; I < N; ++I)
    In[I] = (I % 200) / 100.0f - 1.0f;
  wave<<<N / 256, 256>>>(In, Out, N);
  cudaDeviceSynchronize();
  std::printf("%f\n", Out[1]);
  return 0;
}
