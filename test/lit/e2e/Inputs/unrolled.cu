// A branch in a fully unrolled loop: the compiler makes one copy of it per
// iteration, and every copy diverges (lanes differ in the bit tested).
#include <cstdio>

__global__ void unrolled(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if ((i >> k) & 1)
      out[i * 4 + k] = k;
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * 4 * sizeof(int));
  unrolled<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
