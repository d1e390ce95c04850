// A host heap overflow: the next allocation from the top chunk aborts in
// malloc ("malloc(): corrupted top size"), and the runtime's flush on
// SIGABRT allocates again.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  touch<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  char *p = (char *)malloc(100000);
  uint64_t Huge = ~0ull;
  std::memcpy(p + malloc_usable_size(p), &Huge, sizeof Huge); // top's size
  std::printf("corrupted\n");
  std::fflush(stdout);
  void *q = malloc(100000);
  std::printf("not reached %p\n", q);
  return 0;
}
