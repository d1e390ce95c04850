// Translation unit A: a template kernel, an internal-linkage kernel and a
// launcher the other TU calls.
#include "multi.h"

template <typename T> __global__ void scale(T *v, T k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * k;
}

static __global__ void clamp_odd(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (v[i] & 1))
    atomicMin(&v[i], 7);
}

int launch_a(int *di, float *df, int n, cudaStream_t s) {
  scale<int><<<(n + 63) / 64, 64, 0, s>>>(di, 3, n);
  scale<float><<<(n + 127) / 128, 128, 0, s>>>(df, 0.5f, n);
  clamp_odd<<<(n + 31) / 32, 32, 0, s>>>(di, n);
  return cudaGetLastError() != cudaSuccess;
}
