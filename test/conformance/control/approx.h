// The f64 .approx forms clang emits inside libdevice: rcp.approx.ftz.f64,
// rsqrt.approx.ftz.f64 and rsqrt.approx.f64. The PTX ISA (9.7.3.14,
// 9.7.3.16, 9.7.3.17) documents no error bound for them, so only what it
// defines is checked bit for bit:
//  * the .ftz.f64 forms use only the upper word of a (a[63:32], 1.11.20
//    format), so a and a with other low 32 bits give the same result, and
//    write zeros to d[31:0];
//  * their tables of special inputs (-Inf, -/+subnormal, -/+0.0, +Inf,
//    NaN) and, for rsqrt.approx.f64, -normal gives NaN;
//  * NaN inputs of the .ftz.f64 forms give the canonical 0x7fffffff00000000;
//  * .ftz flushes subnormal inputs and results to zero of the same sign
//    (rcp of |a| >= 2^1023 has a subnormal result: +-0.0); rsqrt.approx.f64
//    supports subnormals (1/sqrt of a subnormal is a normal number).
// For other inputs the result must be within a relative 2^-12 of the exact
// value (of the upper word for .ftz). That bound is OURS, a loose sanity
// check that catches a wrong function, not a documented accuracy.
#pragma once
#include "harness.h"
#include <cmath>

namespace ctl {

__global__ void kApproxF64(const uint64_t *In, uint64_t *Out, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  double A = __longlong_as_double(In[I]), R, Q, S;
  asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(R) : "d"(A));
  asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(Q) : "d"(A));
  asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(S) : "d"(A));
  Out[3 * I] = __double_as_longlong(R);
  Out[3 * I + 1] = __double_as_longlong(Q);
  Out[3 * I + 2] = __double_as_longlong(S);
}

inline double asD(uint64_t B) {
  double D;
  memcpy(&D, &B, 8);
  return D;
}
inline uint64_t asU(double D) {
  uint64_t B;
  memcpy(&B, &D, 8);
  return B;
}

constexpr double kOurBound = 0x1p-12; // ours, see the top of this file

// What the ISA defines for one result: Exact bits, Nan (any NaN), or the
// exact value Near (within kOurBound).
struct ApproxWant {
  enum { Exact, Nan, Near } K;
  uint64_t Bits;
  double Val;
};

inline ApproxWant wantFtz(uint64_t A, bool Rsqrt) {
  uint64_t Hi = A & 0xffffffff00000000ull; // tmp = a[63:32]
  double X = asD(Hi);
  bool Neg = A >> 63;
  if (std::isnan(X))
    return {ApproxWant::Exact, 0x7fffffff00000000ull, 0};
  if (X == 0 || std::fpclassify(X) == FP_SUBNORMAL) // flushed: +-0
    return {ApproxWant::Exact, asU(Neg ? -INFINITY : INFINITY), 0};
  if (std::isinf(X))
    return Rsqrt && Neg ? ApproxWant{ApproxWant::Nan, 0, 0}
                        : ApproxWant{ApproxWant::Exact, Neg ? asU(-0.0) : 0, 0};
  if (Rsqrt && Neg)
    return {ApproxWant::Nan, 0, 0};
  double V = Rsqrt ? 1 / std::sqrt(X) : 1 / X;
  if (std::fabs(V) < 0x1p-1022) // subnormal result: flushed
    return {ApproxWant::Exact, Neg ? asU(-0.0) : 0, 0};
  return {ApproxWant::Near, 0, V};
}

inline ApproxWant wantRsqrt(uint64_t A) {
  double X = asD(A);
  if (std::isnan(X) || (X < 0 && !std::isinf(X) && X != 0) || X == -INFINITY)
    return {ApproxWant::Nan, 0, 0};
  if (X == 0)
    return {ApproxWant::Exact, asU(std::signbit(X) ? -INFINITY : INFINITY), 0};
  if (std::isinf(X))
    return {ApproxWant::Exact, 0, 0};
  return {ApproxWant::Near, 0, (double)(1 / std::sqrt((long double)X))};
}

