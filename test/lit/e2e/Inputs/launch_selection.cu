// Two kernels launched in the order a1 b1 a2 b2 a3 b3 a4 a5, where launch
// aN and bN run N blocks of 32 threads: the threads counted tell exactly
// which launches a profile holds. Both call one device function.
#include <cstdio>

__device__ __noinline__ int twice(int x) { return 2 * x; }

__global__ void count_a(int *out) { atomicAdd(out, twice(1)); }
__global__ void count_b(int *out) { atomicAdd(out + 1, twice(1)); }

int main() {
  int *out;
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(out, 0, 2 * sizeof(int));
  const char *Order = "abababaa";
  int Next[2] = {1, 1};
  for (const char *K = Order; *K; ++K) {
    int Blocks = Next[*K - 'a']++;
    if (*K == 'a')
      count_a<<<Blocks, 32>>>(out);
    else
      count_b<<<Blocks, 32>>>(out);
  }
  int Host[2];
  cudaMemcpy(Host, out, sizeof(Host), cudaMemcpyDeviceToHost);
  // Every launch ran, profiled or not: a = 2*32*(1+..+5), b = 2*32*(1+2+3).
  std::printf("a=%d b=%d\n", Host[0], Host[1]);
  return Host[0] == 960 && Host[1] == 384 ? 0 : 1;
}
