// sgemm_shared: C = alpha * A * B + beta * C (float, row-major) with
// shared-memory tiles. A 16x16 block computes a 32x32 tile of C, each thread
// a 2x2 register block; per phase the block stages a 32x16 slice of A and a
// 16x32 slice of B in shared memory between two __syncthreads(). The sizes
// are not multiples of the tiles: out-of-range loads are zero-filled and
// out-of-range stores skipped.
#include "bench_common.h"
#include <vector>

constexpr int kTile = 32;             // C tile per block (kTile x kTile)
constexpr int kSlice = 16;            // k-extent of one shared-memory phase
constexpr int kSide = 16;             // threads per block side
constexpr int kPer = kTile / kSide;   // outputs per thread per dimension
constexpr int kBlock = kSide * kSide; // threads per block

__global__ void sgemm_tiled(const float *a, const float *b, float *c, int m,
                            int n, int k, float alpha, float beta) {
  // A is stored transposed (As[kk][row]) so that both inner-loop reads
  // index shared memory by the thread's own row / column.
  __shared__ float as[kSlice][kTile];
  __shared__ float bs[kSlice][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kSide + tx;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  float acc[kPer][kPer] = {};
  for (int k0 = 0; k0 < k; k0 += kSlice) {
    for (int e = tid; e < kTile * kSlice; e += kBlock) {
      int r = e / kSlice, kk = e % kSlice;
      int gr = row0 + r, gk = k0 + kk;
      as[kk][r] = gr < m && gk < k ? a[(long)gr * k + gk] : 0.0f;
    }
    for (int e = tid; e < kSlice * kTile; e += kBlock) {
      int kk = e / kTile, col = e % kTile;
      int gk = k0 + kk, gc = col0 + col;
      bs[kk][col] = gk < k && gc < n ? b[(long)gk * n + gc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; ++kk) {
      float ra[kPer], rb[kPer];
      for (int p = 0; p < kPer; ++p) {
        ra[p] = as[kk][ty + p * kSide];
        rb[p] = bs[kk][tx + p * kSide];
      }
      for (int p = 0; p < kPer; ++p)
        for (int q = 0; q < kPer; ++q)
          acc[p][q] += ra[p] * rb[q];
    }
    __syncthreads();
  }
  for (int p = 0; p < kPer; ++p)
    for (int q = 0; q < kPer; ++q) {
      int r = row0 + ty + p * kSide, col = col0 + tx + q * kSide;
      if (r < m && col < n) {
        long at = (long)r * n + col;
        c[at] = alpha * acc[p][q] + beta * c[at];
      }
    }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "sgemm_shared");
  const int s = (int)args.pick(100, 2000);
  const int reps = args.pickReps(70);
  // Deliberately not multiples of kTile or kSlice.
  const int m = s, n = 3 * s / 4 + 1, k = 7 * s / 10 + 1;
  const float alpha = 1.5f, beta = -0.75f;

  bench::Lcg rng(47);
  std::vector<float> a((size_t)m * k), b((size_t)k * n), c0((size_t)m * n);
  for (float &v : a)
    v = rng.uniform(-1.f, 1.f);
  for (float &v : b)
    v = rng.uniform(-1.f, 1.f);
  for (float &v : c0)
    v = rng.uniform(-1.f, 1.f);

  float *da, *db, *dc0, *dc;
  CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK(cudaMalloc(&dc0, c0.size() * sizeof(float)));
  CHECK(cudaMalloc(&dc, c0.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc0, c0.data(), c0.size() * sizeof(float),
                   cudaMemcpyHostToDevice));

  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  const dim3 block(kSide, kSide);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    // C is read and written: restore it for every repetition.
    CHECK(cudaMemcpy(dc, dc0, c0.size() * sizeof(float),
                     cudaMemcpyDeviceToDevice));
    sgemm_tiled<<<grid, block>>>(da, db, dc, m, n, k, alpha, beta);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> got((size_t)m * n);
  CHECK(cudaMemcpy(got.data(), dc, got.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  for (float *p : {da, db, dc0, dc})
    CHECK(cudaFree(p));

  bench::print_time(ms);
  bench::Checker chk;
  // Every row up to 512 rows, else every 13th row (all columns).
  const int stride = m <= 512 ? 1 : 13;
  std::vector<double> ref(n), mag(n);
  for (int i = 0; i < m; i += stride) {
    std::fill(ref.begin(), ref.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int kk = 0; kk < k; ++kk) {
      const double av = a[(size_t)i * k + kk];
      const float *brow = &b[(size_t)kk * n];
      for (int j = 0; j < n; ++j) {
        ref[j] += av * brow[j];
        mag[j] += std::fabs(av * brow[j]);
      }
    }
    for (int j = 0; j < n; ++j) {
      const double cv = c0[(size_t)i * n + j];
      const double want = alpha * ref[j] + beta * cv;
      // Float dot product of length k (fma or not, any order) plus the
      // alpha/beta update: |error| <= (k + 2) u (|alpha| sum|a b| +
      // |beta c|), u = 2^-24. A dropped or repeated k-slice moves the
      // result by about sum|a b| / sqrt(k), far above that.
      const double tol = (k + 2) * 0x1p-24 *
                         (std::fabs(alpha) * mag[j] + std::fabs(beta * cv));
      chk.near(got[(size_t)i * n + j], want, 0.0, tol, "c", (long)i * n + j);
    }
  }
  return bench::finish(chk);
}
