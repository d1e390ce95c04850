//===- Report.h - Per-kernel metrics and the divergence map ---------------===//
#ifndef WARPSCOPE_DRIVER_REPORT_H
#define WARPSCOPE_DRIVER_REPORT_H

#include "CallingContext.h"
#include "InstructionMix.h"
#include "PlainBuild.h"
#include "ProfileModel.h"
#include "SassReport.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

/// One source branch: the probed branches at one source location (the
/// compiler's copies of it, e.g. an unrolled loop's), their counts summed.
struct BranchRow {
  std::vector<const BranchCounts *> Copies; ///< at least one, by id
  const BranchCounts &first() const { return *Copies.front(); }
  const Location &loc() const { return first().Loc; }
  uint64_t Visits = 0, Divergent = 0, ActiveThreads = 0;
  std::string SourceText;
  double Rate = 0;  ///< divergent / visits
  double Share = 0; ///< of the function's divergent visits
  /// Threads that went to the first successor in the compiled code (the
  /// LLVM IR condition's true side) / active threads. Only for a single
  /// copy: copies need not share a polarity.
  std::optional<double> Successor0Fraction;
  /// Threads that took the source condition's true side / active threads,
  /// where the plugin recorded which successor that is for every copy.
  std::optional<double> SourceTrueFraction;
};

struct FunctionSummary {
  const FunctionProfile *Function;
  uint64_t WarpExecutions = 0, ThreadExecutions = 0;
  std::optional<double> SimdEfficiency, BranchEfficiency;
  unsigned Probed = 0, Uniform = 0, DivergentBranches = 0;
  unsigned Concentration90 = 0; ///< source branches holding 90% of it
  uint64_t Visits = 0, Divergent = 0;
  std::optional<double> TimeMs;
  /// Probed branches by source location, most divergent first.
  std::vector<BranchRow> Rows;
  InstructionMix Mix; ///< this function's own PTX (not its callees')
  /// The plain build's PTX against Mix.
  PlainComparison Plain;
  /// Call sites, callers, and for kernels the totals with callees.
  CallingContext Calls;
  /// The hardware's numbers, when the directory has SASS metrics.
  std::optional<HardwareComparison> Hardware;
};

/// Summaries of functions that ran or were launched, heaviest first;
/// Filter (a regex over mangled and demangled names) may be empty.
llvm::Expected<std::vector<FunctionSummary>>
summarize(const ProfileSet &Set, const std::string &Filter);

/// Joins SASS metrics to the summaries by mangled name: every summary gets
/// Hardware. Filter is summarize's; SASS records of functions it lets
/// through but the report lacks are listed in the result.
SassMetricsSummary joinSassMetrics(std::vector<FunctionSummary> &Summaries,
                                   const SassMetricsSet &Sass,
                                   const std::string &Filter);

/// The run was on the emulator (its device's name): times are host CPU
/// times there.
bool emulatedRun(const ProfileSet &Set);

/// Call sites, callers and a kernel's totals with its callees, as text
/// lines (none for a function that calls nothing and is not called).
void renderCallsText(const FunctionSummary &S, llvm::raw_ostream &OS);

/// "12.3%", or "-" when there is nothing to divide by.
std::string formatPercent(std::optional<double> Fraction);

/// PlainHistogram: also the plain build's per-opcode counts.
void renderText(const ProfileSet &Set, const std::vector<FunctionSummary> &S,
                unsigned Top, llvm::raw_ostream &OS,
                bool PlainHistogram = false);
llvm::json::Value renderJson(const ProfileSet &Set,
                             const std::vector<FunctionSummary> &S);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_REPORT_H
