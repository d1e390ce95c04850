// bitonic_sort: full bitonic sorting network on 32-bit keys. Tiles of 1024
// keys are sorted in shared memory (512 threads, one compare-exchange each
// per step); merge steps with a stride >= 1024 run as global-memory kernels,
// the remaining strides of each merge go back to shared memory.
#include "bench_common.h"
#include <vector>

constexpr unsigned kTile = 1024;
constexpr unsigned kHalf = kTile / 2;

__device__ __forceinline__ void cmp_swap(unsigned &a, unsigned &b, bool asc) {
  if (asc ? a > b : a < b) {
    unsigned t = a;
    a = b;
    b = t;
  }
}

// Sorts each tile; the direction of every sub-sequence follows the global
// network, so the tiles come out alternately ascending and descending.
__global__ void bitonic_sort_tile(unsigned *keys) {
  __shared__ unsigned s[kTile];
  const unsigned t = threadIdx.x, base = blockIdx.x * kTile;
  s[t] = keys[base + t];
  s[t + kHalf] = keys[base + t + kHalf];
  for (unsigned k = 2; k <= kTile; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      unsigned i = 2 * (t & ~(j - 1)) + (t & (j - 1));
      cmp_swap(s[i], s[i + j], ((base + i) & k) == 0);
    }
  }
  __syncthreads();
  keys[base + t] = s[t];
  keys[base + t + kHalf] = s[t + kHalf];
}

// One merge step with stride j >= kTile, in global memory.
__global__ void bitonic_step_global(unsigned *keys, unsigned j, unsigned k) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x; // pair index
  unsigned i = 2 * (t & ~(j - 1)) + (t & (j - 1));
  unsigned a = keys[i], b = keys[i + j];
  bool asc = (i & k) == 0;
  if (asc ? a > b : a < b) {
    keys[i] = b;
    keys[i + j] = a;
  }
}

// The strides j < kTile of merge stage k, in shared memory.
__global__ void bitonic_merge_tile(unsigned *keys, unsigned k) {
  __shared__ unsigned s[kTile];
  const unsigned t = threadIdx.x, base = blockIdx.x * kTile;
  s[t] = keys[base + t];
  s[t + kHalf] = keys[base + t + kHalf];
  const bool asc = (base & k) == 0; // k >= 2 * kTile: same for the tile
  for (unsigned j = kHalf; j > 0; j >>= 1) {
    __syncthreads();
    unsigned i = 2 * (t & ~(j - 1)) + (t & (j - 1));
    cmp_swap(s[i], s[i + j], asc);
  }
  __syncthreads();
  keys[base + t] = s[t];
  keys[base + t + kHalf] = s[t + kHalf];
}

static uint64_t mix(uint64_t x) { // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "bitonic_sort");
  long n = args.pick(4096, 1L << 27);
  int reps = args.pickReps(2);
  if (n > (1L << 30)) {
    printf("FAIL bitonic_sort: N too large\n");
    return 1;
  }
  long npad = kTile;
  while (npad < n)
    npad <<= 1;

  bench::Lcg rng(5);
  std::vector<unsigned> h(npad, 0xffffffffu);
  for (long i = 0; i < n; ++i)
    h[i] = rng.next();
  uint64_t in_hash = 0;
  for (long i = 0; i < npad; ++i)
    in_hash += mix(h[i]);

  unsigned *dkeys, *dorig;
  CHECK(cudaMalloc(&dkeys, npad * sizeof(unsigned)));
  CHECK(cudaMalloc(&dorig, npad * sizeof(unsigned)));
  CHECK(cudaMemcpy(dorig, h.data(), npad * sizeof(unsigned), cudaMemcpyHostToDevice));

  const unsigned tiles = (unsigned)(npad / kTile);
  const unsigned pair_blocks = (unsigned)(npad / 2 / 256);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(dkeys, dorig, npad * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    bitonic_sort_tile<<<tiles, kHalf>>>(dkeys);
    CHECK_LAUNCH();
    for (unsigned long k = 2 * kTile; k <= (unsigned long)npad; k <<= 1) {
      for (unsigned long j = k >> 1; j >= kTile; j >>= 1) {
        bitonic_step_global<<<pair_blocks, 256>>>(dkeys, (unsigned)j, (unsigned)k);
        CHECK_LAUNCH();
      }
      bitonic_merge_tile<<<tiles, kHalf>>>(dkeys, (unsigned)k);
      CHECK_LAUNCH();
    }
  }
  float ms = t.stop();

  std::vector<unsigned> got(npad);
  CHECK(cudaMemcpy(got.data(), dkeys, npad * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dkeys));
  CHECK(cudaFree(dorig));

  bench::print_time(ms);
  bench::Checker c;
  if (npad <= (1L << 22)) { // full reference
    std::vector<unsigned> ref = h;
    std::sort(ref.begin(), ref.end());
    for (long i = 0; i < npad; ++i)
      c.eq(got[i], ref[i], "keys", i);
  } else { // sorted + same multiset (hash of the keys)
    uint64_t out_hash = 0;
    for (long i = 0; i < npad; ++i) {
      out_hash += mix(got[i]);
      if (i > 0 && got[i - 1] > got[i])
        c.fail("keys[%ld] = %u < keys[%ld] = %u", i, got[i], i - 1, got[i - 1]);
    }
    if (out_hash != in_hash)
      c.fail("output is not a permutation of the input (hash differs)");
  }
  return bench::finish(c);
}
