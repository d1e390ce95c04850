// Microbenchmarks for the emulator's timing model (issue 17 item 7,
// benchmarks/tools/timing_micro.py): each launch isolates one configured
// figure, and the script derives it back from the launches' modeled cycles
// (emu-*.json). Pairs of launches that differ only in repetitions cancel
// what the figure does not include (warp start, loop set-up, drain).
// Also runs on a GPU (with clock64 it would measure the same quantities).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// A dependent chain of 64 n FMAs in one warp: 64 n x FP32 latency (64 per
// iteration, so the loop's own 3 instructions hardly count).
__global__ void fmaChain(float *out, int n) {
  float v = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 64; ++j)
      v = fmaf(v, 1.0001f, 0.5f);
  }
  out[threadIdx.x] = v;
}

// The same in double precision: 64 n x FP64 latency.
__global__ void dfmaChain(double *out, int n) {
  double v = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 64; ++j)
      v = fma(v, 1.0001, 0.5);
  }
  out[threadIdx.x] = v;
}

// FP32 throughput: 32 warps on one SM, each running 8 independent FMA chains
// unrolled 8 times (64 FMAs per iteration against 3 loop instructions).
__global__ void fmaThroughput(float *out, int n) {
  float a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5,
        g = a + 6, h = a + 7;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      a = fmaf(a, 1.0001f, 0.5f);
      b = fmaf(b, 1.0001f, 0.5f);
      c = fmaf(c, 1.0001f, 0.5f);
      d = fmaf(d, 1.0001f, 0.5f);
      e = fmaf(e, 1.0001f, 0.5f);
      f = fmaf(f, 1.0001f, 0.5f);
      g = fmaf(g, 1.0001f, 0.5f);
      h = fmaf(h, 1.0001f, 0.5f);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d + e + f + g + h;
}

// MUFU (SFU): a dependent chain of 64 n ex2.approx in one warp (latency),
// and 32 warps of 8 independent chains (throughput).
__device__ float ex2(float v) {
  asm("ex2.approx.ftz.f32 %0, %0;" : "+f"(v));
  return v;
}
__global__ void sfuChain(float *out, int n) {
  float v = threadIdx.x * 1e-3f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 64; ++j)
      v = ex2(v);
  }
  out[threadIdx.x] = v;
}
__global__ void sfuThroughput(float *out, int n) {
  float a = threadIdx.x * 1e-3f, b = a + 1e-3f, c = a + 2e-3f, d = a + 3e-3f,
        e = a + 4e-3f, f = a + 5e-3f, g = a + 6e-3f, h = a + 7e-3f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      a = ex2(a);
      b = ex2(b);
      c = ex2(c);
      d = ex2(d);
      e = ex2(e);
      f = ex2(f);
      g = ex2(g);
      h = ex2(h);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d + e + f + g + h;
}

// Pointer chase by one thread: each load's address is the previous load's
// value. passes x n loads.
__global__ void chase(void **start, long steps, void **sink) {
  void **p = start;
#pragma unroll 1
  for (long i = 0; i < steps; ++i)
    p = (void **)*p;
  *sink = p;
}

// Shared-memory loads by one warp with a k-way bank conflict: lane l reads
// word l * k (mod 8192); n dependent reads.
__global__ void sharedConflict(int *out, int k, int n) {
  __shared__ int s[8192];
  for (int i = threadIdx.x; i < 8192; i += blockDim.x)
    s[i] = 0;
  __syncthreads();
  int idx = (threadIdx.x * k) % (8192);
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    idx += s[idx];
  out[threadIdx.x] = idx;
}

// Occupancy: one warp per CTA running a dependent FMA chain, 8 CTAs per
// SM; dynamic shared memory limits how many are resident at once, so the
// time is the number of waves: 8 / (blocks per SM).
__global__ void occupancy(float *out, int n) {
  extern __shared__ float pad[];
  float v = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 64; ++j)
      v = fmaf(v, 1.0001f, 0.5f);
  }
  if (v == -1.0f) // never: keeps pad[] (and its size) in the kernel
    pad[0] = v;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Streaming copy over the whole chip: DRAM bandwidth.
