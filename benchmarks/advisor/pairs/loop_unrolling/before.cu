// Loop unrolling: a 32-tap filter kept rolled.
// before: #pragma unroll 1: one tap per trip, with the loop's compare and branch
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void fir(const float *In, const float *Coef, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float S = 0;
  #pragma unroll 1 // CHANGE
  for (int K = 0; K < 32; ++K)
    S += Coef[K] * In[T + K];
  Out[T] = S;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N + 32, -1, 1));
  float *Coef = pair::toDevice(pair::randomFloats(32, 0, 1, 7));
  float *Out = pair::toDevice(std::vector<float>(N));
  fir<<<N / 256, 256>>>(In, Coef, Out, N);
  pair::finish(Out, N);
}
