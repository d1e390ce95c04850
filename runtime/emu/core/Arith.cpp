//===- Arith.cpp - float and half arithmetic, and conversions -------------===//
//
// The instruction bodies with rounding-mode and ftz/sat semantics (free
// functions, FloatOps.h): cvt between all integer and float types, f32/f64
// arithmetic (directed rounding through Round.cpp); f16/bf16 arithmetic is
// in HalfOps.cpp. Launcher::exec calls into here; the plain f32/f64
// add/sub/mul/fma/div forms take vectorizable fast paths.
//
//===----------------------------------------------------------------------===//
#include "FloatOps.h"
#include "Lanes.h"
#include "Mufu.h"

#include <algorithm>
#include <cmath>

namespace warpscope::emu::core {

// f32 fma over the lanes; cloned for FMA-capable CPUs (resolved at load time)
// so the common case does not call libm per lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("fma", "default")))
#endif
static void fmaLanesF32(uint32_t EM, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C) {
  tern<float>(EM, D, A, B, C, [](float X, float Y, float Z) {
    return canonF32(std::fma(X, Y, Z));
  });
}

// f64 fma over the lanes, cloned like fmaLanesF32; a NaN operand gives
// sm_90's NaN: b's, else c's, else a's, quieted (nanOr64).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("fma", "default")))
#endif
static void fmaLanesF64(uint32_t EM, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C) {
  LANES(D[l] = nanOr64(B[l],
                       nanOr64(C[l], nanOr64(A[l], put<double>(std::fma(
                                                       get<double>(A[l]),
                                                       get<double>(B[l]),
                                                       get<double>(C[l])))))));
}

// cvt of one lane to an integer type: floats round (rzi unless given) and
// saturate to the destination range, integers wrap unless .sat.
static uint64_t cvtToInt(const Inst &I, bool SrcFloat, double FV, int64_t IV,
                         uint64_t UV) {
  const Ty DT = I.T, ST = I.T2;
  const bool Sat = I.Flags & FSat;
  const int Mode = I.Rnd;
  uint64_t Out = 0;
  unsigned DS = tySize(DT);
  bool DSgn = tySigned(DT);
  int64_t Lo, Hi; // saturation range (as int64 for <64-bit)
  if (SrcFloat) {
    double X = roundToInt(FV, Mode == RndNone ? RndRzi : Mode);
    if (std::isnan(X)) {
      // PTX ISA (cvt, Integer Notes): NaN gives 0 unless the source is .f64
      // or the destination 64-bit; then 1 << (width - 1).
      Out = ST == Ty::F64 || DS == 8 ? 1ull << (DS * 8 - 1) : 0;
    } else if (DSgn) {
      double Mn =
          DS >= 8 ? -9223372036854775808.0 : -std::ldexp(1.0, DS * 8 - 1);
      double Mx =
          DS >= 8 ? 9223372036854775807.0 : std::ldexp(1.0, DS * 8 - 1) - 1;
      int64_t Vv = X <= Mn   ? (int64_t)Mn
                   : X >= Mx ? (DS >= 8 ? INT64_MAX : (int64_t)Mx)
                             : (int64_t)X;
      Out = (uint64_t)Vv;
    } else {
      double Mx =
          DS >= 8 ? 18446744073709551615.0 : std::ldexp(1.0, DS * 8) - 1;
      uint64_t Vv = X <= 0    ? 0
                    : X >= Mx ? (DS >= 8 ? UINT64_MAX : (uint64_t)Mx)
                              : (uint64_t)X;
      Out = Vv;
    }
  } else {
    Out = (uint64_t)IV;
    if (Sat) {
      if (DSgn) {
        Lo = DS >= 8 ? INT64_MIN : -(1ll << (DS * 8 - 1));
        Hi = DS >= 8 ? INT64_MAX : (1ll << (DS * 8 - 1)) - 1;
        if (tySigned(ST))
          Out = (uint64_t)std::min(std::max(IV, Lo), Hi);
        else
          Out = UV > (uint64_t)Hi ? (uint64_t)Hi : UV;
      } else {
        uint64_t UHi = DS >= 8 ? UINT64_MAX : (1ull << (DS * 8)) - 1;
        if (tySigned(ST) && IV < 0)
          Out = 0;
        else
          Out = UV > UHi ? UHi : UV;
      }
    }
  }
  if (DS < 8) {
    uint64_t Mask = (1ull << (DS * 8)) - 1;
    if (DSgn && DS < 4)
      Out = (uint64_t)(int64_t)(((int64_t)(Out << (64 - DS * 8))) >>
                                (64 - DS * 8)) &
            0xffffffffull;
    else
      Out &= Mask;
  }
  return Out;
}

// cvt.rna.tf32.f32 (kept out of exec's switch: a rare instruction).
void cvtTf32Ops(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  LANES(D[l] = cvtRnaTf32((uint32_t)A[l]));
}

static uint64_t cvtToFloat(const Inst &I, bool SrcFloat, double FV, int64_t IV,
                           uint64_t UV);

// The float types cvt converts from and to (not the packed x2 ones).
static bool cvtFloat(Ty T) {
  return T == Ty::F16 || T == Ty::BF16 || T == Ty::F32 || T == Ty::F64;
}

const char *cvtUnsupported(const Inst &I) {
  if (tyFloat(I.T2) && !cvtFloat(I.T2))
    return "unsupported cvt source type";
  if (tyFloat(I.T) && !cvtFloat(I.T))
    return "unsupported cvt destination";
  return nullptr;
}

int cvtOps(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty DT = I.T, ST = I.T2;
  const bool Sat = I.Flags & FSat, Ftz = I.Flags & FFtz;
  const int Mode = I.Rnd;
  // Fast common paths.
  if (!Sat && !Ftz) {
    if (DT == Ty::F32 && ST == Ty::S32 && (Mode == RndRn || Mode == RndNone)) {
      LANES(D[l] = put<float>((float)get<int32_t>(A[l])));
      return -1;
    }
    if (DT == Ty::F32 && ST == Ty::U32 && (Mode == RndRn || Mode == RndNone)) {
      LANES(D[l] = put<float>((float)get<uint32_t>(A[l])));
      return -1;
    }
    if (DT == Ty::F64 && ST == Ty::F32) {
      LANES(D[l] = put<double>((double)get<float>(A[l])));
      return -1;
    }
    if (DT == Ty::S64 && ST == Ty::S32) {
      LANES(D[l] = (uint64_t)(int64_t)get<int32_t>(A[l]));
      return -1;
    }
    if ((DT == Ty::U64 || DT == Ty::S64) && ST == Ty::U32) {
      LANES(D[l] = get<uint32_t>(A[l]));
      return -1;
    }
    if ((DT == Ty::U32 || DT == Ty::S32) && (ST == Ty::U64 || ST == Ty::S64)) {
      LANES(D[l] = get<uint32_t>(A[l]));
      return -1;
    }
  }
  // Types are checked once, after the fast paths (which take none of the
  // unsupported ones): the first executing lane fails, as before any lane
  // is written.
  if (cvtUnsupported(I))
    return EM ? __builtin_ctz(EM) : -1;
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint64_t V = A[L];
    bool SrcFloat = tyFloat(ST);
    double FV = 0;
    int64_t IV = 0;
    uint64_t UV = 0;
    if (SrcFloat) {
      switch (ST) {
      case Ty::F16:
        FV = fromF16((uint16_t)V);
        break;
      case Ty::BF16:
        FV = fromBF16((uint16_t)V);
        break;
      case Ty::F32:
        FV = get<float>(V);
        if (Ftz)
          FV = ftz32((float)FV);
        break;
      case Ty::F64:
        FV = get<double>(V);
        break;
      default: // not reached: cvtUnsupported checked the type
        break;
      }
    } else {
      unsigned SS = tySize(ST);
      uint64_t Mask = SS >= 8 ? ~0ull : ((1ull << (SS * 8)) - 1);
      UV = V & Mask;
      if (tySigned(ST) && SS < 8 && (UV >> (SS * 8 - 1)) & 1)
        IV = (int64_t)(UV | ~Mask);
      else
        IV = (int64_t)UV;
      if (!tySigned(ST))
        IV = (int64_t)UV;
    }
    uint64_t Out = 0;
    if (tyFloat(DT))
      Out = cvtToFloat(I, SrcFloat, FV, IV, UV);
    else
      Out = cvtToInt(I, SrcFloat, FV, IV, UV);
    D[L] = Out;
  }
  return -1;
}

