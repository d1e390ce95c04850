// Kernels whose PTX has code on control-flow edges the block counts alone do
// not give (tests of instruction-histogram exactness):
//  - tree_sum: the halving loop's guard and latch both go to the loop or to
//    the same exit, so all four edges are critical and flow cannot split
//    them; the code generator hoists invariant code into a preheader on the
//    guard's edge (needs the guard's loop-entry record);
//  - strided_sum: an unrolled loop whose remainder loop exits over a
//    critical edge to a block the guard also reaches; flow through the
//    control-flow graph gives that edge.
#include <cstdio>

__global__ void tree_sum(const float *in, float *out) {
  __shared__ float buf[256];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0];
}

__global__ void strided_sum(const float *x, float *y, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += x[(long)k * stride + i];
  y[i] = acc;
}

int main() {
  float *x, *y;
  cudaMalloc(&x, 4096 * sizeof(float));
  cudaMalloc(&y, 256 * sizeof(float));
  cudaMemset(x, 0, 4096 * sizeof(float));
  tree_sum<<<2, 128>>>(x, y);
  tree_sum<<<1, 1>>>(x, y); // the guard skips the loop
  for (int n = 0; n < 3; ++n)
    strided_sum<<<2, 128>>>(x, y, n * 5 + 1, 256);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
