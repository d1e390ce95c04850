// smooth (benchmarks/advisor/pairs/occupancy_limiter/before.cu) with one advice
// item applied by hand, docs/results/2026-11-28-advisor-35b.md (evening
// session): asynchronous copy (advice 2): cp.async.ca.shared.global per
// element, commit, wait_all.
#include "../../../../benchmarks/advisor/pair.h"

#define STAGE 12288 // CHANGE
__global__ void smooth(const float *In, float *Out, int N) {
  __shared__ float Stage[STAGE];
  int Base = blockIdx.x * 2048;
  for (int K = threadIdx.x; K < 2048; K += 256) {
    unsigned Dst = (unsigned)__cvta_generic_to_shared(&Stage[K]);
    if (Base + K < N)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(Dst),
                   "l"(In + Base + K));
    else
      Stage[K] = 0.0f;
  }
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_all;" ::: "memory");
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
