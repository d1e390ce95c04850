//===- SassReport.h - SASS metrics next to WarpScope's own numbers --------===//
//
// Per function: the hardware's branch efficiency (from CUPTI SASS metrics)
// next to ours, with the difference in percentage points, and SASS warp
// instructions next to our PTX warp instructions. Rendered as text lines,
// fields of the JSON report's kernels[] plus a "sass_metrics" member, and
// HTML.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_SASSREPORT_H
#define WARPSCOPE_DRIVER_SASSREPORT_H

#include "InstructionMix.h"
#include "SassMetrics.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace warpscope {

/// One function's SASS metrics beside our numbers for it.
struct HardwareComparison {
  bool HasRecords = false;
  std::string NoRecords; ///< why there are none, when none
  SassFunction Sass;     ///< the sums, when HasRecords
  SassRatio BranchEfficiency;
  /// (hardware - ours) x 100, when both efficiencies exist.
  std::optional<double> DifferencePoints;
  /// SASS warp instructions per PTX warp instruction of ours.
  SassRatio InstRatio;
  bool PtxLowerBound = false; ///< our PTX count misses some instructions
};

/// The profile directory's SASS metrics as a whole.
struct SassMetricsSummary {
  std::vector<std::string> Files, Chips, Warnings;
  uint64_t DroppedRecords = 0;
  /// Functions with SASS records but no entry in the report (mangled), and
  /// the hardware's numbers of each (e.g. every kernel of a program that
  /// was not instrumented).
  struct Unreported {
    std::string Mangled;
    HardwareComparison Hardware;
  };
  std::vector<Unreported> NotInReport;
};

/// F may be null: the function has no SASS records.
HardwareComparison compareWithHardware(const SassFunction *F,
                                       std::optional<double> OurEfficiency,
                                       const InstructionMix &Mix);

/// "+1.5", "-0.3", "0.0": percentage points to one decimal, signed.
std::string formatSignedPoints(double Points);
/// "+1.5 percentage points".
std::string formatPoints(double Points);

/// The line after our branch efficiency and the one after our PTX counts.
void renderHardwareBranchText(const HardwareComparison &H,
                              llvm::raw_ostream &OS);
void renderHardwareInstText(const HardwareComparison &H, llvm::raw_ostream &OS);
/// The kernels[] entry's "hardware" member (docs/report-schema.md).
void addHardwareJson(const HardwareComparison &H, llvm::json::Object &Out);
/// One HTML paragraph.
void renderHardwareHtml(const HardwareComparison &H, llvm::raw_ostream &OS);

void renderSassSummaryText(const SassMetricsSummary &S, llvm::raw_ostream &OS);
llvm::json::Value renderSassSummaryJson(const SassMetricsSummary &S);
/// An HTML section (no page around it).
std::string renderSassSummaryHtml(const SassMetricsSummary &S);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_SASSREPORT_H
