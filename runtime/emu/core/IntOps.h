//===- IntOps.h - integer and bit-manipulation instructions ----*- C++ -*-===//
//
// The bodies of the integer instructions: add/sub with carries, mul/mad in
// all widths, div/rem, abs/neg, min/max, shifts, sad, dp4a/dp2a, and the
// bit manipulations (brev, bfind, bfe, bfi, prmt, lop3, shf).
//
// Each is a static inline function for one case of the dispatch switch in
// Interp.cpp (Launcher::exec), its only includer, and is called once there,
// so the compiler inlines it back into the switch: the per-instruction cost
// stays that of one switch. They work on the register file R under the
// execution mask EM; Unsupported reports an operand type the instruction
// does not take (it does not return).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_INTOPS_H
#define WARPSCOPE_EMU_CORE_INTOPS_H

#include "Lanes.h"

#include <algorithm>

namespace warpscope::emu::core {

// and/or/xor on whole registers (predicates hold 0 or 1).
static EMU_ALWAYS_INLINE void opLogic(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  if (I.Op == OpAnd)
    LANES(D[l] = A[l] & B[l]);
  else if (I.Op == OpOr)
    LANES(D[l] = A[l] | B[l]);
  else
    LANES(D[l] = A[l] ^ B[l]);
}

static EMU_ALWAYS_INLINE void opNot(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  if (T == Ty::Pred)
    LANES(D[l] = (A[l] & 1) ^ 1);
  else {
    unsigned S = tySize(T);
    uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
    LANES(D[l] = ~A[l] & M);
  }
}

static EMU_ALWAYS_INLINE void opCnot(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  unsigned S = tySize(T);
  uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
  LANES(D[l] = (A[l] & M) == 0 ? 1 : 0);
}

static EMU_ALWAYS_INLINE void opPopc(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  if (tySize(T) == 8)
    LANES(D[l] = (uint64_t)__builtin_popcountll(A[l]));
  else
    LANES(D[l] = (uint64_t)__builtin_popcount((uint32_t)A[l]));
}

static EMU_ALWAYS_INLINE void opClz(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  if (tySize(T) == 8)
    LANES(D[l] = A[l] ? (uint64_t)__builtin_clzll(A[l]) : 64);
  else
    LANES(D[l] = (uint32_t)A[l] ? (uint64_t)__builtin_clz((uint32_t)A[l]) : 32);
}
// Integer add/sub, with carry in/out (.cc, addc/subc) and s32 saturation.
template <class Fn>
static EMU_ALWAYS_INLINE void intAddSub(const Inst &I, uint64_t *R, uint32_t EM,
                                        Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Sub = I.Op == OpSub;
  if (I.Flags & (FCcIn | FCcOut)) {
    uint64_t *CC = R + (size_t)SlotCC * 32;
    bool In = I.Flags & FCcIn, Out = I.Flags & FCcOut;
    if (tySize(T) == 4) {
      LANES({
        uint64_t X = (uint32_t)A[l], Y = (uint32_t)B[l], Ci = In ? CC[l] : 0;
        uint64_t Res = Sub ? X - Y - Ci : X + Y + Ci;
        D[l] = (uint32_t)Res;
        if (Out)
          CC[l] = Sub ? ((Res >> 32) & 1) : (Res >> 32);
      });
    } else {
      LANES({
        uint64_t X = A[l], Y = B[l], Ci = In ? CC[l] : 0;
        unsigned __int128 Res =
            Sub ? (unsigned __int128)X - Y - Ci : (unsigned __int128)X + Y + Ci;
        D[l] = (uint64_t)Res;
        if (Out)
          CC[l] = (uint64_t)(Res >> 64) & 1;
      });
    }
    return;
  }
  if (I.Flags & FSat && T == Ty::S32) {
    LANES({
      int64_t Res = Sub ? (int64_t)(int32_t)A[l] - (int32_t)B[l]
                        : (int64_t)(int32_t)A[l] + (int32_t)B[l];
      Res = std::min<int64_t>(std::max<int64_t>(Res, INT32_MIN), INT32_MAX);
      D[l] = (uint32_t)(int32_t)Res;
    });
    return;
  }
  if (!uintDispatch(T, [&](auto Tag) {
        using U = decltype(Tag);
        if (Sub)
          bin<U>(EM, D, A, B, [](U X, U Y) { return (U)(X - Y); });
        else
          bin<U>(EM, D, A, B, [](U X, U Y) { return (U)(X + Y); });
      }))
    Unsupported();
}

// Integer mul/mad: .lo, .hi, .wide, and the carry chain of mad.cc/madc.
template <class Fn>
static EMU_ALWAYS_INLINE void intMulMad(const Inst &I, uint64_t *R, uint32_t EM,
                                        Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Mad = I.Op == OpMad;
  bool Hi = I.Flags & FHi, Wide = I.Flags & FWide;
  if (I.Flags & (FCcIn | FCcOut)) {
    // mad.lo.cc / madc.hi etc. (32/64-bit)
    uint64_t *CC = R + (size_t)SlotCC * 32;
    bool In = I.Flags & FCcIn, Out = I.Flags & FCcOut;
    bool S = tySigned(T);
    if (tySize(T) == 4) {
      LANES({
        uint64_t P =
            S ? (uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l])
              : (uint64_t)(uint32_t)A[l] * (uint32_t)B[l];
        uint64_t Part = Hi ? (P >> 32) & 0xffffffffu : P & 0xffffffffu;
        uint64_t Res = Part + (uint32_t)C[l] + (In ? CC[l] : 0);
        D[l] = (uint32_t)Res;
        if (Out)
          CC[l] = (Res >> 32) & 1;
      });
    } else {
      LANES({
        unsigned __int128 P =
            S ? (unsigned __int128)((__int128)(int64_t)A[l] * (int64_t)B[l])
              : (unsigned __int128)A[l] * B[l];
        uint64_t Part = Hi ? (uint64_t)(P >> 64) : (uint64_t)P;
        unsigned __int128 Res =
            (unsigned __int128)Part + C[l] + (In ? CC[l] : 0);
        D[l] = (uint64_t)Res;
        if (Out)
          CC[l] = (uint64_t)(Res >> 64) & 1;
      });
    }
    return;
  }
  if (!intDispatch(T, [&](auto Tag) {
        using X = decltype(Tag);
        using UX = std::make_unsigned_t<X>;
        constexpr unsigned Bits = sizeof(X) * 8;
        if (Wide || Hi) {
          if constexpr (Bits <= 32) {
            using WX =
                std::conditional_t<std::is_signed_v<X>, int64_t, uint64_t>;
            if (Wide) {
              using WT = std::conditional_t<
                  Bits == 16,
                  std::conditional_t<std::is_signed_v<X>, int32_t, uint32_t>,
                  WX>;
              if (Mad)
                tern<WT>(EM, D, A, B, C, [](WT P, WT Q, WT Z) {
                  return (WT)((WX)(X)P * (WX)(X)Q + Z);
                });
              else
                bin<WT>(EM, D, A, B,
                        [](WT P, WT Q) { return (WT)((WX)(X)P * (WX)(X)Q); });
            } else {
              if (Mad)
                tern<X>(EM, D, A, B, C, [](X P, X Q, X Z) {
                  return (X)((UX)(((WX)P * (WX)Q) >> Bits) + (UX)Z);
                });
              else
                bin<X>(EM, D, A, B,
                       [](X P, X Q) { return (X)(((WX)P * (WX)Q) >> Bits); });
            }
          } else {
            using WX = std::conditional_t<std::is_signed_v<X>, __int128,
                                          unsigned __int128>;
            if (Wide)
              Unsupported();
            if (Mad)
              tern<X>(EM, D, A, B, C, [](X P, X Q, X Z) {
                return (X)((UX)(((WX)P * (WX)Q) >> 64) + (UX)Z);
              });
            else
              bin<X>(EM, D, A, B,
                     [](X P, X Q) { return (X)(((WX)P * (WX)Q) >> 64); });
          }
        } else {
          if (Mad)
            tern<UX>(EM, D, A, B, C,
                     [](UX P, UX Q, UX Z) { return (UX)(P * Q + Z); });
          else
            bin<UX>(EM, D, A, B, [](UX P, UX Q) { return (UX)(P * Q); });
        }
      }))
    Unsupported();
}

