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
#include "llvm/IR/PassManager.h"
#include <string>

namespace warpscope {

/// The device pass's settings; each is the -warpscope-<name> option named
/// beside it (docs/plugin-options.md), which overrides it when given.
struct DeviceInstrumentationOptions {
  bool Instrument = true;             ///< instrument
  bool ProbeAll = false;              ///< probe-all
  bool CheaperCounting = true;        ///< cheaper-counting
  bool DeriveEquivalentBlocks = true; ///< derive-equivalent-blocks
  bool AssumeReconvergence = false;   ///< assume-reconvergence
  bool EdgeArrivals = true;           ///< edge-arrivals
  bool CountLoopEntries = true;       ///< count-loop-entries
  bool BranchThroughProbe = true;     ///< branch-through-probe
  bool ReduceLoopsFirst = true;       ///< reduce-loops-first
  bool PromoteLoopCounters = true;    ///< promote-loop-counters
  bool PromoteBlockProbes = false;    ///< promote-block-probes
  bool LaneBlockProbes = true;        ///< lane-block-probes
  bool SkipShortLoops = true;         ///< promote-skip-short-loops
  bool LaneLoopCounters = true;       ///< lane-loop-counters
  bool ReplicaPerWarp = true;         ///< replica-per-warp
  bool GuardedLaneCounters = true;    ///< guarded-lane-counters
  /// The thread count at which a guard spills a lane's registers (at most
  /// 2^32 - 2, the default; lower only to test the spill).
  unsigned LaneGuardLimit = 4294967294u; ///< lane-guard-limit
  bool PlainPtx = true;                  ///< plain-ptx
  /// The -O level (0-3) clang's code generator runs at, for the plain
  /// build's PTX; the plugin takes it from the pipeline.
  unsigned PlainPtxOptLevel = 2;  ///< plain-ptx-opt-level
  unsigned CounterReplicas = 256; ///< counter-replicas
  std::string DatabaseOut;        ///< db-out
  /// Instrument only kernels whose mangled or demangled name matches, and
  /// what they call; empty: every kernel.
  std::string KernelFilter;       ///< kernel-filter
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
