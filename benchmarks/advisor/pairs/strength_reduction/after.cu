// Strength reduction: row and column by integer division by a run-time width.
// after: I >> Shift and I & (W - 1): W is a power of two, passed with its log2
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void weigh(const float *In, float *Out, int N, int W, int Shift) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float S = 0;
  for (int K = 0; K < 16; ++K) {
    int I = (T + K * 977) & (N - 1);
    int R = I >> Shift, C = I & (W - 1); // CHANGE
    S += In[I] * (float)(R - C);
  }
  Out[T] = S;
}

int main() {
  const int N = 1 << 15, W = 128, Shift = 7;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  weigh<<<N / 256, 256>>>(In, Out, N, W, Shift);
  pair::finish(Out, N);
}
