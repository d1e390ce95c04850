// Probes without warp-synchronous instructions (sync-free-probes.test): a
// branch nested in a thread-dependent one (lu's `tx < kRows && row < n`),
// branches whose lanes all go one way on some visits and split on others,
// a loop the probes count in memory (it steps by the block size) with a
// divergent test inside, and a call between branches. Lanes split
// everywhere; the last warp is partly idle.
#include <cstdio>

__device__ __noinline__ unsigned twist(unsigned x) {
  if (x & 4) // a branch in a called function, counted in memory
    x ^= x >> 7;
  return x * 0x9e3779b1u;
}

__global__ void nested(const int *in, unsigned *out, int n, int rows) {
  const int tx = threadIdx.x;
  const int t = blockIdx.x * blockDim.x + tx;
  if (t >= n)
    return;
  int v = in[t];
  unsigned acc = (unsigned)v;
  if (tx < 8 && blockIdx.x * 8 + tx < rows) // nested, derived side
    acc += 17u * (unsigned)tx;
  if (v & 1) { // splits every warp
    acc ^= 0x55u;
    if (v > 100) // no lane of most warps goes here
      acc += twist(acc);
  }
  for (int j = tx; j < n; j += blockDim.x) { // block-strided: in memory
    if ((j + v) % 3 == 0) // divergent inside
      acc += (unsigned)j;
    else if (j & 64) // all lanes of a warp together
      acc -= 3u;
  }
  out[t] = acc + twist(acc);
}

int main() {
  const int n = 300;
  int host[n], *in;
  unsigned *out, res[n];
  for (int k = 0; k < n; ++k)
    host[k] = (k * 37 + k / 5) % 113;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof res);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  nested<<<3, 128>>>(in, out, n, 20);
  cudaMemcpy(res, out, sizeof res, cudaMemcpyDeviceToHost);
  unsigned sum = 0;
  for (int k = 0; k < n; ++k)
    sum = sum * 31 + res[k];
  printf("checksum %u\n", sum);
  return 0;
}
