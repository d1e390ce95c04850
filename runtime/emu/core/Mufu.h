//===- Mufu.h - the GPU's approximate (.approx) instructions ----*- C++ -*-===//
//
// The .approx PTX instructions as an sm_90 GPU computes them: the
// multi-function unit (MUFU) of the SM, modelled bit for bit from
// approx_dump's H200 results (table-driven quadratic interpolation in fixed
// point), and the instruction sequences ptxas wraps around it (subnormal
// scaling for the non-ftz forms, the 1/(2 pi) pre-scaling of sin and cos,
// the Newton step of rsqrt.approx.f64). docs/emulator.md, *Approximate
// instructions*, says which results are checked against the GPU.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_MUFU_H
#define WARPSCOPE_EMU_CORE_MUFU_H

#include <cstdint>

namespace warpscope::emu::core::mufu {

// The units on f32 bit patterns. Subnormal inputs and results are flushed
// to zero of the same sign; NaN results are 0x7fffffff.
uint32_t rcp(uint32_t X);
uint32_t rsqrt(uint32_t X);
uint32_t sqrt(uint32_t X);
uint32_t ex2(uint32_t X);
uint32_t lg2(uint32_t X);
/// sin or cos of 2 pi R: the argument is in revolutions.
uint32_t sinCos(uint32_t R, bool Cos);
uint32_t tanh(uint32_t X);
/// The f64 units read and write only the upper word (1.11.20 format).
uint32_t rcp64h(uint32_t Hi);
uint32_t rsqrt64h(uint32_t Hi);

/// The f32 unary forms (Op: OpRcp, OpSqrt, OpRsqrt, OpEx2, OpLg2, OpSin,
/// OpCos, OpTanh) with or without .ftz, as ptxas lowers them.
using UnaryF32 = uint32_t (*)(uint32_t);
UnaryF32 approxF32(uint16_t Op, bool Ftz);
/// The same on the lanes of EM: D[l] = form(A[l]); false for an Op that has
/// no f32 .approx form.
bool approxLanesF32(uint16_t Op, bool Ftz, uint32_t EM, uint64_t *D,
                    const uint64_t *A);
uint32_t divApproxF32(uint32_t A, uint32_t B, bool Ftz);
/// rcp.approx.ftz.f64, rsqrt.approx.ftz.f64 and rsqrt.approx.f64.
uint64_t rcpApproxFtzF64(uint64_t X);
uint64_t rsqrtApproxFtzF64(uint64_t X);
uint64_t rsqrtApproxF64(uint64_t X);

} // namespace warpscope::emu::core::mufu

#endif
