// Device side of the warp matrix suite: one kernel per nvcuda::wmma
// combination of geometry, multiplicand type, accumulator types and A/B
// layouts, plus the kernel of a form the emulator does not implement.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <type_traits>

using namespace nvcuda;

// Where each warp's tiles lie: warp w uses base + w * stride (bytes).
struct Tiles {
  const void *a, *b, *c;
  void *d;
  unsigned lda, ldb, ldc, ldd;
  unsigned long long sa, sb, sc, sd;
  int cRow, dRow, satf;
  int fill;         // A = fill_fragment(fillValue), C negated in x[]
  double fillValue; // exact in the multiplicand type
};

// fill_fragment's argument type from a double.
template <class T> __device__ T fillArg(double v) { return (T)v; }
template <> __device__ __half fillArg<__half>(double v) {
  return __float2half((float)v);
}
template <> __device__ __nv_bfloat16 fillArg<__nv_bfloat16>(double v) {
  return __float2bfloat16((float)v);
}

template <class T> __device__ T *tileOf(const void *p, unsigned long long s) {
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  return (T *)((const char *)p + w * s);
}

// D = A B + C through memory: load A, B, C; mma; store D.
template <int M, int N, int K, class TI, class TM, class TC, class TD, class LA,
          class LB>
__global__ void wmmaKernel(Tiles t) {
  wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  wmma::fragment<wmma::accumulator, M, N, K, TD> fd;
  if (t.fill)
    wmma::fill_fragment(
        fa, fillArg<typename wmma::helper_traits<TI>::fill_argument_type>(
                t.fillValue));
  else
    wmma::load_matrix_sync(fa, tileOf<const TM>(t.a, t.sa), t.lda);
  wmma::load_matrix_sync(fb, tileOf<const TM>(t.b, t.sb), t.ldb);
  wmma::load_matrix_sync(fc, tileOf<const TC>(t.c, t.sc), t.ldc,
                         t.cRow ? wmma::mem_row_major : wmma::mem_col_major);
  if (t.fill)
    for (int i = 0; i < fc.num_elements; ++i)
      fc.x[i] = -fc.x[i];
  if constexpr (std::is_same<TD, int>::value)
    wmma::mma_sync(fd, fa, fb, fc, t.satf != 0);
  else
    wmma::mma_sync(fd, fa, fb, fc);
  wmma::store_matrix_sync(tileOf<TD>(t.d, t.sd), fd, t.ldd,
                          t.dRow ? wmma::mem_row_major : wmma::mem_col_major);
}

// The same through shared memory: A and B are staged in shared arrays by
// the warp (one warp per block), so the loads read the shared space.
template <class LA, class LB> __global__ void wmmaSharedKernel(Tiles t) {
  __shared__ __align__(32) __half sa[16 * 40], sb[16 * 40];
  const __half *a = tileOf<const __half>(t.a, t.sa);
  const __half *b = tileOf<const __half>(t.b, t.sb);
  for (unsigned i = threadIdx.x % 32; i < 16 * t.lda; i += 32)
    sa[i] = a[i];
  for (unsigned i = threadIdx.x % 32; i < 16 * t.ldb; i += 32)
    sb[i] = b[i];
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, LA> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, LB> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, sa, t.lda);
  wmma::load_matrix_sync(fb, sb, t.ldb);
  wmma::load_matrix_sync(fc, tileOf<const float>(t.c, t.sc), t.ldc,
                         t.cRow ? wmma::mem_row_major : wmma::mem_col_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(tileOf<float>(t.d, t.sd), fc, t.ldd,
                          t.dRow ? wmma::mem_row_major : wmma::mem_col_major);
}

// Sub-byte wmma (.s4 m8n8k32) is not emulated: running it must fail the
// launch with one line naming the instruction.
__global__ void subByteKernel(const int *a, const int *b, int *d) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
