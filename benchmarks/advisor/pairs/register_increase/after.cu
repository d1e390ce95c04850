// Register increase: launch bounds that force a 40-accumulator kernel to spill.
// after: __launch_bounds__(256): ptxas keeps the accumulators in registers
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define ACC 40
__global__ void __launch_bounds__(256) // CHANGE
mix(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float A[ACC];
#pragma unroll
  for (int J = 0; J < ACC; ++J)
    A[J] = In[(T + J * 131) & (N - 1)];
  for (int K = 0; K < 8; ++K) {
#pragma unroll
    for (int J = 0; J < ACC; ++J)
      A[J] = A[J] * 0.5f + A[(J + 1) % ACC] * 0.25f + 0.125f;
  }
  float S = 0;
#pragma unroll
  for (int J = 0; J < ACC; ++J)
    S += A[J];
  Out[T] = S;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  mix<<<N / 256, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
