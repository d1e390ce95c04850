// Edge-case inputs of the instruction conformance suite, per operand class.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using u64 = uint64_t;
struct Case {
  u64 a, b, c;
};

namespace cases {
// f32: signed zeros, subnormal extremes, FLT_MIN/MAX, infinities, NaNs with
// payloads, values that make rounding ties (1 + 2^-24, 1 + 3*2^-24) and
// integer-conversion ties (0.5, 1.5, 2.5) and limits (2^31, 2^32, 2^63).
inline std::vector<u64> f32() {
  std::vector<u64> v = {
      0x00000000, 0x00000001, 0x007fffff, 0x00800000, 0x3f800000, 0x3f800001,
      0x3fc00000, 0x3f000000, 0x40200000, 0x40000000, 0x40400000, 0x33800000,
      0x34000000, 0x7f7fffff, 0x7f800000, 0x7fc00000, 0x7fc12345, 0x7fa00001,
      0x4f000000, 0x4f800000, 0x5f000000, 0x4b000001, 0x3effffff, 0x00400000,
      0x1f800000, 0x5f800000};
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] | 0x80000000u);
  return v;
}
inline std::vector<u64> f64() {
  std::vector<u64> v = {0,
                        1,
                        0x000fffffffffffff,
                        0x0010000000000000,
                        0x3ff0000000000000,
                        0x3ff0000000000001,
                        0x3ff8000000000000,
                        0x3fe0000000000000,
                        0x4004000000000000,
                        0x4000000000000000,
                        0x4008000000000000,
                        0x3ca0000000000000,
                        0x3cb0000000000000,
                        0x7fefffffffffffff,
                        0x7ff0000000000000,
                        0x7ff8000000000000,
                        0x7ff8000000012345,
                        0x7ff4000000000001,
                        0x41e0000000000000,
                        0x41f0000000000000,
                        0x43e0000000000000,
                        0x43f0000000000000,
                        0x3810000000000000,
                        0x36a0000000000000,
                        0x47efffffe0000000,
                        0x47efffff00000000,
                        0x3ff0000010000000,
                        0x3ff0000030000000,
                        0x380fffffe0000000,
                        0x4330000000000001,
                        0xc338000000000000,
                        0x3fdfffffffffffff};
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] ^ 0x8000000000000000ull);
  return v;
}
inline std::vector<u64> i32() {
  return {0,          1,          0xffffffff, 2,          0x80000000,
          0x7fffffff, 0x80000001, 0x7ffffffe, 0x12345678, 0xdeadbeef,
          31,         32,         33,         255,        256,
          0xffff,     0x10000,    0x1000001,  0xff000000, 0x8000};
}
inline std::vector<u64> i64() {
  return {0,
          1,
          ~0ull,
          2,
          1ull << 63,
          ~0ull >> 1,
          (1ull << 63) + 1,
          0x123456789abcdef0,
          0xdeadbeefcafef00d,
          0xffffffff,
          0x100000000,
          0x80000000,
          63,
          64,
          0x20000000000001,
          0x20000000000003,
          0xfff0000000000000,
          0x7fffffffffffffc0};
}

// f16: signed zeros, smallest/largest subnormal, smallest normal, 1 and the
// next value, rounding ties for sums and products (2048 + 1, 1 + 2^-11,
// 0.5, 1.5, 2.5), the largest finite value, infinity, NaNs with payloads.
inline std::vector<u64> f16() {
  std::vector<u64> v = {0x0000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x3800,
                        0x3e00, 0x4100, 0x7bff, 0x7c00, 0x7e00, 0x7e12, 0x7c01,
                        0x1000, 0x1400, 0x6800, 0x3555, 0x0200, 0x4200};
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] | 0x8000);
  return v;
}
// bf16: the same kinds of values (256 + 1 and 1 + 2^-8 are ties).
inline std::vector<u64> bf16() {
  std::vector<u64> v = {0x0000, 0x0001, 0x007f, 0x0080, 0x3f80, 0x3f81, 0x3f00,
                        0x3fc0, 0x4020, 0x7f7f, 0x7f80, 0x7fc0, 0x7fc5, 0x7f81,
                        0x3b80, 0x3c00, 0x4380, 0x3eab, 0x0040, 0x4040};
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    v.push_back(v[i] | 0x8000);
  return v;
}
// Two elements in 32 bits: each value in the low half, and in the high half
// a permutation of the list, so both halves see every value.
inline std::vector<u64> x2(const std::vector<u64> &v) {
  std::vector<u64> out;
  for (size_t i = 0; i < v.size(); ++i)
    out.push_back(v[i] | v[(i * 7 + 3) % v.size()] << 16);
  return out;
}

