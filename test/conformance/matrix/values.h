// Host side of the warp matrix suite: element encodings, input generators
// and the reference product. Plain host code, independent of the emulator.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

// Element kinds of matrices in memory (tf32 is stored as f32).
enum Kind { KF16, KBF16, KTF32, KF32, KF64, KS8, KU8, KS32 };

inline unsigned kindSize(Kind k) {
  switch (k) {
  case KF16:
  case KBF16:
    return 2;
  case KS8:
  case KU8:
    return 1;
  case KF64:
    return 8;
  default:
    return 4;
  }
}
inline bool kindInt(Kind k) { return k == KS8 || k == KU8 || k == KS32; }

// Exact encoding of v in a binary format with e exponent and m fraction
// bits (NaN: the quiet NaN with only the top fraction bit). False when v is
// not representable: the suite's inputs and exact results always are.
inline bool encodeFP(double v, int e, int m, uint64_t &out) {
  uint64_t sign = (uint64_t)std::signbit(v) << (e + m);
  uint64_t expAll = ((1ull << e) - 1) << m;
  int bias = (1 << (e - 1)) - 1;
  if (std::isnan(v)) {
    out = expAll | 1ull << (m - 1);
    return true;
  }
  if (std::isinf(v) || v == 0) {
    out = sign | (v == 0 ? 0 : expAll);
    return true;
  }
  int ex = 0;
  std::frexp(std::fabs(v), &ex);
  int E = ex - 1 < 1 - bias ? 1 - bias : ex - 1;
  if (E > bias)
    return false;
  double sig = std::ldexp(std::fabs(v), m - E);
  if (sig != std::floor(sig))
    return false;
  uint64_t s = (uint64_t)sig;
  if (s < (1ull << m)) // subnormal
    out = sign | s;
  else
    out = sign | (uint64_t)(E + bias) << m | (s - (1ull << m));
  return true;
}

inline double decodeFP(uint64_t b, int e, int m) {
  int bias = (1 << (e - 1)) - 1;
  uint64_t frac = b & ((1ull << m) - 1);
  int ex = (int)((b >> m) & ((1ull << e) - 1));
  double s = (b >> (e + m)) & 1 ? -1.0 : 1.0;
  if (ex == (1 << e) - 1)
    return frac ? NAN : s * INFINITY;
  if (ex == 0)
    return s * std::ldexp((double)frac, 1 - bias - m);
  return s * std::ldexp((double)(frac | 1ull << m), ex - bias - m);
}

inline bool encode(Kind k, double v, uint64_t &out) {
  switch (k) {
  case KF16:
    return encodeFP(v, 5, 10, out);
  case KBF16:
    return encodeFP(v, 8, 7, out);
  case KTF32: // 10 fraction bits, stored in the top 19 bits of an f32
    if (!encodeFP(v, 8, 10, out))
      return false;
    out <<= 13;
    return true;
  case KF32:
    return encodeFP(v, 8, 23, out);
  case KF64:
    std::memcpy(&out, &v, 8);
    return true;
  case KS8:
    out = (uint8_t)(int8_t)v;
    return v >= -128 && v <= 127;
  case KU8:
    out = (uint8_t)v;
    return v >= 0 && v <= 255;
  default:
    out = (uint32_t)(int32_t)v;
    return v >= INT32_MIN && v <= INT32_MAX;
  }
}

inline double decode(Kind k, uint64_t b) {
  switch (k) {
  case KF16:
    return decodeFP(b, 5, 10);
  case KBF16:
    return decodeFP(b, 8, 7);
  case KTF32:
  case KF32:
    return decodeFP(b & 0xffffffffu, 8, 23);
  case KF64: {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
  }
  case KS8:
    return (int8_t)b;
  case KU8:
    return (uint8_t)b;
  default:
    return (int32_t)b;
  }
}

struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  int range(int lo, int hi) {
    return lo + (int)(next() % (uint64_t)(hi - lo + 1));
  }
};

// Input modes. Exact: small integers times powers of two, so that every
// product and every partial sum is exact in the accumulator type and D does
// not depend on the (unspecified) accumulation order. Special: exact plus
// signed zeros, infinities and NaNs. Subnormal: f16 subnormal multiplicands.
// General: full-precision values in [-1, 1), checked within a bound.
// Saturate: integer extremes and accumulators near the s32 limits.
// Fill: exact, but A set by fill_fragment and C negated element by element
// in its fragment (x[i] = -x[i]), as epilogues do.
enum Mode { MExact, MSpecial, MSubnormal, MGeneral, MSaturate, MFill };
inline const char *modeName(Mode m) {
  static const char *n[] = {"exact",   "special",  "subnormal",
                            "general", "saturate", "fill"};
  return n[m];
}

