//===- Lanes.h - lane values and PTX arithmetic semantics -------*- C++ -*-===//
//
// What every instruction body of the executor shares: a register slot's 32
// lane values read and written as C++ types, loops over the executing lanes,
// dispatch on integer types, and PTX's float semantics (ftz, saturation,
// NaN-aware min/max, f16/bf16 elements). Header-only and static inline so
// that each executor source inlines them into its lane loops.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_LANES_H
#define WARPSCOPE_EMU_CORE_LANES_H

#include "Ptx.h"
#include "Round.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace warpscope::emu::core {

/// For the instruction bodies in IntOps.h and CmpOps.h: split out of
/// Launcher::exec's switch for reading, they must still compile into it as
/// they did when written inline (GCC's inline growth limits would leave the
/// larger ones as calls on the hot path).
#if defined(__GNUC__)
#define EMU_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define EMU_ALWAYS_INLINE inline
#endif
/// The opposite, for rare instructions' bodies (video, half compares) that
/// must not grow Launcher::exec.
#if defined(__GNUC__)
#define EMU_COLD __attribute__((noinline, cold))
#else
#define EMU_COLD
#endif

template <class T> static inline T get(uint64_t V) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B = (uint32_t)V;
    float F;
    std::memcpy(&F, &B, 4);
    return F;
  } else if constexpr (std::is_same_v<T, double>) {
    double D;
    std::memcpy(&D, &V, 8);
    return D;
  } else {
    return (T)V;
  }
}
template <class T> static inline uint64_t put(T V) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B;
    std::memcpy(&B, &V, 4);
    return B;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t B;
    std::memcpy(&B, &V, 8);
    return B;
  } else if constexpr (std::is_same_v<T, bool>) {
    return V ? 1 : 0;
  } else {
    return (uint64_t)(std::make_unsigned_t<T>)V;
  }
}

/// cvt.rna.tf32.f32: the f32 rounded to 10 mantissa bits, ties away from
/// zero (adding half an ulp to the magnitude), low 13 bits zero. A NaN
/// keeps its sign and top payload bits, as on sm_90 (the ISA leaves the
/// payload open); one whose payload lies in the low 13 bits only (not seen
/// on a GPU) becomes the canonical NaN 0x7fffffff.
static inline uint32_t cvtRnaTf32(uint32_t U) {
  if ((U & 0x7fffffffu) > 0x7f800000u)
    return (U & 0x007fe000u) ? U & 0xffffe000u : 0x7fffffffu;
  return (U + 0x1000u) & 0xffffe000u;
}

// A full warp's lanes are independent: lane l reads only lane l of its
// sources, and a destination register is either one of the sources exactly
// or disjoint from them. Telling GCC so lets -O2 vectorize the loop without
// runtime alias checks (its cheap cost model allows none).
#if defined(__GNUC__) && !defined(__clang__)
#define EMU_LANES_INDEPENDENT _Pragma("GCC ivdep")
#else
#define EMU_LANES_INDEPENDENT
#endif

#define LANES(...)                                                             \
  do {                                                                         \
    if (EM == 0xffffffffu) {                                                   \
      EMU_LANES_INDEPENDENT                                                    \
      for (int l = 0; l < 32; ++l) {                                           \
        __VA_ARGS__;                                                           \
      }                                                                        \
    } else {                                                                   \
      for (int l = 0; l < 32; ++l)                                             \
        if ((EM >> l) & 1u) {                                                  \
          __VA_ARGS__;                                                         \
        }                                                                      \
    }                                                                          \
  } while (0)

template <class T, class Fn>
static inline void un(uint32_t EM, uint64_t *D, const uint64_t *A, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]))));
}
template <class T, class Fn>
static inline void bin(uint32_t EM, uint64_t *D, const uint64_t *A,
                       const uint64_t *B, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]), get<T>(B[l]))));
}
template <class T, class Fn>
static inline void tern(uint32_t EM, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]), get<T>(B[l]), get<T>(C[l]))));
}

