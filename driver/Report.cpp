//===- Report.cpp - Metrics, text and JSON renderings ---------------------===//

#include "Report.h"
#include "Legend.h"
#include "MixReport.h"
#include "ReportFormats.h"
#include "ResourceReport.h"
#include "SourceLines.h"
#include "SourceText.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;

namespace {

std::string where(const Location &L) {
  if (L.File.empty())
    return "<no debug info>";
  return formatv("{0}:{1}:{2}", sys::path::filename(L.File), L.Line, L.Column)
      .str();
}

/// Threads to the source condition's true side over all copies / their
/// active threads; nothing unless every copy knows which side that is.
std::optional<double> sourceTrueFraction(const BranchRow &Row) {
  uint64_t True = 0, Active = 0;
  for (const BranchCounts *B : Row.Copies) {
    if (!B->SourceTrueSuccessor ||
        *B->SourceTrueSuccessor >= B->SuccessorThreads.size())
      return std::nullopt;
    True += B->SuccessorThreads[*B->SourceTrueSuccessor];
    Active += B->ActiveThreads;
  }
  if (!Active)
    return std::nullopt;
  return double(True) / Active;
}

/// F's probed branches, one row per source location: the compiler's copies
/// of a branch (unrolled, duplicated) share it. Branches with no location
/// stay apart.
std::vector<BranchRow> sourceBranches(const FunctionProfile &F,
                                      SourceText &Sources) {
  std::vector<BranchRow> Rows;
  std::map<std::tuple<std::string, unsigned, unsigned, int>, size_t> ByLoc;
  for (const BranchCounts &B : F.Branches) {
    if (!B.Probed)
      continue;
    size_t Index = Rows.size();
    if (!B.Loc.File.empty()) {
      auto [It, New] = ByLoc.try_emplace(
          {B.Loc.File, B.Loc.Line, B.Loc.Column, int(B.Kind)}, Index);
      Index = It->second;
    }
    if (Index == Rows.size()) {
      Rows.emplace_back();
      Rows.back().SourceText = Sources.line(B.Loc.File, B.Loc.Line);
    }
    BranchRow &Row = Rows[Index];
    Row.Copies.push_back(&B);
    Row.Visits += B.Visits;
    Row.Divergent += B.Divergent;
    Row.ActiveThreads += B.ActiveThreads;
  }
  for (BranchRow &Row : Rows) {
    if (Row.Visits)
      Row.Rate = double(Row.Divergent) / Row.Visits;
    const BranchCounts &B = Row.first();
    if (Row.Copies.size() == 1 && B.ActiveThreads &&
        !B.SuccessorThreads.empty())
      Row.Successor0Fraction = double(B.SuccessorThreads[0]) / B.ActiveThreads;
    Row.SourceTrueFraction = sourceTrueFraction(Row);
  }
  return Rows;
}

/// "block 3 (k.cu:12)": a call site, by its block.
std::string siteName(const CallSite &C) {
  return formatv("block {0} ({1})", C.Block->Id, where(C.Block->Loc)).str();
}

std::string calleeName(const CallSite &C) {
  if (C.CalleeName.empty())
    return "an indirect call";
  return C.Callee ? C.Callee->Demangled
                  : demangle(C.CalleeName) + " (not instrumented)";
}

} // namespace

void warpscope::renderCallsText(const FunctionSummary &S, raw_ostream &OS) {
  const CallingContext &C = S.Calls;
  for (const CallSite &Site : C.Sites)
    OS << formatv("  calls from {0} to {1}: {2} warp, {3} thread calls{4}\n",
                  siteName(Site), calleeName(Site), Site.WarpCalls,
                  Site.ThreadCalls,
                  Site.CalleeSites == 1
                      ? "; all the callee's counts are from this call site"
                  : Site.WarpCalls && Site.ActiveCalleeSites == 1
                      ? formatv("; all the callee's counts are from this "
                                "call site (its {0} other call site(s) made "
                                "no call)",
                                Site.CalleeSites - 1)
                            .str()
                  : Site.CalleeSites > 1
                      ? formatv("; the callee's counts are shared by {0} "
                                "call sites and not split",
                                Site.CalleeSites)
                            .str()
                      : std::string());
  for (const CallSite &Site : C.CalledBy)
    OS << formatv("  called from {0} {1}: {2} warp, {3} thread calls\n",
                  Site.Caller->Demangled, siteName(Site), Site.WarpCalls,
                  Site.ThreadCalls);
  if (!S.Function->Kernel || (C.Callees.empty() && C.Why.empty()))
    return;
  if (!C.InclusiveExecutions) {
    OS << "  with callees: no exact totals: " << C.Why << "\n";
    return;
  }
  OS << formatv("  with callees: basic block executions {0} warp, {1} "
                "thread",
                C.InclusiveExecutions->Warp, C.InclusiveExecutions->Thread);
  if (C.InclusiveInstructions)
    OS << formatv("; PTX instructions {0} warp, {1} thread",
                  C.InclusiveInstructions->Warp,
                  C.InclusiveInstructions->Thread);
  OS << " (exact";
  if (!C.Why.empty())
    OS << "; " << C.Why;
  OS << ")\n";
}

