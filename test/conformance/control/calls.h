// Calls: call and call.uni written out as PTX call sequences (the .param
// declarations, stores, the call and the loads of the return value) to
// extern "C" device functions defined here, so their PTX names and
// parameter lists are known. By-value parameters of each width, a struct
// by value and as return value, float and double returns, indirect calls
// with different targets in one warp, recursion of a per-lane depth, and
// ret from some lanes of a callee while the others go on.
#pragma once
#include "harness.h"

namespace ctl {

struct Pair {
  int A;
  double B;
};

__host__ __device__ inline uint64_t mixBits(uint64_t H, uint64_t V) {
  return (H ^ V) * 0x100000001b3ull + (V >> 7);
}

__host__ __device__ inline uint64_t
mixArgs(signed char A, short B, int C, long long D, float E, double F, Pair S) {
  uint32_t Eb;
  uint64_t Fb, Sb;
  memcpy(&Eb, &E, 4);
  memcpy(&Fb, &F, 8);
  memcpy(&Sb, &S.B, 8);
  uint64_t H = 0xcbf29ce484222325ull;
  H = mixBits(H, (uint64_t)(int64_t)A);
  H = mixBits(H, (uint64_t)(int64_t)B);
  H = mixBits(H, (uint64_t)(int64_t)C);
  H = mixBits(H, (uint64_t)D);
  H = mixBits(H, Eb);
  H = mixBits(H, Fb);
  H = mixBits(H, (uint64_t)(int64_t)S.A);
  return mixBits(H, Sb);
}

// The callees. __attribute__((used)) keeps those that only inline asm
// calls; defined before the kernels, so the PTX defines them before use.
extern "C" __device__ __noinline__ __attribute__((used)) unsigned long long
ctl_mix(signed char A, short B, int C, long long D, float E, double F, Pair S) {
  return mixArgs(A, B, C, D, E, F, S);
}

extern "C" __device__ __noinline__ __attribute__((used)) Pair
ctl_pair(int A, double B) {
  return Pair{A * 3 - 1, B * 0.5 + 1.0};
}

extern "C" __device__ __noinline__ __attribute__((used)) float
ctl_halff(float X) {
  return X * 0.5f;
}

extern "C" __device__ __noinline__ __attribute__((used)) double
ctl_negd(double X) {
  return -X;
}

extern "C" __device__ __noinline__ __attribute__((used)) unsigned
ctl_twice(unsigned X) {
  return 2 * X + 1;
}

extern "C" __device__ __noinline__ __attribute__((used)) unsigned
ctl_square(unsigned X) {
  return X * X;
}

__host__ __device__ inline unsigned recRef(unsigned N, unsigned X);

// Recursion: depth N. The result after the call keeps it from being a tail
// call that the compiler could turn into a loop.
extern "C" __device__ __noinline__ __attribute__((used)) unsigned
ctl_rec(unsigned N, unsigned X) {
  if (N == 0)
    return X ^ 0x5a5au;
  unsigned R = ctl_rec(N - 1, X * 3 + N);
  return (R << 1 | R >> 31) ^ (N * 0x9e3779b9u);
}

__host__ __device__ inline unsigned recRef(unsigned N, unsigned X) {
  if (N == 0)
    return X ^ 0x5a5au;
  unsigned R = recRef(N - 1, X * 3 + N);
  return (R << 1 | R >> 31) ^ (N * 0x9e3779b9u);
}

// ret from the lanes whose Sel is set, with the return value already
// stored (func_retval0 is the return parameter of the function's PTX);
// the others go on and return later.
extern "C" __device__ __noinline__ __attribute__((used)) unsigned
ctl_early(unsigned Sel, unsigned X) {
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.u32 p, %0, 0;\n\t"
               "st.param.b32 [func_retval0], %1;\n\t"
               "@p ret;\n\t}" ::"r"(Sel),
               "r"(X ^ 0xabcdu)
               : "memory");
  unsigned Y = X;
  for (unsigned I = 0; I < (X & 7); ++I)
    Y = Y * 5 + 1;
  return Y;
}

