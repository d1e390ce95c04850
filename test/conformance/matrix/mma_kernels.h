// Device side of the suite's mma.sync and ldmatrix cases: the instruction in
// inline asm, fragments passed through memory as the host lays them out with
// the PTX ISA's tables (mma_cases.h). Warp w of the launch reads its
// registers at in[(w * nIn + r) * 32 + lane] and writes D to
// out[(w * nOut + r) * 32 + lane].
#pragma once

__device__ inline unsigned laneOf() { return threadIdx.x % 32; }
__device__ inline unsigned warpOf() {
  return (blockIdx.x * blockDim.x + threadIdx.x) / 32;
}

// mma.sync m16n8k16 .f16: D and C both .f16 (2 registers) or both .f32
// (4); ptxas rejects mixed types for this shape.
template <bool F32>
__global__ void mmaF16Kernel(const unsigned *in, unsigned *out) {
  constexpr int NC = F32 ? 4 : 2, NIn = 6 + NC;
  const unsigned *p = in + warpOf() * NIn * 32 + laneOf();
  unsigned *q = out + warpOf() * NC * 32 + laneOf();
  unsigned d[4];
  if (F32)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(p[0]), "r"(p[32]), "r"(p[64]), "r"(p[96]), "r"(p[128]),
                   "r"(p[160]), "r"(p[192]), "r"(p[224]), "r"(p[256]),
                   "r"(p[288]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                 "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1])
                 : "r"(p[0]), "r"(p[32]), "r"(p[64]), "r"(p[96]), "r"(p[128]),
                   "r"(p[160]), "r"(p[192]), "r"(p[224]));
  for (int r = 0; r < NC; ++r)
    q[r * 32] = d[r];
}

// mma.sync m16n8k16 .bf16 and m16n8k8 .tf32, f32 D and C.
template <bool Tf32>
__global__ void mmaF32AccKernel(const unsigned *in, unsigned *out) {
  const unsigned *p = in + warpOf() * 10 * 32 + laneOf();
  unsigned *q = out + warpOf() * 4 * 32 + laneOf();
  unsigned d0, d1, d2, d3;
  if (Tf32)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(p[0]), "r"(p[32]), "r"(p[64]), "r"(p[96]), "r"(p[128]),
                   "r"(p[160]), "r"(p[192]), "r"(p[224]), "r"(p[256]),
                   "r"(p[288]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(p[0]), "r"(p[32]), "r"(p[64]), "r"(p[96]), "r"(p[128]),
                   "r"(p[160]), "r"(p[192]), "r"(p[224]), "r"(p[256]),
                   "r"(p[288]));
  q[0] = d0;
  q[32] = d1;
  q[64] = d2;
  q[96] = d3;
}

// mma.sync m8n8k4 .f64: registers are 64-bit.
__global__ void mmaF64Kernel(const unsigned long long *in,
                             unsigned long long *out) {
  const unsigned long long *p = in + warpOf() * 4 * 32 + laneOf();
  unsigned long long *q = out + warpOf() * 2 * 32 + laneOf();
  double d0, d1;
  asm volatile(
      "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
      "{%0, %1}, {%2}, {%3}, {%4, %5};"
      : "=d"(d0), "=d"(d1)
      : "d"(__longlong_as_double(p[0])), "d"(__longlong_as_double(p[32])),
        "d"(__longlong_as_double(p[64])), "d"(__longlong_as_double(p[96])));
  q[0] = __double_as_longlong(d0);
  q[32] = __double_as_longlong(d1);
}

// ldmatrix .m8n8 .b16 from a 32-row x 8-element shared array: lane L gives
// the address of row perm[L] (lanes 8j..8j+7: the rows of matrix j).
template <int X, bool Trans>
__global__ void ldmatrixKernel(const unsigned short *g, const int *perm,
                               unsigned *out) {
  __shared__ __align__(16) unsigned short s[32 * 8];
  for (int i = laneOf(); i < 32 * 8; i += 32)
    s[i] = g[i];
  __syncwarp();
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[perm[laneOf()] * 8]);
  unsigned r[4] = {0, 0, 0, 0};
  if (X == 1 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(a));
  if (X == 1 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(a));
  if (X == 2 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
  if (X == 2 && Trans)
    asm volatile(
        "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
        : "=r"(r[0]), "=r"(r[1])
        : "r"(a));
  if (X == 4 && !Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  if (X == 4 && Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
                 "{%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  for (int j = 0; j < X; ++j)
    out[j * 32 + laneOf()] = r[j];
}
