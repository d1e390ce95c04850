// reduction: tree reduction in shared memory (sequential addressing).
// Two passes: every block reduces a grid-stride slice to one partial, then a
// single block reduces the partials. Float sum and int max variants.
#include "bench_common.h"
#include <vector>

constexpr int kThreads = 256;

__global__ void reduce_sum_f32(const float *in, long n, float *out) {
  __shared__ float buf[kThreads];
  float acc = 0.0f;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    acc += in[i];
  buf[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

__global__ void reduce_max_i32(const int *in, long n, int *out) {
  __shared__ int buf[kThreads];
  int acc = INT_MIN;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    acc = max(acc, in[i]);
  buf[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] = max(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "reduction");
  long n = args.pick(32768, 1L << 27);
  int reps = args.pickReps(200);
  int blocks = (int)std::min<long>(1024, (n + kThreads * 4 - 1) / (kThreads * 4));

  bench::Lcg rng(1);
  std::vector<float> hf(n);
  std::vector<int> hi(n);
  double ref_sum = 0.0, abs_sum = 0.0;
  int ref_max = INT_MIN;
  for (long i = 0; i < n; ++i) {
    hf[i] = rng.uniform(0.0f, 1.0f); // positive: the sum is well conditioned
    hi[i] = (int)(rng.next() & 0x3fffffff) - 0x20000000;
    ref_sum += hf[i];
    abs_sum += std::fabs(hf[i]);
    ref_max = std::max(ref_max, hi[i]);
  }

  float *df, *dpf;
  int *di, *dpi;
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&di, n * sizeof(int)));
  CHECK(cudaMalloc(&dpf, (blocks + 1) * sizeof(float)));
  CHECK(cudaMalloc(&dpi, (blocks + 1) * sizeof(int)));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    reduce_sum_f32<<<blocks, kThreads>>>(df, n, dpf);
    CHECK_LAUNCH();
    reduce_sum_f32<<<1, kThreads>>>(dpf, blocks, dpf + blocks);
    CHECK_LAUNCH();
    reduce_max_i32<<<blocks, kThreads>>>(di, n, dpi);
    CHECK_LAUNCH();
    reduce_max_i32<<<1, kThreads>>>(dpi, blocks, dpi + blocks);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  float got_sum;
  int got_max;
  CHECK(cudaMemcpy(&got_sum, dpf + blocks, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_max, dpi + blocks, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(df));
  CHECK(cudaFree(di));
  CHECK(cudaFree(dpf));
  CHECK(cudaFree(dpi));

  bench::print_time(ms);
  bench::Checker c;
  c.near(got_sum, ref_sum, 0.0, 1e-5 * abs_sum + 1e-3, "sum", 0);
  c.eq(got_max, ref_max, "max", 0);
  return bench::finish(c);
}
