// Loops whose probes count in lane-local registers (lane-counters.test):
// one bounded by an i32 loaded per thread (flushes sum 16-bit halves) and
// one chasing indices with no trip count bound (a guard spills the lanes'
// registers), each with a divergent branch inside and lanes leaving at
// different iterations.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bounded(const int *len, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
  for (int i = 0; i < len[t]; ++i) {
    if ((i ^ t) & 1)
      s += i;
    else
      s -= t;
  }
  out[t] = s;
}

__global__ void unbounded(const int *next, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, k = t, c = 0;
  while (next[k] >= 0) {
    k = next[k];
    if (k & 1)
      ++c;
  }
  out[t] = c;
}

int main() {
  const int n = 128, chain = 4096;
  int len[n], next[chain], *dlen, *dnext, *dout, out[n];
  for (int t = 0; t < n; ++t)
    len[t] = (t * 7) % 23 + (t % 3 ? 0 : 9);
  // Thread t starts at t and walks to chain - 1 in steps of 1 + t % 5.
  for (int k = 0; k < chain; ++k)
    next[k] = k + 1 + k % 5 < chain ? k + 1 + k % 5 : -1;
  cudaMalloc(&dlen, sizeof len);
  cudaMalloc(&dnext, sizeof next);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dlen, len, sizeof len, cudaMemcpyHostToDevice);
  cudaMemcpy(dnext, next, sizeof next, cudaMemcpyHostToDevice);
  bounded<<<2, 64>>>(dlen, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int t = 0; t < n; ++t)
    sum += out[t];
  unbounded<<<2, 64>>>(dnext, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int t = 0; t < n; ++t)
    sum += out[t];
  std::printf("%s %ld\n", cudaGetLastError() == cudaSuccess ? "PASS" : "FAIL",
              sum);
  return 0;
}
