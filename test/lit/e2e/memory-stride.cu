// The stride of each access comes from its lanes' own addresses (issue 35):
// loads at 4, 8, 64 and 132 bytes between neighbouring lanes and a gather,
// checked in the ground truth, the report's memory view (text, JSON, HTML)
// and the advice. 64 blocks of 128 threads: 256 full warps, each with 31
// neighbouring lane pairs, 7936 pairs per access.
// RUN: %clang-cuda -O2 -gline-tables-only --cuda-include-ptx=sm_90 %s -L%cuda_home/lib64 -lcudart -o %t.exe
// RUN: rm -rf %t.out
// RUN: %warpscope run --emulate -o %t.out -- %t.exe | FileCheck --check-prefix=OUT %s
// RUN: cat %t.out/emu-*.json | FileCheck --check-prefix=TRUTH %s
// RUN: %warpscope report %t.out | FileCheck --check-prefix=TEXT %s
// RUN: %warpscope report %t.out --format json | %python -c "import json, sys; d = json.load(sys.stdin); \
// RUN:   [print(l['line'], l['access'], l['lane_pairs'], l['stride_bytes'], l['stride_share']) \
// RUN:    for f in d['memory_view']['functions'] for l in f['lines']]" | FileCheck --check-prefix=JSON %s
// RUN: %warpscope report %t.out --format html | FileCheck --check-prefix=HTML %s
// RUN: %warpscope advise %t.out | FileCheck --check-prefix=ADVISE %s
// OUT: done
//
// TRUTH: "opcode":"ld.global.nc.b32"{{.*}}"lane_pairs":7936,"strides":{{\[\[4,7936\]\]}}
// TRUTH: "opcode":"ld.global.nc.b32"{{.*}}"lane_pairs":7936,"strides":{{\[\[8,7936\]\]}}
// TRUTH: "opcode":"ld.global.nc.b32"{{.*}}"lane_pairs":7936,"strides":{{\[\[64,7936\]\]}}
// TRUTH: "opcode":"ld.global.nc.b32"{{.*}}"lane_pairs":7936,"strides":{{\[\[132,7936\]\]}}
// TRUTH: "opcode":"ld.global.nc.b32"{{.*}}"lane_pairs":7936,"strides":[]
//
// TEXT: Kernel strides(float const*, int const*, float*)
// TEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, 4.00 sectors/req (ideal 4.00); stride 4 B between neighbouring lanes (100% of lane pairs)
// TEXT-NEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, 8.00 sectors/req (ideal 4.00); stride 8 B between neighbouring lanes (100% of lane pairs)
// TEXT-NEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, 32.00 sectors/req (ideal 4.00); stride 64 B between neighbouring lanes (100% of lane pairs)
// TEXT-NEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, 32.00 sectors/req (ideal 4.00); stride 132 B between neighbouring lanes (100% of lane pairs)
// TEXT-NEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, 4.00 sectors/req (ideal 4.00); stride 4 B between neighbouring lanes (100% of lane pairs)
// TEXT-NEXT: memory-stride.cu:[[# @LINE + 31]]{{ +}}load{{ +}}global 256 req, {{[0-9.]+}} sectors/req (ideal {{[0-9.]+}}); irregular stride (no stride holds for half of the lane pairs: a gather or scatter)
//
// JSON-DAG: [[# @LINE + 24]] load 7936 4 1{{$}}
// JSON-DAG: [[# @LINE + 24]] load 7936 8 1{{$}}
// JSON-DAG: [[# @LINE + 24]] load 7936 64 1{{$}}
// JSON-DAG: [[# @LINE + 24]] load 7936 132 1{{$}}
// JSON-DAG: [[# @LINE + 25]] load 7936 None None
//
// HTML: <th>stride</th>
// HTML: <td>stride 132 B between neighbouring lanes (100% of lane pairs)</td></tr>
//
// The advice names each flagged load's own stride, and the gather as one.
// ADVISE: Coalesce global memory accesses
// ADVISE-DAG: hotspot: memory-stride.cu:[[# @LINE + 14]]: {{.*}}load: 8.00 sectors/request, {{.*}}; stride 8 B between neighbouring lanes (100% of lane pairs)
// ADVISE-DAG: hotspot: memory-stride.cu:[[# @LINE + 14]]: {{.*}}load: 32.00 sectors/request, {{.*}}; stride 64 B between neighbouring lanes (100% of lane pairs)
// ADVISE-DAG: hotspot: memory-stride.cu:[[# @LINE + 14]]: {{.*}}load: 32.00 sectors/request, {{.*}}; stride 132 B between neighbouring lanes (100% of lane pairs)
// ADVISE-DAG: hotspot: memory-stride.cu:[[# @LINE + 15]]: {{.*}}load: {{.*}}; irregular stride (no stride holds for half of the lane pairs: a gather or scatter)
// ADVISE-NOT: 32 B or more
#include <cstdio>
#include <cstdlib>

constexpr int Threads = 64 * 128;

__global__ void strides(const float *__restrict__ in,
                        const int *__restrict__ idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = in[i];
  s += in[2 * i];
  s += in[16 * i];
  s += in[33 * i];
  int j = idx[i];
  s += in[j];
  out[i] = s;
}

int main() {
  const int N = 33 * Threads;
  int *host = (int *)malloc(Threads * sizeof(int));
  srand(1);
  for (int K = 0; K < Threads; ++K)
    host[K] = rand() % N;
  float *in, *out;
  int *idx;
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, Threads * sizeof(float));
  cudaMalloc(&idx, Threads * sizeof(int));
  cudaMemset(in, 0, N * sizeof(float));
  cudaMemcpy(idx, host, Threads * sizeof(int), cudaMemcpyHostToDevice);
  strides<<<64, 128>>>(in, idx, out);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