inline void cross(std::vector<Case> &out, const std::vector<u64> &x,
                  const std::vector<u64> &y, const std::vector<u64> &z) {
  for (u64 a : x)
    for (u64 b : y)
      for (u64 c : z)
        out.push_back({a, b, c});
}

// The inputs for operand class `cls`; `extra` random cases more.
inline std::vector<Case> make(const std::string &cls, unsigned extra,
                              std::mt19937_64 &rng) {
  std::vector<Case> out;
  std::vector<u64> one = {0};
  bool isF32 = cls.rfind("f32", 0) == 0, isF64 = cls.rfind("f64", 0) == 0;
  bool isI32 = cls.rfind("i32", 0) == 0, isI64 = cls.rfind("i64", 0) == 0;
  bool isH = cls.rfind("h16", 0) == 0, isBf = cls.rfind("hbf", 0) == 0;
  bool isX2 = (isH || isBf) && cls.find("x2") != std::string::npos;
  std::vector<u64> base = isF32 ? f32() : isF64 ? f64() : isI64 ? i64() : i32();
  if (isH || isBf)
    base = isX2 ? x2(isH ? f16() : bf16()) : isH ? f16() : bf16();
  int arity = cls.back() - '0';
  if (cls == "idx") {
    for (u64 i = 0; i < 256; ++i)
      out.push_back({i, 0, 0});
    return out;
  }
  if (cls == "sh32" || cls == "sh64") {
    cross(out, cls == "sh32" ? i32() : i64(),
          {0, 1, 5, 31, 32, 33, 63, 64, 65, 255, 0x80000000}, one);
  } else if (cls == "bfe") {
    cross(out, {0xdeadbeef, 0x80000000, 0xf0f0f0f0f0f0f0f0, 0x7fffffff},
          {0, 1, 4, 30, 31, 32, 63, 64, 256 + 3},
          {0, 1, 4, 8, 31, 32, 33, 64, 256 + 2});
  } else if (cls == "div16") { // no zero or -1 divisor in the low 16 bits
    std::vector<u64> b;
    for (u64 v : base)
      if ((v & 0xffff) != 0 && (v & 0xffff) != 0xffff)
        b.push_back(v);
    cross(out, base, b, one);
  } else if (cls == "div32" || cls == "div64") {
    std::vector<u64> b;
    for (u64 v : base)
      if (v != 0 && v != (cls == "div32" ? 0xffffffffull : ~0ull))
        b.push_back(v);
    cross(out, base, b, one);
  } else if (arity == 1) {
    cross(out, base, one, one);
  } else if (arity == 2) {
    cross(out, base, base, one);
  } else {
    std::vector<u64> cs;
    for (size_t i = 0; i < base.size(); i += 3)
      cs.push_back(base[i]);
    cross(out, base, base, cs);
  }
  for (unsigned i = 0; i < extra; ++i) {
    u64 r[3] = {rng(), rng(), rng()};
    for (u64 &x : r)
      if (isF32 || isI32 || isX2 || cls == "sh32" || cls == "div32" ||
          cls == "div16" || cls == "bfe")
        x &= 0xffffffffu;
      else if (isH || isBf)
        x &= 0xffffu;
    if (cls.rfind("div", 0) == 0 &&
        (r[1] == 0 || r[1] == 0xffffffff || r[1] == ~0ull ||
         (cls == "div16" &&
          ((r[1] & 0xffff) == 0 || (r[1] & 0xffff) == 0xffff))))
      r[1] = 3;
    out.push_back({r[0], r[1], r[2]});
  }
  return out;
}
} // namespace cases
