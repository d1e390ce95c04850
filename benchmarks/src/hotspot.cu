// hotspot: 2D heat-diffusion stencil (temperature + power grids) on 16x16
// thread blocks. Each block stages its tile plus a one-cell halo in shared
// memory; edge threads load the halo (divergent loads), cells outside the
// chip clamp to the border. Iterates with ping-pong buffers.
#include "bench_common.h"
#include <vector>

constexpr int kBS = 16;

struct Coef {
  float cx, cy, cz, dt, amb;
};

__global__ void hotspot_step(const float *temp, const float *power, float *out,
                             int rows, int cols, Coef k) {
  __shared__ float tile[kBS + 2][kBS + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int c = blockIdx.x * kBS + tx, r = blockIdx.y * kBS + ty;
  const int cc = min(c, cols - 1), rc = min(r, rows - 1);
  tile[ty + 1][tx + 1] = temp[rc * cols + cc];
  if (tx == 0)
    tile[ty + 1][0] = temp[rc * cols + max(cc - 1, 0)];
  if (tx == kBS - 1)
    tile[ty + 1][kBS + 1] = temp[rc * cols + min(cc + 1, cols - 1)];
  if (ty == 0)
    tile[0][tx + 1] = temp[max(rc - 1, 0) * cols + cc];
  if (ty == kBS - 1)
    tile[kBS + 1][tx + 1] = temp[min(rc + 1, rows - 1) * cols + cc];
  __syncthreads();
  if (r < rows && c < cols) {
    // Cells past the border read the border cell itself (clamped above), so
    // the halo of a partial block is replaced by the clamped neighbour.
    float t = tile[ty + 1][tx + 1];
    float n = r == 0 ? t : tile[ty][tx + 1];
    float s = r == rows - 1 ? t : tile[ty + 2][tx + 1];
    float w = c == 0 ? t : tile[ty + 1][tx];
    float e = c == cols - 1 ? t : tile[ty + 1][tx + 2];
    float d = power[r * cols + c] + (n + s - 2.0f * t) * k.cy +
              (e + w - 2.0f * t) * k.cx + (k.amb - t) * k.cz;
    out[r * cols + c] = t + k.dt * d;
  }
}

static void cpu_step(const std::vector<float> &temp, const std::vector<float> &power,
                     std::vector<float> &out, int rows, int cols, const Coef &k) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float t = temp[r * cols + c];
      float n = r == 0 ? t : temp[(r - 1) * cols + c];
      float s = r == rows - 1 ? t : temp[(r + 1) * cols + c];
      float w = c == 0 ? t : temp[r * cols + c - 1];
      float e = c == cols - 1 ? t : temp[r * cols + c + 1];
      float d = power[r * cols + c] + (n + s - 2.0f * t) * k.cy +
                (e + w - 2.0f * t) * k.cx + (k.amb - t) * k.cz;
      out[r * cols + c] = t + k.dt * d;
    }
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "hotspot");
  const int rows = (int)args.pick(100, 2048), cols = rows;
  const int iters = args.isLarge() ? 100 : 4;
  const int reps = args.pickReps(50);
  const Coef k = {0.1f, 0.1f, 0.01f, 0.5f, 300.0f};
  const size_t cells = (size_t)rows * cols;

  bench::Lcg rng(7);
  std::vector<float> temp(cells), power(cells);
  for (size_t i = 0; i < cells; ++i) {
    temp[i] = rng.uniform(300.0f, 340.0f);
    power[i] = rng.below(8) == 0 ? rng.uniform(0.0f, 2.0f) : 0.0f;
  }

  float *dorig, *da, *db, *dp;
  CHECK(cudaMalloc(&dorig, cells * sizeof(float)));
  CHECK(cudaMalloc(&da, cells * sizeof(float)));
  CHECK(cudaMalloc(&db, cells * sizeof(float)));
  CHECK(cudaMalloc(&dp, cells * sizeof(float)));
  CHECK(cudaMemcpy(dorig, temp.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dp, power.data(), cells * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(kBS, kBS), grid((cols + kBS - 1) / kBS, (rows + kBS - 1) / kBS);
  float *result = nullptr;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(da, dorig, cells * sizeof(float), cudaMemcpyDeviceToDevice));
    float *src = da, *dst = db;
    for (int it = 0; it < iters; ++it) {
      hotspot_step<<<grid, block>>>(src, dp, dst, rows, cols, k);
      CHECK_LAUNCH();
      std::swap(src, dst);
    }
    result = src;
  }
  float ms = t.stop();

  std::vector<float> got(cells);
  CHECK(cudaMemcpy(got.data(), result, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dorig));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dp));

  std::vector<float> ref = temp, tmp(cells);
  for (int it = 0; it < iters; ++it) {
    cpu_step(ref, power, tmp, rows, cols, k);
    ref.swap(tmp);
  }

  bench::print_time(ms);
  bench::Checker c;
  for (size_t i = 0; i < cells; ++i)
    c.near(got[i], ref[i], 2e-6, 2e-4, "temp", (long)i);
  return bench::finish(c);
}
