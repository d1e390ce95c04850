// Kernels whose PTX has code on control-flow edges the block counts alone do
// not give (tests of instruction-histogram exactness):
//  - tree_sum: the halving loop's guard and latch both go to the loop or to
//    the same exit, so all four edges are critical and flow cannot split
//    them; the code generator hoists invariant code into a preheader on the
//    guard's edge (needs the guard's loop-entry record);
//  - strided_sum: an unrolled loop whose remainder loop exits over a
//    critical edge to a block the guard also reaches; flow through the
//    control-flow graph gives that edge;
//  - pick3 and dispatch: divergent switches the code generator lowers to a
//    compare chain and to a range check before a jump table; their second
//    compare and the jump table's block run for the lanes not going to one
//    successor (the switch record's uniform visits give those).
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

__global__ void pick3(int *y) {
  int v = 0;
  switch (threadIdx.x % 3) {
  case 0:
    v = y[threadIdx.x] + 1;
    break;
  case 1:
    v = y[threadIdx.x] * 3;
    break;
  default:
    v = -y[threadIdx.x];
  }
  y[threadIdx.x] = v;
}

__global__ void dispatch(const int *ops, int *y) {
  int a = y[threadIdx.x], b = threadIdx.x;
  switch (ops[threadIdx.x]) {
  case 0: a += b; break;
  case 1: a -= b; break;
  case 2: a *= b; break;
  case 3: a ^= b; break;
  case 4: a = a < b ? a : b; break;
  case 5: a = a > b ? a : b; break;
  case 6: a |= b; break;
  case 7: a &= b; break;
  default: a = 0;
  }
  y[threadIdx.x] = a;
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
  int *ops, *iy, host_ops[128];
  for (int k = 0; k < 128; ++k)
    host_ops[k] = k < 64 ? 5 : (k * 7) % 10; // one warp uniform, one not
  cudaMalloc(&ops, sizeof host_ops);
  cudaMalloc(&iy, 128 * sizeof(int));
  cudaMemcpy(ops, host_ops, sizeof host_ops, cudaMemcpyHostToDevice);
  cudaMemset(iy, 0, 128 * sizeof(int));
  pick3<<<1, 128>>>(iy);
  pick3<<<1, 96>>>(iy);
  dispatch<<<1, 128>>>(ops, iy);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
