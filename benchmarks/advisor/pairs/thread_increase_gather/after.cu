// Thread increase: a grid-stride gather launched with two-warp blocks.
// after: 256 threads per block
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void gather(const float *Table, const int *Idx, float *Out, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    Out[I] = 2.0f * Table[Idx[I]] + 1.0f;
}

int main() {
  const int N = 1 << 17, M = 1 << 12;
  std::vector<int> Idx(N);
  uint64_t S = 5;
  for (int &V : Idx) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    V = (int)((S >> 33) & (M - 1));
  }
  float *Table = pair::toDevice(pair::randomFloats(M, -1, 1));
  int *DIdx = pair::toDevice(Idx);
  float *Out = pair::toDevice(std::vector<float>(N));
  const int Threads = 256; // CHANGE
  gather<<<132, Threads>>>(Table, DIdx, Out, N);
  pair::finish(Out, N);
}
