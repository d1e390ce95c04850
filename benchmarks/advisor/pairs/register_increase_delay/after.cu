// Register increase: a 48-tap delay line in registers, spilled in its hot loop.
// after: __launch_bounds__(128): ptxas keeps the line in registers
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define TAPS 48
__global__ void __launch_bounds__(128) // CHANGE
delay_line(const float *In, float *Out, int N, int Steps) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  float H[TAPS]; // indexed with constants only: registers, when they fit
#pragma unroll
  for (int J = 0; J < TAPS; ++J)
    H[J] = In[(T + J * 257) & (N - 1)];
  float Acc = 0;
  for (int S = 0; S < Steps; ++S) {
    float Y = 0;
#pragma unroll
    for (int J = 0; J < TAPS; ++J)
      Y += H[J] * (1.0f / (J + 2));
#pragma unroll
    for (int J = TAPS - 1; J > 0; --J)
      H[J] = H[J - 1];
    H[0] = 0.5f * Y + In[(T + S * 4099) & (N - 1)];
    Acc += Y;
  }
  Out[T] = Acc;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  delay_line<<<N / 128, 128>>>(In, Out, N, 16);
  pair::finish(Out, N);
}
