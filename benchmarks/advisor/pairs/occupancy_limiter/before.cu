// Occupancy limiter: a staging buffer sized for the largest tile keeps blocks off the SM.
// before: 48 KB of shared memory per block: 4 blocks (32 warps) per SM
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

#define STAGE 12288 // CHANGE
__global__ void smooth(const float *In, float *Out, int N) {
  __shared__ float Stage[STAGE];
  int Base = blockIdx.x * 2048;
  for (int K = threadIdx.x; K < 2048; K += 256)
    Stage[K] = Base + K < N ? In[Base + K] : 0.0f;
  __syncthreads();
  for (int K = threadIdx.x; K < 2048; K += 256) {
    float S = Stage[K];
    for (int D = 1; D < 6; ++D)
      S += 0.5f * Stage[(K + D * 37) & 2047];
    if (Base + K < N)
      Out[Base + K] = S;
  }
}

int main() {
  const int N = 2048 * 1100;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  smooth<<<N / 2048, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
