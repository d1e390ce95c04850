//===- CmpOps.h - compare and move-like instructions -----------*- C++ -*-===//
//
// The bodies of setp/set and testp (with PTX's ordered and unordered float
// comparisons), and of the small move-like instructions: vector pack and
// unpack, f32/f64 abs/neg as sign-bit operations, cvt.pack to f16x2/bf16x2.
//
// Each is a static inline function for one case of the dispatch switch in
// Interp.cpp (Launcher::exec), its only includer, and is called once there,
// so the compiler inlines it back into the switch: the per-instruction cost
// stays that of one switch. They work on the register file R under the
// execution mask EM; Unsupported reports an operand type the instruction
// does not take (it does not return).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_CMPOPS_H
#define WARPSCOPE_EMU_CORE_CMPOPS_H

#include "Lanes.h"

namespace warpscope::emu::core {

template <class T> static inline bool cmpF(uint8_t C, T A, T B) {
  bool U = std::isnan(A) || std::isnan(B);
  switch (C) {
  case CmpEq:
    return !U && A == B;
  case CmpNe:
    return !U && A != B;
  case CmpLt:
  case CmpLo:
    return !U && A < B;
  case CmpLe:
  case CmpLs:
    return !U && A <= B;
  case CmpGt:
  case CmpHi:
    return !U && A > B;
  case CmpGe:
  case CmpHs:
    return !U && A >= B;
  case CmpEqu:
    return U || A == B;
  case CmpNeu:
    return U || A != B;
  case CmpLtu:
    return U || A < B;
  case CmpLeu:
    return U || A <= B;
  case CmpGtu:
    return U || A > B;
  case CmpGeu:
    return U || A >= B;
  case CmpNum:
    return !U;
  case CmpNan:
    return U;
  }
  return false;
}
template <class T> static inline bool cmpI(uint8_t C, T A, T B) {
  using UT = std::make_unsigned_t<T>;
  switch (C) {
  case CmpEq:
  case CmpEqu:
    return A == B;
  case CmpNe:
  case CmpNeu:
    return A != B;
  case CmpLt:
  case CmpLtu:
    return A < B;
  case CmpLe:
  case CmpLeu:
    return A <= B;
  case CmpGt:
  case CmpGtu:
    return A > B;
  case CmpGe:
  case CmpGeu:
    return A >= B;
  case CmpLo:
    return (UT)A < (UT)B;
  case CmpLs:
    return (UT)A <= (UT)B;
  case CmpHi:
    return (UT)A > (UT)B;
  case CmpHs:
    return (UT)A >= (UT)B;
  default:
    return false;
  }
}

// mov of a vector into one wider register: {a, b, ...} -> d.
static EMU_ALWAYS_INLINE void opPack(const Inst &I, uint64_t *R, uint32_t EM) {
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  unsigned N = I.NS, Total = tySize(T) * 8, Part = Total / N;
  uint64_t PM = Part >= 64 ? ~0ull : (1ull << Part) - 1;
  LANES({
    uint64_t V = 0;
    for (unsigned K = 0; K < N; ++K)
      V |= (R[(size_t)I.S[K] * 32 + l] & PM) << (K * Part);
    D[l] = V;
  });
}

// mov of one register into a vector of narrower ones.
static EMU_ALWAYS_INLINE void opUnpack(const Inst &I, uint64_t *R,
                                       uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const Ty T = I.T;
  unsigned N = I.ND, Total = tySize(T) * 8, Part = Total / N;
  uint64_t PM = Part >= 64 ? ~0ull : (1ull << Part) - 1;
  LANES({
    uint64_t V = A[l];
    for (unsigned K = 0; K < N; ++K)
      if (I.D[K] != SlotSink)
        R[(size_t)I.D[K] * 32 + l] = (V >> (K * Part)) & PM;
  });
}

// abs/neg of f32/f64 without .ftz: flips or clears the sign bit only. A NaN
// gives an unspecified NaN (PTX ISA); sm_90 returns 0x7fffffff for f32 and
// the input with its quiet bit set, sign unchanged, for f64.
static EMU_ALWAYS_INLINE void floatSignOp(const Inst &I, uint64_t *R,
                                          uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Abs = I.Op == OpAbs;
  if (I.T == Ty::F32)
    LANES({
      uint32_t V = (uint32_t)A[l];
      uint32_t Out = Abs ? V & 0x7fffffffu : V ^ 0x80000000u;
      D[l] = (V & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : Out;
    });
  else
    LANES({
      uint64_t V = A[l];
      uint64_t Out = Abs ? V & ~(1ull << 63) : V ^ (1ull << 63);
      D[l] = (V << 1) > (0x7ffull << 53) ? V | (1ull << 51) : Out;
    });
}

static EMU_ALWAYS_INLINE void opTestp(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  LANES({
    double V = T == Ty::F32 ? (double)get<float>(A[l]) : get<double>(A[l]);
    int C2 =
        T == Ty::F32 ? std::fpclassify(get<float>(A[l])) : std::fpclassify(V);
    bool Res;
    switch (I.Sub) {
    case 0:
      Res = std::isfinite(V);
      break;
    case 1:
      Res = std::isinf(V);
      break;
    case 2:
      Res = !std::isnan(V);
      break;
    case 3:
      Res = std::isnan(V);
      break;
    case 4: // PTX ISA: "positive and negative zero are considered normal"
      Res = C2 == FP_NORMAL || C2 == FP_ZERO;
      break;
    default:
      Res = C2 == FP_SUBNORMAL;
      break;
    }
    D[l] = Res;
  });
}

// setp/set on f16/bf16 elements (.ftz flushes f16 subnormals; both f16
// and bf16 are exact in float): Res for the low elements, Res2 for the high
// ones of x2 operands.
EMU_COLD static void halfCmp(uint8_t Cm, bool Bf, bool Ftz, bool X2,
                             const uint64_t *A, const uint64_t *B, uint32_t EM,
                             bool *Res, bool *Res2) {
  auto Get = [&](uint64_t V, unsigned Sh) {
    uint32_t H = (uint32_t)(V >> Sh) & 0xffff;
    if (Ftz && !Bf && (H & 0x7c00) == 0)
      H &= 0x8000;
    return halfGet(H, Bf);
  };
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    Res[L] = cmpF<float>(Cm, Get(A[L], 0), Get(B[L], 0));
    if (X2)
      Res2[L] = cmpF<float>(Cm, Get(A[L], 16), Get(B[L], 16));
  }
}

// Integer setp with one predicate (the probes' `setp.ne.and.u32` too): the
// comparison and the boolean combine chosen once per instruction, not per
// lane. False for other forms.
static EMU_ALWAYS_INLINE bool setpIntFast(const Inst &I, uint64_t *R,
                                          uint32_t EM) {
  if (I.Op != OpSetp || I.ND != 1)
    return false;
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const uint8_t Cm = I.Sub;
  const uint64_t Neg = (I.Flags & FNegC) ? 1 : 0;
  return intDispatch(I.T, [&](auto Tag) {
    using X = decltype(Tag);
    auto Go = [&](auto Pred) {
      switch (I.Bool) {
      case BoolNone:
        LANES(D[l] = Pred(get<X>(A[l]), get<X>(B[l])));
        return;
      case BoolAnd:
        LANES(D[l] = Pred(get<X>(A[l]), get<X>(B[l])) & ((C[l] & 1) ^ Neg));
        return;
      case BoolOr:
        LANES(D[l] = Pred(get<X>(A[l]), get<X>(B[l])) | ((C[l] & 1) ^ Neg));
        return;
      default:
        LANES(D[l] = Pred(get<X>(A[l]), get<X>(B[l])) ^ ((C[l] & 1) ^ Neg));
        return;
      }
    };
    // cmpI with the comparison as a constant: its switch folds away.
    auto By = [&](auto K) {
      Go([](X P, X Q) { return cmpI<X>(decltype(K)::value, P, Q); });
    };
    switch (Cm) {
#define WS_CMP(C)                                                              \
  case C:                                                                      \
    return By(std::integral_constant<uint8_t, C>{});
      WS_CMP(CmpEq)
      WS_CMP(CmpEqu)
      WS_CMP(CmpNe)
      WS_CMP(CmpNeu)
      WS_CMP(CmpLt)
      WS_CMP(CmpLtu)
      WS_CMP(CmpLe)
      WS_CMP(CmpLeu)
      WS_CMP(CmpGt)
      WS_CMP(CmpGtu)
      WS_CMP(CmpGe)
      WS_CMP(CmpGeu)
      WS_CMP(CmpLo)
      WS_CMP(CmpLs)
      WS_CMP(CmpHi)
      WS_CMP(CmpHs)
#undef WS_CMP
    default: // the float-only comparisons: whatever cmpI says
      return Go([Cm](X P, X Q) { return cmpI<X>(Cm, P, Q); });
    }
  });
}

// setp/set, with the optional boolean combine and second predicate (the
// complement, or for x2 operands the high elements' comparison).
template <class Fn>
static EMU_ALWAYS_INLINE void opSetp(const Inst &I, uint64_t *R, uint32_t EM,
                                     Fn &&Unsupported) {
  if (setpIntFast(I, R, EM))
    return;
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  uint8_t Cm = I.Sub;
  Ty ST = I.Op == OpSet ? I.T2 : T;
  bool Res[32], Res2[32]; // Res2: the high elements of a x2 comparison
  bool Ftz = I.Flags & FFtz, X2 = false;
  auto Cmp = [&](auto Tag) {
    using X = decltype(Tag);
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1))
        continue;
      X P = get<X>(A[L]), Q = get<X>(B[L]);
      if constexpr (std::is_floating_point_v<X>) {
        if (Ftz && std::is_same_v<X, float>) {
          P = ftz32(P);
          Q = ftz32(Q);
        }
        Res[L] = cmpF<X>(Cm, P, Q);
      } else {
        Res[L] = cmpI<X>(Cm, P, Q);
      }
    }
  };
  switch (ST) {
  case Ty::F32:
    Cmp(float{});
    break;
  case Ty::F64:
    Cmp(double{});
    break;
  case Ty::F16:
  case Ty::BF16:
  case Ty::F16x2:
  case Ty::BF16x2:
    X2 = ST == Ty::F16x2 || ST == Ty::BF16x2;
    halfCmp(Cm, ST == Ty::BF16 || ST == Ty::BF16x2, Ftz, X2, A, B, EM, Res,
            Res2);
    break;
  default:
    if (!intDispatch(ST, Cmp))
      Unsupported();
  }
  bool NegC = I.Flags & FNegC;
  uint64_t *D2 = R + (size_t)I.D[1] * 32;
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    bool V = Res[L], V2 = X2 ? Res2[L] : !Res[L];
    if (I.Bool) {
      bool Cv = ((C[L] & 1) != 0) != NegC;
      switch (I.Bool) {
      case BoolAnd:
        V = V && Cv;
        V2 = V2 && Cv;
        break;
      case BoolOr:
        V = V || Cv;
        V2 = V2 || Cv;
        break;
      default:
        V = V != Cv;
        V2 = V2 != Cv;
        break;
      }
    }
    if (I.Op == OpSetp) {
      D[L] = V;
      if (I.ND > 1)
        D2[L] = V2;
    } else {
      if (T == Ty::F32)
        D[L] = V ? 0x3f800000u : 0;
      else if (T == Ty::F16 || T == Ty::BF16 || T == Ty::F16x2 ||
               T == Ty::BF16x2) {
        uint32_t One = T == Ty::F16 || T == Ty::F16x2 ? 0x3c00 : 0x3f80;
        D[L] = (V ? One : 0) |
               (T == Ty::F16x2 || T == Ty::BF16x2 ? (V2 ? One : 0) << 16 : 0);
      } else
        D[L] = V ? (tySize(T) == 8 ? ~0ull : 0xffffffffull) : 0;
    }
  }
}