// The lanes of Pat call with call.uni, the others with call, with
// different arguments; then every lane votes after the join.
__global__ void kCallArgs(const uint32_t *Pat, unsigned long long *Out,
                          uint32_t *Ballot) {
  unsigned T = threadIdx.x, L = T & 31;
  uint32_t Bit = (Pat[T >> 5] >> L) & 1;
  int A = (int)(signed char)(L * 37 - 100), B = (short)(T * 911 - 30000);
  int C = (int)(T * 2654435761u);
  long long D = (long long)T * -123456789012345ll;
  float E = (float)T * 0.25f - 3.0f; // exact: fused or not
  double F = (double)T * 0.125 + (L == 5 ? 1e300 : 0.0);
  int SA = (int)L - 16;
  double SB = -(double)T / 3.0;
  unsigned long long R;
  uint32_t Bal;
  if (Bit) {
    asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t"
                 ".param .b32 a2;\n\t.param .b64 a3;\n\t.param .b32 a4;\n\t"
                 ".param .b64 a5;\n\t.param .align 8 .b8 a6[16];\n\t"
                 ".param .b64 rv;\n\t"
                 "st.param.b32 [a0], %1;\n\tst.param.b32 [a1], %2;\n\t"
                 "st.param.b32 [a2], %3;\n\tst.param.b64 [a3], %4;\n\t"
                 "st.param.b32 [a4], %5;\n\tst.param.b64 [a5], %6;\n\t"
                 "st.param.b32 [a6], %7;\n\tst.param.b64 [a6+8], %8;\n\t"
                 "call.uni (rv), ctl_mix, (a0, a1, a2, a3, a4, a5, a6);\n\t"
                 "ld.param.b64 %0, [rv];\n\t}"
                 : "=l"(R)
                 : "r"(A), "r"(B), "r"(C), "l"(D), "f"(E), "d"(F), "r"(SA),
                   "d"(SB)
                 : "memory");
  } else {
    asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t"
                 ".param .b32 a2;\n\t.param .b64 a3;\n\t.param .b32 a4;\n\t"
                 ".param .b64 a5;\n\t.param .align 8 .b8 a6[16];\n\t"
                 ".param .b64 rv;\n\t"
                 "st.param.b32 [a0], %1;\n\tst.param.b32 [a1], %2;\n\t"
                 "st.param.b32 [a2], %3;\n\tst.param.b64 [a3], %4;\n\t"
                 "st.param.b32 [a4], %5;\n\tst.param.b64 [a5], %6;\n\t"
                 "st.param.b32 [a6], %7;\n\tst.param.b64 [a6+8], %8;\n\t"
                 "call (rv), ctl_mix, (a0, a1, a2, a3, a4, a5, a6);\n\t"
                 "ld.param.b64 %0, [rv];\n\t}"
                 : "=l"(R)
                 : "r"(-A), "r"(B ^ 0x5555), "r"(~C), "l"(D + 1), "f"(-E),
                   "d"(F * 2), "r"(SA + 1000), "d"(SB - 1)
                 : "memory");
  }
  asm volatile("vote.sync.ballot.b32 %0, 1, -1;" : "=r"(Bal));
  Out[T] = R;
  Ballot[T] = Bal;
}

