// Shared-memory bank conflicts: a tiled transpose reads its tile down a column.
// after: the tile's rows are padded to 33 floats: a column spreads over all banks
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define TILE 32
__global__ void transpose(const float *In, float *Out, int N) {
  __shared__ float Tile[TILE][TILE + 1]; // CHANGE
  int X = blockIdx.x * TILE + threadIdx.x, Y = blockIdx.y * TILE + threadIdx.y;
  for (int J = 0; J < TILE; J += 8)
    Tile[threadIdx.y + J][threadIdx.x] = In[(Y + J) * N + X];
  __syncthreads();
  X = blockIdx.y * TILE + threadIdx.x;
  Y = blockIdx.x * TILE + threadIdx.y;
  for (int J = 0; J < TILE; J += 8)
    Out[(Y + J) * N + X] = Tile[threadIdx.x][threadIdx.y + J];
}

int main() {
  const int N = 256;
  float *In = pair::toDevice(pair::randomFloats(N * N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N * N));
  transpose<<<dim3(N / TILE, N / TILE), dim3(TILE, 8)>>>(In, Out, N);
  pair::finish(Out, N * N);
}
