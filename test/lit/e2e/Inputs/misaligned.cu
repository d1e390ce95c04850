// Misaligned device accesses, one per mode (argv[1]): a 4-byte load at a
// byte offset into a cudaMalloc block (global), a float4 load 8 bytes into
// one (a vector needs its whole size), an int store 2 bytes into shared
// memory, an 8-byte store 4 bytes into a local array. On a GPU each fails
// the launch with cudaErrorMisalignedAddress, sticky; x86 would let all of
// them through silently.
#include <cstdio>
#include <cstring>

__global__ void unpack(const char *bytes, float *out) {
  int i = threadIdx.x;
  out[i] = *reinterpret_cast<const float *>(bytes + 1 + 4 * i);
}

__global__ void vec(const char *bytes, float *out) {
  float4 v = *reinterpret_cast<const float4 *>(bytes + 8 * threadIdx.x);
  out[threadIdx.x] = v.x + v.w;
}

__global__ void shared(int off, int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  // (The compiler is told the int is aligned, as code that casts a char
  // pointer to an int pointer claims; else it may store byte by byte.)
  *static_cast<int *>(
      __builtin_assume_aligned(reinterpret_cast<char *>(s) + off, 4)) = 7;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void local(int off, long long *out) {
  char buf[32];
  for (int k = 0; k < 32; ++k)
    buf[k] = (char)(k + threadIdx.x);
  *static_cast<long long *>(__builtin_assume_aligned(buf + off, 8)) = 1;
  out[threadIdx.x] = *reinterpret_cast<long long *>(buf + (off & ~7));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "global";
  char *bytes;
  float *out;
  cudaMalloc(&bytes, 1024);
  cudaMalloc(&out, 1024);
  cudaMemset(bytes, 0, 1024);
  if (!std::strcmp(mode, "global"))
    unpack<<<1, 32>>>(bytes, out);
  else if (!std::strcmp(mode, "vector"))
    vec<<<1, 32>>>(bytes, out);
  else if (!std::strcmp(mode, "shared"))
    shared<<<1, 32>>>(argc > 2 ? 2 : 4, reinterpret_cast<int *>(out));
  else
    local<<<1, 32>>>(argc > 2 ? 4 : 8, reinterpret_cast<long long *>(out));
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("again: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s (%s)\n", cudaGetErrorName(cudaDeviceSynchronize()),
              cudaGetErrorString(cudaPeekAtLastError()));
  void *b = nullptr;
  std::printf("malloc: %s\n", cudaGetErrorName(cudaMalloc(&b, 4)));
  return 0;
}