// cvt of one lane to a float type, from the source decoded by cvtOps: FV
// when it is a float, else IV (signed) / UV (zero-extended).
static uint64_t cvtToFloat(const Inst &I, bool SrcFloat, double FV, int64_t IV,
                           uint64_t UV) {
  const Ty DT = I.T, ST = I.T2;
  const bool Sat = I.Flags & FSat, Ftz = I.Flags & FFtz;
  const int Mode = I.Rnd;
  uint64_t Out = 0;
  if (SrcFloat) {
    double X = FV;
    if (ST == DT || Mode >= RndRni)
      X = (Mode >= RndRni) ? roundToInt(X, Mode) : X;
    // NaNs as sm_90 converts them (the ISA leaves payloads open): from f64
    // and bf16 the host's way (payload kept), otherwise canonical.
    switch (DT) {
    case Ty::F64:
      Out = Ftz && X != X ? 0x7fffffffe0000000ull
            : X != X      ? put<double>(quiet64(X))
                          : put<double>(Sat ? sat64(X) : X);
      break;
    case Ty::F32: {
      float F =
          (ST == Ty::F64 && Mode != RndRn && Mode != RndNone && Mode < RndRni)
              ? f64ToF32(X, Mode)
              : (float)X;
      // .ftz: tininess after rounding (see ftzTiny32).
      if (Ftz && std::fabs(F) == 0x1p-126f && std::fabs(X) < 0x1p-126 &&
          std::fabs(Mode == RndRn || Mode == RndNone
                        ? (float)(2 * X)
                        : f64ToF32(2 * X, Mode)) < 0x1p-125f)
        F = std::copysign(0.0f, F);
      if (Ftz)
        F = ftz32(F);
      if (Sat)
        F = sat32(F);
      if (ST != Ty::F64 && ST != Ty::BF16)
        F = canonF32(F);
      Out = put<float>(F);
      break;
    }
    case Ty::F16:
      Out = toF16(Sat ? sat64(X) : X, Mode >= RndRni ? RndRn : Mode);
      break;
    case Ty::BF16:
      Out = toBF16(Sat ? sat64(X) : X, Mode >= RndRni ? RndRn : Mode);
      break;
    default: // not reached: cvtUnsupported checked the type
      break;
    }
  } else {
    bool S = tySigned(ST);
    switch (DT) {
    case Ty::F64:
      Out = put<double>(Mode == RndRn || Mode == RndNone
                            ? (S ? (double)IV : (double)UV)
                            : intToF64(IV, S, Mode));
      break;
    case Ty::F32: {
      float F = Mode == RndRn || Mode == RndNone ? (S ? (float)IV : (float)UV)
                                                 : intToF32(IV, S, Mode);
      if (Sat)
        F = sat32(F);
      Out = put<float>(F);
      break;
    }
    case Ty::F16:
      Out = toF16(S ? (double)IV : (double)UV, Mode);
      break;
    case Ty::BF16:
      Out = toBF16(S ? (double)IV : (double)UV, Mode);
      break;
    default: // not reached: cvtUnsupported checked the type
      break;
    }
  }
  return Out;
}

