// Function inlining: a two-flop helper called through a real call in a loop.
// before: __noinline__: a call, its parameter moves and return, per trip
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__device__ __noinline__ float // CHANGE
blend(float A, float B) {
  return A * 0.75f + B * 0.25f;
}

__global__ void relax(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float X = In[T];
  for (int K = 0; K < 32; ++K)
    X = blend(X, (float)K);
  Out[T] = X;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  relax<<<N / 256, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
