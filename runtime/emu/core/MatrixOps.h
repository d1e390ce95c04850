//===- MatrixOps.h - the warp matrix multiply-accumulate --------*- C++ -*-===//
//
// mma.sync and wmma.mma.sync (MatrixOps.cpp, whose file comment gives the
// fragment layouts and the accumulation order): a free function over the
// instruction and the register file R, as the other instruction bodies.
// It runs on all 32 lanes at once, so it takes no mask (Launcher::execMatrix
// checks that the whole warp executes it); the fragment registers are
// listed in MS. The warp matrix loads and stores (wmma.load/store,
// ldmatrix) read memory and stay Launcher members.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_MATRIXOPS_H
#define WARPSCOPE_EMU_CORE_MATRIXOPS_H

#include "Ptx.h"

#include <cstdint>

namespace warpscope::emu::core {

/// D = A * B + C over the warp's fragments. MS (Function::MatrixSlots from
/// I.ArgBegin): the register counts of D, A, B and C, then the registers of
/// D, A, B and C in that order.
void mmaOps(const Inst &I, uint64_t *R, const uint32_t *MS);

} // namespace warpscope::emu::core

#endif
