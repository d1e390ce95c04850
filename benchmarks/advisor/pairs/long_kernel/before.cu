// Function split: a long kernel whose hot path is a short loop; 32 rare cases are inlined after it.
// before: the rare cases are inlined into the kernel (its code is long; the hot path small)
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

__device__ __attribute__((always_inline)) inline float rare_inline(float X, int K) {
  switch (K & 31) {
#define CASE(N) case N: return X * (1.0f + N * 0.01f) + sinf(X * N) * cosf(X + N);
  CASE(0) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7)
  CASE(8) CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15)
  CASE(16) CASE(17) CASE(18) CASE(19) CASE(20) CASE(21) CASE(22) CASE(23)
  CASE(24) CASE(25) CASE(26) CASE(27) CASE(28) CASE(29) CASE(30) CASE(31)
#undef CASE
  }
  return X;
}
__device__ __noinline__ float rare_split(float X, int K) { return rare_inline(X, K); }

__global__ void long_path(const float *In, float *Out, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  if (T >= N)
    return;
  float X = In[T];
  for (int K = 0; K < 24; ++K)
    X = X * 0.99f + 0.01f;
  if (X > 100.0f)
    X = rare_inline(X, T); // CHANGE
  Out[T] = X;
}

int main() {
  const int N = 1 << 15;
  float *In = pair::toDevice(pair::randomFloats(N, -1, 1));
  float *Out = pair::toDevice(std::vector<float>(N));
  long_path<<<N / 256, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
