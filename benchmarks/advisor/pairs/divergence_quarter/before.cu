// Branch divergence: one lane in four of every warp takes a long branch.
// before: thread T handles item T: every warp holds 8 items of the long side and runs it
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void shade(const float *In, float *Out, int N, int Iters) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int Item = T; // CHANGE
  if (Item >= N)
    return;
  float X = In[Item];
  if ((Item & 3) == 0) {
    for (int K = 0; K < Iters; ++K)
      X = X * 0.999f + 0.5f;
  } else {
    X = X * 0.5f + 1.0f;
  }
  Out[Item] = X;
}

int main() {
  const int N = 1 << 18;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  shade<<<N / 256, 256>>>(In, Out, N, 512);
  pair::finish(Out, N);
}
