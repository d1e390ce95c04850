// Global memory transaction reduction: a sum accumulated in global memory.
// after: the sum kept in a register and stored once
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
// Every SM holds 8 blocks of 256 threads (full occupancy), and the 32 x 256
// terms stay in L1, so the kernel is bound by its memory transactions (the
// LSU and the stores' L2 traffic), not by latency.
#include "../../pair.h"

__global__ void colsum(const float *In, float *Out, int H, int W) {
  int R = blockIdx.x * blockDim.x + threadIdx.x;
  if (R >= H)
    return;
  const float *Col = In + (R & 255);
  float S = 0; for (int C = 0; C < W; ++C) S += Col[C * 256]; Out[R] = S; // CHANGE
}

int main() {
  const int H = 132 * 2048, W = 32;
  float *In = pair::toDevice(pair::randomFloats(W * 256, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(H));
  colsum<<<H / 256, 256>>>(In, Out, H, W);
  pair::finish(Out, H);
}
