// Fast math: logf and cosf in a tone-mapping loop.
// after: __logf, __cosf: the SFU intrinsics
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void tone(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float Y = In[T], S = 0;
  for (int K = 1; K <= 8; ++K)
    S += __logf(Y * K) * __cosf(Y * 0.25f * K); // CHANGE
  Out[T] = S;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, 0.5f, 2.0f));
  float *Out = pair::toDevice(std::vector<float>(N));
  tone<<<N / 256, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
