//===- FeatureRows.h - Per-kernel, per-configuration rows of a profile ----===//
//
// The rows of `warpscope features` (csv and hypa) as data: one per launched
// kernel and launch configuration of a per-launch run, one per kernel of an
// aggregate run (its most launched configuration, and how many it had),
// each with the work of the device functions it called when the counts say
// exactly whose it is. `warpscope predict` reads the same rows, plus what
// the emulator's ground truth adds: the timing model's figures for the
// row's launches and the kernel's exact memory counts.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_FEATUREROWS_H
#define WARPSCOPE_DRIVER_FEATUREROWS_H

#include "Report.h"
#include "RunDirectory.h"
#include <initializer_list>
#include <memory>
#include <optional>

namespace warpscope {

struct FeatureRow {
  /// The kernel's counts with its callees' where exact (ratios recomputed).
  FunctionSummary S;
  uint64_t Static = 0; ///< static PTX instructions, callees included
  bool CalleesMissing = false;
  size_t Configurations = 1;           ///< >1: an aggregate row over that many
  const LaunchGroup *Launch = nullptr; ///< the (most launched) configuration
  bool Exact = false;                  ///< no lower-bound count in the row
  /// The timing model's figures summed over the row's launches (those with
  /// its configuration when the kernel had one), when the run was modeled.
  bool Modeled = false;
  uint64_t ModeledCycles = 0, ModeledLaunches = 0;
  /// The launches' fixed cost within ModeledCycles (launch_cycles).
  uint64_t ModeledLaunchCycles = 0;
  double ModeledMicroseconds = 0;
  std::string ModeledConfig;
  /// The timing model's version of those figures ("mixed" when they differ,
  /// "" when the ground truth does not record it).
  std::string ModeledFingerprint;
  /// The kernel's own memory counts in the ground truth (emulated runs),
  /// over every launch of the run, probes left out; and its warp
  /// instructions there.
  std::optional<MemoryCounts> Memory;
  uint64_t TruthWarpInstructions = 0;

  const FunctionProfile &function() const { return *S.Function; }
  /// Thread executions of the named classes (InstructionMix::ByClass).
  uint64_t classThreads(std::initializer_list<const char *> Classes) const;
  /// Bytes of the named state space.
  uint64_t bytes(const char *Space) const;
};

/// The rows and what they point into.
struct FeatureRowSet {
  ProfileSet PerConfiguration;
  std::vector<FunctionSummary> Sums, ConfigSums;
  std::vector<FeatureRow> Rows;
};

/// The rows of Set (Run's profiles), with Run's ground truth. Warnings
/// (device functions in no row) go to stderr under Tool's name.
llvm::Expected<std::unique_ptr<FeatureRowSet>>
featureRows(RunDirectory &Run, const ProfileSet &Set, llvm::StringRef Tool);

/// Static PTX instructions of F's histograms.
uint64_t staticInstructions(const FunctionProfile &F);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_FEATUREROWS_H
