// gemm_wmma: matrix multiply on the tensor cores through nvcuda::wmma
// (m16n16k16 fragments, f32 accumulators). Two kernels:
//  - gemm_wmma_f16: C = alpha * A * B + beta * C with f16 A (row-major) and
//    B (row-major); a block of 4 warps computes a 64x64 tile, each warp 2x2
//    fragments; 64x16 / 16x64 tiles of A and B are staged in padded shared
//    memory with cp.async (__pipeline_memcpy_async), double-buffered: the
//    next stage is copied while the current one is multiplied; the epilogue
//    scales fragment elements (load_matrix_sync of C, element-wise x[i]
//    arithmetic, store).
//  - gemm_wmma_bf16: D = A * B^T with bf16 A and B both row-major (B read as
//    a col_major fragment), one 16x16 tile per warp straight from global
//    memory, D stored column-major.
// M, N multiples of 64 and K a multiple of 16. Checked against a CPU
// reference in double of the same (rounded) inputs.
#include "bench_common.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <mma.h>
#include <vector>

using namespace nvcuda;

constexpr int kBM = 64, kBN = 64, kBK = 16, kPad = 8;

// Launched with 128 threads: each copies one 16-byte chunk of the A tile
// and one of the B tile per stage.
__global__ void gemm_wmma_f16(const half *A, const half *B, float *C, int N,
                              int K, float alpha, float beta) {
  __shared__ __align__(32) half As[2][kBM][kBK + kPad];
  __shared__ __align__(32) half Bs[2][kBK][kBN + kPad];
  const int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  const int ar = threadIdx.x / 2, ac = (threadIdx.x % 2) * 8;
  const int br = threadIdx.x / 8, bc = (threadIdx.x % 8) * 8;
  auto load_stage = [&](int stage, int k0) {
    __pipeline_memcpy_async(&As[stage][ar][ac],
                            &A[(long)(bm + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[stage][br][bc],
                            &B[(long)(k0 + br) * N + bn + bc], 16);
    __pipeline_commit();
  };
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  load_stage(0, 0);
  for (int k0 = 0, s = 0; k0 < K; k0 += kBK, s ^= 1) {
    // Prefetch the next stage while this one is multiplied.
    if (k0 + kBK < K) {
      load_stage(s ^ 1, k0 + kBK);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], &As[s][wm * 32 + i * 16][0], kBK + kPad);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], &Bs[s][0][wn * 32 + j * 16], kBN + kPad);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float *tile =
          C + (long)(bm + wm * 32 + i * 16) * N + bn + wn * 32 + j * 16;
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
      wmma::load_matrix_sync(c, tile, N, wmma::mem_row_major);
      for (int t = 0; t < c.num_elements; ++t)
        c.x[t] = alpha * acc[i][j].x[t] + beta * c.x[t];
      wmma::store_matrix_sync(tile, c, N, wmma::mem_row_major);
    }
}

__global__ void gemm_wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               float *D, int M, int N, int K) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_n = N / 16;
  const int tm = warp / tiles_n, tn = warp % tiles_n;
  if (tm * 16 >= M) // whole warps leave together
    return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major>
        a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major>
        b;
    wmma::load_matrix_sync(a, A + (long)tm * 16 * K + k0, K);
    wmma::load_matrix_sync(b, B + (long)tn * 16 * K + k0, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + (long)tn * 16 * M + tm * 16, acc, M,
                          wmma::mem_col_major);
}