// mul24/mad24 on the low 24 bits of each operand.
static EMU_ALWAYS_INLINE void intMul24(const Inst &I, uint64_t *R,
                                       uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool S = tySigned(T), Hi = I.Flags & FHi, Mad = I.Op == OpMad24;
  LANES({
    int64_t X = S ? ((int64_t)((int32_t)((uint32_t)A[l] << 8)) >> 8)
                  : (int64_t)(A[l] & 0xffffff);
    int64_t Y = S ? ((int64_t)((int32_t)((uint32_t)B[l] << 8)) >> 8)
                  : (int64_t)(B[l] & 0xffffff);
    uint64_t P = (uint64_t)(X * Y);
    uint32_t Res = Hi ? (uint32_t)(P >> 16) : (uint32_t)P;
    if (Mad)
      Res += (uint32_t)C[l];
    D[l] = Res;
  });
}

// Integer div/rem; division by zero and INT_MIN / -1 give what the GPU gives.
template <class Fn>
static EMU_ALWAYS_INLINE void intDivRem(const Inst &I, uint64_t *R, uint32_t EM,
                                        Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Rem = I.Op == OpRem;
  if (!intDispatch(T, [&](auto Tag) {
        using X = decltype(Tag);
        for (int L = 0; L < 32; ++L) {
          if (!((EM >> L) & 1))
            continue;
          X P = get<X>(A[L]), Q = get<X>(B[L]);
          X Res;
          if (Q == 0)
            Res = Rem ? P : (X)-1;
          else if (std::is_signed_v<X> && Q == (X)-1)
            Res = Rem ? 0 : (X)(0 - (std::make_unsigned_t<X>)P);
          else
            Res = Rem ? P % Q : P / Q;
          D[L] = put<X>(Res);
        }
      }))
    Unsupported();
}

