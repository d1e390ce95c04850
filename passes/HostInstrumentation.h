//===- HostInstrumentation.h - Tie a host module to its device counters ---===//
//
// Runs on host modules of CUDA translation units: embeds the program
// database the device compile left behind, describes the module's kernels
// and counters to the runtime from the CUDA registration constructor, and
// routes kernel launches and device resets through the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_HOSTINSTRUMENTATION_H
#define WARPSCOPE_PASSES_HOSTINSTRUMENTATION_H

#include "llvm/IR/PassManager.h"

namespace warpscope {

class HostInstrumentationPass
    : public llvm::PassInfoMixin<HostInstrumentationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace warpscope

#endif // WARPSCOPE_PASSES_HOSTINSTRUMENTATION_H
