// Loops at the edge of packed lane-local counters (lane-packed.test): one
// whose trip count per entry is at most 65535 (two counts per register, a
// lane's count reaching exactly 65535) and one that may run 65536 times (a
// register per count; packed, a lane's count would carry out of its 16
// bits). One warp, lanes leaving at different iterations, a divergent
// branch inside.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fits(const unsigned *len, int *out) {
  unsigned t = threadIdx.x, m = len[t] & 0xFFFFu;
  int s = 0;
#pragma unroll 1
  for (unsigned i = 0; i < m; ++i) {
    if ((i ^ t) & 1)
      s += out[i & 31];
    else
      s -= t;
  }
  out[t] = s;
}

__global__ void one_too_many(const unsigned *len, int *out) {
  unsigned t = threadIdx.x, m = len[t] & 0xFFFFu;
  int s = 0;
#pragma unroll 1
  for (unsigned i = 0; i <= m; ++i) {
    if ((i ^ t) & 1)
      s += out[i & 31];
    else
      s -= t;
  }
  out[t] = s;
}

int main() {
  const int n = 32;
  unsigned len[n], *dlen;
  int out[n], *dout;
  // Lane 0 runs the most: 65535 and 65536 iterations.
  for (int t = 0; t < n; ++t)
    len[t] = 65535u - 1031u * t;
  cudaMalloc(&dlen, sizeof len);
  cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dlen, len, sizeof len, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof out);
  fits<<<1, n>>>(dlen, dout);
  one_too_many<<<1, n>>>(dlen, dout);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int t = 0; t < n; ++t)
    sum += out[t];
  std::printf("%s %ld\n", cudaGetLastError() == cudaSuccess ? "PASS" : "FAIL",
              sum);
  return 0;
}
