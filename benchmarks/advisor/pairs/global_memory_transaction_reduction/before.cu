// Global memory transaction reduction: a sum accumulated in global memory.
// before: Out[R] += ... each trip: a load and a store per element (Out may alias In)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void colsum(const float *In, float *Out, int H, int W) {
  int R = blockIdx.x * blockDim.x + threadIdx.x;
  if (R >= H)
    return;
  Out[R] = 0; for (int C = 0; C < W; ++C) Out[R] += In[C * H + R]; // CHANGE
}

int main() {
  const int H = 1 << 14, W = 32;
  float *In = pair::toDevice(pair::randomFloats(H * W, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(H));
  colsum<<<H / 256, 256>>>(In, Out, H, W);
  pair::finish(Out, H);
}
