// The lu benchmark's kernel (benchmarks/src/lu.cu), on a small matrix: the
// code generator's MachineLICM hoists 4 of the 8 loop-invariant compares of
// the unrolled row loop out of the j0 loop in the plain build and 1 in the
// instrumented one, so the two builds run different PTX on the same blocks.
#include <cstdio>
#include <vector>

constexpr int kThreads = 128;
constexpr int kRows = 8;

__global__ void lu_step(double *a, int n, int k) {
  __shared__ double piv[kThreads];
  __shared__ double l[kRows];
  const int row0 = k + 1 + blockIdx.x * kRows;
  const int tx = threadIdx.x;
  if (tx < kRows && row0 + tx < n)
    l[tx] = a[(long)(row0 + tx) * n + k] / a[(long)k * n + k];
  for (int j0 = k + 1; j0 < n; j0 += kThreads) {
    const int j = j0 + tx;
    __syncthreads(); // l ready / previous chunk consumed
    if (j < n)
      piv[tx] = a[(long)k * n + j];
    __syncthreads();
    if (j < n) {
      const double p = piv[tx];
      for (int r = 0; r < kRows && row0 + r < n; ++r)
        a[(long)(row0 + r) * n + j] -= l[r] * p;
    }
  }
  __syncthreads();
  if (tx < kRows && row0 + tx < n)
    a[(long)(row0 + tx) * n + k] = l[tx];
}

int main() {
  const int n = 150, steps = 4;
  std::vector<double> a((long)n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[(long)i * n + j] = i == j ? 2.0 * n : 1.0 / (1 + i + j);
  double *da;
  cudaMalloc(&da, a.size() * sizeof(double));
  cudaMemcpy(da, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
  for (int k = 0; k < steps; ++k) {
    int rest = n - k - 1;
    lu_step<<<(rest + kRows - 1) / kRows, kThreads>>>(da, n, k);
  }
  cudaMemcpy(a.data(), da, a.size() * sizeof(double), cudaMemcpyDeviceToHost);
  std::printf("a[1][0] = %.6f\n", a[n]);
  return 0;
}
