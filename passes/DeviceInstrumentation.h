//===- DeviceInstrumentation.h - Block counters and divergence probes -----===//
//
// Runs on device (nvptx64) modules at the end of the optimization pipeline:
// gives every block of every defined function a warp/thread execution
// counter, probes every conditional branch and switch that
// UniformityAnalysis cannot prove uniform, and writes the module's static
// program database. Host modules are left alone.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H
#define WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H

#include "llvm/IR/PassManager.h"

namespace warpscope {

class DeviceInstrumentationPass
    : public llvm::PassInfoMixin<DeviceInstrumentationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// Also at -O0 and on optnone functions: a profile must not have holes.
  static bool isRequired() { return true; }
};

} // namespace warpscope

#endif // WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H
