//===- DiffCompare.h - What warpscope diff compares -------------*- C++ -*-===//
//
// Two profile directories side by side, with every figure their reports
// have: per function the launches, executions, PTX instructions, branch
// efficiency, memory efficiency (global and local sectors, shared
// wavefronts), modeled time, occupancy and time; per probed branch its
// divergence; per source line its memory efficiency. Each figure carries its
// change and whether it grew worse by more than its metric's threshold
// (warpscope diff --fail-above METRIC=PCT). Rendering is DiffCommand.cpp's.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_DIFFCOMPARE_H
#define WARPSCOPE_DRIVER_DIFFCOMPARE_H

#include "MemoryReport.h"
#include "ModeledTime.h"
#include "ProfileModel.h"
#include "Report.h"
#include "RunDirectory.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// What a --fail-above threshold gates. Rates change in percentage points,
/// amounts in percent of the before value (diffMetricInPoints).
enum class DiffMetric : int {
  Divergence,   ///< a branch's divergence rate, a kernel's branch efficiency
  Instructions, ///< warp-level PTX instructions (else block executions)
  MemoryEfficiency, ///< ideal over actual sectors or wavefronts per request
  ModeledTime,      ///< the timing model's microseconds
  Occupancy,        ///< theoretical occupancy, launches weighted
  Time,             ///< measured time (host CPU time on the emulator)
};
constexpr unsigned NumDiffMetrics = 6;

/// The metric's command-line name ("modeled-time").
llvm::StringRef diffMetricName(DiffMetric M);
bool diffMetricInPoints(DiffMetric M);

/// --fail-above per metric; negative: that metric gates nothing.
struct DiffThresholds {
  double Limit[NumDiffMetrics] = {-1, -1, -1, -1, -1, -1};
  double of(DiffMetric M) const { return Limit[int(M)]; }
  bool any() const;
};

/// One figure of a function or a line in both profiles.
struct DiffFigure {
  DiffFigure(std::optional<DiffMetric> Metric, std::string Name,
             std::string Key, std::string Unit)
      : Metric(Metric), Name(std::move(Name)), Key(std::move(Key)),
        Unit(std::move(Unit)) {}
  std::optional<DiffMetric> Metric; ///< none: shown, never gated
  std::string Name;                 ///< "global memory efficiency"
  std::string Key;                  ///< its JSON key
  std::string Unit;                 ///< "%", "us", "ms"; "" for counts
  std::optional<double> Before, After;
  bool HigherIsWorse = true;
  /// Beside the change: "8.00 -> 1.00 sectors/request".
  std::string Note;
  /// Points for rates, percent for amounts; none when before is 0 and
  /// after is not, or a side lacks the figure.
  std::optional<double> Change;
  bool Regression = false;
  bool changed() const { return Before != After; }
};

/// A pair of probed branches, one per build, that are one source branch.
struct DiffBranch {
  const BranchCounts *Before, *After;
  bool ByText; ///< matched by the text of its line (the line may have moved)
  /// Order among the probed branches at the same place in each build.
  unsigned OrdinalBefore = 0, Ordinal = 0;
  double Growth = 0; ///< percentage points of divergence rate
  bool Regression = false;
};

/// A source line with memory instructions in both profiles.
struct DiffLine {
  std::string File;
  unsigned Line = 0;
  std::string Access; ///< load, store or atomic: one row per access
  std::vector<DiffFigure> Figures;
};

/// One function in either profile.
struct DiffFunction {
  const FunctionSummary *Before = nullptr, *After = nullptr;
  std::vector<DiffFigure> Figures;
  std::vector<DiffBranch> Branches; ///< matched and changed
  std::vector<const BranchCounts *> BranchesOnlyBefore, BranchesOnlyAfter;
  std::vector<DiffLine> Lines; ///< in both, changed
  std::vector<const MemoryLine *> LinesOnlyBefore, LinesOnlyAfter;
  bool Regression = false; ///< a figure of the function itself
  const FunctionProfile &function() const {
    return *(After ? After : Before)->Function;
  }
};

/// One profile directory with what its report shows. Summaries point into
/// Set: a side is not copied or moved.
struct DiffSide {
  std::string Dir;
  const ProfileSet *Set = nullptr; ///< the RunDirectory's

  std::vector<FunctionSummary> Summaries;
  std::optional<MemoryView> Memory;       ///< emulated runs
  std::optional<ModeledTimeView> Modeled; ///< runs with the timing model
};
/// One side of the diff from Run, which must outlive it.
llvm::Expected<std::unique_ptr<DiffSide>> loadDiffSide(RunDirectory &Run);

struct DiffResult {
  std::vector<DiffFunction> Functions; ///< after's order, then before-only
  unsigned Regressions = 0;
};
DiffResult compareProfiles(const DiffSide &A, const DiffSide &B,
                           const DiffThresholds &T);

/// A branch's divergence rate in percent.
double divergencePercent(const BranchCounts &B);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_DIFFCOMPARE_H
