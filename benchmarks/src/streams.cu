// streams: a chunked host->device->host pipeline over several CUDA streams
// with pinned host memory (cudaMallocHost), cudaMemcpyAsync in both
// directions and one kernel per chunk; events time the whole pipeline.
// The kernel mixes sqrtf, expf and a data-dependent select.
#include "bench_common.h"
#include <vector>

constexpr int kStreams = 4;

__global__ void stream_kernel(const float *x, float *y, long n, float a) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    float r = a * sqrtf(v * v + 1.0f);
    if (v < 0.0f)
      r += expf(v); // v < 0: expf(v) in (0, 1]
    else
      r -= v * 0.5f;
    y[i] = r;
  }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "streams");
  const long n = args.pick(20000, 1L << 26);
  const int reps = args.pickReps(8);
  const int chunks = 16;
  const long chunk = (n + chunks - 1) / chunks;
  const float a = 1.5f;

  float *hx, *hy;
  CHECK(cudaMallocHost(&hx, n * sizeof(float)));
  CHECK(cudaMallocHost(&hy, n * sizeof(float)));
  bench::Lcg rng(18);
  for (long i = 0; i < n; ++i)
    hx[i] = rng.uniform(-8.0f, 8.0f);

  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  cudaStream_t streams[kStreams];
  for (auto &s : streams)
    CHECK(cudaStreamCreate(&s));

  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    // The default stream (legacy) orders the event records around the
    // per-stream work: Timer::stop syncs on the event after all streams.
    for (int c = 0; c < chunks; ++c) {
      const long off = c * chunk;
      const long len = std::min(chunk, n - off);
      if (len <= 0)
        break;
      cudaStream_t s = streams[c % kStreams];
      CHECK(cudaMemcpyAsync(dx + off, hx + off, len * sizeof(float),
                            cudaMemcpyHostToDevice, s));
      stream_kernel<<<(unsigned)((len + 255) / 256), 256, 0, s>>>(dx + off, dy + off,
                                                                 len, a);
      CHECK_LAUNCH();
      CHECK(cudaMemcpyAsync(hy + off, dy + off, len * sizeof(float),
                            cudaMemcpyDeviceToHost, s));
    }
    for (auto &s : streams)
      CHECK(cudaStreamSynchronize(s));
  }
  float ms = t.stop();

  bench::Checker c;
  for (long i = 0; i < n; ++i) {
    double v = hx[i];
    double ref = a * std::sqrt(v * v + 1.0) + (v < 0.0 ? std::exp(v) : -v * 0.5);
    c.near(hy[i], ref, 1e-5, 1e-5, "y", i);
  }
  for (auto &s : streams)
    CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFreeHost(hx));
  CHECK(cudaFreeHost(hy));
  bench::print_time(ms);
  return bench::finish(c);
}
