// Kernels where probes used to change the code generated around them
// (issue 22): a 5-point stencil in a grid-stride loop (loop strength
// reduction), a 2D convolution guarded by an && condition (the negation of
// the probe's predicate), and a block-stride loop after a barrier.

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
