//===- Plugin.cpp - Registers WarpScope's passes with the new pass manager ===//
//
// clang -fpass-plugin=libWarpScope.so runs the device pass at the end of the
// optimization pipeline (at every -O level), so it sees the code that runs.
// opt -load-pass-plugin=libWarpScope.so -passes=warpscope-device (or
// warpscope-host) for tests.
//
//===----------------------------------------------------------------------===//

#include "DeviceInstrumentation.h"
#include "HostInstrumentation.h"
#include "ProfileUse.h"
#include "SubprogramNames.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "WarpScope", "0.1.0", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(warpscope::RecordSubprogramNamesPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel,
                   ThinOrFullLTOPhase) {
                  // Each pass checks the module's triple and leaves the
                  // other side alone.
                  MPM.addPass(warpscope::ProfileUsePass());
                  MPM.addPass(warpscope::DeviceInstrumentationPass());
                  MPM.addPass(warpscope::HostInstrumentationPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "warpscope-device") {
                    MPM.addPass(warpscope::DeviceInstrumentationPass());
                    return true;
                  }
                  if (Name == "warpscope-host") {
                    MPM.addPass(warpscope::HostInstrumentationPass());
                    return true;
                  }
                  return false;
                });
          }};
}