// Calls F with a value of the C++ type for an integer PTX type.
template <class Fn> static inline bool intDispatch(Ty T, Fn &&F) {
  switch (T) {
  case Ty::S8:
    F(int8_t{});
    return true;
  case Ty::U8:
  case Ty::B8:
    F(uint8_t{});
    return true;
  case Ty::S16:
    F(int16_t{});
    return true;
  case Ty::U16:
  case Ty::B16:
    F(uint16_t{});
    return true;
  case Ty::S32:
    F(int32_t{});
    return true;
  case Ty::U32:
  case Ty::B32:
    F(uint32_t{});
    return true;
  case Ty::S64:
    F(int64_t{});
    return true;
  case Ty::U64:
  case Ty::B64:
    F(uint64_t{});
    return true;
  default:
    return false;
  }
}
template <class Fn> static inline bool uintDispatch(Ty T, Fn &&F) {
  switch (tySize(T)) {
  case 1:
    F(uint8_t{});
    return true;
  case 2:
    F(uint16_t{});
    return true;
  case 4:
    F(uint32_t{});
    return true;
  case 8:
    F(uint64_t{});
    return true;
  default:
    return false;
  }
}

static inline float ftz32(float X) {
  return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(0.0f, X) : X;
}
// .sat: [0, 1]; NaN and both zeros give +0 (-0 is in the ISA's range, but
// sm_90 returns +0 for it).
static inline float sat32(float X) {
  return !(X > 0) ? 0.0f : X > 1 ? 1.0f : X;
}
static inline double sat64(double X) {
  return !(X > 0) ? 0.0 : X > 1 ? 1.0 : X;
}

// PTX canonical NaN (0x7fffffff for f32).
template <class T> static inline T canonicalNaN() {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B = 0x7fffffffu;
    float F;
    std::memcpy(&F, &B, 4);
    return F;
  } else {
    uint64_t B = 0x7fffffffffffffffull;
    double D;
    std::memcpy(&D, &B, 8);
    return D;
  }
}
// NaN results of float arithmetic: the ISA leaves the payload open; these
// are what sm_90 returns (H200 run of 2026-11-27, docs/emulator.md). f32
// gives the canonical NaN; f64 gives the first NaN operand in the order the
// caller passes (b, a for add, sub and mul; b, c, a for fma; a, b for div)
// with its quiet bit set, or the default NaN of an invalid operation (R).
static inline float canonF32(float X) {
  return X != X ? canonicalNaN<float>() : X;
}
static inline double quiet64(double X) {
  return get<double>(put<double>(X) | 0x0008000000000000ull);
}
// nanPick64's choice as bits, without branches (vectorisable on SSE2): X
// quieted when X is a NaN (|X| + 2^52 - 1 reaches the sign bit), else R.
static inline uint64_t nanOr64(uint64_t X, uint64_t R) {
  uint64_t M =
      0 - (((X & 0x7fffffffffffffffull) + 0x000fffffffffffffull) >> 63);
  return (R & ~M) | ((X | 0x0008000000000000ull) & M);
}
static inline double nanPick64(double R, double P, double Q, double S = 0) {
  if (R == R)
    return R;
  return P != P ? quiet64(P) : Q != Q ? quiet64(Q) : S != S ? quiet64(S) : R;
}

template <class T> static inline T fminPtx(T A, T B, bool Nan) {
  if (std::isnan(A) || std::isnan(B)) {
    if (Nan || (std::isnan(A) && std::isnan(B)))
      return canonicalNaN<T>();
    return std::isnan(A) ? B : A;
  }
  if (A == 0 && B == 0)
    return std::signbit(A) ? A : B;
  return A < B ? A : B;
}
template <class T> static inline T fmaxPtx(T A, T B, bool Nan) {
  if (std::isnan(A) || std::isnan(B)) {
    if (Nan || (std::isnan(A) && std::isnan(B)))
      return canonicalNaN<T>();
    return std::isnan(A) ? B : A;
  }
  if (A == 0 && B == 0)
    return std::signbit(A) ? B : A;
  return A > B ? A : B;
}

// Half-precision element access: f16/bf16 as float.
static inline float halfGet(uint32_t B, bool Bf) {
  return Bf ? fromBF16((uint16_t)B) : fromF16((uint16_t)B);
}
// F is rounded once, from double (callers pass exact or round-to-odd values,
// see HalfOps.cpp).
static inline uint32_t halfPut(double F, bool Bf, int Mode = RndRn) {
  return Bf ? toBF16(F, Mode) : toF16(F, Mode);
}

// Portable SWAR popcount (the library is built without -mpopcnt, where
// __builtin_popcount becomes a libgcc call).
static inline uint32_t popc32(uint32_t X) {
  X = X - ((X >> 1) & 0x55555555u);
  X = (X & 0x33333333u) + ((X >> 2) & 0x33333333u);
  X = (X + (X >> 4)) & 0x0f0f0f0fu;
  return (X * 0x01010101u) >> 24;
}

} // namespace warpscope::emu::core

#endif
