// Fast math: precise expf and sinf in an inner loop.
// before: expf and sinf: the precise library sequences
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void wave(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float X = In[T], S = 0;
  for (int K = 0; K < 16; ++K) {
    float Y = X + 0.1f * K;
    S += expf(Y * 0.5f) * sinf(Y); // CHANGE
  }
  Out[T] = S;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  wave<<<N / 256, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