int main(int argc, char **argv) {
  auto args = bench::Args::parse(argc, argv, "gemm_wmma");
  const int n = (int)args.pick(128, 4096);
  if (n < 64 || n % 64) {
    printf("FAIL gemm_wmma: size must be a positive multiple of 64\n");
    return 1;
  }
  const int reps = args.pickReps(10);
  const int M = n, N = n, K = n;
  const float alpha = 1.5f, beta = -0.5f;
  // Every row at small sizes, every 61st (and the last) above 512.
  const int row_step = n > 512 ? 61 : 1;

  bench::Lcg rng(17);
  std::vector<half> ha((size_t)M * K), hb((size_t)K * N);
  std::vector<__nv_bfloat16> ga((size_t)M * K), gb((size_t)N * K);
  std::vector<float> fa((size_t)M * K), fb((size_t)K * N), c0((size_t)M * N);
  std::vector<float> fga((size_t)M * K), fgb((size_t)N * K);
  for (size_t i = 0; i < ha.size(); ++i) {
    ha[i] = __float2half(rng.uniform(-1.0f, 1.0f));
    fa[i] = __half2float(ha[i]);
    ga[i] = __float2bfloat16(rng.uniform(-1.0f, 1.0f));
    fga[i] = __bfloat162float(ga[i]);
  }
  for (size_t i = 0; i < hb.size(); ++i) {
    hb[i] = __float2half(rng.uniform(-1.0f, 1.0f));
    fb[i] = __half2float(hb[i]);
    gb[i] = __float2bfloat16(rng.uniform(-1.0f, 1.0f));
    fgb[i] = __bfloat162float(gb[i]);
  }
  for (auto &v : c0)
    v = rng.uniform(-1.0f, 1.0f);

  half *da, *db;
  __nv_bfloat16 *dga, *dgb;
  float *dc, *dc0, *dd;
  CHECK(cudaMalloc(&da, ha.size() * sizeof(half)));
  CHECK(cudaMalloc(&db, hb.size() * sizeof(half)));
  CHECK(cudaMalloc(&dga, ga.size() * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&dgb, gb.size() * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc(&dc, c0.size() * sizeof(float)));
  CHECK(cudaMalloc(&dc0, c0.size() * sizeof(float)));
  CHECK(cudaMalloc(&dd, c0.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(half),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), hb.size() * sizeof(half),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dga, ga.data(), ga.size() * sizeof(__nv_bfloat16),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dgb, gb.data(), gb.size() * sizeof(__nv_bfloat16),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc0, c0.data(), c0.size() * sizeof(float),
                   cudaMemcpyHostToDevice));

  dim3 grid(N / kBN, M / kBM);
  const int warps = (M / 16) * (N / 16), per_block = 4;
  bench::Timer t;
  t.start();
  for (int r = 0; r < reps; ++r) {
    // C is restored from c0 each repetition (beta reads it).
    CHECK(cudaMemcpy(dc, dc0, c0.size() * sizeof(float),
                     cudaMemcpyDeviceToDevice));
    gemm_wmma_f16<<<grid, 128>>>(da, db, dc, N, K, alpha, beta);
    CHECK_LAUNCH();
    gemm_wmma_bf16<<<(warps + per_block - 1) / per_block, 32 * per_block>>>(
        dga, dgb, dd, M, N, K);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> gc(c0.size()), gd(c0.size());
  CHECK(cudaMemcpy(gc.data(), dc, gc.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gd.data(), dd, gd.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dga));
  CHECK(cudaFree(dgb));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dc0));
  CHECK(cudaFree(dd));

  bench::print_time(ms);
  bench::Checker c;
  // Products of f16/bf16 values are exact; the f32 sums may round in any
  // order: the tolerance scales with sum |a||b|.
  std::vector<double> row(N), rowabs(N), row2(N), row2abs(N);
  for (int m = 0; m < M; m += row_step) {
    std::fill(row.begin(), row.end(), 0.0);
    std::fill(rowabs.begin(), rowabs.end(), 0.0);
    std::fill(row2.begin(), row2.end(), 0.0);
    std::fill(row2abs.begin(), row2abs.end(), 0.0);
    for (int k = 0; k < K; ++k) {
      double a = fa[(size_t)m * K + k], g = fga[(size_t)m * K + k];
      const float *brow = &fb[(size_t)k * N];
      for (int j = 0; j < N; ++j) {
        row[j] += a * brow[j];
        rowabs[j] += std::fabs(a * brow[j]);
        double p2 = g * fgb[(size_t)j * K + k];
        row2[j] += p2;
        row2abs[j] += std::fabs(p2);
      }
    }
    for (int j = 0; j < N; ++j) {
      double ref = alpha * row[j] + beta * c0[(size_t)m * N + j];
      c.near(gc[(size_t)m * N + j], ref, 0.0, 1e-5 + 1e-5 * alpha * rowabs[j],
             "C", (long)m * N + j);
      c.near(gd[(size_t)j * M + m], row2[j], 0.0, 1e-5 + 1e-5 * row2abs[j], "D",
             (long)j * M + m);
    }
    if (m + row_step >= M && m != M - 1)
      m = M - 1 - row_step; // also check the last row
  }
  return bench::finish(c);
}
