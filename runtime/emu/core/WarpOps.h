//===- WarpOps.h - warp-collective instruction bodies -----------*- C++ -*-===//
//
// shfl.sync, vote.sync, activemask, match.sync, redux.sync and elect.sync
// (WarpOps.cpp): free functions over the instruction, the register file R
// and the execution mask EM, as the other instruction bodies. They also
// read Active, the lanes of the warp's current path (activemask), and need
// no other warp state. The interpreter loop calls warpOps through
// Launcher::execWarpOp (Interp.cpp), which reports its failure.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_WARPOPS_H
#define WARPSCOPE_EMU_CORE_WARPOPS_H

#include "Ptx.h"

#include <cstdint>

namespace warpscope::emu::core {

/// The warp-collective instruction I on the lanes of EM (not empty) of the
/// path Active; false when I is none of them (nothing written).
bool warpOps(const Inst &I, uint64_t *R, uint32_t EM, uint32_t Active);

} // namespace warpscope::emu::core

#endif
