// spmv: sparse matrix-vector product y = A*x in CSR format with skewed row
// lengths. Variant 1: one thread per row (divergent trip counts,
// uncoalesced loads). Variant 2: one warp per row (lanes stride the row,
// then a __shfl_down_sync reduction).
#include "bench_common.h"
#include <vector>

__global__ void spmv_scalar(int rows, const int *row_ptr, const int *cols,
                            const float *vals, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e)
      s += vals[e] * x[cols[e]];
    y[r] = s;
  }
}

__global__ void spmv_warp(int rows, const int *row_ptr, const int *cols,
                          const float *vals, const float *x, float *y) {
  const int lane = threadIdx.x & 31;
  const int r = (int)((blockIdx.x * (long)blockDim.x + threadIdx.x) >> 5);
  if (r >= rows) // whole warps leave together
    return;
  float s = 0.0f;
  for (int e = row_ptr[r] + lane; e < row_ptr[r + 1]; e += 32)
    s += vals[e] * x[cols[e]];
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0)
    y[r] = s;
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "spmv");
  const int rows = (int)args.pick(1024, 1 << 20), ncols = rows;
  const int reps = args.pickReps(200);

  bench::Lcg rng(14);
  std::vector<int> row_ptr(rows + 1, 0), cols;
  std::vector<float> vals, x(ncols);
  for (int r = 0; r < rows; ++r) {
    int len = rng.below(8) == 0 ? (int)rng.below(200) : (int)rng.below(16);
    for (int k = 0; k < len; ++k) {
      cols.push_back((int)rng.below((uint32_t)ncols));
      vals.push_back(rng.uniform(-1.0f, 1.0f));
    }
    row_ptr[r + 1] = (int)cols.size();
  }
  for (auto &v : x)
    v = rng.uniform(-1.0f, 1.0f);
  const long nnz = (long)cols.size();

  int *drow, *dcols;
  float *dvals, *dx, *dy1, *dy2;
  CHECK(cudaMalloc(&drow, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&dcols, std::max(nnz, 1L) * sizeof(int)));
  CHECK(cudaMalloc(&dvals, std::max(nnz, 1L) * sizeof(float)));
  CHECK(cudaMalloc(&dx, ncols * sizeof(float)));
  CHECK(cudaMalloc(&dy1, rows * sizeof(float)));
  CHECK(cudaMalloc(&dy2, rows * sizeof(float)));
  CHECK(cudaMemcpy(drow, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  if (nnz) {
    CHECK(cudaMemcpy(dcols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dvals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  }
  CHECK(cudaMemcpy(dx, x.data(), ncols * sizeof(float), cudaMemcpyHostToDevice));

  const long warp_threads = (long)rows * 32;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    spmv_scalar<<<(rows + 255) / 256, 256>>>(rows, drow, dcols, dvals, dx, dy1);
    CHECK_LAUNCH();
    spmv_warp<<<(unsigned)((warp_threads + 255) / 256), 256>>>(rows, drow, dcols,
                                                               dvals, dx, dy2);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> y1(rows), y2(rows);
  CHECK(cudaMemcpy(y1.data(), dy1, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y2.data(), dy2, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(drow));
  CHECK(cudaFree(dcols));
  for (float *p : {dvals, dx, dy1, dy2})
    CHECK(cudaFree(p));

  bench::print_time(ms);
  bench::Checker c;
  for (int r = 0; r < rows; ++r) {
    double s = 0, sabs = 0;
    for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
      double p = (double)vals[e] * x[cols[e]];
      s += p;
      sabs += std::fabs(p);
    }
    c.near(y1[r], s, 1e-5, 2e-5 * sabs + 1e-6, "y_scalar", r);
    c.near(y2[r], s, 1e-5, 2e-5 * sabs + 1e-6, "y_warp", r);
  }
  return bench::finish(c);
}
