// Strings a kernel hands the host side (argv[1] picks the case): printf's
// %s from each memory a string can live in, a %s pointer to nowhere, a %s
// string with no terminating NUL in its allocation, and a failed assert
// (its message, file and function are read from device memory too).
#include <cassert>
#include <cstdio>
#include <cstring>

__constant__ char cmsg[] = "constant";
__device__ char gmsg[] = "device-array";

__global__ void spaces(const char *heap) {
  __shared__ char sh[8];
  char loc[8];
  for (int k = 0; k < 7; ++k)
    loc[k] = (char)('a' + k + threadIdx.x);
  loc[7] = 0;
  if (threadIdx.x == 0)
    memcpy(sh, "shared", 7);
  __syncthreads();
  char *dyn = static_cast<char *>(malloc(8));
  memcpy(dyn, "malloc", 7);
  printf("%s|%s|%s|%s|%s|%s|%.3s|%s\n", "literal", cmsg, gmsg, heap, sh, loc,
         loc, dyn);
  free(dyn);
}

__global__ void show(const char *s) { printf("[%s]\n", s); }

__global__ void check(int n) { assert(threadIdx.x < n); }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "spaces";
  char *heap;
  cudaMalloc(&heap, 16);
  cudaMemcpy(heap, "cudaMalloc", 11, cudaMemcpyHostToDevice);
  if (!std::strcmp(mode, "spaces")) {
    spaces<<<1, 1>>>(heap);
  } else if (!std::strcmp(mode, "wild")) {
    show<<<1, 1>>>(reinterpret_cast<const char *>(0x7e5a00000000ull));
  } else if (!std::strcmp(mode, "unended")) {
    cudaMemset(heap, 'x', 16);
    show<<<1, 1>>>(heap);
  } else {
    check<<<1, 4>>>(3);
  }
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