// The operation Round.cpp can apply in a directed rounding mode, or -1.
static int roundedOp(uint16_t Op) {
  int ROp = -1;
  switch (Op) {
  case OpAdd:
    ROp = ROpAdd;
    break;
  case OpSub:
    ROp = ROpSub;
    break;
  case OpMul:
    ROp = ROpMul;
    break;
  case OpDiv:
    ROp = ROpDiv;
    break;
  case OpFma:
    ROp = ROpFma;
    break;
  case OpSqrt:
    ROp = ROpSqrt;
    break;
  case OpRcp:
    ROp = ROpRcp;
    break;
  default:
    break;
  }
  return ROp;
}

// The .approx forms as the GPU computes them (Mufu.cpp); false for a form
// the model lacks (none that PTX defines), which the generic paths take.
static bool approxLanes(uint64_t *R, const Inst &I, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Ftz = I.Flags & FFtz;
  if (I.T == Ty::F64) {
    uint64_t (*Fn)(uint64_t) =
        I.Op == OpRsqrt ? (Ftz ? mufu::rsqrtApproxFtzF64 : mufu::rsqrtApproxF64)
        : I.Op == OpRcp && Ftz ? mufu::rcpApproxFtzF64
                               : nullptr;
    if (!Fn)
      return false;
    LANES(D[l] = Fn(A[l]));
    return true;
  }
  if (I.Op == OpDiv) {
    LANES(D[l] = mufu::divApproxF32((uint32_t)A[l], (uint32_t)B[l], Ftz));
    return true;
  }
  return mufu::approxLanesF32(I.Op, Ftz, EM, D, A);
}

template <class T>
[[gnu::noinline]] static int floatLanes(const Inst &I, uint64_t *R,
                                        uint32_t EM);

