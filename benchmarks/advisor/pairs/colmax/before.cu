// Global memory transaction reduction: a running maximum kept in global memory.
// before: Out[R] = fmaxf(Out[R], ...) each trip: a load and a store of Out[R] per term (Out may alias In)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void colmax(const float *In, float *Out, int H, int W) {
  int R = blockIdx.x * blockDim.x + threadIdx.x;
  if (R >= H)
    return;
  const float *Col = In + (R & 255);
  Out[R] = -1e30f; for (int C = 0; C < W; ++C) Out[R] = fmaxf(Out[R], Col[C * 256]); // CHANGE
}

int main() {
  const int H = 132 * 2048, W = 32;
  float *In = pair::toDevice(pair::randomFloats(W * 256, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(H));
  colmax<<<H / 256, 256>>>(In, Out, H, W);
  pair::finish(Out, H);
}