template <class Fn>
static EMU_ALWAYS_INLINE void intAbsNeg(const Inst &I, uint64_t *R, uint32_t EM,
                                        Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Neg = I.Op == OpNeg;
  if (!intDispatch(T, [&](auto Tag) {
        using X = decltype(Tag);
        using UX = std::make_unsigned_t<X>;
        if (Neg)
          un<X>(EM, D, A, [](X P) { return (X)(0 - (UX)P); });
        else
          un<X>(EM, D, A, [](X P) { return P < 0 ? (X)(0 - (UX)P) : P; });
      }))
    Unsupported();
}

// Integer min/max, with .relu.
template <class Fn>
static EMU_ALWAYS_INLINE void intMinMax(const Inst &I, uint64_t *R, uint32_t EM,
                                        Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Min = I.Op == OpMin;
  if (!intDispatch(T, [&](auto Tag) {
        using X = decltype(Tag);
        if (Min)
          bin<X>(EM, D, A, B, [](X P, X Q) { return P < Q ? P : Q; });
        else
          bin<X>(EM, D, A, B, [](X P, X Q) { return P > Q ? P : Q; });
      }))
    Unsupported();
  if (I.Flags & FRelu)
    LANES(if ((int32_t)D[l] < 0) D[l] = 0);
}

// shl/shr; shift counts past the width give 0 (or the sign for signed shr).
template <class Fn>
static EMU_ALWAYS_INLINE void intShift(const Inst &I, uint64_t *R, uint32_t EM,
                                       Fn &&Unsupported) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool Shl = I.Op == OpShl;
  if (!intDispatch(T, [&](auto Tag) {
        using X = decltype(Tag);
        using UX = std::make_unsigned_t<X>;
        constexpr unsigned Bits = sizeof(X) * 8;
        if (Shl)
          LANES({
            uint32_t Sh = (uint32_t)B[l];
            D[l] = put<X>(Sh >= Bits ? (X)0 : (X)((UX)get<X>(A[l]) << Sh));
          });
        else
          LANES({
            uint32_t Sh = (uint32_t)B[l];
            X V = get<X>(A[l]);
            X Res;
            if (Sh >= Bits)
              Res = std::is_signed_v<X> ? (V < 0 ? (X)-1 : (X)0) : (X)0;
            else
              Res = (X)(V >> Sh);
            D[l] = put<X>(Res);
          });
      }))
    Unsupported();
}

