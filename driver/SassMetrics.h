//===- SassMetrics.h - sassmetrics-*.json, summed per function ------------===//
//
// Loads what libwarpscope-collect.so wrote under `warpscope run
// --sass-metrics` (docs/pc-sampling-schema.md) and sums each metric over a
// function's pcs; from the sums, the hardware's branch efficiency as Nsight
// Compute defines it. Every problem is one line naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_SASSMETRICS_H
#define WARPSCOPE_DRIVER_SASSMETRICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// The SASS metrics the report uses. Chips name them with a unit prefix
/// (smsp__sass_inst_executed); the report finds them by suffix.
enum class SassCounter {
  InstExecuted,           ///< warp-level SASS instructions executed
  ThreadInstExecuted,     ///< the same, per active thread
  BranchTargets,          ///< branch targets executed
  BranchTargetsUniform,   ///< ...where all active threads chose one target
  BranchTargetsDivergent, ///< ...where two or more targets were chosen
};
constexpr unsigned NumSassCounters = 5;

/// "sass_inst_executed", ...: the name after the unit prefix.
llvm::StringRef sassCounterSuffix(SassCounter C);

/// One counter of one function, summed over its pcs in every file.
struct SassCounterSum {
  uint64_t Value = 0;
  std::string Metric;   ///< the full name summed, e.g. smsp__sass_inst_executed
  std::string Missing;  ///< non-empty: why there is no value (Value is 0)
  bool Derived = false; ///< the sum of other counters, not a metric itself
  bool available() const { return Missing.empty(); }
};

struct SassFunction {
  std::string Function; ///< mangled
  unsigned Pcs = 0;
  std::array<SassCounterSum, NumSassCounters> Counters;
  const SassCounterSum &operator[](SassCounter C) const {
    return Counters[unsigned(C)];
  }
  SassCounterSum &operator[](SassCounter C) { return Counters[unsigned(C)]; }
};

struct SassMetricsSet {
  std::vector<std::string> Files;
  std::vector<std::string> Chips; ///< distinct, in file order
  uint64_t DroppedRecords = 0;
  std::map<std::string, SassFunction> Functions; ///< by mangled name
  std::vector<std::string> Warnings; ///< the collector's errors, drops
};

/// The one reader of SASS metrics: Files are a directory's
/// sassmetrics-*.json (RunDirectory lists them); nullopt when there is none.
/// Commands use RunDirectory::sassMetrics().
llvm::Expected<std::optional<SassMetricsSet>>
readSassMetrics(const std::vector<std::string> &Files);

/// A ratio the hardware gives, or why it cannot.
struct SassRatio {
  std::optional<double> Value;
  std::string Why; ///< when no value
};

/// Uniform branch targets / branch targets over the function's pcs, 1 when
/// no branch ran (Nsight Compute's Branch Efficiency,
/// smsp__sass_average_branch_targets_threads_uniform.pct, as a fraction).
SassRatio hardwareBranchEfficiency(const SassFunction &F);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_SASSMETRICS_H
