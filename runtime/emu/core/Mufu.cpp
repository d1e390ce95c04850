//===- Mufu.cpp - the GPU's approximate (.approx) instructions ------------===//
//
// Each MUFU function splits its argument's fraction into a segment index
// (the top 3, 6 or 7 bits) and a 16- or 17-bit offset x, and sums one
// quadratic per segment in fixed point,
//
//   P = C0 + C1 * x + (C2 * sq(x) << SH2),
//
// with sq a truncated squarer; the result's significand is P shifted
// right (rounding is folded into C0), or P normalised and truncated. This
// is the multifunction interpolator of Oberman and Siu (ARITH 2005), the
// design of NVIDIA's SFU since G80. The coefficients (MufuTables.inc) come
// from the GPU's results (benchmarks/gpu/approx_tables.py); the widths,
// shifts, exponent and special-value handling below are the ones under
// which every result approx_dump recorded on an H200 comes out bit-exact.
//
//===----------------------------------------------------------------------===//
#include "Mufu.h"
#include "Ptx.h"

#include <cmath>
#include <cstring>

namespace warpscope::emu::core::mufu {
namespace {

struct MufuSeg {
  int64_t C0;
  int32_t C1, C2;
};
#include "MufuTables.inc"

constexpr uint32_t CanonicalNaN = 0x7fffffffu;
constexpr uint32_t SignBit = 0x80000000u;
constexpr uint32_t InfF32 = 0x7f800000u;
constexpr uint32_t OneF32 = 0x3f800000u;

float asFloat(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}
uint32_t bitsOf(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}
double asDouble(uint64_t B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}
uint64_t bitsOf(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return B;
}

/// The squarer array: bit I of X (17 bits) adds the partial product
/// X >> (18 - I), halved at the end; the bits shifted out are what the
/// hardware drops. The rows sum to the partial products b_i b_j 2^(i+j-18)
/// with i + j >= 18: with H = X >> 9 that is H^2 plus cross products of
/// H's bits with X's bits 2..8, linear in each, so two tables (4 KB each,
/// built at compile time) over H's nibbles give it; the loop per call made
/// the units three times slower.
constexpr uint32_t sqRows(uint32_t X) {
  uint32_t R = 0;
  for (int I = 2; I < 17; ++I)
    if ((X >> I) & 1)
      R += X >> (18 - I);
  return R;
}
struct SqCrossTables {
  uint16_t Lo[1 << 11] = {}, Hi[1 << 11] = {}; // [nibble << 7 | X[8:2]]
  constexpr SqCrossTables() {
    for (uint32_t K = 0; K < (1u << 11); ++K) {
      uint32_t N = K >> 7, L = (K & 0x7f) << 2;
      Lo[K] = (uint16_t)(sqRows(N << 9 | L) - N * N);
      Hi[K] = (uint16_t)(sqRows(N << 13 | L) - (N << 4) * (N << 4));
    }
  }
};
constexpr SqCrossTables SqCross;

inline uint32_t sqTrunc(uint32_t X) {
  uint32_t H = X >> 9, L = (X >> 2) & 0x7f;
  return (H * H + SqCross.Lo[(H & 15) << 7 | L] +
          SqCross.Hi[H >> 4 << 7 | L]) >>
         1;
}

inline int64_t interp(const MufuSeg &S, uint32_t X, uint32_t SqIn, int Sh2) {
  return S.C0 + (int64_t)S.C1 * X +
         (int64_t)S.C2 * (int64_t)(sqTrunc(SqIn) << Sh2);
}

/// Normalises a positive fixed-point P with FracBits fraction bits to an
/// f32 (no sign), truncating to 24 significant bits.
inline uint32_t normalise(int64_t P, int FracBits) {
  int Lead = 63 - __builtin_clzll((uint64_t)P);
  uint64_t V = (uint64_t)P;
  uint32_t Mant = (uint32_t)(Lead >= 23 ? V >> (Lead - 23) : V << (23 - Lead));
  return (uint32_t)(127 + Lead - FracBits) << 23 | (Mant & 0x7fffff);
}

/// 2/1.m in [1, 2] with 23 fraction bits, for a 23-bit fraction M.
inline int64_t rcpSignificand(uint32_t M) {
  uint32_t X = M & 0xffff;
  return interp(MufuRcpTable[M >> 16], X, X << 1, 0) >> 15;
}

/// 1/sqrt of 1.m * 2^Odd in (0.5, 1) with 24 fraction bits.
inline int64_t rsqrtSignificand(uint32_t M, int Odd) {
  uint32_t F = M | (uint32_t)Odd << 23;
  return interp(MufuRsqrtTable[F >> 17], F & 0x1ffff, F & 0x1ffff, 2) >> 16;
}

} // namespace

uint32_t rcp(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0)
    return Sign | InfF32;
  if (E == 0xff)
    return M ? CanonicalNaN : Sign;
  int64_t Q = rcpSignificand(M);
  int RE = 253 - (int)E; // 1/(1.m 2^e) = (2/1.m) 2^(-e-1)
  if (Q == 1 << 24) {    // 1/1.0
    Q = 1 << 23;
    ++RE;
  }
  if (RE <= 0)
    return Sign;
  return Sign | (uint32_t)RE << 23 | (uint32_t)(Q & 0x7fffff);
}