static EMU_ALWAYS_INLINE void opBrev(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  if (tySize(T) == 8) {
    LANES({
      uint64_t V = A[l], Res = 0;
      for (int K = 0; K < 64; ++K)
        Res |= ((V >> K) & 1) << (63 - K);
      D[l] = Res;
    });
  } else {
    LANES({
      uint32_t V = (uint32_t)A[l], Res = 0;
      for (int K = 0; K < 32; ++K)
        Res |= ((V >> K) & 1) << (31 - K);
      D[l] = Res;
    });
  }
}

static EMU_ALWAYS_INLINE void opBfind(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool S = tySigned(T), Amt = I.Flags & FShiftAmt;
  unsigned Bits = tySize(T) * 8;
  LANES({
    uint64_t V = Bits == 64 ? A[l] : (uint32_t)A[l];
    if (S) {
      bool NegV = Bits == 64 ? (int64_t)V < 0 : (int32_t)V < 0;
      if (NegV)
        V = ~V & (Bits == 64 ? ~0ull : 0xffffffffull);
    }
    uint32_t Res;
    if (V == 0)
      Res = 0xffffffffu;
    else {
      Res = 63 - (uint32_t)__builtin_clzll(V);
      if (Amt)
        Res = Bits - 1 - Res;
    }
    D[l] = Res;
  });
}

// Bit-field extract, bit by bit as the PTX ISA defines it. Position and
// length are "restricted to 0..255": .b32 takes their low 8 bits (the ISA's
// pseudocode), .b64 on sm_90 clamps larger values instead (H200, 2026-11-27;
// for 64 bits any value from 64 on acts alike).
static EMU_ALWAYS_INLINE void opBfe(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool S = tySigned(T);
  unsigned Bits = tySize(T) * 8;
  LANES({
    uint64_t V = A[l];
    uint32_t Pos = (uint32_t)B[l], Len = (uint32_t)C[l];
    Pos = Bits == 64 ? std::min(Pos, 255u) : Pos & 0xff;
    Len = Bits == 64 ? std::min(Len, 255u) : Len & 0xff;
    uint64_t Res;
    bool Sbit;
    if (S) {
      uint32_t SPos = std::min(Pos + Len - 1, Bits - 1);
      Sbit = Len == 0 ? false : ((V >> SPos) & 1);
      if (Pos >= Bits)
        Sbit = Bits == 64 ? ((int64_t)V < 0) : (((uint32_t)V >> 31) & 1);
      if (Len == 0)
        Sbit = false;
    } else {
      Sbit = false;
    }
    Res = 0;
    for (uint32_t K = 0; K < Bits; ++K) {
      bool Bit = (K < Len && Pos + K < Bits) ? ((V >> (Pos + K)) & 1) : Sbit;
      Res |= (uint64_t)Bit << K;
    }
    D[l] = Res;
  });
}

static EMU_ALWAYS_INLINE void opBfi(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  const uint64_t *Cc = R + (size_t)I.S[2] * 32, *Dd = R + (size_t)I.S[3] * 32;
  unsigned Bits = tySize(T) * 8;
  LANES({
    uint32_t Pos = (uint32_t)Cc[l] & 0xff, Len = (uint32_t)Dd[l] & 0xff;
    uint64_t Res = B[l];
    for (uint32_t K = 0; K < Len && Pos + K < Bits; ++K) {
      uint64_t Bit = (A[l] >> K) & 1;
      Res = (Res & ~(1ull << (Pos + K))) | (Bit << (Pos + K));
    }
    D[l] = Bits == 64 ? Res : (uint32_t)Res;
  });
}

