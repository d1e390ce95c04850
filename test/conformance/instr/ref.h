// Independent host reference for the instruction conformance suite: PTX ISA
// semantics written directly from the ISA text with host IEEE arithmetic
// (fesetround; built with -frounding-math) or exact integer methods. It does
// not share code with the emulator (runtime/emu/core) on purpose.
#pragma once
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace ref {
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using s32 = int32_t;
using s64 = int64_t;

enum Rm { RN, RZ, RM, RP };
// Expected value of an .approx case whose input lies outside the range the
// ISA bounds the error on (a NaN payload no arithmetic produces).
constexpr u64 kUnbounded = 0x7ff8dead0000beefull;

inline float f(u64 b) {
  u32 v = (u32)b;
  float x;
  std::memcpy(&x, &v, 4);
  return x;
}
inline double d(u64 b) {
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}
inline u64 bits(float x) {
  u32 v;
  std::memcpy(&v, &x, 4);
  return v;
}
inline u64 bits(double x) {
  u64 v;
  std::memcpy(&v, &x, 8);
  return v;
}

// Runs fn under the host rounding mode that matches the PTX modifier.
template <class F> auto rounded(Rm rm, F fn) {
  static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                              FE_UPWARD};
  std::fesetround(modes[rm]);
  auto r = fn();
  std::fesetround(FE_TONEAREST);
  return r;
}

