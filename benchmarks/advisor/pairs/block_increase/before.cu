// Block increase: a grid-stride loop launched with fewer blocks than SMs.
// before: 16 blocks of 256 threads: 116 of 132 SMs idle
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void axpy(const float *X, float *Y, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    float V = X[I];
    for (int K = 0; K < 8; ++K)
      V = V * 1.01f + 0.5f;
    Y[I] = 2.0f * V + Y[I];
  }
}

int main() {
  const int N = 1 << 17;
  float *X = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Y = pair::toDevice(pair::randomFloats(N, -1, 1, 3));
  const int Blocks = 16; // CHANGE
  axpy<<<Blocks, 256>>>(X, Y, N);
  pair::finish(Y, N);
}
