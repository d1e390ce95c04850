// Block increase: a grid-stride 3-point smoothing launched with fewer blocks than SMs.
// before: 24 blocks of 256 threads: 108 of 132 SMs idle
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__global__ void smooth3(const float *In, float *Out, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    float L = In[I > 0 ? I - 1 : I], C = In[I], R = In[I + 1 < N ? I + 1 : I];
    float V = 0.25f * L + 0.5f * C + 0.25f * R;
    for (int K = 0; K < 4; ++K)
      V = V * 0.98f + 0.01f;
    Out[I] = V;
  }
}

int main() {
  const int N = 1 << 17;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  const int Blocks = 24; // CHANGE
  smooth3<<<Blocks, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