__global__ void copy(const float4 *in, float4 *out, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    out[i] = in[i];
}

// Nothing: the launch's fixed cost alone (issue 34).
__global__ void empty(int *out) {
  if (out == nullptr)
    out[threadIdx.x] = 0;
}

// Every lane of every warp adds to one float `reps` times: the updates of
// one address are serialized at its L2 slice (a float add is not combined
// across a warp's lanes). 132 CTAs: every SM.
__global__ void hotAtomic(float *hot, int reps) {
  for (int r = 0; r < reps; ++r)
    atomicAdd(hot, 1.0f);
}

// Every warp takes `reps` slots from one counter, using each (bfs's
// frontier counter): ptxas combines the warp's lanes into one update, an
// ATOM, since its old value is read, so the warps of every SM queue on the
// address one update after another. 132 CTAs: every SM.
__global__ void hotCounter(int *counter, int *out, int reps) {
  int v = 0;
  for (int r = 0; r < reps; ++r)
    v += atomicAdd(counter, 1) & 1;
  out[(blockIdx.x * blockDim.x + threadIdx.x) & 31] = v;
}

// Every lane adds to one shared word `reps` times, each add waiting for
// the one before: one pass of the shared atomic unit per lane.
__global__ void sharedAtomic(int *out, int reps) {
  __shared__ int word;
  word = 0;
  __syncwarp();
  int v = 0;
  for (int r = 0; r < reps; ++r)
    v += atomicAdd(&word, v + 1);
  out[threadIdx.x] = v;
}

// Fences (issue 34: bfs's atomicCAS). One warp, each lane on its own word
// of one line, n dependent iterations. casLoop: clang compiles atomicCAS to
// `fence.sc.sys; atom.acquire.sys.cas`; addLoop: a relaxed `atom.add` on
// the same words, so the difference per iteration is what the system-scope
// fence and the acquire add. storeFence: a store alone (kind 0), then
// `membar.gl` (__threadfence, 1) or `membar.sys` (__threadfence_system, 2).
__global__ void casLoop(int *p, int n) {
  int v = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    v = atomicCAS(p + threadIdx.x, v, v + 1);
  p[64 + threadIdx.x] = v;
}

__global__ void addLoop(int *p, int n) {
  int v = 0;
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    v = atomicAdd(p + threadIdx.x, v + 1);
  p[64 + threadIdx.x] = v;
}

__global__ void storeFence(int *p, int n, int kind) {
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    p[threadIdx.x] = i;
    if (kind == 1)
      __threadfence();
    else if (kind == 2)
      __threadfence_system();
  }
}

// 32 increments of one shared word by every lane per iteration, the
// result unused: ATOMS.POPC.INC on sm_90, one update of the word per warp
// (not a pass per lane).
__global__ void sharedIncrement(int *out, int reps) {
  __shared__ int word;
  word = 0;
  __syncwarp();
  for (int r = 0; r < reps; ++r)
#pragma unroll
    for (int k = 0; k < 32; ++k)
      atomicAdd(&word, 1);
  __syncwarp();
  out[threadIdx.x] = word;
}

// A float add on shared memory, its result unused: sm_90 has no ATOMS for
// it, so ptxas loops LDS; FADD; ATOMS.CAST.SPIN; ISETP; BRA until the
// store succeeds. One warp, `reps` adds; lane l on word (l * stride) mod
// 1024: stride 0, all on one word; stride 32, 32 words of bank 0. How a
// round picks its storing lanes (one per word or one per bank) is what
// the two tell apart (docs/gpu-runbook.md).
__global__ void sharedFloatAdd(int *out, int stride, int reps) {
  __shared__ float s[1024];
  for (int k = threadIdx.x; k < 1024; k += 32)
    s[k] = 0.0f;
  __syncwarp();
  float *w = &s[(threadIdx.x * stride) & 1023];
  for (int r = 0; r < reps; ++r)
    atomicAdd(w, 1.0f);
  __syncwarp();
  out[threadIdx.x] = (int)*w;
}

