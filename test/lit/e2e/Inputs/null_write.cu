// A kernel that writes through a null pointer (with an offset), and, given
// an argument, a run that launches no kernel at all.
#include <cstdio>

__global__ void poke(int *p) { p[threadIdx.x + 4] = 1; }

int main(int argc, char **) {
  if (argc > 1) {
    printf("no launch\n");
    return 0;
  }
  poke<<<1, 1>>>(nullptr);
  printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
