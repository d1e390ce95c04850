// pathfinder: minimum-cost path from the top row to every cell of the
// bottom row (each step moves down, down-left or down-right). Dynamic
// programming row by row; each launch advances kH rows with a "pyramid" in
// shared memory: a block of 256 threads loads 256 columns and the set of
// threads that still hold valid values shrinks by one on each side per row.
#include "bench_common.h"
#include <vector>

constexpr int kBlock = 256;
constexpr int kH = 8;          // rows per launch
constexpr int kBig = 1 << 29;  // outside the grid

__global__ void pathfinder_rows(const int *wall, const int *src, int *dst,
                                int cols, int start_row, int h) {
  __shared__ int prev[kBlock], result[kBlock];
  const int tx = threadIdx.x;
  const int col = blockIdx.x * (kBlock - 2 * h) - h + tx;
  const bool inside = col >= 0 && col < cols;
  prev[tx] = inside ? src[col] : kBig;
  for (int k = 0; k < h; ++k) {
    __syncthreads();
    const bool active = inside && tx >= k + 1 && tx <= kBlock - 2 - k;
    if (active) {
      int m = min(prev[tx - 1], min(prev[tx], prev[tx + 1]));
      result[tx] = wall[(long)(start_row + k) * cols + col] + m;
    }
    __syncthreads();
    if (active)
      prev[tx] = result[tx];
  }
  if (inside && tx >= h && tx < kBlock - h)
    dst[col] = prev[tx];
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "pathfinder");
  const int cols = (int)args.pick(2000, 100000);
  const int rows = args.isLarge() ? 1000 : 20;
  const int reps = args.pickReps(150);
  const long cells = (long)rows * cols;

  bench::Lcg rng(11);
  std::vector<int> wall(cells);
  for (auto &v : wall)
    v = (int)rng.below(10);

  int *dwall, *da, *db;
  CHECK(cudaMalloc(&dwall, cells * sizeof(int)));
  CHECK(cudaMalloc(&da, cols * sizeof(int)));
  CHECK(cudaMalloc(&db, cols * sizeof(int)));
  CHECK(cudaMemcpy(dwall, wall.data(), cells * sizeof(int), cudaMemcpyHostToDevice));

  int *result = da;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemcpy(da, dwall, cols * sizeof(int), cudaMemcpyDeviceToDevice));
    int *src = da, *dst = db;
    for (int row = 1; row < rows; row += kH) {
      int h = std::min(kH, rows - row);
      int valid = kBlock - 2 * h;
      pathfinder_rows<<<(cols + valid - 1) / valid, kBlock>>>(dwall, src, dst,
                                                             cols, row, h);
      CHECK_LAUNCH();
      std::swap(src, dst);
    }
    result = src;
  }
  float ms = t.stop();

  std::vector<int> got(cols);
  CHECK(cudaMemcpy(got.data(), result, cols * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dwall));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));

  std::vector<int> ref(wall.begin(), wall.begin() + cols), next(cols);
  for (int row = 1; row < rows; ++row) {
    for (int c = 0; c < cols; ++c) {
      int m = ref[c];
      if (c > 0)
        m = std::min(m, ref[c - 1]);
      if (c + 1 < cols)
        m = std::min(m, ref[c + 1]);
      next[c] = wall[(long)row * cols + c] + m;
    }
    ref.swap(next);
  }

  bench::print_time(ms);
  bench::Checker c;
  for (int i = 0; i < cols; ++i)
    c.eq(got[i], ref[i], "cost", i);
  return bench::finish(c);
}