bool warpscope::emulatedRun(const ProfileSet &Set) {
  return StringRef(Set.Device).starts_with("WarpScope Emulated");
}

std::string warpscope::formatPercent(std::optional<double> Fraction) {
  return Fraction ? formatv("{0:F1}%", *Fraction * 100).str()
                  : std::string("-");
}

Expected<std::vector<FunctionSummary>>
warpscope::summarize(const ProfileSet &Set, const std::string &Filter) {
  std::optional<Regex> R;
  if (!Filter.empty()) {
    R.emplace(Filter);
    std::string Why;
    if (!R->isValid(Why))
      return createStringError(inconvertibleErrorCode(),
                               "--kernel '" + Filter +
                                   "' is not a valid "
                                   "regular expression: " +
                                   Why);
  }
  SourceText Sources(Set.SourceHashes);
  std::vector<FunctionSummary> Out;
  for (const FunctionProfile &F : Set.Functions) {
    if (R && !R->match(F.Name) && !R->match(F.Demangled))
      continue;
    FunctionSummary S;
    S.Function = &F;
    S.Mix = instructionMix(F);
    S.Plain = comparePlain(F, S.Mix);
    for (const BlockCounts &B : F.Blocks) {
      S.WarpExecutions += B.WarpExecutions;
      S.ThreadExecutions += B.ThreadExecutions;
    }
    if (!S.WarpExecutions && !F.launches())
      continue;
    if (S.WarpExecutions)
      S.SimdEfficiency = double(S.ThreadExecutions) / (32.0 * S.WarpExecutions);
    for (const LaunchGroup &L : F.Launches)
      if (L.Timed)
        S.TimeMs = S.TimeMs.value_or(0) + L.TimeMs;
    for (const BranchCounts &B : F.Branches) {
      S.Uniform += B.Uniform;
      if (!B.Probed)
        continue;
      ++S.Probed;
      S.DivergentBranches += B.Divergent > 0;
      S.Visits += B.Visits;
      S.Divergent += B.Divergent;
    }
    S.Rows = sourceBranches(F, Sources);
    if (S.Visits)
      S.BranchEfficiency = 1.0 - double(S.Divergent) / S.Visits;
    for (BranchRow &Row : S.Rows)
      if (S.Divergent)
        Row.Share = double(Row.Divergent) / S.Divergent;
    std::stable_sort(S.Rows.begin(), S.Rows.end(),
                     [](const BranchRow &A, const BranchRow &B) {
                       if (A.Divergent != B.Divergent)
                         return A.Divergent > B.Divergent;
                       return A.Visits > B.Visits;
                     });
    uint64_t Covered = 0;
    for (const BranchRow &Row : S.Rows) {
      if (!S.Divergent || Covered * 10 >= S.Divergent * 9)
        break;
      Covered += Row.Divergent;
      ++S.Concentration90;
    }
    S.Calls = callingContext(Set, F);
    Out.push_back(std::move(S));
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const FunctionSummary &A, const FunctionSummary &B) {
                     return A.ThreadExecutions > B.ThreadExecutions;
                   });
  return Out;
}

