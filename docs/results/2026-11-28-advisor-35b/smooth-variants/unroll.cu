// smooth (benchmarks/advisor/pairs/occupancy_limiter/before.cu) with one advice
// item applied by hand, docs/results/2026-11-28-advisor-35b.md (evening
// session): loop unrolling (advice 5): both K loops by their constant trip
// count 8, #pragma unroll.
#include "../../../../benchmarks/advisor/pair.h"

#define STAGE 12288 // CHANGE
__global__ void smooth(const float *In, float *Out, int N) {
  __shared__ float Stage[STAGE];
  int Base = blockIdx.x * 2048;
#pragma unroll
  for (int I = 0; I < 8; ++I) {
    int K = threadIdx.x + I * 256;
    Stage[K] = Base + K < N ? In[Base + K] : 0.0f;
  }
  __syncthreads();
#pragma unroll
  for (int I = 0; I < 8; ++I) {
    int K = threadIdx.x + I * 256;
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
