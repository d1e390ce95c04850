//===- Plugin.cpp - Registers WarpScope's passes with the new pass manager ===//
//
// clang -fpass-plugin=libWarpScope.so records subprogram symbols and the
// code each side of a branch reaches at the start of the pipeline, and runs
// profile use, the device pass and the host pass at its end (at every -O
// level), so they see the code that runs. For tests, opt
// -load-pass-plugin=libWarpScope.so -passes=<name> runs one:
// warpscope-subprogram-names, warpscope-source-sides, warpscope-pgo-use,
// warpscope-device, warpscope-host, the last three with options as
// parameters (warpscope-device<probe-all;counter-replicas=64>,
// PassParameters.h). They hand each other state in the IR only.
//
//===----------------------------------------------------------------------===//

#include "DeviceInstrumentation.h"
#include "HostInstrumentation.h"
#include "PassParameters.h"
#include "ProfileUse.h"
#include "SourceSides.h"
#include "SubprogramNames.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"

using namespace llvm;

namespace {
/// The names opt -passes= takes and -print-pipeline-passes prints.
constexpr StringLiteral SubprogramNamesName = "warpscope-subprogram-names";
constexpr StringLiteral SourceSidesName = "warpscope-source-sides";
constexpr StringLiteral ProfileUseName = "warpscope-pgo-use";
constexpr StringLiteral DeviceName = "warpscope-device";
constexpr StringLiteral HostName = "warpscope-host";
} // namespace

/// Adds the pass named Name, parameters in <...> (PassParameters.h) and the
/// command line setting its options; false when Name is not one of ours.
static bool addPassByName(StringRef Name, ModulePassManager &MPM) {
  if (Name == SubprogramNamesName) {
    MPM.addPass(warpscope::RecordSubprogramNamesPass());
    return true;
  }
  if (Name == SourceSidesName) {
    MPM.addPass(warpscope::RecordSourceSidesPass());
    return true;
  }
  // A bad parameter ends opt with one line naming it, as LLVM's own
  // parameterised passes do.
  auto Take = [](auto Opts) {
    if (!Opts)
      report_fatal_error(Opts.takeError(), /*GenCrashDiag=*/false);
    return std::move(*Opts);
  };
  if (PassBuilder::checkParametrizedPassName(Name, ProfileUseName)) {
    MPM.addPass(warpscope::ProfileUsePass(Take(PassBuilder::parsePassParameters(
        warpscope::parseProfileUseParameters, Name, ProfileUseName))));
    return true;
  }
  if (PassBuilder::checkParametrizedPassName(Name, DeviceName)) {
    MPM.addPass(warpscope::DeviceInstrumentationPass(
        Take(PassBuilder::parsePassParameters(warpscope::parseDeviceParameters,
                                              Name, DeviceName))));
    return true;
  }
  if (PassBuilder::checkParametrizedPassName(Name, HostName)) {
    MPM.addPass(warpscope::HostInstrumentationPass(
        Take(PassBuilder::parsePassParameters(warpscope::parseHostParameters,
                                              Name, HostName))));
    return true;
  }
  return false;
}

/// So a printed pipeline names our passes the way it is parsed back.
static void registerPassNames(PassBuilder &PB) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  PIC->addClassToPassName(warpscope::RecordSubprogramNamesPass::name(),
                          SubprogramNamesName);
  PIC->addClassToPassName(warpscope::RecordSourceSidesPass::name(),
                          SourceSidesName);
  PIC->addClassToPassName(warpscope::ProfileUsePass::name(), ProfileUseName);
  PIC->addClassToPassName(warpscope::DeviceInstrumentationPass::name(),
                          DeviceName);
  PIC->addClassToPassName(warpscope::HostInstrumentationPass::name(), HostName);
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "WarpScope", "0.1.0", [](PassBuilder &PB) {
            registerPassNames(PB);
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(warpscope::RecordSubprogramNamesPass());
                  MPM.addPass(warpscope::RecordSourceSidesPass());
                });
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                                  OptimizationLevel Level,
                                                  ThinOrFullLTOPhase) {
              // Each pass checks the module's triple and leaves the
              // other side alone.
              MPM.addPass(warpscope::ProfileUsePass());
              warpscope::DeviceInstrumentationOptions Device;
              // clang's code generator runs at -O's level (-Os, -Oz: 2).
              Device.PlainPtxOptLevel = Level.getSpeedupLevel();
              MPM.addPass(warpscope::DeviceInstrumentationPass(Device));
              MPM.addPass(warpscope::HostInstrumentationPass());
            });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  return addPassByName(Name, MPM);
                });
          }};
}
