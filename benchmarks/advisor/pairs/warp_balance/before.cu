// Warp balance: one warp of each block does all the work while seven wait at the barrier.
// before: warp 0 computes the block's 256 outputs, 8 each; warps 1-7 wait at __syncthreads
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__device__ float heavy(float X) {
  for (int K = 0; K < 24; ++K)
    X = X * 0.97f + 0.03f;
  return X;
}

__global__ void balance(const float *In, float *Out, int *Done) {
  __shared__ float Part[256];
  int Base = blockIdx.x * 256;
  Part[threadIdx.x] = In[Base + threadIdx.x];
  __syncthreads();
  for (int J = threadIdx.x; J < 256 && threadIdx.x < 32; J += 32) Out[Base + J] = heavy(Part[J]); // CHANGE
  __syncthreads();
  if (threadIdx.x == 0)
    Done[blockIdx.x] = 1;
}

int main() {
  const int Blocks = 256, N = Blocks * 256;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  int *Done = pair::toDevice(std::vector<int>(Blocks));
  balance<<<Blocks, 256>>>(In, Out, Done);
  pair::finish(Out, N);
}
