//===- Round.cpp - directed rounding and small float formats --------------===//
//
// Compiled with -frounding-math: operations under a non-default rounding
// mode switch the host FPU mode around one volatile operation. Only the
// slow path (explicit .rz/.rm/.rp) comes here.
//
//===----------------------------------------------------------------------===//
#include "Round.h"

#include <cfenv>
#include <cmath>
#include <cstring>

namespace warpscope::emu::core {

static int hostMode(int Mode) {
  switch (Mode) {
  case RndRz:
  case RndRzi:
    return FE_TOWARDZERO;
  case RndRm:
  case RndRmi:
    return FE_DOWNWARD;
  case RndRp:
  case RndRpi:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

namespace {
struct ModeGuard {
  int Old;
  explicit ModeGuard(int Mode) : Old(std::fegetround()) {
    std::fesetround(hostMode(Mode));
  }
  ~ModeGuard() { std::fesetround(Old); }
};
} // namespace

// One operation in a directed rounding mode; the FPU mode holds around the
// volatile operation, so the compiler neither folds nor moves it.
template <class T> T rounded(int Op, T A, T B, T C, int Mode) {
  ModeGuard G(Mode);
  volatile T X = A, Y = B, Z = C;
  volatile T R;
  switch (Op) {
  case ROpAdd:
    R = X + Y;
    break;
  case ROpSub:
    R = X - Y;
    break;
  case ROpMul:
    R = X * Y;
    break;
  case ROpDiv:
    R = X / Y;
    break;
  case ROpFma:
    R = std::fma((T)X, (T)Y, (T)Z);
    break;
  case ROpSqrt:
    R = std::sqrt((T)X);
    break;
  case ROpRcp:
    R = T(1) / X;
    break;
  default:
    R = X;
    break;
  }
  return R;
}
// Instantiated here only: this file is the one built with -frounding-math.
template float rounded<float>(int, float, float, float, int);
template double rounded<double>(int, double, double, double, int);

float intToF32(int64_t V, bool Signed, int Mode) {
  ModeGuard G(Mode);
  if (Signed) {
    volatile int64_t X = V;
    volatile float R = (float)X;
    return R;
  }
  volatile uint64_t X = (uint64_t)V;
  volatile float R = (float)X;
  return R;
}

double intToF64(int64_t V, bool Signed, int Mode) {
  ModeGuard G(Mode);
  if (Signed) {
    volatile int64_t X = V;
    volatile double R = (double)X;
    return R;
  }
  volatile uint64_t X = (uint64_t)V;
  volatile double R = (double)X;
  return R;
}

float f64ToF32(double V, int Mode) {
  ModeGuard G(Mode);
  volatile double X = V;
  volatile float R = (float)X;
  return R;
}

double roundToInt(double V, int Mode) {
  switch (Mode) {
  case RndRzi:
  case RndRz:
    return std::trunc(V);
  case RndRmi:
  case RndRm:
    return std::floor(V);
  case RndRpi:
  case RndRp:
    return std::ceil(V);
  case RndRna:
    return std::round(V);
  default:
    return std::nearbyint(V); // ties to even under the default mode
  }
}

// Rounds a double to a binary format with ExpBits/MantBits (f16: 5/10,
// bf16: 8/7), returns the bit pattern. A NaN becomes the canonical 0x7fff,
// as on sm_90 (cvt and f16/bf16 arithmetic; the ISA leaves the payload open).
static uint32_t toSmall(double X, int Mode, int ExpBits, int MantBits) {
  const uint32_t ExpMax = (1u << ExpBits) - 1;
  const uint32_t SignBit = 1u << (ExpBits + MantBits);
  const uint32_t Inf = ExpMax << MantBits;
  if (std::isnan(X))
    return 0x7fff;
  uint32_t Sign = std::signbit(X) ? SignBit : 0;
  double A = std::fabs(X);
  if (std::isinf(A))
    return Sign | Inf;
  if (A == 0)
    return Sign;
  const int Bias = (int)(ExpMax >> 1);
  const int MinExp = 1 - Bias;
  int E;
  std::frexp(A, &E); // A = m * 2^E, m in [0.5, 1)
  int Ex = std::max(E - 1, MinExp);
  double N = std::ldexp(A, MantBits - Ex);
  double R;
  bool Neg = Sign != 0;
  switch (Mode) {
  case RndRz:
    R = std::trunc(N);
    break;
  case RndRm:
    R = Neg ? std::ceil(N) : std::floor(N);
    break;
  case RndRp:
    R = Neg ? std::floor(N) : std::ceil(N);
    break;
  case RndRna:
    R = std::round(N);
    break;
  default:
    R = std::nearbyint(N);
    break;
  }
  uint64_t Bits = ((uint64_t)(Ex - MinExp) << MantBits) + (uint64_t)R;
  if (Bits >= Inf) {
    bool ToInf = Mode == RndRn || Mode == RndNone || Mode == RndRna ||
                 (Mode == RndRp && !Neg) || (Mode == RndRm && Neg);
    return Sign | (ToInf ? Inf : Inf - 1);
  }
  return Sign | (uint32_t)Bits;
}

uint16_t toF16(double X, int Mode) { return (uint16_t)toSmall(X, Mode, 5, 10); }
uint16_t toBF16(double X, int Mode) { return (uint16_t)toSmall(X, Mode, 8, 7); }
// Bit by bit (hot in wmma/mma; ldexp was a tenth of gemm_wmma's time): a
// normal half's exponent rebiased, a subnormal's mantissa scaled (exact),
// infinities kept, NaNs canonical with their sign, as before.
float fromF16(uint16_t B) {
  const uint32_t Sign = (uint32_t)(B >> 15) << 31, Ex = (B >> 10) & 31,
                 Ma = B & 1023;
  uint32_t W;
  if (Ex == 31) {
    W = Sign | (Ma ? 0x7fc00000u : 0x7f800000u); // NaN: canonical, as NAN
  } else if (Ex) {
    W = Sign | ((Ex + 112) << 23) | (Ma << 13); // rebias 15 -> 127
  } else {
    float F = (float)Ma * 0x1p-24f; // subnormal (or zero): Ma x 2^-24
    std::memcpy(&W, &F, 4);
    W |= Sign;
  }
  float F;
  std::memcpy(&F, &W, 4);
  return F;
}
float fromBF16(uint16_t B) {
  uint32_t W = (uint32_t)B << 16;
  float F;
  std::memcpy(&F, &W, 4);
  return F;
}

} // namespace warpscope::emu::core