uint32_t rsqrt(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0)
    return Sign | InfF32;
  if ((E == 0xff && M) || Sign)
    return CanonicalNaN;
  if (E == 0xff)
    return 0;
  int Ex = (int)E - 127, Odd = Ex & 1, Half = (Ex - Odd) / 2;
  if (M == 0 && !Odd) // powers of 4 bypass the table
    return (uint32_t)(127 - Half) << 23;
  return (uint32_t)(126 - Half) << 23 |
         (uint32_t)(rsqrtSignificand(M, Odd) & 0x7fffff);
}

uint32_t sqrt(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0)
    return Sign;
  if ((E == 0xff && M) || Sign)
    return CanonicalNaN;
  if (E == 0xff)
    return InfF32;
  int Ex = (int)E - 127, Odd = Ex & 1, Half = (Ex - Odd) / 2;
  uint32_t F = M | (uint32_t)Odd << 23;
  int64_t Q = interp(MufuSqrtTable[F >> 17], F & 0x1ffff, F & 0x1ffff, 1) >> 17;
  return (uint32_t)(127 + Half) << 23 | (uint32_t)(Q & 0x7fffff);
}

uint32_t ex2(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0xff)
    return M ? CanonicalNaN : Sign ? 0 : InfF32;
  if (E == 0)
    return OneF32;
  // x in fixed point with 23 fraction bits, truncated; |x| >= 128 saturates.
  int Sh = (int)E - 127;
  if (Sh >= 7)
    return Sign ? 0 : InfF32;
  uint32_t V = M | 1u << 23;
  uint32_t Fx = Sh >= 0 ? V << Sh : Sh > -24 ? V >> -Sh : 0;
  int I = (int)(Fx >> 23);
  uint32_t F = Fx & 0x7fffff;
  if (Sign) { // 2^-(i + f) = 2^(-i-1) 2^(1 - f), 1 - f as f's complement
    I = F ? -I - 1 : -I;
    F = F ? ~F & 0x7fffff : 0;
  }
  int64_t Q = interp(MufuEx2Table[F >> 17], F & 0x1ffff, F & 0x1ffff, 0) >> 15;
  int RE = I + 127;
  if (Q == 1 << 24) {
    Q = 1 << 23;
    ++RE;
  }
  if (RE <= 0)
    return 0;
  if (RE >= 255)
    return InfF32;
  return (uint32_t)RE << 23 | (uint32_t)(Q & 0x7fffff);
}

