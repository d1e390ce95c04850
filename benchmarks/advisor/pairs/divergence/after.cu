// Branch divergence: neighbouring lanes take different sides of a long if/else.
// after: thread T handles an item of the same parity as the rest of its warp (data reordering)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void classify(const float *In, float *Out, int N, int Iters) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int Item = (T & ~63) | ((T & 31) << 1) | ((T >> 5) & 1); // CHANGE
  if (Item >= N)
    return;
  float X = In[Item];
  if (Item & 1) {
    for (int K = 0; K < Iters; ++K)
      X = X * 0.999f + 0.5f;
  } else {
    for (int K = 0; K < Iters; ++K)
      X = X * 1.001f - 0.25f;
  }
  Out[Item] = X;
}

int main() {
  const int N = 1 << 16;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  classify<<<N / 256, 256>>>(In, Out, N, 48);
  pair::finish(Out, N);
}
