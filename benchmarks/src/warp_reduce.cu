// warp_reduce: warp-synchronous reductions with __shfl_down_sync (sum),
// __shfl_xor_sync (butterfly max) and __ballot_sync + __popc (count of
// elements above a threshold, accumulated with one atomicAdd per warp).
// Two passes: per-block partials, then one block over the partials.
#include "bench_common.h"
#include <vector>

constexpr int kThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(kFull, v, off);
  return v; // valid in lane 0
}

__device__ __forceinline__ float warp_max(float v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v = fmaxf(v, __shfl_xor_sync(kFull, v, mask));
  return v; // valid in every lane
}

// blockDim.x must be a multiple of 32 and at most 1024.
__global__ void warp_reduce(const float *in, long n, float thresh,
                            float *sums, float *maxes, unsigned *count) {
  __shared__ float wsum[32], wmax[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  float acc = 0.0f, mx = -INFINITY;
  unsigned cnt = 0;
  // The loop bound depends only on blockIdx, so whole warps stay converged
  // around the ballot.
  for (long base = (long)blockIdx.x * blockDim.x; base < n;
       base += (long)gridDim.x * blockDim.x) {
    long i = base + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    unsigned above = __ballot_sync(kFull, i < n && v > thresh);
    if (lane == 0)
      cnt += __popc(above);
    acc += v;
    if (i < n)
      mx = fmaxf(mx, v);
  }
  acc = warp_sum(acc);
  mx = warp_max(mx);
  if (lane == 0) {
    wsum[wid] = acc;
    wmax[wid] = mx;
    if (count)
      atomicAdd(count, cnt);
  }
  __syncthreads();
  if (wid == 0) {
    const int nwarps = blockDim.x >> 5;
    float s = lane < nwarps ? wsum[lane] : 0.0f;
    float m = lane < nwarps ? wmax[lane] : -INFINITY;
    s = warp_sum(s);
    m = warp_max(m);
    if (lane == 0) {
      sums[blockIdx.x] = s;
      maxes[blockIdx.x] = m;
    }
  }
}

// Second pass: reduces the per-block sums and maxes of the first.
__global__ void warp_reduce_partials(const float *sums_in, const float *max_in,
                                     int n, float *sum_out, float *max_out) {
  __shared__ float wsum[32], wmax[32];
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  float acc = 0.0f, mx = -INFINITY;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    acc += sums_in[i];
    mx = fmaxf(mx, max_in[i]);
  }
  acc = warp_sum(acc);
  mx = warp_max(mx);
  if (lane == 0) {
    wsum[wid] = acc;
    wmax[wid] = mx;
  }
  __syncthreads();
  if (wid == 0) {
    const int nwarps = blockDim.x >> 5;
    float s = lane < nwarps ? wsum[lane] : 0.0f;
    float m = lane < nwarps ? wmax[lane] : -INFINITY;
    s = warp_sum(s);
    m = warp_max(m);
    if (lane == 0) {
      *sum_out = s;
      *max_out = m;
    }
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "warp_reduce");
  long n = args.pick(40000, 1L << 27);
  int reps = args.pickReps(400);
  int blocks = (int)std::min<long>(1024, (n + kThreads * 4 - 1) / (kThreads * 4));
  const float thresh = 0.75f;

  bench::Lcg rng(2);
  std::vector<float> h(n);
  double ref_sum = 0.0, abs_sum = 0.0;
  float ref_max = -INFINITY;
  long long ref_count = 0;
  for (long i = 0; i < n; ++i) {
    h[i] = rng.uniform(-1.0f, 1.0f);
    ref_sum += h[i];
    abs_sum += std::fabs(h[i]);
    ref_max = std::max(ref_max, h[i]);
    ref_count += h[i] > thresh;
  }

  float *din, *dsums, *dmaxes;
  unsigned *dcount;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dsums, (blocks + 1) * sizeof(float)));
  CHECK(cudaMalloc(&dmaxes, (blocks + 1) * sizeof(float)));
  CHECK(cudaMalloc(&dcount, sizeof(unsigned)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemset(dcount, 0, sizeof(unsigned)));
    warp_reduce<<<blocks, kThreads>>>(din, n, thresh, dsums, dmaxes, dcount);
    CHECK_LAUNCH();
    warp_reduce_partials<<<1, 1024>>>(dsums, dmaxes, blocks, dsums + blocks,
                                      dmaxes + blocks);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  float got_sum, got_max;
  unsigned got_count;
  CHECK(cudaMemcpy(&got_sum, dsums + blocks, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_max, dmaxes + blocks, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_count, dcount, sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dsums));
  CHECK(cudaFree(dmaxes));
  CHECK(cudaFree(dcount));

  bench::print_time(ms);
  bench::Checker c;
  c.near(got_sum, ref_sum, 1e-4, 1e-5 * abs_sum + 1e-3, "sum", 0);
  c.near(got_max, ref_max, 0.0, 0.0, "max", 0);
  c.eq(got_count, ref_count, "count", 0);
  return bench::finish(c);
}
