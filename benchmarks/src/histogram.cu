// histogram: 256-bin byte histogram. Variant 1 privatizes the histogram in
// shared memory (shared atomics, then one global atomic per bin per block);
// variant 2 uses global atomics only. Input is skewed (one hot bin) so
// atomics contend.
#include "bench_common.h"
#include <vector>

constexpr int kBins = 256;
constexpr int kThreads = 256;

__global__ void hist_shared(const unsigned char *in, long n, unsigned *hist) {
  __shared__ unsigned local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
}

__global__ void hist_global(const unsigned char *in, long n, unsigned *hist) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    atomicAdd(&hist[in[i]], 1u);
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "histogram");
  long n = args.pick(60000, 1L << 27);
  int reps = args.pickReps(150);
  int blocks = (int)std::min<long>(1056, (n + kThreads * 8 - 1) / (kThreads * 8));

  bench::Lcg rng(3);
  std::vector<unsigned char> h(n);
  std::vector<long long> ref(kBins, 0);
  for (long i = 0; i < n; ++i) {
    unsigned r = rng.next();
    h[i] = (r & 3) == 0 ? 42 : (unsigned char)(r >> 24);
    ref[h[i]]++;
  }

  unsigned char *din;
  unsigned *dh1, *dh2;
  CHECK(cudaMalloc(&din, n));
  CHECK(cudaMalloc(&dh1, kBins * sizeof(unsigned)));
  CHECK(cudaMalloc(&dh2, kBins * sizeof(unsigned)));
  CHECK(cudaMemcpy(din, h.data(), n, cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemset(dh1, 0, kBins * sizeof(unsigned)));
    CHECK(cudaMemset(dh2, 0, kBins * sizeof(unsigned)));
    hist_shared<<<blocks, kThreads>>>(din, n, dh1);
    CHECK_LAUNCH();
    hist_global<<<blocks, kThreads>>>(din, n, dh2);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<unsigned> g1(kBins), g2(kBins);
  CHECK(cudaMemcpy(g1.data(), dh1, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g2.data(), dh2, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dh1));
  CHECK(cudaFree(dh2));

  bench::print_time(ms);
  bench::Checker c;
  for (int b = 0; b < kBins; ++b) {
    c.eq(g1[b], ref[b], "hist_shared", b);
    c.eq(g2[b], ref[b], "hist_global", b);
  }
  return bench::finish(c);
}
