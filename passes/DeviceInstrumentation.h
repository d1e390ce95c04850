//===- DeviceInstrumentation.h - Block counters and divergence probes -----===//
//
// Runs on device (nvptx64) modules at the end of the optimization pipeline:
// gives every block of every defined function a warp/thread execution
// counter, probes every conditional branch and switch that
// UniformityAnalysis cannot prove uniform, and writes the module's static
// program database. Host modules are left alone, and so are modules the
// profile-use pass marked as profile-guided rebuilds.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H
#define WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H

#include "ModuleIdentity.h"
#include "PluginChoices.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace warpscope {

/// The device pass's settings: the device rows of PluginOptions.def, each
/// the -warpscope-<name> option of its row (docs/plugin-options.md), which
/// overrides it when given.
struct DeviceInstrumentationOptions {
#define WARPSCOPE_DEVICE_OPTION(Type, Field, Name, Default, ...)               \
  Type Field = Default;
#define WARPSCOPE_DEVICE_PARAMETER WARPSCOPE_DEVICE_OPTION
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_DEVICE_OPTION
#include "PluginOptions.def"
  ModuleIdentityOptions Identity; ///< module-id, db-dir
};

class DeviceInstrumentationPass
    : public llvm::PassInfoMixin<DeviceInstrumentationPass> {
public:
  /// Options given on the command line override Opts.
  explicit DeviceInstrumentationPass(
      DeviceInstrumentationOptions Opts = DeviceInstrumentationOptions());
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// The pipeline text for this pass, with its parameters
  /// (PassParameters.h).
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  /// Also at -O0 and on optnone functions: a profile must not have holes.
  static bool isRequired() { return true; }

private:
  DeviceInstrumentationOptions Opts;
};

} // namespace warpscope

#endif // WARPSCOPE_PASSES_DEVICEINSTRUMENTATION_H
