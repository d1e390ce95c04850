// mandelbrot: escape-time iteration counts over a 2D image (16x16 blocks).
// Data-dependent trip counts per pixel (strong warp divergence at the set
// boundary). Two kernels: 64-bit fixed-point arithmetic (exact, integer
// multiply + arithmetic shifts) and float (checked with a small fraction of
// boundary pixels allowed to differ, since fma contraction changes them).
#include "bench_common.h"
#include <vector>

constexpr int kBS = 16;
constexpr int kFrac = 28; // fixed point: Q35.28 in int64

struct View {
  float x0, y0, dx, dy;
};

__host__ __device__ inline int mandel_fixed(long long cr, long long ci, int max_iter) {
  long long zr = 0, zi = 0;
  const long long four = 4LL << kFrac;
  int it = 0;
  while (it < max_iter) {
    long long zr2 = (zr * zr) >> kFrac, zi2 = (zi * zi) >> kFrac;
    if (zr2 + zi2 > four)
      break;
    zi = ((zr * zi) >> (kFrac - 1)) + ci;
    zr = zr2 - zi2 + cr;
    ++it;
  }
  return it;
}

__host__ __device__ inline int mandel_float(float cr, float ci, int max_iter) {
  float zr = 0.f, zi = 0.f;
  int it = 0;
  while (it < max_iter) {
    float zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f)
      break;
    zi = 2.0f * zr * zi + ci;
    zr = zr2 - zi2 + cr;
    ++it;
  }
  return it;
}

__host__ __device__ inline long long to_fixed(float v) {
  return (long long)(v * (float)(1 << 20)) << (kFrac - 20);
}

__global__ void mandel_fixed_kernel(int *out, int w, int h, View v, int max_iter) {
  int x = blockIdx.x * kBS + threadIdx.x, y = blockIdx.y * kBS + threadIdx.y;
  if (x < w && y < h)
    out[(long)y * w + x] =
        mandel_fixed(to_fixed(v.x0 + x * v.dx), to_fixed(v.y0 + y * v.dy), max_iter);
}

__global__ void mandel_float_kernel(int *out, int w, int h, View v, int max_iter) {
  int x = blockIdx.x * kBS + threadIdx.x, y = blockIdx.y * kBS + threadIdx.y;
  if (x < w && y < h)
    out[(long)y * w + x] = mandel_float(v.x0 + x * v.dx, v.y0 + y * v.dy, max_iter);
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "mandelbrot");
  const int w = (int)args.pick(64, 4096), h = std::max(1, w * 3 / 4);
  const int max_iter = args.isLarge() ? 512 : 64;
  const int reps = args.pickReps(30);
  const long pixels = (long)w * h;
  // The pixel coordinates are multiples of 2^-20 (exact in float and fixed).
  const float step = 3.0f / w;
  const float q = std::max(1.0f, std::round(step * (1 << 20))) / (1 << 20);
  const View v = {-2.25f, -1.125f, q, q};

  int *dfix, *dflt;
  CHECK(cudaMalloc(&dfix, pixels * sizeof(int)));
  CHECK(cudaMalloc(&dflt, pixels * sizeof(int)));
  dim3 block(kBS, kBS), grid((w + kBS - 1) / kBS, (h + kBS - 1) / kBS);
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    mandel_fixed_kernel<<<grid, block>>>(dfix, w, h, v, max_iter);
    CHECK_LAUNCH();
    mandel_float_kernel<<<grid, block>>>(dflt, w, h, v, max_iter);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<int> gfix(pixels), gflt(pixels);
  CHECK(cudaMemcpy(gfix.data(), dfix, pixels * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gflt.data(), dflt, pixels * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dfix));
  CHECK(cudaFree(dflt));

  bench::print_time(ms);
  bench::Checker c;
  const int row_stride = pixels > (1L << 20) ? 16 : 1; // sample rows if large
  long checked = 0, float_diff = 0, sum_ref = 0, sum_got = 0;
  for (int y = 0; y < h; y += row_stride)
    for (int x = 0; x < w; ++x) {
      long i = (long)y * w + x;
      float cr = v.x0 + x * v.dx, ci = v.y0 + y * v.dy;
      c.eq(gfix[i], mandel_fixed(to_fixed(cr), to_fixed(ci), max_iter), "fixed", i);
      int rf = mandel_float(cr, ci, max_iter);
      float_diff += gflt[i] != rf;
      sum_ref += rf;
      sum_got += gflt[i];
      ++checked;
    }
  if (float_diff > checked / 50 + 2)
    c.fail("float: %ld of %ld pixels differ", float_diff, checked);
  if (!bench::close((double)sum_got, (double)sum_ref, 0.02, 2.0 * max_iter))
    c.fail("float: total iterations %ld, expected %ld", sum_got, sum_ref);
  return bench::finish(c);
}
