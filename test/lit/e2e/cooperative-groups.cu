// A program that includes <cooperative_groups.h> builds with the README's
// compile line: CUDA 13 keeps CCCL (cuda/std, which cooperative groups
// include, cub, thrust) under include/cccl, which `warpscope config
// --cflags` adds as nvcc does. Its warp-tile reduction runs on the emulator
// with exact counts.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %warpscope config --cflags | FileCheck --check-prefix=FLAGS %s
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/exe
// RUN: %warpscope run --emulate -o %t/run -- %t/exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope validate %t/run | FileCheck --check-prefix=VALID %s
// FLAGS: -isystem {{.*}}/include/cccl
// OUT: total 499500 (expect 499500)
// VALID: 0 mismatches
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void tileSums(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, s);
}

int main() {
  const int n = 1000;
  int h[n], *in, *out, total = 0;
  for (int k = 0; k < n; ++k)
    h[k] = k;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof(int));
  tileSums<<<(n + 127) / 128, 128>>>(in, out, n);
  cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost);
  std::printf("total %d (expect %d)\n", total, n * (n - 1) / 2);
  return 0;
}
