//===- Round.h - directed rounding helpers
//---------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_ROUND_H
#define WARPSCOPE_EMU_CORE_ROUND_H

#include "Ptx.h"

#include <cstdint>

namespace warpscope::emu::core {

enum ROp { ROpAdd, ROpSub, ROpMul, ROpDiv, ROpFma, ROpSqrt, ROpRcp };

/// Op (ROp) on float or double in a directed Mode (Rnd); defined for those
/// two in Round.cpp, which is compiled with -frounding-math.
template <class T> T rounded(int Op, T A, T B, T C, int Mode);
float intToF32(int64_t V, bool Signed, int Mode);
double intToF64(int64_t V, bool Signed, int Mode);
float f64ToF32(double V, int Mode);
double roundToInt(double V, int Mode);
uint16_t toF16(double X, int Mode);
uint16_t toBF16(double X, int Mode);
float fromF16(uint16_t B);
float fromBF16(uint16_t B);

} // namespace warpscope::emu::core

#endif
