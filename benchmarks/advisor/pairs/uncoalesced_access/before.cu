// Uncoalesced access: neighbouring threads walk down a column of a row-major array.
// before: thread T takes row T % H, so neighbouring lanes are a whole row (1 KB) apart
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void scale(const float *In, float *Out, int H, int W) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= H * W)
    return;
  int R = T % H, C = T / H; // CHANGE
  Out[R * W + C] = In[R * W + C] * 2.0f + 1.0f;
}

int main() {
  const int H = 256, W = 256;
  float *In = pair::toDevice(pair::randomFloats(H * W, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(H * W));
  scale<<<H * W / 256, 256>>>(In, Out, H, W);
  pair::finish(Out, H * W);
}
