// Function inlining: a six-argument dot product called through a real call in a loop.
// before: __noinline__: six parameter moves, a call and a return per trip
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__device__ __noinline__ float // CHANGE
dot3(float Ax, float Ay, float Az, float Bx, float By, float Bz) {
  return Ax * Bx + Ay * By + Az * Bz;
}

__global__ void lighting(const float *P, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  const float X = P[3 * T], Y = P[3 * T + 1], Z = P[3 * T + 2];
  float S = 0;
  for (int K = 0; K < 24; ++K)
    S += fmaxf(0.0f, dot3(X, Y, Z, K * 0.1f, 1.0f, -K * 0.05f));
  Out[T] = S;
}

int main() {
  const int N = 1 << 15;
  float *P = pair::toDevice(pair::randomFloats(3 * N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  lighting<<<N / 256, 256>>>(P, Out, N);
  pair::finish(Out, N);
}
