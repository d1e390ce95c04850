// Thread increase: a grid-stride loop launched with one-warp blocks.
// after: 132 blocks of 256 threads
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void norm2(const float *X, const float *Y, float *Out, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    Out[I] = sqrtf(X[I] * X[I] + Y[I] * Y[I]);
}

int main() {
  const int N = 1 << 17;
  float *X = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Y = pair::toDevice(pair::randomFloats(N, -1, 1, 5));
  float *Out = pair::toDevice(std::vector<float>(N));
  const int Threads = 256; // CHANGE
  norm2<<<132, Threads>>>(X, Y, Out, N);
  pair::finish(Out, N);
}
