//===- DivergenceModel.h - Which values differ across the lanes of a warp -===//
//
// LLVM's UniformityAnalysis, driven by our own sources of divergence. NVPTX's
// stock TTI treats every call as divergent, including reads of %ctaid,
// %ntid and every pure intrinsic, so it cannot prove even a blockIdx-only
// branch uniform. This model keeps NVPTX's rules for arguments, loads and
// atomics, and classifies intrinsics by what they read.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_DIVERGENCEMODEL_H
#define WARPSCOPE_PASSES_DIVERGENCEMODEL_H

#include "llvm/ADT/Uniformity.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/PassManager.h"
#include <memory>

namespace warpscope {

/// Uniformity of F's values and terminators under our divergence model.
/// The result refers to the returned TTI; keep both alive together.
struct UniformityResult {
  std::unique_ptr<llvm::TargetTransformInfo> TTI;
  std::unique_ptr<llvm::UniformityInfo> Info;
};

UniformityResult computeUniformity(llvm::Function &F,
                                   llvm::FunctionAnalysisManager &FAM);

/// The model's verdict for one value (exposed for unit tests).
llvm::InstructionUniformity classifyDivergence(const llvm::Value *V);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_DIVERGENCEMODEL_H
