// Loop unrolling: one BFS-like relaxation step over a CSR graph (irregular neighbour loads).
// after: #pragma unroll 4: four edges' loads in flight per trip
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void relax_edges(const int *RowStart, const int *Cols, const int *Dist,
                            int *Next, int Nodes) {
  int V = blockIdx.x * blockDim.x + threadIdx.x;
  if (V >= Nodes)
    return;
  int Best = Dist[V];
  int End = RowStart[V + 1];
  #pragma unroll 4 // CHANGE
  for (int E = RowStart[V]; E < End; ++E)
    Best = min(Best, Dist[Cols[E]] + 1);
  Next[V] = Best;
}

int main() {
  const int Nodes = 1 << 16, Degree = 32;
  std::vector<int> Start(Nodes + 1), Cols(Nodes * Degree), Dist(Nodes);
  uint64_t S = 12345;
  for (int V = 0; V <= Nodes; ++V)
    Start[V] = V * Degree;
  for (int &C : Cols) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    C = (int)((S >> 33) % Nodes);
  }
  for (int V = 0; V < Nodes; ++V)
    Dist[V] = (V * 37) % 101;
  int *DStart = pair::toDevice(Start), *DCols = pair::toDevice(Cols);
  int *DDist = pair::toDevice(Dist);
  int *DNext = pair::toDevice(std::vector<int>(Nodes));
  relax_edges<<<Nodes / 256, 256>>>(DStart, DCols, DDist, DNext, Nodes);
  pair::finish(DNext, Nodes);
}