uint32_t lg2(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0)
    return SignBit | InfF32;
  if ((E == 0xff && M) || Sign)
    return CanonicalNaN;
  if (E == 0xff)
    return InfF32;
  // log2 x with 36 fraction bits; a negative sum becomes its one's
  // complement with the sign apart.
  int64_t R = 0;
  if (M || E != 127)
    R = interp(MufuLg2Table[M >> 17], M & 0x1ffff, M & 0x1ffff, 1) >> 2;
  R += ((int64_t)E - 127) * ((int64_t)1 << 36);
  uint32_t S = 0;
  if (R < 0) {
    S = SignBit;
    R = ~R;
  }
  return R ? S | normalise(R, 36) : S;
}

uint32_t sinCos(uint32_t R, bool Cos) {
  uint32_t Sign = R & SignBit, E = (R >> 23) & 0xff, M = R & 0x7fffff;
  if (E == 0xff)
    return CanonicalNaN;
  // Quadrants (four per revolution) with 23 fraction bits, truncated, of
  // which two integer bits are kept.
  uint64_t Fx = 0;
  int Sh = (int)E - 125;
  uint64_t V = M | 1u << 23;
  if (E != 0 && Sh < 25)
    Fx = (Sh >= 0 ? V << Sh : Sh > -24 ? V >> -Sh : 0) & 0x1ffffff;
  // Branch-free: the quadrant of a varying argument is not predictable.
  uint32_t Quad = (uint32_t)(Fx >> 23) + Cos, F = Fx & 0x7fffff;
  F ^= (0u - (Quad & 1)) & 0x7fffff; // falling quarters: sin(pi/2 (1 - f))
  uint32_t S = (Cos ? 0 : Sign) ^ (Quad & 2) << 30;
  int64_t P = interp(MufuSinTable[F >> 17], F & 0x1ffff, F & 0x1ffff, 0);
  return P ? S | normalise(P, 37) : S;
}

uint32_t tanh(uint32_t X) {
  uint32_t Sign = X & SignBit, E = (X >> 23) & 0xff, M = X & 0x7fffff;
  if (E == 0xff && M)
    return CanonicalNaN;
  if (E < 119) // |x| < 2^-8: x itself
    return X;
  if (E >= 130) // |x| >= 8
    return Sign | OneF32;
  if (E == 127) { // the binade whose table the GPU's sweep fixed
    uint32_t Xo = (M >> 3) & 0x1ffff;
    return Sign | normalise(interp(MufuTanhTable[M >> 20], Xo, Xo, 1), 37);
  }
  // Other binades: no table measured (see docs/emulator.md); the exact
  // function, rounded.
  return bitsOf((float)std::tanh((double)asFloat(X)));
}

uint32_t rcp64h(uint32_t Hi) {
  uint32_t Sign = Hi & SignBit, E = (Hi >> 20) & 0x7ff, M = Hi & 0xfffff;
  if (E == 0)
    return Sign | 0x7ff00000u;
  if (E == 0x7ff)
    return M ? CanonicalNaN : Sign;
  // The f32 datapath on the 20 fraction bits, truncated to 20 bits.
  int64_t Q = rcpSignificand(M << 3) >> 3;
  int RE = 2045 - (int)E;
  if (Q == 1 << 21) {
    Q = 1 << 20;
    ++RE;
  }
  if (RE <= 0)
    return Sign;
  return Sign | (uint32_t)RE << 20 | (uint32_t)(Q & 0xfffff);
}

uint32_t rsqrt64h(uint32_t Hi) {
  uint32_t Sign = Hi & SignBit, E = (Hi >> 20) & 0x7ff, M = Hi & 0xfffff;
  if (E == 0)
    return Sign | 0x7ff00000u;
  if ((E == 0x7ff && M) || Sign)
    return CanonicalNaN;
  if (E == 0x7ff)
    return 0;
  int Ex = (int)E - 1023, Odd = Ex & 1, Half = (Ex - Odd) / 2;
  if (M == 0 && !Odd)
    return (uint32_t)(1023 - Half) << 20;
  return (uint32_t)(1022 - Half) << 20 |
         (uint32_t)((rsqrtSignificand(M << 3, Odd) >> 3) & 0xfffff);
}