inline bool approxOk(const ApproxWant &W, uint64_t Got) {
  double G = asD(Got);
  switch (W.K) {
  case ApproxWant::Exact:
    return Got == W.Bits;
  case ApproxWant::Nan:
    return std::isnan(G);
  default:
    return std::isfinite(G) &&
           std::fabs(G - W.Val) <= kOurBound * std::fabs(W.Val);
  }
}

inline std::vector<uint64_t> approxInputs() {
  std::vector<uint64_t> In = {
      0x0000000000000000ull, 0x8000000000000000ull, // +-0
      0x7ff0000000000000ull, 0xfff0000000000000ull, // +-Inf
      0x7ff8000000000000ull, 0xfff8000000000001ull, // quiet NaNs
      0x7ff0000000000001ull, 0x7ff4000012345678ull, // signalling NaNs
      0x0000000000000001ull, 0x8000000000000001ull, // smallest subnormals
      0x000fffffffffffffull, 0x800fffffffffffffull, // largest subnormals
      0x0000000100000000ull, 0x0000400000000000ull, // subnormal upper words
      0x0010000000000000ull, 0x8010000000000000ull, // +-DBL_MIN
      0x7fefffffffffffffull, 0xffefffffffffffffull, // +-DBL_MAX
      0x7fe0000000000000ull, 0xffe0000000000000ull, // +-2^1023: rcp flushes
      0x7fd8000000000000ull,                        // 1.5 * 2^1022
      0x3ff0000000000000ull, 0xbff0000000000000ull, // +-1
      0x4010000000000000ull, 0xc000000000000000ull, // 4, -2
      0x3ff00000ffffffffull, 0x3ff0000000000001ull, // 1 + low-word bits
      0x7ff00000ffffffffull, 0xfff0000000000001ull, // NaN only by low word
  };
  uint64_t S = 0x9e3779b97f4a7c15ull;
  for (int K = 0; K < 96; ++K) { // normal numbers of every size, both signs
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t Exp = 1 + (S >> 20) % 2046, Man = S & 0xfffffffffffffull;
    In.push_back((K & 1ull) << 63 | Exp << 52 | Man);
  }
  return In;
}

inline void testApproxF64() {
  const char *Names[3] = {"rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64",
                          "rsqrt.approx.f64"};
  if (!canRun(Names[0]))
    return;
  std::vector<uint64_t> In = approxInputs();
  // Each input also with its low word changed: the .ftz forms must not see it.
  size_t N0 = In.size();
  for (size_t I = 0; I < N0; ++I)
    In.push_back(In[I] ^ 0x00000000a5a5a5a5ull);
  unsigned N = (unsigned)In.size();
  Buf<uint64_t> DI(In), Out(3 * N);
  kApproxF64<<<(N + 127) / 128, 128>>>(DI.D, Out.D, N);
  if (!launched(Names[0]))
    return;
  auto O = Out.get();
  for (unsigned I = 0; I < N; ++I) {
    ApproxWant W[3] = {wantFtz(In[I], false), wantFtz(In[I], true),
                       wantRsqrt(In[I])};
    for (int F = 0; F < 3; ++F) {
      uint64_t Got = O[3 * I + F];
      ++G.Checked;
      if (G.Dump)
        std::fprintf(G.Dump, "%s\tin %llx\t%u\t%llx%s\n", Names[F],
                     (unsigned long long)In[I], I, (unsigned long long)Got,
                     W[F].K == ApproxWant::Near ? "\tapprox" : "");
      bool Ok = approxOk(W[F], Got);
      if (F < 2 && (Got & 0xffffffffull)) // d[31:0] = 0
        Ok = false;
      if (F < 2 && I >= N0 && Got != O[3 * (I - N0) + F]) // a[31:0] ignored
        Ok = false;
      if (!Ok)
        fail(Names[F],
             "in 0x%016llx got 0x%016llx (%.17g) want %s 0x%016llx "
             "(%.17g)",
             (unsigned long long)In[I], (unsigned long long)Got, asD(Got),
             W[F].K == ApproxWant::Exact ? "exactly"
             : W[F].K == ApproxWant::Nan ? "a NaN, not"
                                         : "within 2^-12 of",
             (unsigned long long)(W[F].K == ApproxWant::Near ? asU(W[F].Val)
                                                             : W[F].Bits),
             W[F].K == ApproxWant::Near ? W[F].Val : asD(W[F].Bits));
    }
  }
}

} // namespace ctl
