// Kernels with known register pressure for the occupancy report: the
// program prints what the CUDA runtime (on the emulator: ptxas) says about
// each, so the test can hold the report to the same figures.
#include <cstdio>

constexpr int Live = 48;

// Live floats kept in registers across a data-dependent loop: many
// registers per thread, so blocks of 256 are register-limited.
__global__ void pressure(float *a, int n) {
  float acc[Live];
#pragma unroll
  for (int i = 0; i < Live; ++i)
    acc[i] = a[i * n + threadIdx.x];
  float s = 0;
  for (int r = 0; r < n; ++r)
#pragma unroll
    for (int i = 0; i < Live; ++i) {
      acc[i] = acc[i] * acc[(i + 1) % Live] + s;
      s += acc[i];
    }
  a[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// The same work squeezed into 32 registers (2 blocks of 1024 per SM):
// ptxas spills to local memory.
__global__ void __launch_bounds__(1024, 2) capped(float *a, int n) {
  float acc[Live];
#pragma unroll
  for (int i = 0; i < Live; ++i)
    acc[i] = a[i * n + threadIdx.x];
  float s = 0;
  for (int r = 0; r < n; ++r)
#pragma unroll
    for (int i = 0; i < Live; ++i) {
      acc[i] = acc[i] * acc[(i + 1) % Live] + s;
      s += acc[i];
    }
  a[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename K> void describe(const char *Name, K Kernel, int Block) {
  cudaFuncAttributes A;
  int Blocks = -1;
  if (cudaFuncGetAttributes(&A, Kernel) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Blocks, Kernel, Block,
                                                    0) != cudaSuccess) {
    std::printf("%s: attributes unavailable\n", Name);
    return;
  }
  std::printf("%s: regs=%d local=%zu blocks=%d\n", Name, A.numRegs,
              A.localSizeBytes, Blocks);
}

int main() {
  float *a = nullptr;
  const int n = 2;
  if (cudaMalloc(&a, sizeof(float) * 1024 * (Live * n + 2)) != cudaSuccess)
    return 1;
  cudaMemset(a, 0, sizeof(float) * 1024 * (Live * n + 2));
  pressure<<<2, 256>>>(a, n);
  capped<<<1, 1024>>>(a, n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  describe("pressure", pressure, 256);
  describe("capped", capped, 1024);
  std::printf("done\n");
  return 0;
}