// Byte permute: the generic selector form and the f4e/b4e/rc8/ecl/ecr/rc16
// modes.
static EMU_ALWAYS_INLINE void opPrmt(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  uint8_t Mode = I.Sub;
  LANES({
    uint64_t Src = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
    uint32_t Sel = (uint32_t)C[l];
    uint32_t Res = 0;
    uint8_t Bytes[8];
    for (int K = 0; K < 8; ++K)
      Bytes[K] = (uint8_t)(Src >> (8 * K));
    if (Mode == 0) {
      for (int K = 0; K < 4; ++K) {
        uint32_t Nib = (Sel >> (4 * K)) & 0xf;
        uint8_t By = Bytes[Nib & 7];
        if (Nib & 8)
          By = (By & 0x80) ? 0xff : 0;
        Res |= (uint32_t)By << (8 * K);
      }
    } else {
      uint32_t S2 = Sel & 3;
      int Idx[4];
      switch (Mode) {
      case 1:
        for (int K = 0; K < 4; ++K)
          Idx[K] = (S2 + K) & 7;
        break; // f4e
      case 2:
        for (int K = 0; K < 4; ++K)
          Idx[K] = (S2 - K) & 7;
        break; // b4e
      case 3:
        for (int K = 0; K < 4; ++K)
          Idx[K] = S2;
        break; // rc8
      case 4:
        for (int K = 0; K < 4; ++K)
          Idx[K] = std::max(K, (int)S2);
        break; // ecl
      case 5:
        for (int K = 0; K < 4; ++K)
          Idx[K] = std::min(K, (int)S2);
        break; // ecr
      default: {
        int Bb = (S2 & 1) * 2;
        Idx[0] = Bb;
        Idx[1] = Bb + 1;
        Idx[2] = Bb;
        Idx[3] = Bb + 1;
      } // rc16
      }
      for (int K = 0; K < 4; ++K)
        Res |= (uint32_t)Bytes[Idx[K]] << (8 * K);
    }
    D[l] = Res;
  });
}

static EMU_ALWAYS_INLINE void opLop3(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  const uint64_t *Lut = R + (size_t)I.S[3] * 32;
  unsigned S = tySize(T);
  uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
  LANES({
    uint64_t X = A[l], Y = B[l], Z = C[l];
    uint32_t Tb = (uint32_t)Lut[l] & 0xff;
    uint64_t Res = 0;
    for (int K = 0; K < 8; ++K) {
      if (!((Tb >> K) & 1))
        continue;
      uint64_t Term =
          ((K & 4) ? X : ~X) & ((K & 2) ? Y : ~Y) & ((K & 1) ? Z : ~Z);
      Res |= Term;
    }
    D[l] = Res & M;
  });
}

// Funnel shift of the 64-bit {b, a}.
static EMU_ALWAYS_INLINE void opShf(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  bool Left = I.Flags & FLeft, Wrap = I.Flags & FWrap;
  LANES({
    uint64_t V = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
    uint32_t N = (uint32_t)C[l];
    N = Wrap ? (N & 31) : std::min(N, 32u);
    D[l] = Left ? (uint32_t)((V << N) >> 32) : (uint32_t)(V >> N);
  });
}

static EMU_ALWAYS_INLINE void opSad(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool S = tySigned(T);
  LANES({
    int64_t X = S ? (int64_t)(int32_t)A[l] : (int64_t)(uint32_t)A[l];
    int64_t Y = S ? (int64_t)(int32_t)B[l] : (int64_t)(uint32_t)B[l];
    D[l] = (uint32_t)((X > Y ? X - Y : Y - X) + (uint32_t)C[l]);
  });
}

// dp4a/dp2a: dot products of packed bytes (and halves) plus the accumulator.
static EMU_ALWAYS_INLINE void opDot(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  bool SA = tySigned(I.T), SB = tySigned(I.T2);
  bool Four = I.Op == OpDp4a;
  bool Hi = I.Flags & FHi;
  LANES({
    int64_t Acc = SA || SB ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
    for (int K = 0; K < (Four ? 4 : 2); ++K) {
      int64_t X, Y;
      if (Four) {
        X = SA ? (int8_t)(A[l] >> (8 * K)) : (uint8_t)(A[l] >> (8 * K));
        Y = SB ? (int8_t)(B[l] >> (8 * K)) : (uint8_t)(B[l] >> (8 * K));
      } else {
        X = SA ? (int16_t)(A[l] >> (16 * K)) : (uint16_t)(A[l] >> (16 * K));
        int BK = K + (Hi ? 2 : 0);
        Y = SB ? (int8_t)(B[l] >> (8 * BK)) : (uint8_t)(B[l] >> (8 * BK));
      }
      Acc += X * Y;
    }
    D[l] = (uint32_t)Acc;
  });
}

} // namespace warpscope::emu::core

#endif
