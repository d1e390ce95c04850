// Kernels for RacecheckTest.cpp (WARPSCOPE_EMU_RACECHECK). Each runs with two
// or four warps. A comment "// @name" marks a line the test expects in a
// hazard report; kernels named "clean*" must report nothing.

// Warp 0 writes, warp 1 reads the same words: read-after-write.
__global__ void raw(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32)
    s[t] = t; // @raw-w
  else
    out[t] = s[t - 32]; // @raw-r
}

// Warp 0 reads, warp 1 overwrites: write-after-read.
__global__ void war(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32)
    out[t] = s[t]; // @war-r
  else
    s[t - 32] = t; // @war-w
}

// Both warps write the same words: write-after-write (one instruction).
__global__ void waw(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t & 31] = t; // @waw
  __syncthreads();
  out[t] = s[t & 31];
}

// The same racy pair executed n times: one hazard, counted 32 * n times.
__global__ void repeated(int *out, int n) {
  __shared__ int s[32];
  volatile int *v = s;
  int t = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    if (t < 32)
      v[t] = i; // @rep-w
    else
      out[t] += v[t - 32]; // @rep-r
  }
}

// A plain store (thread 0, no barrier before the atomics) and another
// warp's atomic: write-after-write.
__global__ void atomicVsPlain(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0)
    c = 0; // @avp-w
  atomicAdd(&c, 1); // @avp-a
  __syncthreads();
  out[threadIdx.x] = c;
}

// A store through a generic pointer in a device function, read by another
// warp: read-after-write.
__device__ __noinline__ void put(int *p, int v) {
  *p = v; // @gen-w
}
__global__ void generic(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32)
    put(&s[t], t);
  else
    out[t] = s[t - 32]; // @gen-r
}

// Both warps read word 0 (a broadcast), then warp 1 overwrites it:
// write-after-read against warp 0's read.
__global__ void readersThenWrite(int *out) {
  __shared__ int s[1];
  int t = threadIdx.x;
  out[t] = s[0]; // @rtw-r
  if (t == 32)
    s[0] = t; // @rtw-w
}

// A table written by warp 0, then read by every thread after a barrier.
__global__ void cleanBroadcast(int *out) {
  __shared__ int s[4];
  int t = threadIdx.x;
  if (t < 4)
    s[t] = t + 1;
  __syncthreads();
  out[t] = s[0] + s[1] + s[2] + s[3];
}

// Exchanges separated by barriers (RAW and WAR across __syncthreads).
__global__ void cleanSynced(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  out[t] = s[t ^ 32];
  __syncthreads();
  s[t] = 2 * t;
  __syncthreads();
  out[t] += s[63 - t];
}

// Lanes of one warp exchange values: not a hazard between warps.
__global__ void cleanSameWarp(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncwarp();
  out[t] = s[t ^ 1];
}

// Atomics of all warps on the same words (atom and red).
__global__ void cleanAtomics(int *out) {
  __shared__ int c, d;
  if (threadIdx.x == 0)
    c = d = 0;
  __syncthreads();
  atomicAdd(&c, 1);
  int old = atomicOr(&d, 1 << (threadIdx.x & 31));
  __syncthreads();
  out[threadIdx.x] = c + (old & 0);
}

// Warps 0-1 and 2-3 each synchronise on their own named barrier.
__global__ void cleanNamedBarriers(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, base = t & 64;
  s[t] = t;
  if (t < 64)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[t] = s[base + ((t ^ 32) & 63)];
}

// Different warps write different bytes of the same words.
__global__ void cleanBytes(char *out) {
  __shared__ char s[128];
  int t = threadIdx.x;
  s[(t & 31) * 4 + (t >> 5)] = (char)t;
  __syncthreads();
  out[t] = s[t];
}
