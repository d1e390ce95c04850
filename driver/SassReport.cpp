//===- SassReport.cpp - SASS metrics next to WarpScope's own numbers ------===//

#include "SassReport.h"
#include "Html.h"
#include "Report.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;
using namespace warpscope;

namespace {

json::Value orNull(const std::optional<double> &V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

json::Value noteOrNull(const std::string &Why) {
  return Why.empty() ? json::Value(nullptr) : json::Value(Why);
}

} // namespace

HardwareComparison
warpscope::compareWithHardware(const SassFunction *F,
                               std::optional<double> OurEfficiency,
                               const InstructionMix &Mix) {
  HardwareComparison H;
  if (!F) {
    H.NoRecords = "no SASS records for this function (inlined into its "
                  "callers, or it did not run under --sass-metrics)";
    H.BranchEfficiency.Why = H.InstRatio.Why = H.NoRecords;
    return H;
  }
  H.HasRecords = true;
  H.Sass = *F;
  H.BranchEfficiency = hardwareBranchEfficiency(*F);
  if (H.BranchEfficiency.Value && OurEfficiency)
    H.DifferencePoints = (*H.BranchEfficiency.Value - *OurEfficiency) * 100;
  const SassCounterSum &Inst = (*F)[SassCounter::InstExecuted];
  if (!Inst.available())
    H.InstRatio.Why = Inst.Missing;
  else if (!Mix.Available)
    H.InstRatio.Why = "no PTX count to compare (" + Mix.Why + ")";
  else if (!Mix.Total.Warp)
    H.InstRatio.Why = "no PTX warp instructions to compare";
  else
    H.InstRatio.Value = double(Inst.Value) / double(Mix.Total.Warp);
  H.PtxLowerBound = Mix.Available && Mix.unknownStatic();
  return H;
}

std::string warpscope::formatSignedPoints(double Points) {
  // Round first so that -0.04 prints as 0.0, not -0.0.
  double Rounded = std::round(Points * 10) / 10;
  if (Rounded == 0)
    return "0.0";
  return formatv("{0}{1:F1}", Rounded > 0 ? "+" : "", Rounded).str();
}

std::string warpscope::formatPoints(double Points) {
  return formatSignedPoints(Points) + " percentage points";
}

void warpscope::renderHardwareBranchText(const HardwareComparison &H,
                                         raw_ostream &OS) {
  if (!H.HasRecords) {
    OS << "  hardware (SASS metrics): " << H.NoRecords << "\n";
    return;
  }
  const SassRatio &E = H.BranchEfficiency;
  OS << "  hardware branch efficiency (SASS): ";
  if (!E.Value) {
    OS << "not available: " << E.Why << "\n";
    return;
  }
  OS << formatv("{0} ({1} of {2} branch targets uniform",
                formatPercent(E.Value),
                H.Sass[SassCounter::BranchTargetsUniform].Value,
                H.Sass[SassCounter::BranchTargets].Value);
  if (H.Sass[SassCounter::BranchTargetsDivergent].available())
    OS << ", " << H.Sass[SassCounter::BranchTargetsDivergent].Value
       << " divergent";
  OS << "); ";
  if (H.DifferencePoints)
    OS << formatPoints(*H.DifferencePoints) << " vs ours\n";
  else
    OS << "ours has no probed branch that ran\n";
}

void warpscope::renderHardwareInstText(const HardwareComparison &H,
                                       raw_ostream &OS) {
  if (!H.HasRecords)
    return; // the branch line said why
  const SassCounterSum &Inst = H.Sass[SassCounter::InstExecuted];
  const SassCounterSum &Threads = H.Sass[SassCounter::ThreadInstExecuted];
  OS << "  SASS instructions: ";
  if (!Inst.available()) {
    OS << "not available: " << Inst.Missing << "\n";
    return;
  }
  OS << Inst.Value << " warp";
  if (Threads.available())
    OS << ", " << Threads.Value << " thread";
  if (H.InstRatio.Value)
    OS << formatv("; {0:F2}x our PTX warp instructions{1} (informational: "
                  "SASS and PTX counts differ by design)",
                  *H.InstRatio.Value, H.PtxLowerBound ? ", a lower bound" : "");
  else
    OS << "; " << H.InstRatio.Why;
  OS << "\n";
}

void warpscope::addHardwareJson(const HardwareComparison &H,
                                json::Object &Out) {
  auto Count = [&](SassCounter C) {
    const SassCounterSum &S = H.Sass[C];
    return H.HasRecords && S.available() ? json::Value(S.Value)
                                         : json::Value(nullptr);
  };
  json::Object Metrics;
  if (H.HasRecords)
    for (const SassCounterSum &S : H.Sass.Counters)
      if (S.available() && !S.Derived)
        Metrics[S.Metric] = S.Value;
  const SassCounterSum &Inst = H.Sass[SassCounter::InstExecuted];
  Out["hardware"] = json::Object{
      {"sass_pcs", H.HasRecords ? H.Sass.Pcs : 0},
      {"note", noteOrNull(H.NoRecords)},
      {"metrics", std::move(Metrics)},
      {"branch_targets", Count(SassCounter::BranchTargets)},
      {"branch_targets_uniform", Count(SassCounter::BranchTargetsUniform)},
      {"branch_targets_divergent", Count(SassCounter::BranchTargetsDivergent)},
      {"branch_efficiency", orNull(H.BranchEfficiency.Value)},
      {"branch_efficiency_note", noteOrNull(H.BranchEfficiency.Why)},
      {"branch_efficiency_difference_points", orNull(H.DifferencePoints)},
      {"inst_executed", Count(SassCounter::InstExecuted)},
      {"thread_inst_executed", Count(SassCounter::ThreadInstExecuted)},
      {"inst_executed_note",
       noteOrNull(H.HasRecords ? Inst.Missing : H.NoRecords)},
      {"inst_executed_per_ptx_warp_instruction", orNull(H.InstRatio.Value)},
      {"inst_executed_ratio_note", noteOrNull(H.InstRatio.Why)}};
}

void warpscope::renderHardwareHtml(const HardwareComparison &H,
                                   raw_ostream &OS) {
  std::string Text;
  raw_string_ostream S(Text);
  renderHardwareBranchText(H, S);
  renderHardwareInstText(H, S);
  OS << "<pre class=\"hardware\">" << escapeHtml(Text) << "</pre>\n";
}

/// One line of a function's SASS numbers, with no count of ours beside.
static std::string hardwareAloneText(const HardwareComparison &H) {
  if (!H.HasRecords)
    return H.NoRecords;
  std::string Text;
  raw_string_ostream OS(Text);
  const SassRatio &E = H.BranchEfficiency;
  OS << "SASS: branch efficiency ";
  if (E.Value)
    OS << formatv("{0} ({1} of {2} branch targets uniform)",
                  formatPercent(E.Value),
                  H.Sass[SassCounter::BranchTargetsUniform].Value,
                  H.Sass[SassCounter::BranchTargets].Value);
  else
    OS << "not available (" << E.Why << ")";
  const SassCounterSum &Inst = H.Sass[SassCounter::InstExecuted];
  const SassCounterSum &Threads = H.Sass[SassCounter::ThreadInstExecuted];
  if (Inst.available()) {
    OS << "; instructions " << Inst.Value << " warp";
    if (Threads.available())
      OS << ", " << Threads.Value << " thread";
  }
  return Text;
}

void warpscope::renderSassSummaryText(const SassMetricsSummary &S,
                                      raw_ostream &OS) {
  OS << formatv("\nSASS metrics (CUPTI, warpscope run --sass-metrics): {0} "
                "file(s), chip {1}\n",
                S.Files.size(), S.Chips.empty() ? "?" : join(S.Chips, ", "));
  for (const std::string &W : S.Warnings)
    OS << "  warning: " << W << "\n";
  for (const auto &[F, Hardware] : S.NotInReport)
    OS << "  not in this report: " << demangle(F) << " (" << F << ")\n    "
       << hardwareAloneText(Hardware) << "\n";
}

json::Value warpscope::renderSassSummaryJson(const SassMetricsSummary &S) {
  json::Array Files, Chips, Warnings, Missing;
  for (const std::string &F : S.Files)
    Files.push_back(F);
  for (const std::string &C : S.Chips)
    Chips.push_back(C);
  for (const std::string &W : S.Warnings)
    Warnings.push_back(W);
  json::Array Hardware;
  for (const auto &[F, FHardware] : S.NotInReport) {
    Missing.push_back(F);
    json::Object H{{"mangled", F}};
    addHardwareJson(FHardware, H);
    Hardware.push_back(std::move(H));
  }
  return json::Object{{"version", 1},
                      {"files", std::move(Files)},
                      {"chips", std::move(Chips)},
                      {"dropped_records", S.DroppedRecords},
                      {"warnings", std::move(Warnings)},
                      {"functions_not_in_report", std::move(Missing)},
                      {"not_in_report_hardware", std::move(Hardware)}};
}

std::string warpscope::renderSassSummaryHtml(const SassMetricsSummary &S) {
  std::string Text;
  raw_string_ostream TS(Text);
  renderSassSummaryText(S, TS);
  return "<h2>SASS metrics (CUPTI)</h2>\n<pre class=\"sass\">" +
         escapeHtml(StringRef(Text).trim()) + "</pre>\n";
}
