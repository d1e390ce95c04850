// gaussian: Gaussian elimination (double precision, no pivoting, diagonally
// dominant system). Per column k: kernel 1 computes the multipliers (1D),
// kernel 2 updates the trailing submatrix and right-hand side (2D grid of
// 16x16 blocks, shrinking every step). Back substitution on the host checks
// the solution against the known x.
#include "bench_common.h"
#include <vector>

constexpr int kT = 16;

__global__ void gauss_fan1(const double *a, double *m, int n, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    m[i] = a[(long)i * n + k] / a[(long)k * n + k];
}

__global__ void gauss_fan2(double *a, double *b, const double *m, int n, int k) {
  int i = k + 1 + blockIdx.y * kT + threadIdx.y;
  int j = k + blockIdx.x * kT + threadIdx.x;
  if (i < n && j < n) {
    double mi = m[i];
    a[(long)i * n + j] -= mi * a[(long)k * n + j];
    if (j == k)
      b[i] -= mi * b[k];
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "gaussian");
  const int n = (int)args.pick(64, 2048);
  const int reps = args.pickReps(4);
  const long nn = (long)n * n;

  bench::Lcg rng(12);
  std::vector<double> a(nn), xtrue(n), b(n, 0.0);
  for (int i = 0; i < n; ++i) {
    double rowsum = 0;
    for (int j = 0; j < n; ++j) {
      a[(long)i * n + j] = rng.uniform(-1.0f, 1.0f);
      rowsum += std::fabs(a[(long)i * n + j]);
    }
    a[(long)i * n + i] = rowsum + 1.0; // strictly diagonally dominant
    xtrue[i] = rng.uniform(-1.0f, 1.0f);
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      b[i] += a[(long)i * n + j] * xtrue[j];

  double *da0, *db0, *da, *db, *dm;
  CHECK(cudaMalloc(&da0, nn * sizeof(double)));
  CHECK(cudaMalloc(&db0, n * sizeof(double)));
  CHECK(cudaMalloc(&da, nn * sizeof(double)));
  CHECK(cudaMalloc(&db, n * sizeof(double)));
  CHECK(cudaMalloc(&dm, n * sizeof(double)));
  CHECK(cudaMemcpy(da0, a.data(), nn * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db0, b.data(), n * sizeof(double), cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(da, da0, nn * sizeof(double), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(db, db0, n * sizeof(double), cudaMemcpyDeviceToDevice));
    for (int k = 0; k < n - 1; ++k) {
      int rest = n - k - 1;
      gauss_fan1<<<(rest + 255) / 256, 256>>>(da, dm, n, k);
      CHECK_LAUNCH();
      dim3 grid((rest + 1 + kT - 1) / kT, (rest + kT - 1) / kT);
      gauss_fan2<<<grid, dim3(kT, kT)>>>(da, db, dm, n, k);
      CHECK_LAUNCH();
    }
  }
  float ms = t.stop();

  std::vector<double> u(nn), bp(n);
  CHECK(cudaMemcpy(u.data(), da, nn * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bp.data(), db, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (double *p : {da0, db0, da, db, dm})
    CHECK(cudaFree(p));

  bench::print_time(ms);
  bench::Checker c;
  if (n <= 512) { // full reference elimination
    std::vector<double> ra = a, rb = b;
    for (int k = 0; k < n - 1; ++k)
      for (int i = k + 1; i < n; ++i) {
        double mi = ra[(long)i * n + k] / ra[(long)k * n + k];
        for (int j = k; j < n; ++j)
          ra[(long)i * n + j] -= mi * ra[(long)k * n + j];
        rb[i] -= mi * rb[k];
      }
    for (int i = 0; i < n; ++i) {
      for (int j = i; j < n; ++j)
        c.near(u[(long)i * n + j], ra[(long)i * n + j], 1e-9, 1e-9, "U",
               (long)i * n + j);
      c.near(bp[i], rb[i], 1e-9, 1e-9, "b", i);
    }
  }
  // Back substitution with the device's U and b.
  std::vector<double> x(n);
  for (int i = n - 1; i >= 0; --i) {
    double s = bp[i];
    for (int j = i + 1; j < n; ++j)
      s -= u[(long)i * n + j] * x[j];
    x[i] = s / u[(long)i * n + i];
  }
  for (int i = 0; i < n; ++i)
    c.near(x[i], xtrue[i], 1e-8, 1e-8, "x", i);
  return bench::finish(c);
}
