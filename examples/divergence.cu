// The demo program: three kernels whose branches diverge in different ways.
// Build it with the flags from `warpscope config` and run it under
// `warpscope run`; the report shows which lines diverge and how much.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e_));                                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// Odd and even lanes take different sides: every warp diverges here.
__global__ void alternate(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x % 2 == 0)
    out[i] = i * 3;
  else
    out[i] = i / 3;
}

// The trip count depends on the data: lanes leave the loop at different times.
__global__ void collatz(const int *start, int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long x = start[i];
  int s = 0;
  while (x != 1) {
    x = (x % 2) ? 3 * x + 1 : x / 2;
    ++s;
  }
  steps[i] = s;
}

// Branches on the block index only: uniform, so not even probed.
__global__ void per_block(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x % 2 == 0 && i < n)
    out[i] += 1;
}

int main() {
  const int n = 2048;
  int *start = (int *)std::malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    start[i] = 1 + (i * 7919) % 1000;
  int *dStart, *dSteps, *dOut;
  CHECK(cudaMalloc(&dStart, n * sizeof(int)));
  CHECK(cudaMalloc(&dSteps, n * sizeof(int)));
  CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CHECK(cudaMemcpy(dStart, start, n * sizeof(int), cudaMemcpyHostToDevice));
  alternate<<<n / 256, 256>>>(dOut, n);
  collatz<<<n / 128, 128>>>(dStart, dSteps, n);
  per_block<<<n / 256, 256>>>(dOut, n);
  CHECK(cudaGetLastError());
  int *steps = (int *)std::malloc(n * sizeof(int));
  CHECK(cudaMemcpy(steps, dSteps, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long total = 0;
  for (int i = 0; i < n; ++i)
    total += steps[i];
  std::printf("collatz: %lld steps in total\n", total);
  CHECK(cudaFree(dStart));
  CHECK(cudaFree(dSteps));
  CHECK(cudaFree(dOut));
  std::free(start);
  std::free(steps);
  return 0;
}