namespace {

// ptxas's sequences around the units for the forms without .ftz: a
// subnormal argument is scaled into the normal range and the result back
// (FSETP.GEU |x|, 2^-126 then FMUL, so NaN takes the plain path).
constexpr float MinNormal = 0x1p-126f;

uint32_t rsqrtF32(uint32_t X) {
  float V = asFloat(X);
  if (!(std::fabs(V) < MinNormal))
    return rsqrt(X);
  return bitsOf(asFloat(rsqrt(bitsOf(V * 0x1p24f))) * 0x1p12f);
}

uint32_t sqrtF32(uint32_t X) {
  float V = asFloat(X);
  if (!(std::fabs(V) < MinNormal))
    return sqrt(X);
  return bitsOf(asFloat(sqrt(bitsOf(V * 0x1p24f))) * 0x1p-12f);
}

/// Also a result below 2^-126 is scaled (the unit flushes it): checked on
/// the GPU's conformance results only (clang does not emit this form).
uint32_t rcpF32(uint32_t X) {
  float V = asFloat(X);
  if (std::fabs(V) < MinNormal)
    return bitsOf(asFloat(rcp(bitsOf(V * 0x1p24f))) * 0x1p24f);
  if (std::fabs(V) > 0x1p126f)
    return bitsOf(asFloat(rcp(bitsOf(V * 0x1p-24f))) * 0x1p-24f);
  return rcp(X);
}

uint32_t lg2F32(uint32_t X) {
  float V = asFloat(X);
  if (!(std::fabs(V) < MinNormal))
    return lg2(X);
  return bitsOf(asFloat(lg2(bitsOf(V * 0x1p24f))) - 24.0f);
}

/// Below -126 the result is subnormal: 2^(x/2), squared by a non-flushing
/// FMUL.
uint32_t ex2F32(uint32_t X) {
  float V = asFloat(X);
  if (!(V < -126.0f))
    return ex2(X);
  float H = asFloat(ex2(bitsOf(V * 0.5f)));
  return bitsOf(H * H);
}

/// FMUL.RZ by 1/(2 pi) rounded to f32, then the unit on revolutions. The
/// product of two f32 is exact in double; dropping its 29 extra fraction
/// bits is the RZ product. Below 2^-126 the unit reads zero either way, and
/// it maps infinities and NaNs alike to NaN.
uint32_t revolutions(uint32_t X) {
  double P = (double)asFloat(X) * (double)0x1.45f306p-3f;
  if (std::fabs(P) < 0x1p-126)
    return X & SignBit;
  return bitsOf((float)asDouble(bitsOf(P) & ~0x1fffffffull));
}
uint32_t sinF32(uint32_t X) { return sinCos(revolutions(X), false); }
uint32_t cosF32(uint32_t X) { return sinCos(revolutions(X), true); }

} // namespace

UnaryF32 approxF32(uint16_t Op, bool Ftz) {
  switch (Op) {
  case OpRcp:
    return Ftz ? rcp : rcpF32;
  case OpSqrt:
    return Ftz ? sqrt : sqrtF32;
  case OpRsqrt:
    return Ftz ? rsqrt : rsqrtF32;
  case OpEx2:
    return Ftz ? ex2 : ex2F32;
  case OpLg2:
    return Ftz ? lg2 : lg2F32;
  case OpSin:
    return sinF32;
  case OpCos:
    return cosF32;
  case OpTanh:
    return tanh;
  default:
    return nullptr;
  }
}

namespace {
// One loop per form, so that the form inlines into it (a call through a
// pointer per lane cost a third of the time).
template <uint32_t (*Fn)(uint32_t)>
void lanes(uint32_t EM, uint64_t *D, const uint64_t *A) {
  for (int L = 0; L < 32; ++L)
    if ((EM >> L) & 1)
      D[L] = Fn((uint32_t)A[L]);
}
} // namespace

