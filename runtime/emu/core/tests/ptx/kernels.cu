// Test kernels for the emulator core (compiled to PTX by clang 22).
#include <stdint.h>
#include <stdio.h>

// Warp-level primitives: out has 8 words per thread.
__global__ void warpops(const int *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  unsigned *o = out + t * 8;
  o[0] = __shfl_sync(0xffffffff, v, (threadIdx.x * 7) & 31);
  o[1] = __shfl_up_sync(0xffffffff, v, 3);
  o[2] = __shfl_down_sync(0xffffffff, v, 5, 16);
  o[3] = __shfl_xor_sync(0xffffffff, v, 6);
  o[4] = __ballot_sync(0xffffffff, v & 1);
  o[5] = __any_sync(0xffffffff, v > 1000) | (__all_sync(0xffffffff, v >= 0) << 1) | (__uni_sync(0xffffffff, v & 4) << 2);
  o[6] = __reduce_add_sync(0xffffffff, v) ^ __reduce_max_sync(0xffffffff, (unsigned)v);
  unsigned m = 0;
  if (v & 2) m = __activemask();
  o[7] = m ^ __match_any_sync(0xffffffff, v & 3);
}

// Atomics on global and shared.
__global__ void atomics(int *gi, unsigned *gu, float *gf, double *gd, unsigned long long *gl) {
  __shared__ int si[4];
  if (threadIdx.x < 4) si[threadIdx.x] = 0;
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&gi[0], t);
  atomicMax(&gi[1], t * 3 - 100);
  atomicMin(&gi[2], 50 - t);
  atomicAnd(&gi[3], ~(1 << (t % 31)));
  atomicOr(&gi[4], 1 << (t % 29));
  atomicXor(&gi[5], (int)((unsigned)t * 0x1234567u));
  atomicInc(&gu[0], 17u);
  atomicDec(&gu[1], 9u);
  atomicExch(&gu[2], 7u);
  atomicCAS(&gu[3], (unsigned)t, (unsigned)t + 1);
  atomicAdd(&gf[0], 0.5f);
  atomicAdd(&gd[0], 0.25);
  atomicAdd(&gl[0], (unsigned long long)t << 33);
  atomicAdd(&si[t & 3], 1);
  atomicMax(&si[(t + 1) & 3], t);
  __syncthreads();
  if (threadIdx.x < 4) atomicAdd(&gi[6 + threadIdx.x], si[threadIdx.x]);
}

// Shared memory transpose with 2D blocks and barriers.
#define TILE 16
__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

// Block reduction with dynamic shared memory.
__global__ void reduce(const int *in, int *out, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}

// Local memory: dynamically indexed private array.
__global__ void localmem(const int *idx, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a[24];
  for (int k = 0; k < 24; ++k) a[k] = t * k + 1;
  for (int k = 0; k < 24; ++k) a[(k * 7) % 24] += a[k] ^ idx[t];
  out[t] = a[idx[t] % 24] + a[(idx[t] + 5) % 24];
}

// Device function calls (noinline, recursion, struct by value).
struct Pair { int a; double b; };
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ double mix(Pair p, float x) { return p.a * x + p.b; }
__device__ __noinline__ void store3(int *p, int v) { p[0] = v; p[1] = v * 2; p[2] = v * 3; }
__global__ void calls(Pair p, int *oi, double *od) {
  int t = threadIdx.x;
  int loc[3];
  store3(loc, t);
  oi[t] = fib(t % 12) + loc[0] + loc[1] + loc[2];
  od[t] = mix(p, (float)t);
}

// Divergence: branch on threadIdx.x & 1, and on blockIdx.x.
__global__ void diverge(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v;
  if (threadIdx.x & 1) v = fib(t & 7); else v = t + 100;
  out[t] = v;
}
__global__ void uniform(int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v;
  if (blockIdx.x & 1) v = fib(t & 7); else v = t + 100;
  out[t] = v;
}

// Nested divergence with loops and early return.
__global__ void nested(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[t], acc = 0;
  if (x < 0) return;
  for (int k = 0; k < (x & 15); ++k) {
    if ((k ^ x) & 2) acc += k;
    else if (k > 7) break;
    else acc -= 1;
  }
  switch (x % 5) {
  case 0: acc *= 3; break;
  case 1: acc += 77; break;
  case 2: acc ^= 0x55; break;
  case 3: acc -= 9; break;
  default: break;
  }
  out[t] = acc;
}

__global__ void hello(int n) {
  printf("hello %d of %d: %s %5.2f %llx %c\n", threadIdx.x, n, "str", 1.5 * threadIdx.x, 0x123456789abULL, 'A' + threadIdx.x);
}

// Barrier reached only by some warps: deadlock.
__global__ void deadlock(int *out) {
  if (threadIdx.x & 1) __syncthreads();
  out[threadIdx.x] = 1;
}

// Heap.
__global__ void heap(int *out) {
  int *p = (int *)malloc(4 * sizeof(int));
  for (int k = 0; k < 4; ++k) p[k] = threadIdx.x + k;
  out[threadIdx.x] = p[0] + p[3];
  free(p);
}

__global__ void oob(int *out) {
  __shared__ int s[8];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Special registers with 3D grids and blocks.
__global__ void dims(unsigned *out) {
  unsigned nb = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * nb +
               (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  unsigned *o = out + t * 8;
  o[0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
  o[1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
  o[2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
  o[3] = gridDim.x | gridDim.y << 8 | gridDim.z << 16;
  unsigned lane, wid, ds, lt;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%warpid;" : "=r"(wid));
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(ds));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(lt));
  o[4] = lane;
  o[5] = wid;
  long long c0 = clock64();
  long long c1 = clock64();
  o[6] = (c1 > c0) | (lt << 1);
  o[7] = ds;
}

// exit in divergent code, then a barrier among the survivors.
__global__ void early_exit(int *out) {
  if (threadIdx.x % 3 == 0) asm volatile("exit;");
  __syncthreads();
  out[threadIdx.x] = threadIdx.x + 1;
}

__global__ void traps(const int *flag, int *out) {
  out[threadIdx.x] = 1;
  if (flag[threadIdx.x]) __trap();
}

__global__ void bounded(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