// Struct, float and double return values; indirect calls to two targets.
__global__ void kCallReturns(const uint32_t *Pat, uint32_t *I32,
                             unsigned long long *I64, uint32_t *Ind) {
  unsigned T = threadIdx.x, L = T & 31;
  uint32_t Bit = (Pat[T >> 5] >> L) & 1;
  int PA;
  double PB;
  asm volatile("{\n\t.param .b32 a0;\n\t.param .b64 a1;\n\t"
               ".param .align 8 .b8 rv[16];\n\t"
               "st.param.b32 [a0], %2;\n\tst.param.b64 [a1], %3;\n\t"
               "call.uni (rv), ctl_pair, (a0, a1);\n\t"
               "ld.param.b32 %0, [rv];\n\tld.param.b64 %1, [rv+8];\n\t}"
               : "=r"(PA), "=d"(PB)
               : "r"((int)T - 300), "d"((double)T * 0.25)
               : "memory");
  float Hf;
  double Nd;
  asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 rv;\n\t"
               "st.param.b32 [a0], %1;\n\t"
               "call (rv), ctl_halff, (a0);\n\t"
               "ld.param.b32 %0, [rv];\n\t}"
               : "=f"(Hf)
               : "f"((float)T * 3.0f + 0.5f)
               : "memory");
  asm volatile("{\n\t.param .b64 a0;\n\t.param .b64 rv;\n\t"
               "st.param.b64 [a0], %1;\n\t"
               "call.uni (rv), ctl_negd, (a0);\n\t"
               "ld.param.b64 %0, [rv];\n\t}"
               : "=d"(Nd)
               : "d"((double)T + 0.125)
               : "memory");
  unsigned long long Fp =
      Bit ? (unsigned long long)&ctl_twice : (unsigned long long)&ctl_square;
  uint32_t R;
  asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 rv;\n"
               "CP%=: .callprototype (.param .b32 _) _ (.param .b32 _);\n\t"
               "st.param.b32 [a0], %1;\n\t"
               "call (rv), %2, (a0), CP%=;\n\t"
               "ld.param.b32 %0, [rv];\n\t}"
               : "=r"(R)
               : "r"(T + 3), "l"(Fp)
               : "memory");
  float HfCopy = Hf;
  uint32_t HfBits;
  memcpy(&HfBits, &HfCopy, 4);
  I32[2 * T] = (uint32_t)PA;
  I32[2 * T + 1] = HfBits;
  I64[2 * T] = __double_as_longlong(PB);
  I64[2 * T + 1] = __double_as_longlong(Nd);
  Ind[T] = R;
}

// Recursion to a per-lane depth, entered with call from divergent code.
__global__ void kCallRec(const uint32_t *Depth, uint32_t *Out,
                         uint32_t *Ballot) {
  unsigned T = threadIdx.x;
  uint32_t R = 0, Bal;
  if (Depth[T] != 0xffffffffu) {
    asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t"
                 ".param .b32 rv;\n\t"
                 "st.param.b32 [a0], %1;\n\tst.param.b32 [a1], %2;\n\t"
                 "call (rv), ctl_rec, (a0, a1);\n\t"
                 "ld.param.b32 %0, [rv];\n\t}"
                 : "=r"(R)
                 : "r"(Depth[T]), "r"(T)
                 : "memory");
  }
  asm volatile("vote.sync.ballot.b32 %0, 1, -1;" : "=r"(Bal));
  Out[T] = R;
  Ballot[T] = Bal;
}

// ret from some lanes of the callee (ctl_early).
__global__ void kCallEarly(const uint32_t *Pat, uint32_t *Out,
                           uint32_t *Ballot) {
  unsigned T = threadIdx.x, L = T & 31;
  uint32_t Bit = (Pat[T >> 5] >> L) & 1, R, Bal;
  asm volatile("{\n\t.param .b32 a0;\n\t.param .b32 a1;\n\t"
               ".param .b32 rv;\n\t"
               "st.param.b32 [a0], %1;\n\tst.param.b32 [a1], %2;\n\t"
               "call.uni (rv), ctl_early, (a0, a1);\n\t"
               "ld.param.b32 %0, [rv];\n\t}"
               : "=r"(R)
               : "r"(Bit), "r"(T * 2654435761u)
               : "memory");
  asm volatile("vote.sync.ballot.b32 %0, 1, -1;" : "=r"(Bal));
  Out[T] = R;
  Ballot[T] = Bal;
}

inline void testCallArgs() {
  const char *Name = "call.args";
  if (!canRun(Name))
    return;
  const unsigned N = 512;
  std::vector<uint32_t> Pat = lanePatterns(N / 32);
  Buf<uint32_t> DP(Pat), Bal(N);
  Buf<unsigned long long> Out(N);
  kCallArgs<<<1, N>>>(DP.D, Out.D, Bal.D);
  if (!launched(Name))
    return;
  auto O = Out.get();
  auto B = Bal.get();
  for (unsigned T = 0; T < N; ++T) {
    unsigned L = T % 32;
    bool Bit = (Pat[T / 32] >> L) & 1;
    int A = (int)(signed char)(L * 37 - 100), Bb = (short)(T * 911 - 30000);
    int C = (int)(T * 2654435761u);
    long long D = (long long)T * -123456789012345ll;
    float E = (float)T * 0.25f - 3.0f;
    double F = (double)T * 0.125 + (L == 5 ? 1e300 : 0.0);
    int SA = (int)L - 16;
    double SB = -(double)T / 3.0;
    uint64_t Want =
        Bit ? mixArgs((signed char)A, (short)Bb, C, D, E, F, Pair{SA, SB})
            : mixArgs((signed char)-A, (short)(Bb ^ 0x5555), ~C, D + 1, -E,
                      F * 2, Pair{SA + 1000, SB - 1});
    expect(Name, "ret", T, O[T], Want);
    expect(Name, "ballot", T, B[T], ~0u);
  }
}

