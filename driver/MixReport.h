//===- MixReport.h - Instruction mix, FLOPs and bytes in reports
//-----------===//
#ifndef WARPSCOPE_DRIVER_MIXREPORT_H
#define WARPSCOPE_DRIVER_MIXREPORT_H

#include "InstructionMix.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

/// FLOPs per byte of global memory traffic (loads, stores, atomics).
std::optional<double> arithmeticIntensity(const InstructionMix &M);

void renderMixText(const InstructionMix &M, llvm::raw_ostream &OS);
/// The report's JSON fields for M (docs/report-schema.md).
void addMixJson(const InstructionMix &M, llvm::json::Object &Out);
/// One HTML paragraph.
void renderMixHtml(const InstructionMix &M, llvm::raw_ostream &OS);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_MIXREPORT_H
