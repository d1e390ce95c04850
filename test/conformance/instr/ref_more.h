// Independent host reference for the conformance suite's byte-permute modes,
// warp collectives (match, redux, vote.uni) and SIMD video instructions,
// from the PTX ISA text.
// Shares no code with the emulator (runtime/emu/core).
#pragma once
#include "ref.h"
#include <string>

namespace ref {
// prmt.b32.MODE d, a, b, c: the ISA's table of source bytes (of b:a, byte 0
// = a's lowest) for d's bytes 0..3, by mode and selector c[1:0].
enum PrmtMode { F4E, B4E, RC8, ECL, ECR, RC16 };
inline u64 prmtMode(PrmtMode m, u64 a, u64 b, u64 c) {
  static const int kTable[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // rc16
  };
  u64 src = (b & 0xffffffffull) << 32 | (a & 0xffffffffull), r = 0;
  const int *sel = kTable[m][c & 3];
  for (int i = 0; i < 4; ++i)
    r |= (src >> (8 * sel[i]) & 0xff) << (8 * i);
  return r;
}

// Warp collectives over the 32 lanes of thread t's warp (the suite runs
// full warps; lane k of the warp holds v(t - t % 32 + k)).
template <class V> u64 matchAny(u64 t, V v) {
  u64 r = 0, base = t - t % 32;
  for (u64 k = 0; k < 32; ++k)
    if (v(base + k) == v(t))
      r |= 1ull << k;
  return r;
}
// match.all: d = the member mask when all lanes agree, else 0; the
// predicate (bit 32 of the suite's result) says the same.
template <class V> u64 matchAll(u64 t, V v) {
  u64 base = t - t % 32;
  for (u64 k = 0; k < 32; ++k)
    if (v(base + k) != v(base))
      return 0;
  return 0xffffffffull | 1ull << 32;
}
enum ReduxOp { RADD, RMINU, RMINS, RMAXU, RMAXS, RAND, ROR, RXOR };
template <class V> u64 redux(ReduxOp op, u64 t, V v) {
  u64 base = t - t % 32;
  u64 acc = v(base) & 0xffffffffull;
  for (u64 k = 1; k < 32; ++k) {
    u64 x = v(base + k) & 0xffffffffull;
    switch (op) {
    case RADD:
      acc = (acc + x) & 0xffffffffull;
      break;
    case RMINU:
      acc = x < acc ? x : acc;
      break;
    case RMAXU:
      acc = x > acc ? x : acc;
      break;
    case RMINS:
      acc = sext(x, 32) < sext(acc, 32) ? x : acc;
      break;
    case RMAXS:
      acc = sext(x, 32) > sext(acc, 32) ? x : acc;
      break;
    case RAND:
      acc &= x;
      break;
    case ROR:
      acc |= x;
      break;
    case RXOR:
      acc ^= x;
      break;
    }
  }
  return acc;
}
// vote.uni: true when the predicate is the same in all lanes.
template <class P> u64 voteUni(u64 t, P p) {
  u64 base = t - t % 32;
  for (u64 k = 0; k < 32; ++k)
    if (p(base + k) != p(base))
      return 0;
  return 1;
}
} // namespace ref

namespace ref {
// SIMD video vop2/vop4 d, a, b, c (PTX ISA, "SIMD video instructions"; the
// CUDA Math API documents the same per element for __vadd4, __vsadu4, ...):
// n elements of 32/n bits, each extended by its operand's type, combined
// exactly, clamped to d's element range with .sat; d is the elements packed,
// or with .add c plus their sum. op: add sub absdiff min max avrg, or a
// comparison (eq ne lt le gt ge) for vset.
inline u64 video(const char *op, int n, bool sa, bool sb, bool sd, bool satOn,
                 bool add, u64 a, u64 b, u64 c) {
  int w = 32 / n;
  std::string o = op;
  s64 sum = 0;
  u64 packed = 0;
  for (int i = 0; i < n; ++i) {
    u64 ea = a >> (w * i) & mask(w), eb = b >> (w * i) & mask(w);
    s64 x = sa ? sext(ea, w) : (s64)ea, y = sb ? sext(eb, w) : (s64)eb, r;
    if (o == "add")
      r = x + y;
    else if (o == "sub")
      r = x - y;
    else if (o == "absdiff")
      r = x > y ? x - y : y - x;
    else if (o == "min")
      r = std::min(x, y);
    else if (o == "max")
      r = std::max(x, y);
    else if (o == "avrg") // the ISA rounds up at .5 from 0, down below
      r = x + y >= 0 ? (s64)std::floor((x + y + 1) / 2.0)
                     : (s64)std::floor((x + y) / 2.0);
    else
      r = o == "eq"   ? x == y
          : o == "ne" ? x != y
          : o == "lt" ? x < y
          : o == "le" ? x <= y
          : o == "gt" ? x > y
                      : x >= y;
    if (satOn) {
      s64 lo = sd ? -((s64)1 << (w - 1)) : 0;
      s64 hi = sd ? ((s64)1 << (w - 1)) - 1 : ((s64)1 << w) - 1;
      r = std::max(lo, std::min(hi, r));
    }
    sum += r;
    packed |= ((u64)r & mask(w)) << (w * i);
  }
  return add ? (u64)((s64)(c & 0xffffffffull) + sum) & 0xffffffffull : packed;
}
} // namespace ref
