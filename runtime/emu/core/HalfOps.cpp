//===- HalfOps.cpp - f16/bf16 scalar and x2 arithmetic --------------------===//
//
// add sub mul fma neg abs min max ex2 tanh on .f16 .f16x2 .bf16 .bf16x2,
// element by element, with .ftz (f16: subnormal inputs and results become
// zeros of the same sign), .sat (clamp to [0, 1], NaN to +0), .relu
// (negative to 0, NaN to the canonical NaN) and .NaN (min/max).
//
// Elements are exact in double, and so are their products and f16 sums; a
// bf16 sum rounded to double and then to bf16 is still correctly rounded
// (53 >= 2 * 8 + 2 bits). fma is not: a*b+c may lie just off a tie of the
// 16-bit format by less than a double ulp, so it is made round-to-odd in
// double (the round-to-nearest sum moved one ulp toward the TwoSum residual
// when it is inexact and even), which one rounding to 11 or 8 bits then
// rounds correctly.
//
//===----------------------------------------------------------------------===//
#include "FloatOps.h"
#include "Lanes.h"

#include <cmath>
#include <cstring>

namespace warpscope::emu::core {

namespace {

// The canonical NaN of f16 and bf16 (CUDART_NAN_FP16/_BF16), returned by
// min/max of two NaNs (or one, with .NaN) and by .relu of a NaN.
constexpr uint32_t HalfCanonicalNaN = 0x7fff;

bool halfIsNaN(uint32_t H, bool Bf) {
  return (H & 0x7fff) > (Bf ? 0x7f80u : 0x7c00u);
}

// .ftz on f16 bits: a subnormal (exponent field 0) becomes a signed zero.
uint32_t f16Ftz(uint32_t H) { return (H & 0x7c00) == 0 ? (H & 0x8000) : H; }

// X * Y + Z rounded to odd in double (X * Y is exact: at most 22
// significant bits, within double's exponent range).
double fmaRoundOdd(double X, double Y, double Z) {
  double P = X * Y, S = P + Z;
  if (!std::isfinite(S))
    return S;
  double Bv = S - P;
  double E = (P - (S - Bv)) + (Z - Bv); // P + Z == S + E exactly
  uint64_t Bits;
  std::memcpy(&Bits, &S, 8);
  if (E == 0 || (Bits & 1))
    return S;
  return std::nextafter(S, E > 0 ? INFINITY : -INFINITY);
}

uint32_t halfMinMax(bool IsMax, bool NanMode, bool Bf, uint32_t Ab,
                    uint32_t Bb) {
  bool NA = halfIsNaN(Ab, Bf), NB = halfIsNaN(Bb, Bf);
  if ((NA && NB) || (NanMode && (NA || NB)))
    return HalfCanonicalNaN;
  if (NA || NB)
    return NA ? Bb : Ab;
  double X = halfGet(Ab, Bf), Y = halfGet(Bb, Bf);
  if (X == 0 && Y == 0) // -0 orders below +0
    return ((Ab & 0x8000) != 0) != IsMax ? Ab : Bb;
  return (IsMax ? X > Y : X < Y) ? Ab : Bb;
}

// An arithmetic result (exact, or round-to-odd) as f16/bf16. .ftz flushes
// a tiny result, tininess after rounding as sm_90 has it (see ftzTiny32 in
// Arith.cpp): V rounded to 11 bits with an unbounded exponent, that is 2V
// rounded in the normal range, is below 2^-14 in magnitude.
uint32_t halfResult(double V, bool Bf, int Mode, bool Ftz) {
  if (Ftz && std::fabs(V) < 0x1p-14 &&
      std::fabs(halfGet(halfPut(2 * V, Bf, Mode), Bf)) < 0x1p-13)
    return std::signbit(V) ? 0x8000 : 0;
  return halfPut(V, Bf, Mode);
}

// One element of a valid half operation (execHalf checked the opcode).
uint32_t halfElem(const Inst &I, bool Bf, int Mode, bool Ftz, uint32_t Ab,
                  uint32_t Bb, uint32_t Cb) {
  double X = halfGet(Ab, Bf), Y = halfGet(Bb, Bf), Z = halfGet(Cb, Bf);
  switch (I.Op) {
  case OpAdd:
    return halfResult(X + Y, Bf, Mode, Ftz);
  case OpSub:
    return halfResult(X - Y, Bf, Mode, Ftz);
  case OpMul:
    return halfResult(X * Y, Bf, Mode, Ftz);
  case OpFma:
    return halfResult(fmaRoundOdd(X, Y, Z), Bf, Mode, Ftz);
  // A NaN gives an unspecified NaN (ISA); sm_90's is the canonical one.
  case OpNeg:
    return halfIsNaN(Ab, Bf) ? HalfCanonicalNaN : Ab ^ 0x8000;
  case OpAbs:
    return halfIsNaN(Ab, Bf) ? HalfCanonicalNaN : Ab & 0x7fff;
  case OpMin:
  case OpMax:
    return halfMinMax(I.Op == OpMax, I.Flags & FNan, Bf, Ab, Bb);
  case OpEx2:
    return halfPut(std::exp2(X), Bf);
  default: // OpTanh
    return halfPut(std::tanh(X), Bf);
  }
}

} // namespace

bool halfOps(const Inst &I, uint64_t *R, uint32_t EM) {
  switch (I.Op) {
  case OpAdd:
  case OpSub:
  case OpMul:
  case OpFma:
  case OpNeg:
  case OpAbs:
  case OpMin:
  case OpMax:
  case OpEx2:
  case OpTanh:
    break;
  default:
    return false;
  }
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Bf = I.T == Ty::BF16 || I.T == Ty::BF16x2;
  const bool X2 = I.T == Ty::F16x2 || I.T == Ty::BF16x2;
  const bool Ftz = (I.Flags & FFtz) && !Bf;
  const int Mode = I.Rnd == RndNone ? (int)RndRn : (int)I.Rnd;
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint32_t Out = 0;
    for (int E = 0; E < (X2 ? 2 : 1); ++E) {
      unsigned Sh = E * 16;
      uint32_t Ab = (uint32_t)(A[L] >> Sh) & 0xffff,
               Bb = (uint32_t)(B[L] >> Sh) & 0xffff,
               Cb = (uint32_t)(C[L] >> Sh) & 0xffff;
      if (Ftz) {
        Ab = f16Ftz(Ab);
        Bb = f16Ftz(Bb);
        Cb = f16Ftz(Cb);
      }
      uint32_t Res = halfElem(I, Bf, Mode, Ftz, Ab, Bb, Cb);
      if (Ftz)
        Res = f16Ftz(Res);
      if (I.Flags & FSat)
        Res = halfPut(sat32(halfGet(Res, Bf)), Bf);
      // .relu: negatives and -0 (as sm_90) become +0.
      if ((I.Flags & FRelu) && halfIsNaN(Res, Bf))
        Res = HalfCanonicalNaN;
      else if ((I.Flags & FRelu) && !(halfGet(Res, Bf) > 0))
        Res = 0;
      Out |= (Res & 0xffff) << Sh;
    }
    D[L] = Out;
  }
  return true;
}

} // namespace warpscope::emu::core
