//===- ModeledTime.h - Modeled time per launch and kernel -------*- C++ -*-===//
//
// For a run on the emulator with the timing model (docs/timing-model.md):
// the modeled cycles and microseconds of each launch and their sums per
// kernel, from the ground truth's `launches[].modeled` (GroundTruth.h).
// Always labelled "modeled": these are the model's figures, not a
// measurement. Rendered as text, a "modeled_time" member of the JSON report
// and an HTML section; `warpscope features` adds the per-kernel sums.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_MODELEDTIME_H
#define WARPSCOPE_DRIVER_MODELEDTIME_H

#include "GroundTruth.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

struct ModeledLaunch {
  std::string Mangled, Name;
  uint64_t Grid[3], Block[3];
  TruthModeled Time;
};

struct ModeledKernel {
  std::string Mangled, Name;
  uint64_t Launches = 0, Cycles = 0;
  double Microseconds = 0;
  bool Scaled = false; ///< some launch simulated a subset of SMs
};

struct ModeledTimeView {
  std::string Config; ///< the configurations, comma-separated if several
  /// How the launches treated probe instructions: "free", "modeled",
  /// "mixed", or "" (no probes).
  std::string Probes;
  std::vector<ModeledLaunch> Launches; ///< in launch order
  std::vector<ModeledKernel> Kernels;  ///< most cycles first
};

/// Launches with modeled time whose kernel matches Filter (a regex over
/// mangled and demangled names; may be empty). nullopt when none has.
std::optional<ModeledTimeView> buildModeledTime(const Truth &T,
                                                const std::string &Filter);

/// ", probe instructions free" (or modeled, or mixed) for labels next to
/// "modeled"; "" when Probes is (a program without probes).
std::string modeledProbesLabel(const std::string &Probes);

void renderModeledText(const ModeledTimeView &V, llvm::raw_ostream &OS);
llvm::json::Value renderModeledJson(const ModeledTimeView &V);
/// An HTML section (no page around it).
std::string renderModeledHtml(const ModeledTimeView &V);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_MODELEDTIME_H
