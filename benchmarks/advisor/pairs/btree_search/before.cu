// Code reordering: a 4-level search tree of 16-key nodes, scanned with an early exit.
// before: each key is loaded only after the previous compare: a chain of load, compare, branch
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void find_leaf(const int *Keys, const int *Queries, int *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  for (int Rep = 0; Rep < 4; ++Rep) {
    int Q = Queries[4 * T + Rep], Node = 0;
    for (int L = 0; L < 4; ++L) {
      const int *K = Keys + Node * 16;
      int C = 0;
      while (C < 16 && K[C] <= Q) ++C; // CHANGE
      Node = Node * 17 + 1 + C;
    }
    Out[4 * T + Rep] = Node;
  }
}

int main() {
  const int N = 1 << 16, Nodes = 1 + 17 + 289 + 4913;
  std::vector<int> Keys(Nodes * 16), Queries(4 * N);
  uint64_t S = 777;
  auto Next = [&]() {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((S >> 33) & 0xffff);
  };
  for (int Nd = 0; Nd < Nodes; ++Nd) {
    int Acc = 0;
    for (int J = 0; J < 16; ++J)
      Keys[Nd * 16 + J] = (Acc += 1 + Next() % 4096);
  }
  for (int &Q : Queries)
    Q = Next() * 2;
  int *DKeys = pair::toDevice(Keys), *DQ = pair::toDevice(Queries);
  int *DOut = pair::toDevice(std::vector<int>(4 * N));
  find_leaf<<<N / 256, 256>>>(DKeys, DQ, DOut, N);
  pair::finish(DOut, 4 * N);
}
