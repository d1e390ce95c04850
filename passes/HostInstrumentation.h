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

#include "ModuleIdentity.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace warpscope {

/// The host pass's settings: the host rows of PluginOptions.def, each the
/// -warpscope-<name> option of its row, which overrides it when given.
struct HostInstrumentationOptions {
#define WARPSCOPE_HOST_OPTION(Type, Field, Name, Default, ...)                 \
  Type Field = Default;
#include "PluginOptions.def"
  ModuleIdentityOptions Identity;
};

class HostInstrumentationPass
    : public llvm::PassInfoMixin<HostInstrumentationPass> {
public:
  /// Options given on the command line override Opts.
  explicit HostInstrumentationPass(
      HostInstrumentationOptions Opts = HostInstrumentationOptions());
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// The pipeline text for this pass, with its parameters
  /// (PassParameters.h).
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  HostInstrumentationOptions Opts;
};

} // namespace warpscope

#endif // WARPSCOPE_PASSES_HOSTINSTRUMENTATION_H