inline void testCallReturns() {
  const char *Name = "call.returns";
  if (!canRun(Name))
    return;
  const unsigned N = 256;
  std::vector<uint32_t> Pat = lanePatterns(N / 32);
  Buf<uint32_t> DP(Pat), I32(2 * N), Ind(N);
  Buf<unsigned long long> I64(2 * N);
  kCallReturns<<<1, N>>>(DP.D, I32.D, I64.D, Ind.D);
  if (!launched(Name))
    return;
  auto A = I32.get(), In = Ind.get();
  auto B = I64.get();
  for (unsigned T = 0; T < N; ++T) {
    bool Bit = (Pat[T / 32] >> (T % 32)) & 1;
    float Hf = ((float)T * 3.0f + 0.5f) * 0.5f;
    uint32_t HfBits;
    memcpy(&HfBits, &Hf, 4);
    double PB = (double)T * 0.25 * 0.5 + 1.0, Nd = -((double)T + 0.125);
    uint64_t PBb, Ndb;
    memcpy(&PBb, &PB, 8);
    memcpy(&Ndb, &Nd, 8);
    expect(Name, "pair.a", T, A[2 * T], (uint32_t)(((int)T - 300) * 3 - 1));
    expect(Name, "pair.b", T, B[2 * T], PBb);
    expect(Name, "f32", T, A[2 * T + 1], HfBits);
    expect(Name, "f64", T, B[2 * T + 1], Ndb);
    expect(Name, "indirect", T, In[T],
           Bit ? 2 * (T + 3) + 1 : (T + 3) * (T + 3));
  }
}

inline void testCallRec() {
  const char *Name = "call.recursive";
  if (!canRun(Name))
    return;
  const unsigned N = 256;
  std::vector<uint32_t> Depth(N), Pat = lanePatterns(N / 32);
  for (unsigned T = 0; T < N; ++T) {
    unsigned W = T / 32, L = T % 32;
    Depth[T] = W == 0   ? 4                           // uniform
               : W == 1 ? L % 7                       // 0..6 per lane
               : W == 2 ? (L == 31 ? 9 : 0xffffffffu) // lane 31 alone
                        : ((Pat[W] >> L) & 1 ? (L * 5 + W) % 8 : 0xffffffffu);
  }
  Buf<uint32_t> DD(Depth), Out(N), Bal(N);
  kCallRec<<<1, N>>>(DD.D, Out.D, Bal.D);
  if (!launched(Name))
    return;
  auto O = Out.get(), B = Bal.get();
  for (unsigned T = 0; T < N; ++T) {
    expect(Name, "ret", T, O[T],
           Depth[T] == 0xffffffffu ? 0 : recRef(Depth[T], T));
    expect(Name, "ballot", T, B[T], ~0u);
  }
}

inline void testCallEarly() {
  const char *Name = "ret.divergent";
  if (!canRun(Name))
    return;
  const unsigned N = 512;
  std::vector<uint32_t> Pat = lanePatterns(N / 32);
  Buf<uint32_t> DP(Pat), Out(N), Bal(N);
  kCallEarly<<<1, N>>>(DP.D, Out.D, Bal.D);
  if (!launched(Name))
    return;
  auto O = Out.get(), B = Bal.get();
  for (unsigned T = 0; T < N; ++T) {
    uint32_t X = T * 2654435761u, Y = X;
    for (unsigned I = 0; I < (X & 7); ++I)
      Y = Y * 5 + 1;
    bool Bit = (Pat[T / 32] >> (T % 32)) & 1;
    expect(Name, "ret", T, O[T], Bit ? X ^ 0xabcdu : Y);
    expect(Name, "ballot", T, B[T], ~0u);
  }
}

} // namespace ctl