bool approxLanesF32(uint16_t Op, bool Ftz, uint32_t EM, uint64_t *D,
                    const uint64_t *A) {
  switch (Op) {
  case OpRcp:
    Ftz ? lanes<rcp>(EM, D, A) : lanes<rcpF32>(EM, D, A);
    return true;
  case OpSqrt:
    Ftz ? lanes<sqrt>(EM, D, A) : lanes<sqrtF32>(EM, D, A);
    return true;
  case OpRsqrt:
    Ftz ? lanes<rsqrt>(EM, D, A) : lanes<rsqrtF32>(EM, D, A);
    return true;
  case OpEx2:
    Ftz ? lanes<ex2>(EM, D, A) : lanes<ex2F32>(EM, D, A);
    return true;
  case OpLg2:
    Ftz ? lanes<lg2>(EM, D, A) : lanes<lg2F32>(EM, D, A);
    return true;
  case OpSin:
    lanes<sinF32>(EM, D, A);
    return true;
  case OpCos:
    lanes<cosF32>(EM, D, A);
    return true;
  case OpTanh:
    lanes<tanh>(EM, D, A);
    return true;
  default:
    return false;
  }
}

uint32_t divApproxF32(uint32_t A, uint32_t B, bool Ftz) {
  // x * rcp(y); without .ftz a subnormal y is scaled by 2^24 and the
  // quotient back. FMUL's NaN is canonical.
  float X = asFloat(A), Y = asFloat(B), Q;
  if (Ftz) {
    if (std::fpclassify(X) == FP_SUBNORMAL)
      X = std::copysign(0.0f, X);
    Q = X * asFloat(rcp(B));
    if (std::fpclassify(Q) == FP_SUBNORMAL)
      Q = std::copysign(0.0f, Q);
  } else if (std::fabs(Y) < MinNormal) {
    Q = X * asFloat(rcp(bitsOf(Y * 0x1p24f))) * 0x1p24f;
  } else {
    Q = X * asFloat(rcp(B));
  }
  return std::isnan(Q) ? CanonicalNaN : bitsOf(Q);
}

uint64_t rcpApproxFtzF64(uint64_t X) {
  return (uint64_t)rcp64h((uint32_t)(X >> 32)) << 32;
}

uint64_t rsqrtApproxFtzF64(uint64_t X) {
  return (uint64_t)rsqrt64h((uint32_t)(X >> 32)) << 32;
}

namespace {
/// y0 from the unit, then one step y0 + y0 e (1/2 + 3/8 e), e = 1 - x y0^2.
uint64_t rsqrtNormalF64(double X) {
  uint64_t XB = bitsOf(X);
  double Y0 = asDouble((uint64_t)rsqrt64h((uint32_t)(XB >> 32)) << 32);
  double R = Y0 * Y0;
  double Err = std::fma(-R, X, 1.0);
  double H = std::fma(Err, 0.375, 0.5);
  double T = Y0 * Err;
  return bitsOf(std::fma(H, T, Y0));
}
} // namespace

uint64_t rsqrtApproxF64(uint64_t X) {
  // Special operands leave the sequence: NaN is quieted, x < 0 gives the
  // default NaN, a subnormal x is scaled by 2^64 and the result by 2^32.
  double V = asDouble(X);
  if (std::isnan(V))
    return X | 0x0008000000000000ull;
  if (V == 0)
    return (X & 0x8000000000000000ull) | 0x7ff0000000000000ull;
  if (V < 0)
    return 0xfff8000000000000ull;
  if (std::isinf(V))
    return 0;
  if (std::fpclassify(V) == FP_SUBNORMAL)
    return bitsOf(asDouble(rsqrtNormalF64(V * 0x1p64)) * 0x1p32);
  return rsqrtNormalF64(V);
}

} // namespace warpscope::emu::core::mufu
