// Warp balance: a Needleman-Wunsch tile swept by anti-diagonals, 4 cells per thread and a barrier per diagonal.
// after: thread t takes cells t, t+64, t+128, t+192: both warps share every diagonal
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define TILE 256
__global__ void nw_tile(const int *A, const int *B, int *Out) {
  __shared__ int D[3][TILE];
  __shared__ int SA[TILE], SB[TILE];
  const int Base = blockIdx.x * TILE;
  for (int K = threadIdx.x; K < TILE; K += 64) {
    SA[K] = A[Base + K];
    SB[K] = B[Base + K];
  }
  __syncthreads();
  for (int Diag = 0; Diag < 2 * TILE - 1; ++Diag) {
    const int Lo = max(0, Diag - TILE + 1), Len = min(Diag, TILE - 1) - Lo + 1;
    int *D0 = D[Diag % 3], *D1 = D[(Diag + 2) % 3], *D2 = D[(Diag + 1) % 3];
    const int First = threadIdx.x, Step = 64; // CHANGE
    for (int K = 0; K < 4; ++K) {
      const int C = First + K * Step;
      if (C >= Len)
        continue;
      const int I = Lo + C, J = Diag - I;
      const int Up = I > 0 ? D1[I - 1] : -(J + 1);
      const int Left = J > 0 ? D1[I] : -(I + 1);
      const int Corner = I > 0 && J > 0 ? D2[I - 1] : -(I + J);
      const int Match = SA[I] == SB[J] ? 2 : -1;
      D0[I] = max(Corner + Match, max(Up - 1, Left - 1));
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Out[blockIdx.x] = D[(2 * TILE - 2) % 3][TILE - 1];
}

int main() {
  const int Blocks = 264;
  std::vector<int> A(Blocks * TILE), B(Blocks * TILE);
  uint64_t S = 4242;
  for (size_t K = 0; K < A.size(); ++K) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    A[K] = (int)((S >> 33) & 3);
    B[K] = (int)((S >> 41) & 3);
  }
  int *DA = pair::toDevice(A), *DB = pair::toDevice(B);
  int *DOut = pair::toDevice(std::vector<int>(Blocks));
  nw_tile<<<Blocks, 64>>>(DA, DB, DOut);
  pair::finish(DOut, Blocks);
}
