// Occupancy limiter: dynamic shared memory sized for the largest case keeps blocks off the SM.
// after: 1 KB, what the block touches (256 ints), as the advice proposes: 8 blocks (64 warps) per SM, and more of the SM left to the L1
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void chase(const int *Next, int *Out, int N) {
  extern __shared__ int Seen[];
  const int T = blockIdx.x * blockDim.x + threadIdx.x;
  int J = T & (N - 1);
  for (int K = 0; K < 12; ++K)
    J = Next[J];
  Seen[threadIdx.x] = J;
  __syncthreads();
  Out[T] = Seen[255 - threadIdx.x];
}

int main() {
  const int N = 1 << 16, Blocks = 132 * 8;
  std::vector<int> Next(N);
  uint64_t S = 31337;
  for (int &V : Next) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    V = (int)((S >> 33) & (N - 1));
  }
  int *DNext = pair::toDevice(Next);
  int *DOut = pair::toDevice(std::vector<int>(Blocks * 256));
  CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             64 * 1024));
  const size_t Shared = 1024; // CHANGE
  chase<<<Blocks, 256, Shared>>>(DNext, DOut, N);
  pair::finish(DOut, Blocks * 256);
}
