// smooth (benchmarks/advisor/pairs/occupancy_limiter/before.cu) with one advice
// item applied by hand, docs/results/2026-11-28-advisor-35b.md (evening
// session): code reordering (advice 1), software pipelining: the staging loop
// loads one element ahead.
#include "../../../../benchmarks/advisor/pair.h"

#define STAGE 12288 // CHANGE
__global__ void smooth(const float *In, float *Out, int N) {
  __shared__ float Stage[STAGE];
  int Base = blockIdx.x * 2048;
  int K0 = threadIdx.x;
  float Next = Base + K0 < N ? In[Base + K0] : 0.0f;
  for (int K = K0; K < 2048; K += 256) {
    float Cur = Next;
    if (K + 256 < 2048)
      Next = Base + K + 256 < N ? In[Base + K + 256] : 0.0f;
    Stage[K] = Cur;
  }
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
