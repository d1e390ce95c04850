// The odd threads of each warp take one __syncthreads(), the even ones skip
// it and take the next one: undefined on a GPU, where the two may match.
#include <cstdio>

__global__ void skip(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x & 1)
    __syncthreads();
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

int main() {
  int *out;
  cudaMalloc(&out, 64 * sizeof(int));
  skip<<<1, 64>>>(out);
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
