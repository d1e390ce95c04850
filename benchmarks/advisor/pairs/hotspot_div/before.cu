// Strength reduction: a 5-point thermal stencil that finds each cell's row and column by division.
// before: R = I / W and C = I % W by a run-time width: the integer division sequence per cell
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void hotspot_step(const float *Temp, const float *Power, float *Out,
                             int N, int W, int Shift) {
  const int Stride = gridDim.x * blockDim.x;
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N; I += Stride) {
    const int R = I / W, C = I % W; // CHANGE
    const int H = N / W;
    const float Tc = Temp[I];
    const float Tn = Temp[R > 0 ? I - W : I], Ts = Temp[R < H - 1 ? I + W : I];
    const float Te = Temp[C < W - 1 ? I + 1 : I], Tw = Temp[C > 0 ? I - 1 : I];
    Out[I] = Tc + 0.1f * (Tn + Ts + Te + Tw - 4.0f * Tc) + Power[I];
  }
}

int main() {
  const int W = 1024, Shift = 10, N = W * 1024;
  float *Temp = pair::toDevice(pair::randomFloats(N, 300, 340));
  float *Power = pair::toDevice(pair::randomFloats(N, 0, 1, 9));
  float *Out = pair::toDevice(std::vector<float>(N));
  hotspot_step<<<264, 256>>>(Temp, Power, Out, N, W, Shift);
  pair::finish(Out, N);
}
