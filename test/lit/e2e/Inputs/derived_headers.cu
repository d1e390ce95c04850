// Loop headers counted from their preheader and their latch's branch
// (derived-headers.test): escape-time loops (mandelbrot's shape: a uniform
// trip test at the header, a divergent escape test at the latch), alone,
// inside an outer loop that lanes leave at different rows, entered by only
// some lanes of each warp; a loop whose back edge is its latch's successor
// 1; and a bounded one-block loop, its own latch.
// Lanes of each warp leave after different numbers of iterations
// everywhere.
#include <cstdio>

// mandelbrot's escape-time loop.
__device__ __forceinline__ int iterate(float c, float d, int max_iter) {
  float x = 0.f, y = 0.f;
  int it = 0;
  while (it < max_iter) { // uniform test at the header
    float xx = x * x, yy = y * y;
    if (xx + yy > 4.0f) // divergent escape at the latch
      break;
    y = 2.0f * x * y + d;
    x = xx - yy + c;
    ++it;
  }
  return it;
}

__global__ void escape(const float *cx, int *out, int n, int max_iter) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = iterate(cx[t], 0.25f * cx[t], max_iter);
}

__global__ void nested(const float *cx, int *out, int n, int rows, int max_iter) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int acc = 0;
  for (int r = 0; r < rows; ++r) { // the inner loop once per row
    acc += iterate(cx[t], 0.1f * r - 0.5f, max_iter);
    if (acc > 3 * max_iter + (t & 31)) // divergent: some lanes stop early
      break;
  }
  out[t] = acc;
}

__global__ void some_lanes(const float *cx, int *out, int n, int max_iter) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = -1;
  if (t < n && (t & 3) != 0) // only some lanes of each warp enter the loop
    acc = iterate(cx[t], -0.3f, max_iter);
  if (t < n)
    out[t] = acc;
}

__global__ void self_loop(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int v = in[t], k = 0;
  unsigned acc = v;
  do { // one block, at most 40 times: its own latch, bounded
    acc = acc * 3 + k;
    ++k;
  } while (k < 40 && ((acc >> 3) & 7) != 5);
  out[t] = acc + k;
}

__global__ void count_up(const int *in, int *out, int n, int max_iter) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  unsigned acc = in[t];
  int it = 0;
  while (it < max_iter) { // the back edge is the latch's successor 1
    acc = acc * 5 + it;
    ++it;
    if ((acc & 15) == 3)
      break;
  }
  out[t] = acc + it;
}

int main() {
  const int n = 200;
  float *cx;
  int *in, *out;
  cudaMallocManaged(&cx, n * sizeof(float));
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    cx[i] = -2.0f + 2.5f * i / n;
    in[i] = (i * 2654435761u) >> 7;
  }
  long sum = 0;
  auto collect = [&] { // each kernel's output into one checksum
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
      sum += out[i];
  };
  const int grid = (n + 63) / 64;
  escape<<<grid, 64>>>(cx, out, n, 60);
  collect();
  nested<<<grid, 64>>>(cx, out, n, 9, 30);
  collect();
  some_lanes<<<grid, 64>>>(cx, out, n, 40);
  collect();
  self_loop<<<grid, 64>>>(in, out, n);
  collect();
  count_up<<<grid, 64>>>(in, out, n, 50);
  collect();
  printf("sum %ld\n", sum);
  return 0;
}
