// Global memory transaction reduction: a sum accumulated in global memory.
// after: the sum kept in a register and stored once
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void colsum(const float *In, float *Out, int H, int W) {
  int R = blockIdx.x * blockDim.x + threadIdx.x;
  if (R >= H)
    return;
  float S = 0; for (int C = 0; C < W; ++C) S += In[C * H + R]; Out[R] = S; // CHANGE
}

int main() {
  const int H = 1 << 14, W = 32;
  float *In = pair::toDevice(pair::randomFloats(H * W, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(H));
  colsum<<<H / 256, 256>>>(In, Out, H, W);
  pair::finish(Out, H);
}
