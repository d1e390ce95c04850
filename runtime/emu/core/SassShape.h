//===- SassShape.h - What ptxas makes of a function's PTX -------*- C++ -*-===//
//
// ModelCode.cpp's describe() charges each PTX instruction as the SASS it
// becomes alone; shapeAsSass() refines those charges where ptxas reshapes
// several instructions together (docs/timing-model.md, "PTX is not SASS").
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_SASSSHAPE_H
#define WARPSCOPE_EMU_CORE_SASSSHAPE_H

#include "Ptx.h"
#include "warpscope/Emu/TimingModel.h"

namespace warpscope::emu::core {

/// Whether Slot of F holds a constant (an immediate operand).
bool isConstant(const Function &F, uint32_t Slot);

/// Refines the Expand of F's instructions (Table: F's rows of the module's
/// table): address arithmetic fused or narrowed, convergence barriers
/// around branches that join again, a kernel's entry. A probe's
/// instructions take no part unless Probes (they are modeled).
void shapeAsSass(const Function &F, timing::StaticInst *Table, bool Probes);

} // namespace warpscope::emu::core

#endif // WARPSCOPE_EMU_CORE_SASSSHAPE_H
