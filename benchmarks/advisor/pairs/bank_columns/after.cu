// Shared-memory bank conflicts: a 32 x 32 tile read along its rows by the lanes of a warp (a column per access).
// after: a pitch of 33 floats: the lanes' rows fall in 32 different banks
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define PITCH 33 // CHANGE
__global__ void row_norms(const float *In, float *Out) {
  __shared__ float Tile[32 * 33];
  const int Base = blockIdx.x * 1024;
  for (int K = threadIdx.x; K < 1024; K += 256)
    Tile[(K / 32) * PITCH + K % 32] = In[Base + K];
  __syncthreads();
  const int Row = threadIdx.x % 32, Part = threadIdx.x / 32;
  float S = 0;
  for (int R = 0; R < 8; ++R)
    for (int C = Part * 4; C < Part * 4 + 4; ++C) {
      float V = Tile[Row * PITCH + C];
      S += V * V * (float)(R + 1);
    }
  Out[blockIdx.x * 256 + threadIdx.x] = S;
}

int main() {
  const int Blocks = 1056;
  float *In = pair::toDevice(pair::randomFloats(Blocks * 1024, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(Blocks * 256));
  row_norms<<<Blocks, 256>>>(In, Out);
  pair::finish(Out, Blocks * 256);
}
