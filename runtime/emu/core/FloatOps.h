//===- FloatOps.h - float, half and conversion instruction bodies -*- C++
//-*-===//
//
// The bodies of the f32/f64 arithmetic (Arith.cpp), f16/bf16 arithmetic
// (HalfOps.cpp) and cvt (Arith.cpp) instructions: free functions over the
// instruction I, the register file R (slot s, lane l at R[s * 32 + l]) and
// the execution mask EM, with no launch state, so that a test can call them
// on a register array. One that can meet a form it does not implement says
// so by its result and writes nothing; the caller (Launcher::exec,
// Interp.cpp) reports it with the instruction's site. Out of line: each is
// one call from the dispatch switch, as the Launcher members they replaced.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_FLOATOPS_H
#define WARPSCOPE_EMU_CORE_FLOATOPS_H

#include "Ptx.h"

#include <cstdint>

namespace warpscope::emu::core {

/// f32/f64 arithmetic with its modifiers (ftz, sat, relu, directed rounding,
/// .approx). Returns the first lane of an operation it does not implement,
/// or -1.
int floatOps(const Inst &I, uint64_t *R, uint32_t EM);

/// f16, f16x2, bf16 and bf16x2 arithmetic; false for an operation it does
/// not implement.
bool halfOps(const Inst &I, uint64_t *R, uint32_t EM);

/// cvt between every integer and float type, with rounding, ftz and sat.
/// Returns the first lane of EM when cvtUnsupported(I) names a type it does
/// not convert, else -1.
int cvtOps(const Inst &I, uint64_t *R, uint32_t EM);
/// Why cvtOps does not convert I's types (a packed source or destination),
/// or null.
const char *cvtUnsupported(const Inst &I);
/// cvt.rna.tf32.f32.
void cvtTf32Ops(const Inst &I, uint64_t *R, uint32_t EM);

} // namespace warpscope::emu::core

#endif
