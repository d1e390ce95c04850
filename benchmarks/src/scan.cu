// scan: exclusive prefix sum (Blelloch work-efficient up-sweep/down-sweep)
// within blocks of 1024 elements in shared memory; block totals are scanned
// recursively and added back (three kernels per level).
#include "bench_common.h"
#include <vector>

constexpr int kThreads = 512;        // threads per block
constexpr int kTile = 2 * kThreads;  // elements per block

__global__ void scan_block(const unsigned *in, unsigned *out, long n,
                           unsigned *block_sums) {
  __shared__ unsigned s[kTile];
  const int t = threadIdx.x;
  const long base = (long)blockIdx.x * kTile;
  const long i0 = base + t, i1 = base + t + kThreads;
  s[t] = i0 < n ? in[i0] : 0u;
  s[t + kThreads] = i1 < n ? in[i1] : 0u;
  int offset = 1;
  for (int d = kThreads; d > 0; d >>= 1) { // up-sweep (reduce)
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset <<= 1;
  }
  if (t == 0) {
    if (block_sums)
      block_sums[blockIdx.x] = s[kTile - 1];
    s[kTile - 1] = 0;
  }
  for (int d = 1; d < kTile; d <<= 1) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned tmp = s[ai];
      s[ai] = s[bi];
      s[bi] += tmp;
    }
  }
  __syncthreads();
  if (i0 < n)
    out[i0] = s[t];
  if (i1 < n)
    out[i1] = s[t + kThreads];
}

__global__ void add_block_offsets(unsigned *out, long n,
                                  const unsigned *scanned_sums) {
  const unsigned add = scanned_sums[blockIdx.x];
  const long base = (long)blockIdx.x * kTile;
  for (int k = threadIdx.x; k < kTile; k += blockDim.x)
    if (base + k < n)
      out[base + k] += add;
}

// One level of the recursion: buffers for the block sums of each level are
// allocated before timing.
struct Level {
  long n;
  unsigned *sums = nullptr, *scanned = nullptr;
};

static void scan_rec(const unsigned *in, unsigned *out, std::vector<Level> &lv,
                     size_t k) {
  const long n = lv[k].n;
  const long blocks = (n + kTile - 1) / kTile;
  scan_block<<<(unsigned)blocks, kThreads>>>(in, out, n,
                                             blocks > 1 ? lv[k].sums : nullptr);
  CHECK_LAUNCH();
  if (blocks > 1) {
    scan_rec(lv[k].sums, lv[k].scanned, lv, k + 1);
    add_block_offsets<<<(unsigned)blocks, kThreads>>>(out, n, lv[k].scanned);
    CHECK_LAUNCH();
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "scan");
  long n = args.pick(10000, 1L << 27);
  int reps = args.pickReps(100);

  bench::Lcg rng(4);
  std::vector<unsigned> h(n), ref(n);
  unsigned run = 0;
  for (long i = 0; i < n; ++i) {
    h[i] = rng.below(10);
    ref[i] = run;
    run += h[i];
  }

  std::vector<Level> lv;
  for (long m = n;;) {
    Level l;
    l.n = m;
    long blocks = (m + kTile - 1) / kTile;
    if (blocks > 1) {
      CHECK(cudaMalloc(&l.sums, blocks * sizeof(unsigned)));
      CHECK(cudaMalloc(&l.scanned, blocks * sizeof(unsigned)));
    }
    lv.push_back(l);
    if (blocks <= 1)
      break;
    m = blocks;
  }

  unsigned *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r)
    scan_rec(din, dout, lv, 0);
  float ms = t.stop();

  std::vector<unsigned> got(n);
  CHECK(cudaMemcpy(got.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  for (auto &l : lv) {
    if (l.sums) {
      CHECK(cudaFree(l.sums));
      CHECK(cudaFree(l.scanned));
    }
  }

  bench::print_time(ms);
  bench::Checker c;
  for (long i = 0; i < n; ++i)
    c.eq(got[i], ref[i], "scan", i);
  return bench::finish(c);
}
