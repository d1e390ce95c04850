// Expectations come from the launch configuration, not from a golden file:
// a branch on threadIdx.x & 1 diverges on every warp visit, so visits =
// divergent = number of warps; a branch on blockIdx.x is proven uniform and
// never probed; a branch on threadIdx.x < 32 is probed but never diverges.
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.exe
// RUN: rm -rf %t.out
// RUN: %warpscope run --emulate -o %t.out -- %t.exe > %t.stdout
// RUN: %warpscope report %t.out --format json -o %t.json
// RUN: %python %S/Inputs/check_divergence.py %t.json %t.stdout
#include <cstdio>

// Each side does a different atomic so -O2 cannot turn a branch into a select.
__global__ void odd_even(int *out) {
  if (threadIdx.x & 1) // LINE-ODD-EVEN
    atomicAdd(&out[0], 1);
  else
    atomicMax(&out[1], threadIdx.x);
  if (blockIdx.x == 1) // LINE-BLOCK
    atomicOr(&out[2], 4);
  if (threadIdx.x < 32) // LINE-FIRST-WARP
    atomicXor(&out[3], 8);
}

int main() {
  const dim3 grid(3), block(96); // 3 warps per block
  int *d;
  if (cudaMalloc(&d, 4 * sizeof(int)) || cudaMemset(d, 0, 4 * sizeof(int)))
    return 1;
  odd_even<<<grid, block>>>(d);
  if (cudaDeviceSynchronize())
    return 1;
  int warps = grid.x * ((block.x + 31) / 32);
  std::printf("warps %d blocks %d threads %d\n", warps, grid.x,
              grid.x * block.x);
  return 0;
}
