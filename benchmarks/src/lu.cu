// lu: in-place right-looking LU decomposition (Doolittle, double precision,
// no pivoting on a diagonally dominant matrix). One launch per column k;
// each block owns kRows rows of the trailing matrix, computes their
// multipliers, and streams the pivot row through shared memory in chunks,
// reusing each chunk for all of its rows. Checked via L*(U*v) == A*v.
#include "bench_common.h"
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

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "lu");
  const int n = (int)args.pick(64, 2048);
  const int reps = args.pickReps(6);
  const long nn = (long)n * n;

  bench::Lcg rng(13);
  std::vector<double> a(nn);
  for (int i = 0; i < n; ++i) {
    double rowsum = 0;
    for (int j = 0; j < n; ++j) {
      a[(long)i * n + j] = rng.uniform(-1.0f, 1.0f);
      rowsum += std::fabs(a[(long)i * n + j]);
    }
    a[(long)i * n + i] = rowsum + 1.0;
  }

  double *da0, *da;
  CHECK(cudaMalloc(&da0, nn * sizeof(double)));
  CHECK(cudaMalloc(&da, nn * sizeof(double)));
  CHECK(cudaMemcpy(da0, a.data(), nn * sizeof(double), cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(da, da0, nn * sizeof(double), cudaMemcpyDeviceToDevice));
    for (int k = 0; k < n - 1; ++k) {
      int rest = n - k - 1;
      lu_step<<<(rest + kRows - 1) / kRows, kThreads>>>(da, n, k);
      CHECK_LAUNCH();
    }
  }
  float ms = t.stop();

  std::vector<double> lu(nn);
  CHECK(cudaMemcpy(lu.data(), da, nn * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(da0));
  CHECK(cudaFree(da));

  bench::print_time(ms);
  bench::Checker c;
  if (n <= 512) { // element-wise against a CPU factorization
    std::vector<double> ref = a;
    for (int k = 0; k < n - 1; ++k)
      for (int i = k + 1; i < n; ++i) {
        double li = ref[(long)i * n + k] / ref[(long)k * n + k];
        for (int j = k + 1; j < n; ++j)
          ref[(long)i * n + j] -= li * ref[(long)k * n + j];
        ref[(long)i * n + k] = li;
      }
    for (long i = 0; i < nn; ++i)
      c.near(lu[i], ref[i], 1e-9, 1e-9, "LU", i);
  }
  // L * (U * v) must equal A * v.
  std::vector<double> v(n), uv(n, 0.0);
  for (auto &e : v)
    e = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j)
      uv[i] += lu[(long)i * n + j] * v[j];
  for (int i = 0; i < n; ++i) {
    double luv = uv[i], av = 0.0, scale = 0.0;
    for (int j = 0; j < i; ++j)
      luv += lu[(long)i * n + j] * uv[j];
    for (int j = 0; j < n; ++j) {
      av += a[(long)i * n + j] * v[j];
      scale += std::fabs(a[(long)i * n + j] * v[j]);
    }
    c.near(luv, av, 0.0, 1e-10 * scale + 1e-12, "LUv", i);
  }
  return bench::finish(c);
}
