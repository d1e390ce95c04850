// Code the compiler made and tied to no source line (DWARF's line 0) is
// named as the report names it, "FILE (no line: compiler-made code)", in the
// advisor's hotspots and hints too, never as "FILE:0". Here the optimiser
// merges the two branches' stores to s[] into one store with no line; that
// store has a 16-way bank conflict.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-cuda -O2 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t/exe
// RUN: %warpscope run --emulate -o %t/run -- %t/exe > /dev/null
// RUN: %warpscope report %t/run | FileCheck --check-prefix=REPORT %s
// RUN: %warpscope advise %t/run > %t/advice.txt
// RUN: FileCheck --check-prefix=ADVICE %s < %t/advice.txt
// RUN: not grep -n 'advise-no-line.cu:0' %t/advice.txt
// REPORT: advise-no-line.cu (no line: compiler-made code) store shared 1024 req, 16.00 wavefronts/req (ideal 1.00)
// ADVICE: hint: Pad the shared array at {{.*}}advise-no-line.cu (no line: compiler-made code) by one 4-byte element
// ADVICE: hotspot: advise-no-line.cu (no line: compiler-made code): {{[0-9]+}} excess wavefronts; store: 16.00 wavefronts/request
#include <cstdio>

__global__ void merged(const float *a, const float *b, float *out, int n) {
  __shared__ float s[32 * 16];
  for (int r = 0; r < n; r++) {
    if (threadIdx.x < 16)
      s[threadIdx.x * 16] = a[threadIdx.x + r];
    else
      s[threadIdx.x * 16] = b[threadIdx.x + r];
    __syncthreads();
    out[threadIdx.x] += s[(threadIdx.x * 16 + r) % 512];
    __syncthreads();
  }
}

int main() {
  float *a, *b, *o, h;
  cudaMalloc(&a, 4096 * 4);
  cudaMalloc(&b, 4096 * 4);
  cudaMalloc(&o, 32 * 4);
  cudaMemset(a, 0, 4096 * 4);
  cudaMemset(b, 0, 4096 * 4);
  cudaMemset(o, 0, 32 * 4);
  merged<<<1, 32>>>(a, b, o, 1024);
  cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost);
  std::printf("%g\n", h);
  return 0;
}
