// kmeans: one k-means iteration. Centroids live in __constant__ memory
// (cudaMemcpyToSymbol). Kernel 1 assigns every point to its nearest centroid
// (nested loops, data-dependent compare/select) and counts membership
// changes with atomicAdd; kernel 2 accumulates per-cluster sums and counts
// with shared-memory float/int atomics, then global atomics.
#include "bench_common.h"
#include <vector>

constexpr int kK = 16; // clusters
constexpr int kD = 8;  // features
constexpr int kThreads = 256;

__constant__ float c_centroids[kK * kD];

__global__ void kmeans_assign(const float *x, int n, int *membership,
                              int *changed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float p[kD];
  for (int f = 0; f < kD; ++f)
    p[f] = x[(long)i * kD + f];
  int best = 0;
  float best_d = INFINITY;
  for (int c = 0; c < kK; ++c) {
    float d = 0.0f;
    for (int f = 0; f < kD; ++f) {
      float diff = p[f] - c_centroids[c * kD + f];
      d += diff * diff;
    }
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (membership[i] != best) {
    membership[i] = best;
    atomicAdd(changed, 1);
  }
}

__global__ void kmeans_accumulate(const float *x, const int *membership, int n,
                                  float *sums, int *counts) {
  __shared__ float s[kK * kD];
  __shared__ int cnt[kK];
  for (int k = threadIdx.x; k < kK * kD; k += blockDim.x)
    s[k] = 0.0f;
  for (int k = threadIdx.x; k < kK; k += blockDim.x)
    cnt[k] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int m = membership[i];
    for (int f = 0; f < kD; ++f)
      atomicAdd(&s[m * kD + f], x[(long)i * kD + f]);
    atomicAdd(&cnt[m], 1);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < kK * kD; k += blockDim.x)
    atomicAdd(&sums[k], s[k]);
  for (int k = threadIdx.x; k < kK; k += blockDim.x)
    atomicAdd(&counts[k], cnt[k]);
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "kmeans");
  const int n = (int)args.pick(2048, 1 << 22);
  const int reps = args.pickReps(400);

  // Points around kK blob centres; initial centroids are perturbed centres.
  bench::Lcg rng(16);
  std::vector<float> centres(kK * kD), cent(kK * kD), x((long)n * kD);
  for (auto &v : centres)
    v = rng.uniform(-10.f, 10.f);
  for (int k = 0; k < kK * kD; ++k)
    cent[k] = centres[k] + rng.uniform(-2.f, 2.f);
  for (int i = 0; i < n; ++i) {
    int b = (int)rng.below(kK);
    for (int f = 0; f < kD; ++f)
      x[(long)i * kD + f] = centres[b * kD + f] + rng.uniform(-4.f, 4.f);
  }

  float *dx, *dsums;
  int *dmem, *dchanged, *dcounts;
  CHECK(cudaMalloc(&dx, (long)n * kD * sizeof(float)));
  CHECK(cudaMalloc(&dmem, n * sizeof(int)));
  CHECK(cudaMalloc(&dchanged, sizeof(int)));
  CHECK(cudaMalloc(&dsums, kK * kD * sizeof(float)));
  CHECK(cudaMalloc(&dcounts, kK * sizeof(int)));
  CHECK(cudaMemcpy(dx, x.data(), (long)n * kD * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(c_centroids, cent.data(), kK * kD * sizeof(float)));

  const int blocks = (n + kThreads - 1) / kThreads;
  const int acc_blocks = std::min(blocks, 528);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemset(dmem, 0xff, n * sizeof(int))); // all -1
    CHECK(cudaMemset(dchanged, 0, sizeof(int)));
    CHECK(cudaMemset(dsums, 0, kK * kD * sizeof(float)));
    CHECK(cudaMemset(dcounts, 0, kK * sizeof(int)));
    kmeans_assign<<<blocks, kThreads>>>(dx, n, dmem, dchanged);
    CHECK_LAUNCH();
    kmeans_accumulate<<<acc_blocks, kThreads>>>(dx, dmem, n, dsums, dcounts);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<int> mem(n), counts(kK);
  std::vector<float> sums(kK * kD);
  int changed = 0;
  CHECK(cudaMemcpy(mem.data(), dmem, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&changed, dchanged, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), dsums, kK * kD * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts.data(), dcounts, kK * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<float> back(kK * kD);
  CHECK(cudaMemcpyFromSymbol(back.data(), c_centroids, kK * kD * sizeof(float)));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dmem));
  CHECK(cudaFree(dchanged));
  CHECK(cudaFree(dsums));
  CHECK(cudaFree(dcounts));

  bench::print_time(ms);
  bench::Checker c;
  for (int k = 0; k < kK * kD; ++k)
    c.eq(back[k] == cent[k], 1, "constant_roundtrip", k);
  c.eq(changed, n, "changed", 0);
  // Assignment: the chosen centroid must be a nearest one (up to rounding).
  std::vector<double> rsum(kK * kD, 0.0), rabs(kK * kD, 0.0);
  std::vector<long long> rcount(kK, 0);
  for (int i = 0; i < n; ++i) {
    double dist[kK], best = INFINITY;
    for (int k = 0; k < kK; ++k) {
      double d = 0;
      for (int f = 0; f < kD; ++f) {
        double diff = (double)x[(long)i * kD + f] - cent[k * kD + f];
        d += diff * diff;
      }
      dist[k] = d;
      best = std::min(best, d);
    }
    int m = mem[i];
    if (m < 0 || m >= kK) {
      c.eq(m, 0, "membership(out of range)", i);
      continue;
    }
    if (!(dist[m] <= best + 1e-5 * (best + 1.0)))
      c.fail("membership[%d] = %d is not a nearest centroid", i, m);
    rcount[m]++;
    for (int f = 0; f < kD; ++f) {
      rsum[m * kD + f] += x[(long)i * kD + f];
      rabs[m * kD + f] += std::fabs(x[(long)i * kD + f]);
    }
  }
  for (int k = 0; k < kK; ++k)
    c.eq(counts[k], rcount[k], "counts", k);
  for (int k = 0; k < kK * kD; ++k)
    c.near(sums[k], rsum[k], 1e-5, 3e-5 * rabs[k] + 1e-4, "sums", k);
  return bench::finish(c);
}
