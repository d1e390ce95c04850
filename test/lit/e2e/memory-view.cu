// The report's memory view of an emulated run: exact shared-memory
// wavefronts of a transpose with and without padding and sectors per request
// of strided global accesses, per source line. Every number is worked out by
// hand in the comment above its check (cudaMalloc blocks are 256-byte
// aligned, so sectors start at the buffers' first byte).
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.out
// RUN: %warpscope run --emulate -o %t.out -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t.out | FileCheck %s
// RUN: %warpscope report %t.out --format json | FileCheck --check-prefix=JSON %s
// RUN: %warpscope report %t.out --kernel strided | FileCheck --check-prefix=FILTER %s
// RUN: %warpscope report %t.out --format html | FileCheck --check-prefix=HTML %s
// HTML: <h2>Memory view (emulator ground truth)</h2>
// HTML: <h3>strided(float const*, float*, int)</h3>
// HTML: memory-view.cu:{{[0-9]+}}</td><td>load</td><td>2</td><td>8.00</td><td>4.00</td><td>0</td><td>-</td><td>-</td><td>0</td><td>stride 8 B between neighbouring lanes (100% of lane pairs)</td></tr>
// HTML: </body>
// The same counts from an instrumented build: the probes' own counter
// updates are left out of the view.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 $(%warpscope config --cflags) %s $(%warpscope config --ldflags) -o %t.inst
// RUN: rm -rf %t.inst.out
// RUN: %warpscope run --emulate -o %t.inst.out -- %t.inst | FileCheck --check-prefix=OUT %s
// RUN: %warpscope report %t.inst.out | FileCheck --check-prefix=INST %s
// OUT: done
// INST: Memory view
// INST: Kernel void transposeTile<32>(float const*, float*)
// INST-NEXT: global 64 req, 4.00 sectors/req (ideal 4.00); shared 64 req, 16.50 wavefronts/req (ideal 1.00)
// INST: Kernel strided(float const*, float*, int)
// INST-NEXT: global 4 req, 6.00 sectors/req (ideal 4.00)
// INST-NOT: atomics
// FILTER-NOT: transposeTile
// FILTER: Kernel strided(float const*, float*, int)
// FILTER-NOT: transposeTile
#include <cstdio>

// A 32x32 block, one warp per row y. Writing tile[y][x] is one wavefront
// per warp; reading tile[x][y] puts all 32 words of a warp in bank y: 32
// wavefronts (ideal 1). Rows padded to 33 floats spread them over the
// banks. The global accesses are rows of 32 floats: 4 sectors each.
// CHECK: Memory view
// CHECK: Kernel void transposeTile<32>(float const*, float*)
// CHECK-NEXT: global 64 req, 4.00 sectors/req (ideal 4.00); shared 64 req, 16.50 wavefronts/req (ideal 1.00)
// Each line loads from one space and stores to the other: a row per
// access, so the conflicting shared load is not hidden in a line's sum.
// CHECK-NEXT: memory-view.cu:[[# @LINE + 8]]{{ +}}load{{ +}}global 32 req, 4.00 sectors/req (ideal 4.00)
// CHECK-NEXT: memory-view.cu:[[# @LINE + 7]]{{ +}}store{{ +}}shared 32 req, 1.00 wavefronts/req (ideal 1.00)
// CHECK-NEXT: memory-view.cu:[[# @LINE + 8]]{{ +}}load{{ +}}shared 32 req, 32.00 wavefronts/req (ideal 1.00)
// CHECK-NEXT: memory-view.cu:[[# @LINE + 7]]{{ +}}store{{ +}}global 32 req, 4.00 sectors/req (ideal 4.00)
template <int Pitch>
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[32][Pitch];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];
  __syncthreads();
  out[y * 32 + x] = tile[x][y];
}
// CHECK: Kernel void transposeTile<33>(float const*, float*)
// CHECK-NEXT: shared 64 req, 1.00 wavefronts/req (ideal 1.00)
// CHECK-NEXT: load{{ +}}global 32 req
// CHECK-NEXT: store{{ +}}shared 32 req, 1.00 wavefronts/req (ideal 1.00)
// CHECK-NEXT: load{{ +}}shared 32 req, 1.00 wavefronts/req (ideal 1.00)
// CHECK-NEXT: store{{ +}}global 32 req

// Two warps, stride 2: each warp's 32 floats lie 8 bytes apart over 256
// bytes = 8 sectors, where their 128 bytes need 4; the store of 32
// contiguous floats is 4 sectors. In all (16 + 8) / 4 = 6 per request.
// CHECK: Kernel strided(float const*, float*, int)
// CHECK-NEXT: global 4 req, 6.00 sectors/req (ideal 4.00)
// CHECK-NEXT: memory-view.cu:[[# @LINE + 4]]{{ +}}load{{ +}}global 2 req, 8.00 sectors/req (ideal 4.00)
// CHECK-NEXT: memory-view.cu:[[# @LINE + 4]]{{ +}}store{{ +}}global 2 req, 4.00 sectors/req (ideal 4.00)
__global__ void strided(const float *in, float *out, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i * stride];
  out[i] = v;
}

// JSON: "memory_view"
// JSON: "global_ideal_sectors": 8,
// JSON-NEXT: "global_ideal_sectors_per_request": 4,
// JSON-NEXT: "global_requests": 2,
// JSON-NEXT: "global_sectors": 16,
// JSON-NEXT: "global_sectors_per_request": 8,

int main() {
  float *in, *out, *a;
  cudaMalloc(&in, 64 * 2 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMemset(in, 0, 64 * 2 * sizeof(float));
  cudaMemset(a, 0, 1024 * sizeof(float));
  transposeTile<32><<<1, dim3(32, 32)>>>(a, out);
  transposeTile<33><<<1, dim3(32, 32)>>>(a, out);
  strided<<<2, 32>>>(in, out, 2);
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("%s\n", E == cudaSuccess ? "done" : cudaGetErrorString(E));
  return E != cudaSuccess;
}