// .ftz: subnormal inputs and results become zero of the same sign.
inline float ftz(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
inline float fz(bool on, float x) { return on ? ftz(x) : x; }
// .sat: clamp to [0, 1]; NaN becomes +0.
inline float sat(float x) {
  if (std::isnan(x))
    return 0.0f;
  if (x <= 0.0f)
    return 0.0f;
  return x > 1.0f ? 1.0f : x;
}
inline double sat(double x) {
  if (std::isnan(x))
    return 0.0;
  if (x <= 0.0)
    return 0.0;
  return x > 1.0 ? 1.0 : x;
}

// f32/f64 arithmetic: op selects + - * fma / sqrt rcp.
enum Op { ADD, SUB, MUL, FMA, DIV, SQRT, RCP };
// One operation in T under the current rounding mode; volatile keeps the
// compiler from folding it under the default mode.
template <class T> T arith(Op op, T x, T y, T z) {
  volatile T vx = x, vy = y, vz = z;
  switch (op) {
  case ADD:
    return vx + vy;
  case SUB:
    return vx - vy;
  case MUL:
    return vx * vy;
  case FMA:
    return std::fma((T)vx, (T)vy, (T)vz);
  case DIV:
    return vx / vy;
  case SQRT:
    return std::sqrt((T)vx);
  case RCP:
    return T(1) / vx;
  }
  return T(0);
}
// .ftz flushes a tiny result to a zero of its sign, tininess detected after
// rounding (IEEE 754, what sm_90 does): the exact value rounded to 24 bits
// with an unbounded exponent is below 2^-126. That differs from the rounded
// result only where the latter is +-2^-126; there, the operation on
// operands scaled by 2^32 (exactly: a tiny exact result needs a small
// product, quotient or radicand) gives the unbounded rounding times 2^32.
inline bool tinyAfterRounding(Op op, Rm rm, float x, float y, float z) {
  const float s = 0x1p32f;
  if (op == MUL || op == FMA) { // scale the smaller factor
    if (std::fabs(x) > std::fabs(y))
      std::swap(x, y);
  }
  float r = rounded(rm, [&] {
    switch (op) {
    case SQRT:
      return arith(op, x * s * s, y, z);
    case RCP:
      return arith(op, x / s, y, z);
    case ADD:
    case SUB:
      return arith(op, x * s, y * s, z);
    default: // mul, div, fma
      return arith(op, x * s, y, z * s);
    }
  });
  return std::fabs(r) < 0x1p-94f;
}
inline u64 f32op(Op op, Rm rm, bool ftzOn, bool satOn, u64 a, u64 b, u64 c) {
  float x = fz(ftzOn, f(a)), y = fz(ftzOn, f(b)), z = fz(ftzOn, f(c));
  float r = rounded(rm, [&] { return arith(op, x, y, z); });
  if (ftzOn && std::fabs(r) == 0x1p-126f && tinyAfterRounding(op, rm, x, y, z))
    r = std::copysign(0.0f, r);
  r = fz(ftzOn, r);
  if (satOn)
    r = sat(r);
  return bits(r);
}
inline u64 f64op(Op op, Rm rm, u64 a, u64 b, u64 c) {
  double x = d(a), y = d(b), z = d(c);
  double r = rounded(rm, [&] { return arith(op, x, y, z); });
  return bits(r);
}

// min/max (ISA: a NaN operand yields the other one; two NaNs give the
// canonical NaN; -0 orders below +0).
template <class T> T fminmax(bool isMax, T x, T y, T canon) {
  if (std::isnan(x) && std::isnan(y))
    return canon;
  if (std::isnan(x))
    return y;
  if (std::isnan(y))
    return x;
  if (x == y && x == 0)
    return (std::signbit(x) != isMax) ? x : y;
  return isMax ? (x > y ? x : y) : (x < y ? x : y);
}
inline u64 f32minmax(bool isMax, bool ftzOn, u64 a, u64 b) {
  float canon;
  u32 cb = 0x7fffffffu;
  std::memcpy(&canon, &cb, 4);
  float r = fminmax(isMax, fz(ftzOn, f(a)), fz(ftzOn, f(b)), canon);
  return std::isnan(r) ? 0x7fffffffu : bits(r);
}
// min.NaN/max.NaN: a NaN operand gives the canonical NaN.
inline u64 f32minmaxNaN(bool isMax, u64 a, u64 b) {
  if (std::isnan(f(a)) || std::isnan(f(b)))
    return 0x7fffffffu;
  return f32minmax(isMax, false, a, b);
}
inline u64 f64minmax(bool isMax, u64 a, u64 b) {
  double r = fminmax(isMax, d(a), d(b), 0.0);
  if (std::isnan(d(a)) && std::isnan(d(b)))
    return 0x7fffffffffffffffull;
  return bits(r);
}

// abs/neg only touch the sign bit (.ftz flushes the input first).
inline u64 f32abs(bool ftzOn, u64 a) {
  return bits(fz(ftzOn, f(a))) & 0x7fffffffu;
}
inline u64 f32neg(bool ftzOn, u64 a) {
  return bits(fz(ftzOn, f(a))) ^ 0x80000000u;
}

// Float to integer with saturation (ISA: cvt to int saturates). NaN (ISA,
// cvt "Integer Notes"): 0 if the source is not .f64 and the destination not
// 64-bit, else 1 << (width - 1).
template <class I, class T> I toInt(Rm rm, T x) {
  if (std::isnan(x))
    return sizeof(T) == 8 || sizeof(I) == 8
               ? (I)(std::make_unsigned_t<I>)(1ull << (8 * sizeof(I) - 1))
               : 0;
  T r = rounded(rm, [&] { return std::nearbyint(x); });
  if (r <= (T)std::numeric_limits<I>::min())
    return std::numeric_limits<I>::min();
  if (r >= (T)std::numeric_limits<I>::max())
    return std::numeric_limits<I>::max();
  return (I)r;
}
// Round to integral in the same float type (cvt.rni.f32.f32 and kin).
template <class T> T toIntegral(Rm rm, T x) {
  return rounded(rm, [&] { return std::nearbyint(x); });
}
// Integer to float under a rounding mode.
template <class T, class I> T fromInt(Rm rm, I v) {
  return rounded(rm, [&] {
    volatile I vv = v;
    return (T)vv;
  });
}
inline float f64tof32(Rm rm, bool ftzOn, double x) {
  float r = rounded(rm, [&] {
    volatile double vx = x;
    return (float)vx;
  });
  // .ftz: tininess after rounding, as in tinyAfterRounding.
  if (ftzOn && std::fabs(r) == 0x1p-126f && std::fabs(rounded(rm, [&] {
                                              volatile double vx = x * 0x1p32;
                                              return (float)vx;
                                            })) < 0x1p-94f)
    r = std::copysign(0.0f, r);
  return fz(ftzOn, r);
}

// f32 (or an exact double) to a narrower binary format (f16: 10 stored
// significand bits, exponents -14..15; bf16: 7 bits, -126..127) under a
// rounding mode, by exact scaling in double: the value is a whole number of
// quanta.
inline u64 narrow(Rm rm, double x, int mant, int emin, int emax) {
  u64 sign = std::signbit(x) ? 1ull << (mant + (emax == 15 ? 5 : 8)) : 0;
  int expBits = emax == 15 ? 5 : 8;
  u64 infBits = ((1ull << expBits) - 1) << mant;
  if (std::isnan(x))
    return sign | infBits | (1ull << (mant - 1));
  if (std::isinf(x))
    return sign | infBits;
  bool neg = std::signbit(x);
  double a = std::fabs((double)x);
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e);
  int qe = std::max(e - 1 - mant, emin - mant);
  double n = std::ldexp(a, -qe), fl = std::floor(n), frac = n - fl;
  double r = fl;
  if (rm == RN)
    r = frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2) == 1) ? fl + 1 : fl;
  else if ((rm == RM && neg) || (rm == RP && !neg))
    r = frac > 0 ? fl + 1 : fl;
  double v = std::ldexp(r, qe);
  if (v >= std::ldexp(1.0, emax + 1)) {
    bool toInf = rm == RN || (rm == RM && neg) || (rm == RP && !neg);
    return sign | (toInf ? infBits : infBits - 1);
  }
  if (v < std::ldexp(1.0, emin))
    return sign | (u64)std::ldexp(v, mant - emin);
  int ev;
  std::frexp(v, &ev);
  u64 bexp = (u64)(ev - 1 + (emax));
  u64 m = (u64)(std::ldexp(v, mant - (ev - 1))) - (1ull << mant);
  return sign | bexp << mant | m;
}
// cvt.rna.tf32.f32: f32 rounded to 10 stored significand bits, ties away
// from zero, as an f32 bit pattern (low 13 bits zero), by exact scaling in
// double; subnormals keep the f32 exponent range. NaN gives a NaN.
inline u64 tf32Rna(float x) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return bits(x);
  double a = std::fabs((double)x);
  int e;
  std::frexp(a, &e);
  int qe = std::max(e - 1, -126) - 10;
  double r = std::floor(std::ldexp(a, -qe) + 0.5); // ties away: magnitude
  return bits((float)std::copysign(std::ldexp(r, qe), (double)x));
}
// f16 bits to f32 (exact).
inline u64 f16tof32(u64 h) {
  int e = (h >> 10) & 31;
  double m = (double)(h & 1023);
  double v = e == 0    ? std::ldexp(m, -24)
             : e == 31 ? (m != 0 ? NAN : INFINITY)
                       : std::ldexp(1024 + m, e - 25);
  return bits((float)(h & 0x8000 ? -v : v));
}