enum Role { RA, RB, RC };

// One input value of kind k for mode m and matrix role. Exact grid: A is a
// multiple of 2^(shift-2) up to 8 of them, B of 2^-1 up to 8, C of
// 2^(shift-3) up to 512: products and C share the unit 2^(shift-3) and every
// partial sum has at most 16 * 64 + 512 < 2^11 units, exact even in f16.
inline double inputValue(Rng &r, Kind k, Mode m, Role role, int shift) {
  if (kindInt(k)) {
    if (role == RC)
      return m == MSaturate ? (r.next() & 1 ? INT32_MAX - r.range(0, 1 << 20)
                                            : INT32_MIN + r.range(0, 1 << 20))
                            : r.range(-(1 << 24), 1 << 24);
    bool ext = m == MSaturate && (r.next() & 1);
    if (k == KS8)
      return ext ? (r.next() & 1 ? -128 : 127) : r.range(-128, 127);
    return ext ? 255 : r.range(0, 255);
  }
  if (m == MGeneral) { // random bits of the type in [-1, 1)
    uint64_t b = r.next(), e = (uint64_t)r.range(100, 126);
    switch (k) {
    case KF16:
      return decode(k, (b & 0x83ff) | (uint64_t)r.range(0, 14) << 10);
    case KBF16:
      return decode(k, (b & 0x807f) | e << 7);
    case KTF32:
      return decode(k, (b & 0x807fe000u) | e << 23);
    case KF32:
      return decode(k, (b & 0x807fffffu) | e << 23);
    default:
      return std::ldexp((double)(int64_t)(b >> 11) - 0x1p52, -52);
    }
  }
  if (m == MSubnormal) // f16 subnormal A and C, small integer B
    return role == RB ? r.range(-8, 8)
                      : std::ldexp(r.range(role == RA ? -8 : -512,
                                           role == RA ? 8 : 512),
                                   -24);
  if (role == RC)
    return std::ldexp(r.range(-512, 512), shift - 3);
  return std::ldexp(r.range(-8, 8), role == RA ? shift - 2 : -1);
}

inline double specialValue(Rng &r) {
  static const double v[] = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  return v[r.next() % 5];
}

// D = C + sum_k A[m][k] B[k][n] in double, k ascending. Exact (so any order
// gives it) for the exact, special and subnormal modes and for integers;
// for the general mode also the sum of |terms|, for the error bound.
struct RefOut {
  std::vector<double> d, absSum;
};
inline RefOut reference(int M, int N, int K, const std::vector<double> &A,
                        const std::vector<double> &B,
                        const std::vector<double> &C, bool integer, bool satf) {
  RefOut o;
  o.d.resize((size_t)M * N);
  o.absSum.resize((size_t)M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double c = C[(size_t)m * N + n];
      if (integer) {
        int64_t acc = (int64_t)c;
        for (int k = 0; k < K; ++k)
          acc += (int64_t)A[(size_t)m * K + k] * (int64_t)B[(size_t)k * N + n];
        if (satf)
          acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        else // two's complement wrap to 32 bits
          acc = (int32_t)(uint32_t)(uint64_t)acc;
        o.d[(size_t)m * N + n] = (double)acc;
        continue;
      }
      double acc = c, abs = std::fabs(c);
      for (int k = 0; k < K; ++k) {
        double p = A[(size_t)m * K + k] * B[(size_t)k * N + n];
        acc += p;
        abs += std::fabs(p);
      }
      o.d[(size_t)m * N + n] = acc;
      o.absSum[(size_t)m * N + n] = abs;
    }
  return o;
}

// Unit roundoff of an accumulation: f16 when C or D is f16 (the hardware
// may accumulate in f16 then), f64 for f64, else f32.
inline double unitRoundoff(Kind c, Kind d) {
  if (c == KF16 || d == KF16)
    return std::ldexp(1.0, -11);
  return c == KF64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
}

// The general mode's bound on |D - exact|: K + 1 additions, each with an
// error of at most one unit in the last place (2u: the tensor cores' order
// and rounding of the additions are not specified by the ISA, and
// truncating adders are allowed for), relative to the sum of |terms|; plus
// the rounding of an f16 D, relative and (subnormals) absolute.
inline double generalBound(int K, Kind c, Kind d, double absSum, double exact) {
  double u = unitRoundoff(c, d);
  double b = 2.0 * (K + 1) * u * absSum;
  if (d == KF16)
    b += std::ldexp(std::fabs(exact), -11) + std::ldexp(1.0, -24);
  return b;
}
