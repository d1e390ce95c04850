// diff-moved-branch.test builds this twice, the second time with a line
// inserted above the kernel: its branch moves down one line. The argument
// sets how many lanes of a warp take the branch (1: all agree; 2: half).
#include <cstdio>
#include <cstdlib>

__global__ void moved(int *out, int split) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % split == 0)
    out[i] = i;
}

int main(int argc, char **argv) {
  int split = argc > 1 ? std::atoi(argv[1]) : 1;
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  moved<<<1, 64>>>(d, split);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