// Integer helpers with exact semantics.
inline u64 mulhiU(u64 a, u64 b, int w) {
  if (w == 32)
    return ((a & 0xffffffffu) * (b & 0xffffffffu)) >> 32;
  return (u64)(((unsigned __int128)a * b) >> 64);
}
inline u64 mulhiS(u64 a, u64 b, int w) {
  if (w == 32)
    return (u32)(((s64)(s32)a * (s64)(s32)b) >> 32);
  return (u64)(((__int128)(s64)a * (__int128)(s64)b) >> 64);
}
inline u64 mask(int w) { return w == 64 ? ~0ull : ((1ull << w) - 1); }
inline s64 sext(u64 v, int w) {
  return w == 64 ? (s64)v : (s64)(v << (64 - w)) >> (64 - w);
}
// div/rem by zero: the ISA leaves the result unspecified; the suite only
// feeds divisors that are not zero (and skips INT_MIN / -1 overflow).
inline u64 shl(u64 a, u64 b, int w) {
  u32 s = (u32)b;
  return s >= (u32)w ? 0 : (a << s) & mask(w);
}
inline u64 shrU(u64 a, u64 b, int w) {
  u32 s = (u32)b;
  return s >= (u32)w ? 0 : (a & mask(w)) >> s;
}
inline u64 shrS(u64 a, u64 b, int w) {
  u32 s = (u32)b;
  s64 v = sext(a, w);
  return (u64)(v >> (s >= (u32)w ? w - 1 : s)) & mask(w);
}
inline u64 popc(u64 a) { return (u64)__builtin_popcountll(a); }
inline u64 clz(u64 a, int w) {
  a &= mask(w);
  return a == 0 ? w : __builtin_clzll(a) - (64 - w);
}
inline u64 brev(u64 a, int w) {
  u64 r = 0;
  for (int i = 0; i < w; ++i)
    if (a >> i & 1)
      r |= 1ull << (w - 1 - i);
  return r;
}
// bfind: position of the most significant non-sign bit; 0xffffffff if none.
inline u64 bfind(u64 a, int w, bool isSigned, bool shiftAmt) {
  a &= mask(w);
  if (isSigned && sext(a, w) < 0)
    a = ~a & mask(w);
  if (a == 0)
    return 0xffffffffu;
  u64 pos = 63 - __builtin_clzll(a);
  return shiftAmt ? (w - 1 - pos) : pos;
}
// bfe: extract len bits at pos, sign- or zero-extended; pos/len beyond the
// width follow the ISA's clamping. The ISA restricts both to 0..255 and its
// pseudocode takes their low 8 bits: so does sm_90 for .b32, while .b64
// clamps larger values (any from 64 on acts alike; H200, 2026-11-27).
inline u64 bfe(u64 a, u64 b, u64 c, int w, bool isSigned) {
  u32 pos = (u32)b & 0xff, len = (u32)c & 0xff;
  if (w == 64) {
    pos = std::min<u32>((u32)b, 255);
    len = std::min<u32>((u32)c, 255);
  }
  a &= mask(w);
  bool sbit = false;
  if (isSigned)
    sbit =
        (len == 0)
            ? false
            : (a >> (pos + len - 1 < (u32)w - 1 ? pos + len - 1 : (u32)w - 1)) &
                  1;
  u64 r = 0;
  for (u32 i = 0; i < (u32)w; ++i) {
    bool bit;
    if (i < len && pos + i <= (u32)w - 1)
      bit = a >> (pos + i) & 1;
    else
      bit = sbit;
    if (bit)
      r |= 1ull << i;
  }
  return r;
}
inline u64 bfi(u64 a, u64 b, u64 c, u64 dd, int w) {
  u32 pos = (u32)c & 0xff, len = (u32)dd & 0xff;
  u64 r = b & mask(w);
  for (u32 i = 0; i < len && pos + i < (u32)w; ++i) {
    u64 bit = 1ull << (pos + i);
    r = (r & ~bit) | (((a >> i) & 1) << (pos + i));
  }
  return r;
}
// prmt default mode: bytes 0-3 of a and 4-7 of b; selector nibble bit 3
// replicates the chosen byte's sign bit.
inline u64 prmt(u64 a, u64 b, u64 c) {
  u64 src = (b & 0xffffffffull) << 32 | (a & 0xffffffffull), r = 0;
  for (int i = 0; i < 4; ++i) {
    u32 sel = (u32)(c >> (4 * i)) & 0xf;
    u64 byte = src >> (8 * (sel & 7)) & 0xff;
    if (sel & 8)
      byte = (byte & 0x80) ? 0xff : 0;
    r |= byte << (8 * i);
  }
  return r;
}
// lop3: result bit = lut bit at index (a << 2 | b << 1 | c).
inline u64 lop3(u64 a, u64 b, u64 c, u32 lut) {
  u64 r = 0;
  for (int i = 0; i < 32; ++i) {
    u32 idx = (u32)((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1));
    r |= (u64)(lut >> idx & 1) << i;
  }
  return r;
}
inline u64 dp4a(u64 a, u64 b, u64 c) {
  s64 sum = (s32)c;
  for (int i = 0; i < 4; ++i)
    sum += (s64)(int8_t)(a >> (8 * i)) * (s64)(int8_t)(b >> (8 * i));
  return (u64)sum & 0xffffffffull;
}
} // namespace ref
