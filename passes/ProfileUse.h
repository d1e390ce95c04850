//===- ProfileUse.h - Branch weights from a WarpScope profile -------------===//
//
// -warpscope-profile-use=FILE.profdata: at the end of the optimization
// pipeline, where the instrumented build took its counts, attaches to device
// functions whose CFG checksum still matches: function_entry_count (warp
// entries), branch_weights (threads taking each successor of a probed
// branch; warp counts for proven-uniform ones) and !warpscope.divergence
// (divergent / visits). The file is an LLVM instrumentation profile written
// by `warpscope pgo --format instr` (layout: warpscope/ABI/PgoRecord.h), read
// with LLVM's own reader, so `llvm-profdata merge` combines runs. Stale
// functions get one warning each and no weights. A build that uses a profile
// is not instrumented.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROFILEUSE_H
#define WARPSCOPE_PASSES_PROFILEUSE_H

#include "llvm/IR/PassManager.h"

namespace warpscope {

class ProfileUsePass : public llvm::PassInfoMixin<ProfileUsePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// True when -warpscope-profile-use was given.
bool profileUseRequested();

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROFILEUSE_H
