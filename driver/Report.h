//===- Report.h - Per-kernel metrics and the divergence map ---------------===//
#ifndef WARPSCOPE_DRIVER_REPORT_H
#define WARPSCOPE_DRIVER_REPORT_H

#include "InstructionMix.h"
#include "ProfileModel.h"
#include "SassReport.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

struct BranchRow {
  const BranchCounts *Branch;
  std::string SourceText;
  double Rate = 0;                     ///< divergent / visits
  double Share = 0;                    ///< of the function's divergent visits
  std::optional<double> TakenFraction; ///< successor-0 threads / active
};

struct FunctionSummary {
  const FunctionProfile *Function;
  uint64_t WarpExecutions = 0, ThreadExecutions = 0;
  std::optional<double> SimdEfficiency, BranchEfficiency;
  unsigned Probed = 0, Uniform = 0, DivergentBranches = 0;
  unsigned Concentration90 = 0; ///< branches holding 90% of divergence
  uint64_t Visits = 0, Divergent = 0;
  std::optional<double> TimeMs;
  std::vector<BranchRow> Rows; ///< probed branches, most divergent first
  InstructionMix Mix;          ///< this function's own PTX (not its callees')
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

/// "12.3%", or "-" when there is nothing to divide by.
std::string formatPercent(std::optional<double> Fraction);

void renderText(const ProfileSet &Set, const std::vector<FunctionSummary> &S,
                unsigned Top, llvm::raw_ostream &OS);
llvm::json::Value renderJson(const ProfileSet &Set,
                             const std::vector<FunctionSummary> &S);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_REPORT_H
