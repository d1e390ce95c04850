// A kernel whose hot loop lives in an inlined device function: its sample
// profile needs an inlined call-site record.
#include <cstdio>

__device__ inline int digits(unsigned v) {
  int n = 1;
  while (v >= 10) { // data-dependent trip count, inlined into count_digits
    v /= 10;
    ++n;
  }
  return n;
}

__global__ void count_digits(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[digits(in[i])], 1);
}

int main() {
  const int n = 4096;
  unsigned h[n];
  for (int i = 0; i < n; ++i)
    h[i] = (unsigned)i * 2654435761u;
  unsigned *in;
  int *out;
  if (cudaMalloc(&in, sizeof h) || cudaMalloc(&out, 11 * sizeof(int)) ||
      cudaMemset(out, 0, 11 * sizeof(int)) ||
      cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice))
    return 1;
  count_digits<<<n / 128, 128>>>(in, out, n);
  int counts[11];
  if (cudaMemcpy(counts, out, sizeof counts, cudaMemcpyDeviceToHost))
    return 1;
  int expect[11] = {0};
  for (int i = 0; i < n; ++i) {
    int d = 1;
    for (unsigned v = h[i]; v >= 10; v /= 10)
      ++d;
    ++expect[d];
  }
  for (int d = 0; d < 11; ++d)
    if (counts[d] != expect[d])
      return std::printf("FAIL digits %d\n", d), 1;
  std::printf("PASS digits\n");
  return 0;
}