// cvt.rn.f16x2.f32 d, a, b: d = {a -> hi, b -> lo}
static EMU_ALWAYS_INLINE void opCvtPack(const Inst &I, uint64_t *R,
                                        uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Bf = T == Ty::BF16x2;
  int Mode = I.Rnd == RndNone ? (int)RndRn : (int)I.Rnd;
  LANES({
    float X = get<float>(A[l]), Y = get<float>(B[l]);
    uint32_t Hi = Bf ? toBF16(X, Mode) : toF16(X, Mode),
             Lo = Bf ? toBF16(Y, Mode) : toF16(Y, Mode);
    if (I.Flags & FRelu) { // negative (and -0, as sm_90) to +0
      Hi = std::isnan(X) || X > 0 ? Hi : 0;
      Lo = std::isnan(Y) || Y > 0 ? Lo : 0;
    }
    D[l] = (Hi << 16) | Lo;
  });
}
static EMU_ALWAYS_INLINE void opSelp(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  bool Neg = I.Flags & FNegC;
  LANES(D[l] = (((C[l] & 1) != 0) != Neg) ? A[l] : B[l]);
}

static EMU_ALWAYS_INLINE void opSlct(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  if (I.T2 == Ty::F32)
    LANES(D[l] = get<float>(C[l]) >= 0.0f ? A[l] : B[l]);
  else
    LANES(D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
}
} // namespace warpscope::emu::core

#endif
