// Blocks that run exactly when a dominator runs: joins after uniform and
// divergent branches, after a loop with a divergent exit, and inside a
// loop (equivalent-blocks.test).
#include <cstdio>

__global__ void joins(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 0;
  if (blockIdx.x == 0) // uniform
    out[n] = 7;
  if (n > 50) // uniform: this block runs exactly when the entry does
    out[n + 1] = 8;
  if (t < n) {
    int v = in[t];
    if (v & 1) // divergent
      acc += v;
    else
      acc -= v * 2;
    acc ^= 5; // divergent join
    for (int i = 0; i < (v & 7); ++i) {
      if (i == 3) // divergent exit
        break;
      if (i & 1) // divergent, inside the loop
        acc += i;
      acc *= 3; // join inside the loop
    }
    acc += t; // after the loop
  }
  if (t < n)
    out[t] = acc;
}

int main() {
  const int n = 100; // the last warp is partly idle
  int host[n + 2], *in, *out;
  for (int k = 0; k < n + 2; ++k)
    host[k] = (k * 37) % 11;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  joins<<<2, 64>>>(in, out, n);
  joins<<<1, 32>>>(in, out, 20);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("out[0]=%d out[99]=%d out[100]=%d out[101]=%d\n", host[0],
              host[n - 1], host[n], host[n + 1]);
  return 0;
}
