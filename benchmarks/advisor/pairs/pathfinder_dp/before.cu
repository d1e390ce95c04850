// Code reordering: a row-by-row minimum-path DP (a wavefront over rows) with a barrier per row.
// before: each row's wall cost is loaded just before it is added, after the barrier
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void path_rows(const int *Wall, int *Result, int Cols, int Rows) {
  __shared__ int Prev[256 + 2];
  const int Tx = threadIdx.x, X = blockIdx.x * 256 + Tx;
  const bool Prefetch = false; // CHANGE
  Prev[Tx + 1] = Wall[X];
  if (Tx == 0)
    Prev[0] = Prev[257] = 1 << 29;
  __syncthreads();
  int W = Wall[Cols + X];
  for (int R = 1; R < Rows; ++R) {
    int Ahead = Prefetch && R + 1 < Rows ? Wall[(R + 1) * Cols + X] : 0;
    int Cost = Prefetch ? W : Wall[R * Cols + X];
    int M = min(Prev[Tx], min(Prev[Tx + 1], Prev[Tx + 2]));
    __syncthreads();
    Prev[Tx + 1] = M + Cost;
    __syncthreads();
    W = Ahead;
  }
  Result[X] = Prev[Tx + 1];
}

int main() {
  const int Cols = 256 * 132, Rows = 24;
  std::vector<int> Wall(Cols * Rows);
  uint64_t S = 99;
  for (int &V : Wall) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    V = (int)((S >> 33) % 10);
  }
  int *DWall = pair::toDevice(Wall);
  int *DRes = pair::toDevice(std::vector<int>(Cols));
  path_rows<<<Cols / 256, 256>>>(DWall, DRes, Cols, Rows);
  pair::finish(DRes, Cols);
}
