// A short launch, then a long one, for tests that interrupt it part way.
// As is, the long launch's first four blocks finish at once and the others
// loop for hours on the emulator (a divergent branch in the loop); with
// `blocks`, it has a million short blocks instead.
#include <cstdio>
#include <cstring>

__global__ void quick(int *Out) { Out[threadIdx.x] = threadIdx.x; }

__global__ void slow(int *Out, long N) {
  long Iterations = blockIdx.x < 4 ? 100 : N;
  int Acc = 0;
  for (long I = 0; I < Iterations; ++I)
    if (((I ^ threadIdx.x) & 7) == 0)
      atomicAdd(&Out[blockIdx.x % 64], 1);
    else
      Acc += int(I);
  Out[64 + (blockIdx.x % 64) * blockDim.x + threadIdx.x] = Acc;
}

int main(int Argc, char **Argv) {
  bool ManyBlocks = Argc > 1 && !std::strcmp(Argv[1], "blocks");
  int *D;
  cudaMalloc(&D, (64 + 64 * 64) * sizeof(int));
  quick<<<1, 32>>>(D);
  cudaDeviceSynchronize();
  std::printf("slow launch\n");
  std::fflush(stdout);
  if (ManyBlocks)
    slow<<<1 << 20, 64>>>(D, 100);
  else
    slow<<<64, 64>>>(D, 1L << 40);
  std::printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