// nw_tile_diag's staging loop: 8 lanes copy `n` ints, 256 apart, from
// global to shared memory, each iteration's 32 bytes on a line of its own
// (from DRAM). ptxas unrolls it by 4 and issues 4 loads before their
// stores: a DRAM latency every 4 iterations, not every one.
__global__ void staging(const int *in, int *out, int n) {
  __shared__ int s[1024];
  for (int k = threadIdx.x; k < n; k += 256)
    s[(k >> 5) & 1023] = in[k];
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same loop with a global store in it, which may alias the loads:
// ptxas keeps each load after the store before it, in the loop's order.
__global__ void stagingKept(const int *in, int *out, int n) {
  __shared__ int s[1024];
  for (int k = threadIdx.x; k < n; k += 256) {
    s[(k >> 5) & 1023] = in[k];
    out[32 + (k & 7)] = k;
  }
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same loop with a step ptxas does not know (`step` is 256 here), as a
// grid-stride loop's: it stays rolled, in the loop's order.
__global__ void stagingStrided(const int *in, int *out, int n, int step) {
  __shared__ int s[1024];
  for (int k = threadIdx.x; k < n; k += step)
    s[(k >> 5) & 1023] = in[k];
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x];
}

// Divergent paths through a jump table (interp's vm_alu: brx.idx): in
// iteration r lane l runs case (l + r) mod k of 8, so a warp's lanes take
// k paths every iteration; k = 1 is the uniform baseline. What a GPU
// charges per extra path (re-issued BRX, the paths' switches, the
// reconvergence) is what the model's divergence_switch_cycles would have
// to match (docs/gpu-runbook.md).
__global__ void switchPaths(int *out, int k, int reps) {
  unsigned v = threadIdx.x;
  for (int r = 0; r < reps; ++r) {
    switch ((threadIdx.x + r) & (k - 1)) {
    case 0:
      v = v * 3u + 1u;
      break;
    case 1:
      v ^= v >> 3;
      break;
    case 2:
      v += 0x9e37u;
      break;
    case 3:
      v = (v << 5) | (v >> 27);
      break;
    case 4:
      v *= 0x85ebu;
      break;
    case 5:
      v -= v >> 7;
      break;
    case 6:
      v ^= 0x5bd1u;
      break;
    default:
      v += v << 2;
      break;
    }
  }
  out[threadIdx.x] = (int)v;
}

// A ring of `lines` pointers, one per 128-byte line, visited in order.
static void **ring(long lines) {
  void **d;
  cudaMalloc(&d, lines * 128);
  void **h = (void **)calloc(lines * 16, sizeof(void *));
  for (long i = 0; i < lines; ++i)
    h[i * 16] = d + ((i + 1) % lines) * 16;
  cudaMemcpy(d, h, lines * 128, cudaMemcpyHostToDevice);
  free(h);
  return d;
}

int main() {
  float *f;
  double *dd;
  int *o;
  void **sink;
  cudaMalloc(&f, 132 * 2048 * sizeof(float));
  cudaMalloc(&dd, 32 * sizeof(double));
  cudaMalloc(&o, 40 * sizeof(int));
  cudaMalloc(&sink, sizeof(void *));
  // Launch order is what timing_micro.py reads; keep it.
  fmaChain<<<1, 32>>>(f, 20);
  fmaChain<<<1, 32>>>(f, 40);
  dfmaChain<<<1, 32>>>(dd, 20);
  dfmaChain<<<1, 32>>>(dd, 40);
  fmaThroughput<<<1, 1024>>>(f, 100);
  fmaThroughput<<<1, 1024>>>(f, 200);
  // L1: 512 lines (64 KB) chased 2 and 3 times (after the first pass they
  // hit in L1). L2: 8192 lines (1 MB, more than L1) chased 1 and 2 times
  // (the second pass hits in L2). DRAM: 4096 fresh lines, once.
  void **small = ring(512), **mid = ring(8192), **fresh = ring(4096);
  chase<<<1, 1>>>(small, 2 * 512, sink);
  chase<<<1, 1>>>(small, 3 * 512, sink);
  chase<<<1, 1>>>(mid, 8192, sink);
  chase<<<1, 1>>>(mid, 2 * 8192, sink);
  chase<<<1, 1>>>(fresh, 2048, sink);
  chase<<<1, 1>>>(fresh, 4096, sink);
  for (int k : {1, 2, 4, 8, 16, 32}) {
    sharedConflict<<<1, 32>>>(o, k, 100);
    sharedConflict<<<1, 32>>>(o, k, 200);
  }
  sfuChain<<<1, 32>>>(f, 20);
  sfuChain<<<1, 32>>>(f, 40);
  sfuThroughput<<<1, 1024>>>(f, 10);
  sfuThroughput<<<1, 1024>>>(f, 20);
  // 200, 100, 50 and 25 KB of shared memory: 1, 2, 4 and 8 CTAs per SM
  // on H100 (228 KB, 1 KB reserved per CTA).
  cudaFuncSetAttribute(occupancy, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       200 * 1024);
  for (int kb : {200, 100, 50, 25})
    occupancy<<<132 * 8, 32, kb * 1024>>>(f, 50);
  const long n = 132L * 16 * 1024; // float4s: 32 MB each way
  float4 *in, *out;
  cudaMalloc(&in, n * sizeof(float4));
  cudaMalloc(&out, n * sizeof(float4));
  copy<<<132 * 4, 512>>>(in, out, n);
  // Issue 34's mechanisms: the launch's fixed cost, same-address global
  // atomics from every SM, lanes on one shared word.
  empty<<<1, 32>>>(o);
  hotAtomic<<<132, 256>>>(f, 10);
  hotAtomic<<<132, 256>>>(f, 20);
  sharedAtomic<<<1, 32>>>(o, 100);
  sharedAtomic<<<1, 32>>>(o, 200);
  hotCounter<<<132, 256>>>(o, o + 1, 10);
  hotCounter<<<132, 256>>>(o, o + 1, 20);
  int *w;
  cudaMalloc(&w, 128 * sizeof(int));
  cudaMemset(w, 0, 128 * sizeof(int));
  casLoop<<<1, 32>>>(w, 100);
  casLoop<<<1, 32>>>(w, 200);
  addLoop<<<1, 32>>>(w, 100);
  addLoop<<<1, 32>>>(w, 200);
  for (int kind : {0, 1, 2}) {
    storeFence<<<1, 32>>>(w, 100, kind);
    storeFence<<<1, 32>>>(w, 200, kind);
  }
  // Issue 34's third pass: merged shared increments, an unrolled loop's
  // loads in flight (a fresh buffer for each launch: every line from DRAM).
  sharedIncrement<<<1, 32>>>(o, 100);
  sharedIncrement<<<1, 32>>>(o, 200);
  int *table;
  cudaMalloc(&table, 6 * 256 * 256 * sizeof(int));
  staging<<<1, 8>>>(table, o, 256 * 64);
  staging<<<1, 8>>>(table + 256 * 256, o, 256 * 128);
  stagingKept<<<1, 8>>>(table + 2 * 256 * 256, o, 256 * 64);
  stagingKept<<<1, 8>>>(table + 3 * 256 * 256, o, 256 * 128);
  stagingStrided<<<1, 8>>>(table + 4 * 256 * 256, o, 256 * 64, 256);
  stagingStrided<<<1, 8>>>(table + 5 * 256 * 256, o, 256 * 128, 256);
  // Shared compare-and-swap loops: lanes on one word, on one bank's words.
  for (int stride : {0, 32}) {
    sharedFloatAdd<<<1, 32>>>(o, stride, 100);
    sharedFloatAdd<<<1, 32>>>(o, stride, 200);
  }
  // Divergent paths through a jump table: 1, 2, 4 and 8 paths a warp.
  for (int k : {1, 2, 4, 8}) {
    switchPaths<<<1, 32>>>(o, k, 100);
    switchPaths<<<1, 32>>>(o, k, 200);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s\n", e == cudaSuccess ? "done" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
