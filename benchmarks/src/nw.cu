// nw: Needleman-Wunsch global alignment score matrix. Blocked wavefront:
// one kernel launch per anti-diagonal of 16x16 tiles; inside a tile one
// 16-thread block sweeps the 31 inner anti-diagonals in shared memory
// (thread t owns row t, active only while its cell is on the diagonal).
#include "bench_common.h"
#include <vector>

constexpr int kB = 16;
constexpr int kAlpha = 24; // alphabet size

__global__ void nw_init(int *score, int n, int penalty) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {
    score[i] = -i * penalty;                // row 0
    score[(long)i * (n + 1)] = -i * penalty; // column 0
  }
}

__global__ void nw_tile_diag(int *score, const unsigned char *seqa,
                             const unsigned char *seqb, const int *sim, int n,
                             int diag, int penalty) {
  __shared__ int s[kB + 1][kB + 1];
  __shared__ int simt[kAlpha * kAlpha];
  __shared__ unsigned char ca[kB], cb[kB];
  const int tiles = n / kB;
  const int ti = max(0, diag - tiles + 1) + blockIdx.x, tj = diag - ti;
  const int i0 = ti * kB, j0 = tj * kB; // tile covers rows i0+1..i0+kB
  const long ld = n + 1;
  const int t = threadIdx.x;
  for (int k = t; k < kAlpha * kAlpha; k += kB)
    simt[k] = sim[k];
  s[0][t + 1] = score[i0 * ld + j0 + 1 + t];
  s[t + 1][0] = score[(i0 + 1 + t) * ld + j0];
  if (t == 0)
    s[0][0] = score[i0 * ld + j0];
  ca[t] = seqa[i0 + t];
  cb[t] = seqb[j0 + t];
  __syncthreads();
  for (int k = 0; k < 2 * kB - 1; ++k) {
    int y = k - t; // column of this thread's cell on inner diagonal k
    if (y >= 0 && y < kB) {
      int diagv = s[t][y] + simt[ca[t] * kAlpha + cb[y]];
      int up = s[t][y + 1] - penalty, left = s[t + 1][y] - penalty;
      s[t + 1][y + 1] = max(diagv, max(up, left));
    }
    __syncthreads();
  }
  for (int y = 0; y < kB; ++y)
    score[(i0 + 1 + t) * ld + j0 + 1 + y] = s[t + 1][y + 1];
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "nw");
  int n = (int)args.pick(128, 8192);
  n = (n + kB - 1) / kB * kB;
  const int reps = args.pickReps(12);
  const int penalty = 10;
  const long cells = (long)(n + 1) * (n + 1);

  bench::Lcg rng(8);
  std::vector<int> sim(kAlpha * kAlpha);
  for (int a = 0; a < kAlpha; ++a)
    for (int b = 0; b <= a; ++b) {
      int v = a == b ? 4 + (int)rng.below(8) : (int)rng.below(9) - 4;
      sim[a * kAlpha + b] = sim[b * kAlpha + a] = v;
    }
  std::vector<unsigned char> sa(n), sb(n);
  for (int i = 0; i < n; ++i) {
    sa[i] = (unsigned char)rng.below(kAlpha);
    // b is a mutated copy of a, so the alignment is not trivial.
    sb[i] = rng.below(4) == 0 ? (unsigned char)rng.below(kAlpha) : sa[i];
  }

  int *dscore, *dsim;
  unsigned char *dsa, *dsb;
  CHECK(cudaMalloc(&dscore, cells * sizeof(int)));
  CHECK(cudaMalloc(&dsim, sim.size() * sizeof(int)));
  CHECK(cudaMalloc(&dsa, n));
  CHECK(cudaMalloc(&dsb, n));
  CHECK(cudaMemcpy(dsim, sim.data(), sim.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsa, sa.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dsb, sb.data(), n, cudaMemcpyHostToDevice));

  const int tiles = n / kB;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    nw_init<<<(n + 1 + 255) / 256, 256>>>(dscore, n, penalty);
    CHECK_LAUNCH();
    for (int d = 0; d < 2 * tiles - 1; ++d) {
      int count = std::min(d, tiles - 1) - std::max(0, d - tiles + 1) + 1;
      nw_tile_diag<<<count, kB>>>(dscore, dsa, dsb, dsim, n, d, penalty);
      CHECK_LAUNCH();
    }
  }
  float ms = t.stop();

  std::vector<int> got(cells);
  CHECK(cudaMemcpy(got.data(), dscore, cells * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dscore));
  CHECK(cudaFree(dsim));
  CHECK(cudaFree(dsa));
  CHECK(cudaFree(dsb));

  std::vector<int> ref(cells);
  const long ld = n + 1;
  for (int i = 0; i <= n; ++i) {
    ref[i] = -i * penalty;
    ref[i * ld] = -i * penalty;
  }
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      int d = ref[(i - 1) * ld + j - 1] + sim[sa[i - 1] * kAlpha + sb[j - 1]];
      int up = ref[(i - 1) * ld + j] - penalty, left = ref[i * ld + j - 1] - penalty;
      ref[i * ld + j] = std::max(d, std::max(up, left));
    }

  bench::print_time(ms);
  bench::Checker c;
  for (long i = 0; i < cells; ++i)
    c.eq(got[i], ref[i], "score", i);
  return bench::finish(c);
}