SassMetricsSummary
warpscope::joinSassMetrics(std::vector<FunctionSummary> &Summaries,
                           const SassMetricsSet &Sass,
                           const std::string &Filter) {
  SassMetricsSummary Out;
  Out.Files = Sass.Files;
  Out.Chips = Sass.Chips;
  Out.Warnings = Sass.Warnings;
  Out.DroppedRecords = Sass.DroppedRecords;
  std::set<std::string> Reported;
  for (FunctionSummary &S : Summaries) {
    auto It = Sass.Functions.find(S.Function->Name);
    S.Hardware =
        compareWithHardware(It == Sass.Functions.end() ? nullptr : &It->second,
                            S.BranchEfficiency, S.Mix);
    Reported.insert(S.Function->Name);
  }
  // summarize checked the filter.
  std::optional<Regex> R;
  if (!Filter.empty())
    R.emplace(Filter);
  for (const auto &[Mangled, F] : Sass.Functions)
    if (!Reported.count(Mangled) &&
        (!R || R->match(Mangled) || R->match(demangle(Mangled)))) {
      InstructionMix None;
      None.Why = "the function is not in the report";
      Out.NotInReport.push_back(
          {Mangled, compareWithHardware(&F, std::nullopt, None)});
    }
  return Out;
}

void warpscope::renderText(const ProfileSet &Set,
                           const std::vector<FunctionSummary> &Summaries,
                           unsigned Top, raw_ostream &OS, bool PlainHistogram) {
  OS << "WarpScope report for " << Set.Directory << "\n";
  OS << "  program: " << (Set.Program.empty() ? "?" : Set.Program)
     << "\n  device:  "
     << (!Set.Device.empty() ? Set.Device
         : Summaries.empty() ? "not recorded (the runtime names the device "
                               "of the first kernel launch)"
                             : "?")
     << "\n  mode:    " << Set.Mode << ", " << Set.ProfileFiles.size()
     << " process profile(s)\n";
  for (const std::string &W : Set.Warnings)
    OS << "  warning: " << W << "\n";
  if (Summaries.empty())
    OS << "\nNo instrumented kernel ran.\n";
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    OS << "\n"
       << (F.Kernel ? "Kernel " : "Device function ") << F.Demangled << "  ["
       << where(F.Loc) << "]\n";
    if (F.Kernel) {
      OS << "  launches: " << F.launches();
      for (const LaunchGroup &L : F.Launches)
        OS << formatv("  ({0} x grid {1}x{2}x{3} block {4}x{5}x{6}{7})",
                      L.Count, L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0],
                      L.Block[1], L.Block[2],
                      L.SharedBytes ? formatv(" smem {0}", L.SharedBytes).str()
                                    : std::string());
      OS << "\n";
      renderResourcesText(Set, F, OS);
    }
    if (S.TimeMs)
      OS << formatv("  time: {0:F3} ms{1}\n", *S.TimeMs,
                    emulatedRun(Set) ? " (emulator: host CPU wall-clock time, "
                                       "not GPU time)"
                                     : "");
    OS << formatv("  basic block executions: {0} warp, {1} thread; SIMD "
                  "efficiency {2}\n",
                  S.WarpExecutions, S.ThreadExecutions,
                  formatPercent(S.SimdEfficiency));
    OS << formatv("  branches: {0} probed ({1} source branch(es)), {2} proven "
                  "uniform, {3} divergent; branch efficiency {4}\n",
                  S.Probed, S.Rows.size(), S.Uniform, S.DivergentBranches,
                  formatPercent(S.BranchEfficiency));
    if (S.Hardware)
      renderHardwareBranchText(*S.Hardware, OS);
    renderMixText(S.Mix, OS);
    renderPlainText(S.Plain, PlainHistogram, OS);
    if (S.Hardware)
      renderHardwareInstText(*S.Hardware, OS);
    if (S.Divergent)
      OS << formatv("  divergence concentration: {0} source branch(es) hold "
                    "90% of "
                    "{1} divergent visits\n",
                    S.Concentration90, S.Divergent);
    renderCallsText(S, OS);
    if (S.Rows.empty())
      continue;
    OS << "  divergence map (one row per source branch):\n";
    OS << formatv("    {0,-28} {1,6} {2,10} {3,10} {4,7} {5,7} {6,9} {7,11}  "
                  "{8}\n",
                  "location", "copies", "visits", "divergent", "rate", "share",
                  "cond true", "to 1st succ", "source");
    unsigned Shown = 0;
    for (const BranchRow &Row : S.Rows) {
      if (Top && Shown++ == Top) {
        OS << "    ... " << (S.Rows.size() - Top)
           << " more (use --top 0 for all)\n";
        break;
      }
      OS << formatv("    {0,-28} {1,6} {2,10} {3,10} {4,7} {5,7} {6,9} {7,11}  "
                    "{8}\n",
                    where(Row.loc()), Row.Copies.size(), Row.Visits,
                    Row.Divergent,
                    formatPercent(Row.Visits ? std::optional<double>(Row.Rate)
                                             : std::nullopt),
                    formatPercent(S.Divergent ? std::optional<double>(Row.Share)
                                              : std::nullopt),
                    formatPercent(Row.SourceTrueFraction),
                    formatPercent(Row.Successor0Fraction), Row.SourceText);
    }
  }
  // The legend explains the figures above; with no kernel there are none.
  if (!Summaries.empty())
    renderLegendText(OS);
}

