// Uncoalesced access: a 2D kernel (32 x 8 blocks) with threadIdx.x mapped to the row of a row-major image.
// before: X comes from threadIdx.y and Y from threadIdx.x, so a warp's lanes walk down a column (1 KB apart)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

// A horizontal 3-tap box blur of a W x H row-major image (clamped at the edges).
__global__ void blur_rows(const float *In, float *Out, int W, int H) {
  int X = blockIdx.y * blockDim.y + threadIdx.y, Y = blockIdx.x * blockDim.x + threadIdx.x; // CHANGE
  if (X >= W || Y >= H)
    return;
  const float *Row = In + (size_t)Y * W;
  float L = Row[X > 0 ? X - 1 : X], R = Row[X < W - 1 ? X + 1 : X];
  Out[(size_t)Y * W + X] = (L + Row[X] + R) * (1.0f / 3.0f);
}

int main() {
  const int W = 256, H = 256;
  float *In = pair::toDevice(pair::randomFloats(W * H, 0, 1));
  float *Out = pair::toDevice(std::vector<float>(W * H));
  blur_rows<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(In, Out, W, H);
  pair::finish(Out, W * H);
}
