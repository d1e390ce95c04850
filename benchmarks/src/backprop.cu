// backprop: one layer of a neural network (n_in inputs -> 16 hidden units).
// Forward: 16x16 blocks multiply a tile of weights by the inputs and reduce
// over the input dimension in shared memory; a second kernel sums the
// per-tile partials, applies the sigmoid (expf) and the error term; a third
// kernel updates weights with momentum. 2D grids and blocks.
#include "bench_common.h"
#include <vector>

constexpr int kT = 16;   // tile edge
constexpr int kHid = 16; // hidden units
constexpr int kRedThreads = 256;

// w[i * kHid + j]; partial[tile * kHid + j].
__global__ void bp_forward(const float *x, const float *w, float *partial) {
  __shared__ float prod[kT][kT];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * kT + ty, j = blockIdx.y * kT + tx;
  prod[ty][tx] = w[(long)i * kHid + j] * x[i];
  __syncthreads();
  for (int s = kT / 2; s > 0; s >>= 1) {
    if (ty < s)
      prod[ty][tx] += prod[ty + s][tx];
    __syncthreads();
  }
  if (ty == 0)
    partial[(long)blockIdx.x * kHid + j] = prod[0][tx];
}

// One block per hidden unit.
__global__ void bp_hidden(const float *partial, int tiles, const float *target,
                          float *hidden, float *delta) {
  __shared__ float buf[kRedThreads];
  const int j = blockIdx.x;
  float acc = 0.0f;
  for (int t = threadIdx.x; t < tiles; t += blockDim.x)
    acc += partial[(long)t * kHid + j];
  buf[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    float h = 1.0f / (1.0f + expf(-buf[0]));
    hidden[j] = h;
    delta[j] = h * (1.0f - h) * (target[j] - h);
  }
}

__global__ void bp_adjust(const float *x, const float *delta, float *w,
                          float *oldw, float eta, float momentum) {
  const int i = blockIdx.x * kT + threadIdx.y, j = blockIdx.y * kT + threadIdx.x;
  const long k = (long)i * kHid + j;
  float dw = eta * delta[j] * x[i] + momentum * oldw[k];
  w[k] += dw;
  oldw[k] = dw;
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "backprop");
  long n_in = args.pick(2048, 1L << 22);
  n_in = (n_in + kT - 1) / kT * kT;
  const int reps = args.pickReps(100);
  const long tiles = n_in / kT, nw = n_in * kHid;
  const float eta = 0.3f, momentum = 0.3f;
  if (tiles > 0x7fffffffL) {
    printf("FAIL backprop: N too large\n");
    return 1;
  }

  bench::Lcg rng(10);
  std::vector<float> x(n_in), w(nw), oldw(nw), target(kHid);
  for (auto &v : x)
    v = rng.uniform(0.0f, 1.0f);
  for (auto &v : w)
    v = rng.uniform(-1.0f, 1.0f) / std::sqrt((float)n_in);
  for (auto &v : oldw)
    v = rng.uniform(-0.01f, 0.01f);
  for (auto &v : target)
    v = rng.uniform(0.1f, 0.9f);

  float *dx, *dw0, *dold0, *dw, *dold, *dpart, *dtarget, *dhid, *ddelta;
  CHECK(cudaMalloc(&dx, n_in * sizeof(float)));
  CHECK(cudaMalloc(&dw0, nw * sizeof(float)));
  CHECK(cudaMalloc(&dold0, nw * sizeof(float)));
  CHECK(cudaMalloc(&dw, nw * sizeof(float)));
  CHECK(cudaMalloc(&dold, nw * sizeof(float)));
  CHECK(cudaMalloc(&dpart, tiles * kHid * sizeof(float)));
  CHECK(cudaMalloc(&dtarget, kHid * sizeof(float)));
  CHECK(cudaMalloc(&dhid, kHid * sizeof(float)));
  CHECK(cudaMalloc(&ddelta, kHid * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n_in * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw0, w.data(), nw * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dold0, oldw.data(), nw * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dtarget, target.data(), kHid * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(kT, kT), grid((unsigned)tiles, kHid / kT);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(dw, dw0, nw * sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(dold, dold0, nw * sizeof(float), cudaMemcpyDeviceToDevice));
    bp_forward<<<grid, block>>>(dx, dw, dpart);
    CHECK_LAUNCH();
    bp_hidden<<<kHid, kRedThreads>>>(dpart, (int)tiles, dtarget, dhid, ddelta);
    CHECK_LAUNCH();
    bp_adjust<<<grid, block>>>(dx, ddelta, dw, dold, eta, momentum);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> gw(nw), gold(nw), ghid(kHid);
  CHECK(cudaMemcpy(gw.data(), dw, nw * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gold.data(), dold, nw * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ghid.data(), dhid, kHid * sizeof(float), cudaMemcpyDeviceToHost));
  for (float *p : {dx, dw0, dold0, dw, dold, dpart, dtarget, dhid, ddelta})
    CHECK(cudaFree(p));

  // CPU reference in double.
  bench::Checker c;
  std::vector<double> delta(kHid);
  for (int j = 0; j < kHid; ++j) {
    double s = 0, sabs = 0;
    for (long i = 0; i < n_in; ++i) {
      double p = (double)w[i * kHid + j] * x[i];
      s += p;
      sabs += std::fabs(p);
    }
    double h = 1.0 / (1.0 + std::exp(-s));
    delta[j] = h * (1.0 - h) * (target[j] - h);
    c.near(ghid[j], h, 1e-5, 1e-5 * sabs + 1e-6, "hidden", j);
  }
  for (long i = 0; i < n_in; ++i)
    for (int j = 0; j < kHid; ++j) {
      long k = i * kHid + j;
      double dwv = eta * delta[j] * x[i] + momentum * (double)oldw[k];
      c.near(gold[k], dwv, 1e-3, 1e-6, "oldw", k);
      c.near(gw[k], w[k] + dwv, 1e-4, 1e-6, "w", k);
    }
  bench::print_time(ms);
  return bench::finish(c);
}
