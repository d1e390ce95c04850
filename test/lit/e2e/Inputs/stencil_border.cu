// A stencil that reads its neighbours without a bounds check, as Rodinia
// 3.1's srad_v2 does at its border: the first block reads 32 floats before
// its input, the last block 32 after it. A GPU does not fault there (the
// bytes are in its mapped pages); compute-sanitizer's memcheck reports it.
// With `wild`, a store 1 GiB past the output, which a GPU faults on too.
#include <cstdio>
#include <cstring>

__global__ void stencil(const float *In, float *Out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float Up = In[I - 32];
  float Down = In[I + 32];
  Out[I] = Up + Down + In[I];
}

__global__ void wild(float *Out) { Out[threadIdx.x + (1L << 28)] = 1; }

int main(int Argc, char **Argv) {
  const int N = 1024;
  float *In, *Out;
  cudaMalloc(&In, N * sizeof(float));
  cudaMalloc(&Out, N * sizeof(float));
  cudaMemset(In, 0, N * sizeof(float));
  stencil<<<N / 256, 256>>>(In, Out);
  std::printf("stencil: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  if (Argc > 1 && !std::strcmp(Argv[1], "wild")) {
    wild<<<1, 32>>>(Out);
    std::printf("wild: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  }
  return 0;
}
