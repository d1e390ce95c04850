// smooth (benchmarks/advisor/pairs/occupancy_limiter/before.cu) with one advice
// item applied by hand, docs/results/2026-11-28-advisor-35b.md (evening
// session): a ceiling, not a change: 5 of the compute loop's 6 shared loads
// deleted (a different result).
#include "../../../../benchmarks/advisor/pair.h"

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
      S += 0.5f * S * (float)D; // ceiling experiment: no shared read (not the same result)
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
