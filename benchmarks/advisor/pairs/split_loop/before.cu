// Function split: a grid-stride loop whose body has a cheap common case and a long, rare fallback.
// before: the fallback (a 24-term Fourier series) is inlined into the loop body
// The pair differs only in the line marked CHANGE (benchmarks/advisor/README.md).
#include "../../pair.h"

// Exact sawtooth for inputs outside [-3, 3], where the cubic below is off.
static __device__ float series_fallback(float X) { // CHANGE
  float S = 0.0f;
#pragma unroll
  for (int K = 1; K <= 24; ++K)
    S += ((K & 1) ? 2.0f : -2.0f) * sinf(X * K) / K;
  return S;
}

__global__ void sawtooth(const float *In, float *Out, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    float X = In[I];
    float Y = X * (1.0f - X * X * (1.0f / 27.0f));
    if (fabsf(X) > 3.0f)
      Y = series_fallback(X);
    Out[I] = Y;
  }
}

int main() {
  const int N = 1 << 16;
  std::vector<float> Host = pair::randomFloats(N, -1, 1);
  for (int I = 0; I < N; I += 4096) // a rare out-of-range input
    Host[I] = 5.0f;
  float *In = pair::toDevice(Host);
  float *Out = pair::toDevice(std::vector<float>(N));
  sawtooth<<<64, 256>>>(In, Out, N);
  pair::finish(Out, N);
}
