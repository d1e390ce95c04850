// Kernels where probes used to change the code generated around them
// (issue 22): a 5-point stencil in a grid-stride loop (loop strength
// reduction), a 2D convolution guarded by an && condition (the negation of
// the probe's predicate), a block-stride loop after a barrier, an unrolled
// tree reduction without loops (speculative execution), a loop with two
// exits whose exit value is the trip count (LSR splits an exit edge), and
// WMMA loads through generic pointers in a loop (address space inference).

__global__ void stencil5(const float *in, float *out, int nx, int ny) {
  int n = nx * ny;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int x = i % nx, y = i / nx;
    if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1)
      out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
  }
}

__global__ void conv2d(const float *a, float *b, int ni, int nj) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1)
    b[i * nj + j] = 0.2f * a[(i - 1) * nj + j - 1] + 0.5f * a[i * nj + j] -
                    0.8f * a[(i + 1) * nj + j + 1];
}

__global__ void accumulate(const float *x, const int *m, int n, float *sums) {
  __shared__ float s[128];
  for (int k = threadIdx.x; k < 128; k += blockDim.x)
    s[k] = 0.0f;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    for (int f = 0; f < 8; ++f)
      atomicAdd(&s[m[i] * 8 + f], x[(long)i * 8 + f]);
  __syncthreads();
  for (int k = threadIdx.x; k < 128; k += blockDim.x)
    atomicAdd(&sums[k], s[k]);
}

__global__ void tree_sum(float *data) {
  __shared__ float s[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = data[blockIdx.x * 256 + ty * 16 + tx];
  __syncthreads();
  for (int k = 8; k > 0; k >>= 1) {
    if (ty < k)
      s[ty][tx] += s[ty + k][tx];
    __syncthreads();
  }
  if (ty == 0)
    data[blockIdx.x * 256 + tx] = s[0][tx];
}

__global__ void escape(int *out, const float *c, int max_iter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float z = 0.0f, k = c[i];
  int n = 0;
  while (n < max_iter) {
    float z2 = z * z;
    if (z2 > 4.0f)
      break;
    z = z2 + k;
    ++n;
  }
  out[i] = n;
}

#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_rows(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                          float *d, int k) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(fa, a + (long)blockIdx.x * 16 * k + i, k);
    wmma::load_matrix_sync(fb, b + i, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + blockIdx.x * 256, acc, 16, wmma::mem_col_major);
}
