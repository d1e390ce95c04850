// smooth (benchmarks/advisor/pairs/occupancy_limiter/before.cu) with one advice
// item applied by hand, docs/results/2026-11-28-advisor-35b.md (evening
// session): code reordering (advice 1): the staging loop's 8 global loads all
// before its shared stores.
#include "../../../../benchmarks/advisor/pair.h"

#define STAGE 12288 // CHANGE
__global__ void smooth(const float *In, float *Out, int N) {
  __shared__ float Stage[STAGE];
  int Base = blockIdx.x * 2048;
  float R[8];
#pragma unroll
  for (int I = 0; I < 8; ++I) {
    int K = threadIdx.x + I * 256;
    R[I] = Base + K < N ? In[Base + K] : 0.0f;
  }
#pragma unroll
  for (int I = 0; I < 8; ++I)
    Stage[threadIdx.x + I * 256] = R[I];
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
