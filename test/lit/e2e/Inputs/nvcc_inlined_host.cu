// The host side of Inputs/nvcc_inlined.ptx: the kernel's body comes from
// that PTX (clang -fcuda-include-gpubinary), as an nvcc build's would.
// `fault`: threads 40.. trap inside the header code.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

extern "C" __global__ void inlined(unsigned *out, int n, int iters) {}

int main(int argc, char **argv) {
  unsigned *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(unsigned));
  cudaMemset(d, 0, 64 * sizeof(unsigned));
  int n = argc > 1 && !strcmp(argv[1], "fault") ? 40 : 64;
  inlined<<<1, 64>>>(d, n, 50);
  cudaError_t E = cudaDeviceSynchronize();
  printf("inlined: %s\n", cudaGetErrorString(E));
  cudaFree(d);
  return E == cudaSuccess ? 0 : 1;
}