// The fast paths, then floatLanes; nothing written for an operation it does
// not implement.
int floatOps(const Inst &I, uint64_t *R, uint32_t EM) {
  if ((I.Flags & FApprox) && approxLanes(R, I, EM))
    return -1;
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Ftz = I.Flags & FFtz, Sat = I.Flags & FSat;
  const int Mode = I.Rnd;
  const bool Directed = Mode == RndRz || Mode == RndRm || Mode == RndRp;
  const bool Plain = !Ftz && !Sat && !Directed;
  if (I.T == Ty::F32) {
    if (Plain) {
      switch (I.Op) {
      case OpAdd:
        bin<float>(EM, D, A, B,
                   [](float X, float Y) { return canonF32(X + Y); });
        return -1;
      case OpSub:
        bin<float>(EM, D, A, B,
                   [](float X, float Y) { return canonF32(X - Y); });
        return -1;
      case OpMul:
        bin<float>(EM, D, A, B,
                   [](float X, float Y) { return canonF32(X * Y); });
        return -1;
      case OpFma:
        fmaLanesF32(EM, D, A, B, C);
        return -1;
      case OpDiv:
        if (I.Flags & FApprox)
          bin<float>(EM, D, A, B, [](float X, float Y) { return X / Y; });
        else
          bin<float>(EM, D, A, B,
                     [](float X, float Y) { return canonF32(X / Y); });
        return -1;
      // The unary forms as floatLanes computes them (no relu on these);
      // .approx ones keep their NaNs (out of this emulation's NaN rules).
      case OpNeg:
        un<float>(EM, D, A, [](float X) { return canonF32(-X); });
        return -1;
      case OpAbs:
        un<float>(EM, D, A, [](float X) { return canonF32(std::fabs(X)); });
        return -1;
      case OpSqrt:
        if (I.Flags & FApprox)
          un<float>(EM, D, A, [](float X) { return std::sqrt(X); });
        else
          un<float>(EM, D, A, [](float X) { return canonF32(std::sqrt(X)); });
        return -1;
      case OpRsqrt:
        un<float>(EM, D, A, [](float X) { return 1.0f / std::sqrt(X); });
        return -1;
      case OpRcp:
        if (I.Flags & FApprox)
          un<float>(EM, D, A, [](float X) { return 1.0f / X; });
        else
          un<float>(EM, D, A, [](float X) { return canonF32(1.0f / X); });
        return -1;
      default:
        break;
      }
    }
    return floatLanes<float>(I, R, EM);
  }
  // f64: where an operand is a NaN, sm_90 returns a NaN operand quieted in
  // its own order (nanPick64), the host another; nanOr64 picks it without
  // branches, so that the loops stay vectorised. div's are the host's.
  if (Plain) {
    switch (I.Op) {
    case OpAdd:
      LANES(D[l] = nanOr64(B[l],
                           put<double>(get<double>(A[l]) + get<double>(B[l]))));
      return -1;
    case OpSub:
      LANES(D[l] = nanOr64(B[l],
                           put<double>(get<double>(A[l]) - get<double>(B[l]))));
      return -1;
    case OpMul:
      LANES(D[l] = nanOr64(B[l],
                           put<double>(get<double>(A[l]) * get<double>(B[l]))));
      return -1;
    case OpFma:
      fmaLanesF64(EM, D, A, B, C);
      return -1;
    case OpDiv:
      bin<double>(EM, D, A, B, [](double X, double Y) { return X / Y; });
      return -1;
    default:
      break;
    }
  }
  return floatLanes<double>(I, R, EM);
}

// .ftz on a result: sm_90 flushes a tiny result, and tininess is IEEE's
// "after rounding": the exact value rounded to 24 bits with an unbounded
// exponent is below 2^-126 in magnitude. That differs from the rounded
// result only where the latter is +-2^-126; there the same operation on
// operands scaled to give twice the result (exact) rounds it so.
static float ftzTiny32(float Res, int ROp, int Mode, float X, float Y,
                       float Z) {
  if (std::fabs(Res) != 0x1p-126f)
    return ftz32(Res);
  float R2;
  switch (ROp) {
  case ROpMul:
  case ROpDiv:
    R2 = rounded<float>(ROp, 2 * X, Y, Z, Mode);
    break;
  case ROpSqrt:
    R2 = rounded<float>(ROp, 4 * X, Y, Z, Mode);
    break;
  case ROpRcp:
    R2 = rounded<float>(ROp, X / 2, Y, Z, Mode);
    break;
  default: // add, sub, fma
    R2 = rounded<float>(ROp, 2 * X, 2 * Y, 2 * Z, Mode);
    break;
  }
  return std::fabs(R2) < 0x1p-125f ? std::copysign(0.0f, Res) : Res;
}

