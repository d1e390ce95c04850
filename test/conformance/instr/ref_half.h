// Independent host reference for the f16/bf16 instructions of the conformance
// suite (add sub mul fma min max neg abs, .ftz .sat .relu, x2 packing, set).
// Each operation is computed in double rounded to odd (truncation under
// FE_TOWARDZERO, lowest bit set when the host reports it inexact), which
// keeps enough information for one correct rounding to the 11- or 8-bit
// significand (round-to-nearest-even, ref::narrow). Shares no code with the
// emulator (runtime/emu/core).
#pragma once
#include "ref.h"
#include <cfenv>
#include <string>

namespace ref {
// A 16-bit binary format: exponent and stored significand bits.
struct Fmt {
  int exp, mant;
};
constexpr Fmt F16{5, 10}, BF16{8, 7};
constexpr u64 kHalfNaN = 0x7fff; // canonical NaN of both formats

inline int hbias(Fmt F) { return (1 << (F.exp - 1)) - 1; }
inline u64 hexpField(u64 h, Fmt F) {
  return (h >> F.mant) & ((1u << F.exp) - 1);
}
inline u64 hmantField(u64 h, Fmt F) { return h & ((1u << F.mant) - 1); }
inline bool hIsNan(u64 h, Fmt F) {
  return hexpField(h, F) == (1u << F.exp) - 1 && hmantField(h, F) != 0;
}
inline bool hIsSub(u64 h, Fmt F) {
  return hexpField(h, F) == 0 && hmantField(h, F) != 0;
}
// The exact value of h (NaN for NaNs).
inline double hval(u64 h, Fmt F) {
  u64 e = hexpField(h, F), m = hmantField(h, F);
  double v;
  if (e == (1u << F.exp) - 1)
    v = m ? NAN : INFINITY;
  else if (e == 0)
    v = std::ldexp((double)m, 1 - hbias(F) - F.mant);
  else
    v = std::ldexp((double)(m | 1u << F.mant), (int)e - hbias(F) - F.mant);
  return (h & 0x8000) ? -v : v;
}
// .ftz: a subnormal becomes a zero of the same sign.
inline u64 hfz(bool on, u64 h, Fmt F) {
  return on && hIsSub(h, F) ? (h & 0x8000) : h;
}
// Correct rounding (nearest even) of x to the format.
inline u64 hround(double x, Fmt F) {
  return narrow(RN, x, F.mant, 1 - hbias(F), hbias(F));
}

// fn() evaluated in double, rounded to odd.
template <class Fn> double roundOdd(Fn fn) {
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_INEXACT);
  double r = fn();
  bool inexact = std::fetestexcept(FE_INEXACT);
  std::fesetround(FE_TONEAREST);
  return inexact && !std::isnan(r) ? d(bits(r) | 1) : r;
}

enum HOp { HADD, HSUB, HMUL, HFMA };
// One element: d = a op b (op c) with the modifiers. NaN results are
// kHalfNaN (the checks accept any NaN, except .relu, which the ISA makes
// canonical).
inline u64 hop1(HOp op, Fmt F, bool ftzOn, bool satOn, bool relu, u64 a, u64 b,
                u64 c) {
  a = hfz(ftzOn, a & 0xffff, F);
  b = hfz(ftzOn, b & 0xffff, F);
  c = hfz(ftzOn, c & 0xffff, F);
  double x = hval(a, F), y = hval(b, F), z = hval(c, F);
  double r = roundOdd([&] {
    volatile double vx = x, vy = y, vz = z;
    switch (op) {
    case HADD:
      return vx + vy;
    case HSUB:
      return vx - vy;
    case HMUL:
      return vx * vy;
    case HFMA:
      return std::fma((double)vx, (double)vy, (double)vz);
    }
    return 0.0;
  });
  if (std::isnan(r))
    return satOn ? 0 : kHalfNaN;
  // .ftz flushes a tiny result, tininess after rounding (see ref.h's
  // tinyAfterRounding): r rounded to the significand with an unbounded
  // exponent, i.e. 2r rounded in the normal range, is below the smallest
  // normal.
  double minNormal = std::ldexp(1.0, 1 - hbias(F));
  if (ftzOn && std::fabs(r) < minNormal &&
      std::fabs(hval(hround(2 * r, F), F)) < 2 * minNormal)
    r = std::copysign(0.0, r);
  u64 h = hfz(ftzOn, hround(r, F), F);
  double v = hval(h, F);
  if (satOn)
    h = v <= 0 ? 0 : v >= 1 ? hround(1.0, F) : h;
  if (relu && v < 0)
    h = 0;
  return h;
}

// min/max: a NaN operand gives the other one, two NaNs (or one with .NaN)
// the canonical NaN; -0 orders below +0.
inline u64 hminmax1(bool isMax, bool nanMode, Fmt F, bool ftzOn, u64 a, u64 b) {
  a = hfz(ftzOn, a & 0xffff, F);
  b = hfz(ftzOn, b & 0xffff, F);
  bool na = hIsNan(a, F), nb = hIsNan(b, F);
  if ((na && nb) || (nanMode && (na || nb)))
    return kHalfNaN;
  if (na)
    return b;
  if (nb)
    return a;
  double x = hval(a, F), y = hval(b, F);
  if (x == 0 && y == 0) {
    bool aNeg = (a & 0x8000) != 0;
    return isMax ? (aNeg ? b : a) : (aNeg ? a : b);
  }
  return (isMax ? x >= y : x <= y) ? a : b;
}

// neg/abs: the sign bit of the (flushed) input.
inline u64 hneg1(Fmt F, bool ftzOn, u64 a) {
  return hfz(ftzOn, a & 0xffff, F) ^ 0x8000;
}
inline u64 habs1(Fmt F, bool ftzOn, u64 a) {
  return hfz(ftzOn, a & 0xffff, F) & 0x7fff;
}

// Comparison of two elements as setp/set define it (u: unordered true).
inline bool hcmp(const char *cmp, Fmt F, u64 a, u64 b) {
  double x = hval(a & 0xffff, F), y = hval(b & 0xffff, F);
  bool un = std::isnan(x) || std::isnan(y);
  std::string c = cmp;
  bool u = c.size() == 3 && c[2] == 'u' && c != "num";
  std::string base = u ? c.substr(0, 2) : c;
  if (base == "num")
    return !un;
  if (base == "nan")
    return un;
  if (un)
    return u;
  if (base == "eq")
    return x == y;
  if (base == "ne")
    return x != y;
  if (base == "lt")
    return x < y;
  if (base == "le")
    return x <= y;
  if (base == "gt")
    return x > y;
  return x >= y; // ge
}

// Two elements packed in 32 bits: fn on the low halves, then the high ones.
template <class Fn> u64 x2(Fn fn, u64 a, u64 b, u64 c) {
  u64 lo = fn(a & 0xffff, b & 0xffff, c & 0xffff) & 0xffff;
  u64 hi = fn(a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff) & 0xffff;
  return hi << 16 | lo;
}
} // namespace ref
