// Classic CUDA kernels used as end-to-end checks of the emulator core.
#define T 16
__global__ void sgemm(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

__global__ void histogram(const unsigned char *in, int n, unsigned *bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

__global__ void warpsum(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

// Inclusive scan of one block (Hillis-Steele), early return before barriers.
__global__ void scan(const int *in, int *out, int n) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  if (blockIdx.x * blockDim.x >= n) return;
  s[t] = (blockIdx.x * blockDim.x + t < n) ? in[blockIdx.x * blockDim.x + t] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (blockIdx.x * blockDim.x + t < n) out[blockIdx.x * blockDim.x + t] = s[t];
}

// Bitonic sort of one block in shared memory.
__global__ void bitonic(int *data) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned p = t ^ j;
      if (p > t) {
        bool up = (t & k) == 0;
        int a = s[t], b = s[p];
        if ((a > b) == up) { s[t] = b; s[p] = a; }
      }
      __syncthreads();
    }
  data[blockIdx.x * blockDim.x + t] = s[t];
}

// Early exit of whole threads, then barriers (the common bounds-check idiom).
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float s[130];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x + 1] = in[i];
  if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1 || i == n - 1) s[threadIdx.x + 2] = i + 1 < n ? in[i + 1] : 0.f;
  __syncthreads();
  out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
}