// The NaN an f64 operation returns on sm_90 (see nanPick64): min and max
// of two NaNs give b's; rcp, sqrt, abs and neg give a's (neither sign
// changed); .approx forms and copysign keep the host's.
static double nanResult64(uint16_t Op, double R, double X, double Y, double Z) {
  switch (Op) {
  case OpAdd:
  case OpSub:
  case OpMul:
  case OpMin:
  case OpMax:
    return nanPick64(R, Y, X);
  case OpFma:
    return nanPick64(R, Y, Z, X);
  case OpDiv:
    return nanPick64(R, X, Y);
  case OpAbs:
  case OpNeg:
  case OpSqrt:
  case OpRcp:
    return nanPick64(R, X, X);
  default:
    return R;
  }
}

// One lane of an f32 or f64 operation, in a directed mode through Round.cpp
// when ROp names one; false for an operation it does not implement.
template <class T>
static inline bool floatLane(const Inst &I, int ROp, bool Directed, T X, T Y,
                             T Z, T &Res) {
  if (Directed && ROp >= 0) {
    Res = rounded<T>(ROp, X, Y, Z, I.Rnd);
    return true;
  }
  switch (I.Op) {
  case OpAdd:
    Res = X + Y;
    return true;
  case OpSub:
    Res = X - Y;
    return true;
  case OpMul:
    Res = X * Y;
    return true;
  case OpFma:
    Res = std::fma(X, Y, Z);
    return true;
  case OpDiv:
    Res = X / Y;
    return true;
  case OpMin:
    Res = fminPtx(X, Y, I.Flags & FNan);
    if constexpr (std::is_same_v<T, float>) // three sources: f32 only
      if (I.NS == 3)
        Res = fminPtx(Res, Z, I.Flags & FNan);
    return true;
  case OpMax:
    Res = fmaxPtx(X, Y, I.Flags & FNan);
    if constexpr (std::is_same_v<T, float>)
      if (I.NS == 3)
        Res = fmaxPtx(Res, Z, I.Flags & FNan);
    return true;
  case OpAbs:
    Res = std::fabs(X);
    return true;
  case OpNeg:
    Res = -X;
    return true;
  case OpRcp:
    Res = T(1) / X;
    return true;
  case OpSqrt:
    Res = std::sqrt(X);
    return true;
  case OpRsqrt:
    Res = T(1) / std::sqrt(X);
    return true;
  case OpEx2:
    Res = std::exp2(X);
    return true;
  case OpLg2:
    Res = std::log2(X);
    return true;
  case OpSin:
    Res = std::sin(X);
    return true;
  case OpCos:
    Res = std::cos(X);
    return true;
  case OpTanh:
    Res = std::tanh(X);
    return true;
  case OpCopysign:
    Res = std::copysign(Y, X);
    return true;
  default:
    return false;
  }
}

// f32 or f64 lane by lane: ftz and relu (f32), sat, directed rounding, and
// the operations without a fast path in floatOps. Returns the first lane of
// an operation it does not implement (nothing written), or -1.
// Out of line: the slow path stays out of floatOps' fast paths.
template <class T>
[[gnu::noinline]] static int floatLanes(const Inst &I, uint64_t *R,
                                        uint32_t EM) {
  constexpr bool F32 = std::is_same_v<T, float>;
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Ftz = I.Flags & FFtz, Sat = I.Flags & FSat;
  const int Mode = I.Rnd;
  const bool Directed = Mode == RndRz || Mode == RndRm || Mode == RndRp;
  const int ROp = roundedOp(I.Op);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    T X = get<T>(A[L]), Y = get<T>(B[L]), Z = get<T>(C[L]), Res;
    if constexpr (F32)
      if (Ftz) {
        X = ftz32(X);
        Y = ftz32(Y);
        Z = ftz32(Z);
      }
    if (!floatLane<T>(I, ROp, Directed, X, Y, Z, Res))
      return L;
    if constexpr (F32) {
      const bool Exact = !(I.Flags & FApprox) && I.Op != OpCopysign;
      if (Ftz)
        Res =
            Exact && ROp >= 0 ? ftzTiny32(Res, ROp, Mode, X, Y, Z) : ftz32(Res);
      if (Sat)
        Res = sat32(Res);
      if (I.Flags & FRelu && !(Res >= 0))
        Res = std::isnan(Res) ? Res : 0.0f;
      D[L] = put<float>(Exact ? canonF32(Res) : Res);
    } else {
      if (Res != Res)
        Res = nanResult64(I.Op, Res, X, Y, Z);
      if (Sat)
        Res = sat64(Res);
      D[L] = put<double>(Res);
    }
  }
  return -1;
}

} // namespace warpscope::emu::core