static json::Value optionalNumber(std::optional<double> V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

/// One entry per source branch (BranchRow), naming its copies.
static json::Array branchSitesJson(const FunctionSummary &S) {
  json::Array Out;
  for (const BranchRow &Row : S.Rows) {
    json::Array Ids;
    for (const BranchCounts *B : Row.Copies)
      Ids.push_back(B->Id);
    Out.push_back(json::Object{
        {"file", Row.loc().File},
        {"line", Row.loc().Line},
        {"column", Row.loc().Column},
        {"kind", branchKindName(Row.first().Kind)},
        {"copies", Row.Copies.size()},
        {"branch_ids", std::move(Ids)},
        {"visits", Row.Visits},
        {"divergent", Row.Divergent},
        {"active_threads", Row.ActiveThreads},
        {"rate", Row.Visits ? json::Value(Row.Rate) : json::Value(nullptr)},
        {"share", S.Divergent ? json::Value(Row.Share) : json::Value(nullptr)},
        {"successor0_fraction", optionalNumber(Row.Successor0Fraction)},
        {"source_true_fraction", optionalNumber(Row.SourceTrueFraction)}});
  }
  return Out;
}

static json::Value siteJson(const CallSite &C) {
  return json::Object{{"caller", C.Caller->Name},
                      {"block", C.Block->Id},
                      {"file", C.Block->Loc.File},
                      {"line", C.Block->Loc.Line},
                      {"callee", C.CalleeName.empty()
                                     ? json::Value(nullptr)
                                     : json::Value(C.CalleeName)},
                      {"callee_instrumented", C.Callee != nullptr},
                      {"warp_calls", C.WarpCalls},
                      {"thread_calls", C.ThreadCalls},
                      {"callee_call_sites", C.CalleeSites},
                      {"callee_active_call_sites", C.ActiveCalleeSites}};
}

static json::Value callingContextJson(const CallingContext &C) {
  if (!C.Known)
    return json::Object{{"known", false}, {"note", C.Why}};
  json::Array Sites, CalledBy, Callees;
  for (const CallSite &S : C.Sites)
    Sites.push_back(siteJson(S));
  for (const CallSite &S : C.CalledBy)
    CalledBy.push_back(siteJson(S));
  for (const FunctionProfile *F : C.Callees)
    Callees.push_back(F->Name);
  auto Pair = [](const std::optional<WarpThread> &T) {
    return T ? json::Value(
                   json::Object{{"warp", T->Warp}, {"thread", T->Thread}})
             : json::Value(nullptr);
  };
  return json::Object{
      {"known", true},
      {"call_sites", std::move(Sites)},
      {"called_from", std::move(CalledBy)},
      {"callees", std::move(Callees)},
      {"inclusive_executions", Pair(C.InclusiveExecutions)},
      {"inclusive_instructions", Pair(C.InclusiveInstructions)},
      {"note", C.Why.empty() ? json::Value(nullptr) : json::Value(C.Why)}};
}

static json::Array sourceLinesJson(const FunctionProfile &F) {
  json::Array Out;
  for (const auto &[File, Lines] : lineCounts(F))
    for (const auto &[Line, L] : Lines) {
      json::Array Blocks;
      for (unsigned Id : L.Blocks)
        Blocks.push_back(Id);
      Out.push_back(json::Object{
          {"file", File},
          {"line", Line},
          {"warp_executions", L.WarpExecutions},
          {"thread_executions", L.ThreadExecutions},
          {"blocks", std::move(Blocks)},
          {"visits", L.Visits},
          {"divergent", L.Divergent},
          {"thread_instructions", L.ThreadInstructions
                                      ? json::Value(*L.ThreadInstructions)
                                      : json::Value(nullptr)}});
    }
  return Out;
}

json::Value
warpscope::renderJson(const ProfileSet &Set,
                      const std::vector<FunctionSummary> &Summaries) {
  json::Array Kernels;
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    json::Array Branches, Blocks, Launches;
    for (const BranchCounts &B : F.Branches) {
      uint64_t Taken = B.SuccessorThreads.empty() ? 0 : B.SuccessorThreads[0];
      json::Array Succ;
      for (uint64_t T : B.SuccessorThreads)
        Succ.push_back(T);
      Branches.push_back(json::Object{
          {"id", B.Id},
          {"file", B.Loc.File},
          {"line", B.Loc.Line},
          {"column", B.Loc.Column},
          {"kind", branchKindName(B.Kind)},
          {"uniform", B.Uniform},
          {"probed", B.Probed},
          {"visits", B.Visits},
          {"divergent", B.Divergent},
          {"active_threads", B.ActiveThreads},
          {"taken_threads", Taken},
          {"source_true_successor", B.SourceTrueSuccessor
                                        ? json::Value(*B.SourceTrueSuccessor)
                                        : json::Value(nullptr)},
          {"successor_threads", std::move(Succ)}});
    }
    for (const BlockCounts &B : F.Blocks)
      Blocks.push_back(json::Object{{"id", B.Id},
                                    {"file", B.Loc.File},
                                    {"line", B.Loc.Line},
                                    {"column", B.Loc.Column},
                                    {"loop_depth", B.LoopDepth},
                                    {"warp_executions", B.WarpExecutions},
                                    {"thread_executions", B.ThreadExecutions}});
    for (const LaunchGroup &L : F.Launches)
      Launches.push_back(json::Object{
          {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
          {"block", json::Array{L.Block[0], L.Block[1], L.Block[2]}},
          {"shared_bytes", L.SharedBytes},
          {"count", L.Count},
          {"time_ms", L.Timed ? json::Value(L.TimeMs) : json::Value(nullptr)}});
    json::Object K{{"name", F.Demangled},
                   {"mangled", F.Name},
                   {"module_id", F.ModuleId},
                   {"kind", F.Kernel ? "kernel" : "device"},
                   {"launches", F.launches()},
                   {"launch_configurations", std::move(Launches)},
                   {"time_ms", optionalNumber(S.TimeMs)},
                   {"warp_executions", S.WarpExecutions},
                   {"thread_executions", S.ThreadExecutions},
                   {"simd_efficiency", optionalNumber(S.SimdEfficiency)},
                   {"branch_efficiency", optionalNumber(S.BranchEfficiency)},
                   {"branches_probed", S.Probed},
                   {"branches_uniform", S.Uniform},
                   {"branches_divergent", S.DivergentBranches},
                   {"divergence_concentration_90", S.Concentration90},
                   {"branches", std::move(Branches)},
                   {"branch_sites", branchSitesJson(S)},
                   {"blocks", std::move(Blocks)},
                   {"source_lines", sourceLinesJson(F)},
                   {"calling_context", callingContextJson(S.Calls)}};
    if (F.Kernel)
      addResourcesJson(Set, F, K);
    addMixJson(S.Mix, K);
    K["plain_build"] = plainJson(S.Plain);
    if (S.Hardware)
      addHardwareJson(*S.Hardware, K);
    Kernels.push_back(std::move(K));
  }
  json::Array Warnings;
  for (const std::string &W : Set.Warnings)
    Warnings.push_back(W);
  return json::Object{{"schema", "warpscope-report/1"},
                      {"program", Set.Program},
                      {"device", Set.Device},
                      {"mode", Set.Mode},
                      {"time_source", emulatedRun(Set)
                                          ? "emulator-host-wall-clock"
                                          : "gpu-cuda-events"},
                      {"complete", Set.Complete},
                      {"warnings", std::move(Warnings)},
                      {"legend", legendJson()},
                      {"kernels", std::move(Kernels)}};
}

// Declared in ReportFormats.h; defined here, in the driver's core library,
// so that the core's own users (the cluster CSV) link without the command
// layer.
std::string warpscope::csvField(StringRef S) {
  if (S.find_first_of(",\"\n") == StringRef::npos)
    return S.str();
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}
