//===- AdviseRender.cpp - Running the optimizers, ranking, rendering ------===//

#include "AdviseRender.h"
#include "../Html.h"
#include "../SourceText.h"
#include "ResourceBound.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <set>
#include <tuple>

using namespace llvm;

namespace warpscope::advise {

std::vector<std::unique_ptr<Optimizer>> allOptimizers() {
  std::vector<std::unique_ptr<Optimizer>> All = gpaOptimizers();
  for (std::unique_ptr<Optimizer> &O : exactOptimizers())
    All.push_back(std::move(O));
  return All;
}

static bool shareLine(const Advice &A, const Advice &B) {
  for (const Hotspot &H : A.Hotspots)
    for (const Hotspot &G : B.Hotspots)
      if (H.Line && H.Line == G.Line && H.File == G.File)
        return true;
  return false;
}

static const InputKind AllKinds[] = {
    InputKind::Counts,       InputKind::Divergence,  InputKind::Samples,
    InputKind::MemoryCounts, InputKind::Occupancy,   InputKind::LaunchConfig,
    InputKind::ModeledTime,  InputKind::Instructions};

// The estimators reason about the SMs' time (samples, exact counts, the
// modeled cycles less the launch's fixed cost); the kernel's time also
// holds the launches' fixed cost, which no change of its code removes:
// a saving of the SM time by s is (L + S) / (L + S / s) of the kernel's.
// Advice left under a 1% speedup of the kernel is dropped, as the
// optimizers drop it.
static void withLaunchCost(const Inputs &In, std::vector<Advice> &All) {
  constexpr double MinSpeedup = 1.01;
  for (Advice &A : All) {
    auto M = In.ModeledTime.find(A.Kernel);
    if (M == In.ModeledTime.end() || M->second.LaunchCycles <= 0 ||
        M->second.Cycles <= 0 || !(A.EstimatedSpeedup > 1) ||
        A.Kind == EstimateKind::Resimulated) // the kernel's time already
      continue;
    const double L = M->second.LaunchCycles, S = M->second.Cycles;
    A.EstimatedSpeedup = (L + S) / (L + S / A.EstimatedSpeedup);
    A.Estimator += formatv("; the launch's fixed cost ({0} of {1} modeled "
                           "cycles) stays",
                           formatNumber(L, 0), formatNumber(L + S, 0))
                       .str();
  }
  All.erase(std::remove_if(All.begin(), All.end(),
                           [&](const Advice &A) {
                             return In.ModeledTime.count(A.Kernel) &&
                                    A.EstimatedSpeedup < MinSpeedup;
                           }),
            All.end());
}

// Advice whose change only re-simulation estimates (a smaller shared-memory
// reservation that changes the carveout, and so the L1, but not the blocks
// per SM) and that was not re-simulated: a note says what would estimate
// it, rather than a 1x item.
static void dropUnestimated(std::vector<Advice> &All,
                            std::vector<std::string> &Notes) {
  std::vector<Advice> Kept;
  for (Advice &A : All) {
    if (A.Kind == EstimateKind::Formula && A.Change.any() &&
        !(A.EstimatedSpeedup > 1)) {
      Notes.push_back(formatv("{0} for {1}: {2}; its gain is not estimated "
                              "without re-simulation (`warpscope advise "
                              "--what-if`)",
                              A.Optimizer, A.Kernel, A.Title)
                          .str());
      continue;
    }
    Kept.push_back(std::move(A));
  }
  All = std::move(Kept);
}

// Optimizers that find one cause by two methods (GPA's from the stalls,
// ours from the exact counts): "" for the rest.
static StringRef causeOf(StringRef Optimizer) {
  if (Optimizer == "uncoalesced_access" ||
      Optimizer == "global_memory_access_adjustment")
    return "uncoalesced global accesses";
  if (Optimizer == "bank_conflicts" ||
      Optimizer == "shared_memory_access_adjustment")
    return "shared-memory bank conflicts";
  return "";
}

// One item per cause and hotspot set: an item of a kernel whose cause an
// earlier (higher ranked) item of the kernel has, on a line it names too,
// is folded into it as a second opinion.
static void mergeSameCause(std::vector<Advice> &All) {
  std::vector<Advice> Kept;
  for (Advice &A : All) {
    StringRef Cause = causeOf(A.Optimizer);
    auto Same =
        Cause.empty()
            ? Kept.end()
            : std::find_if(Kept.begin(), Kept.end(), [&](const Advice &K) {
                return K.Kernel == A.Kernel && causeOf(K.Optimizer) == Cause &&
                       shareLine(K, A);
              });
    if (Same == Kept.end()) {
      Kept.push_back(std::move(A));
      continue;
    }
    Same->AlsoFoundBy.push_back({A.Optimizer, A.EstimatedSpeedup});
    Same->Estimator += formatv("; the same {0} also found by {1} ({2}x)", Cause,
                               A.Optimizer, formatNumber(A.EstimatedSpeedup))
                           .str();
  }
  All = std::move(Kept);
}

AdviceReport runAdvisor(const LoadedInputs &L,
                        const std::vector<std::unique_ptr<Optimizer>> &Opts,
                        const std::string &KernelRegex, unsigned Top,
                        const WhatIfRunner *WhatIf) {
  AdviceReport R;
  R.Notes = L.Notes;
  R.Modeled = L.In.SampleSource == "model" && L.In.has(InputKind::Samples);
  if (R.Modeled)
    R.ModelProbes = L.In.SampleProbes;
  R.Nodes = L.Nodes;
  R.SingleBefore = L.SingleBefore;
  R.SingleAfter = L.SingleAfter;
  R.HybridFunctions = L.HybridFunctions;
  for (InputKind K : AllKinds)
    (L.In.has(K) ? R.InputsUsed : R.InputsMissing)
        .push_back(inputName(K).str());
  std::vector<Advice> All;
  for (const std::unique_ptr<Optimizer> &O : Opts) {
    SkippedOptimizer S{O->id().str(), {}, {}};
    for (InputKind K : O->needs())
      if (!L.In.has(K)) {
        S.Missing.push_back(inputName(K).str());
        std::string How = inputSource(K).str();
        if (std::find(S.Supply.begin(), S.Supply.end(), How) == S.Supply.end())
          S.Supply.push_back(How);
      }
    if (!S.Missing.empty()) {
      R.Skipped.push_back(std::move(S));
      continue;
    }
    O->run(L.In, All);
  }
  if (WhatIf)
    resimulate(L.In, *WhatIf, All, R.Notes);
  dropUnestimated(All, R.Notes);
  boundByResources(L.In, All);
  withLaunchCost(L.In, All);
  Regex Filter(KernelRegex);
  std::map<std::string, unsigned> PerKernel;
  // Without PC samples the figures are not estimates, so nothing is ranked
  // by them: kernel and title order.
  R.Estimates = L.In.has(InputKind::Samples);
  if (R.Estimates)
    std::stable_sort(All.begin(), All.end(),
                     [](const Advice &A, const Advice &B) {
                       return A.EstimatedSpeedup > B.EstimatedSpeedup;
                     });
  else
    std::stable_sort(
        All.begin(), All.end(), [](const Advice &A, const Advice &B) {
          return std::tie(A.Kernel, A.Title) < std::tie(B.Kernel, B.Title);
        });
  mergeSameCause(All);
  SourceHashes None; // SourceText keeps a reference
  SourceText Text(L.Profile ? L.Profile->SourceHashes : None);
  for (Advice &A : All) {
    if (!KernelRegex.empty() && !Filter.match(A.Kernel) &&
        !Filter.match(demangle(A.Kernel)))
      continue;
    if (Top && ++PerKernel[A.Kernel] > Top)
      continue;
    for (Hotspot &H : A.Hotspots)
      if (H.Source.empty() && !H.File.empty() && H.Line)
        H.Source = Text.line(H.File, H.Line);
    R.Ranked.push_back(std::move(A));
  }
  return R;
}

static std::string list(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &X : V)
    S += (S.empty() ? "" : ", ") + X;
  return S.empty() ? "none" : S;
}

static std::string shortFile(const std::string &F) {
  return F.empty() ? "?" : sys::path::filename(F).str();
}

// "; probe instructions free" for modeled samples of an instrumented run.
static std::string probesNote(const AdviceReport &R) {
  return R.ModelProbes.empty() ? "" : "; probe instructions " + R.ModelProbes;
}

// Whether A's figure is a speedup estimate: with PC samples, or the timing
// model's re-simulation; otherwise what removing the excess would give.
static bool isEstimate(const AdviceReport &R, const Advice &A) {
  return R.Estimates || A.Kind == EstimateKind::Resimulated;
}

// "estimated speedup 1.4x (modeled)", or without PC samples what the
// figure is: removing the flagged excess if it cost nothing.
static std::string speedupPhrase(const AdviceReport &R, const Advice &A) {
  if (!isEstimate(R, A))
    return formatv("{0}x if the flagged excess were free (no PC samples: "
                   "not an estimate)",
                   formatNumber(A.EstimatedSpeedup));
  if (A.Kind == EstimateKind::Resimulated)
    return formatv("estimated speedup {0}x, re-simulated",
                   formatNumber(A.EstimatedSpeedup));
  return formatv("estimated speedup {0}x{1}, formula",
                 formatNumber(A.EstimatedSpeedup),
                 R.Modeled ? " (modeled)" : "");
}

// The skipped optimizers, one line per set of missing inputs: "not run
// (need PC samples, instruction listing: `warpscope run --pc-sampling`
// ...): a, b, c".
static std::vector<std::string> notRunLines(const AdviceReport &R) {
  std::vector<std::pair<std::string, std::string>> Groups;
  for (const SkippedOptimizer &S : R.Skipped) {
    std::string Key =
        formatv("need {0}: {1}", list(S.Missing), join(S.Supply, "; ")).str();
    auto It = std::find_if(Groups.begin(), Groups.end(),
                           [&](const auto &G) { return G.first == Key; });
    if (It == Groups.end())
      Groups.push_back({Key, S.Optimizer});
    else
      It->second += ", " + S.Optimizer;
  }
  std::vector<std::string> Out;
  for (const auto &[Key, Names] : Groups)
    Out.push_back(formatv("not run ({0}): {1}", Key, Names).str());
  return Out;
}

static std::string hotspotUnit(const AdviceReport &R, const Hotspot &H) {
  if (!H.Unit.empty())
    return H.Unit;
  return R.Modeled ? "modeled samples" : "samples";
}

static std::string coverage(const AdviceReport &R) {
  if (!R.Nodes)
    return "";
  return formatv("{0} instructions with dependency stalls; single-dependency "
                 "coverage {1} before pruning, {2} after",
                 R.Nodes, formatNumber(double(R.SingleBefore) / R.Nodes),
                 formatNumber(double(R.SingleAfter) / R.Nodes))
      .str();
}

void renderAdviceText(const AdviceReport &R, raw_ostream &OS) {
  OS << "Advice (" << AdviceSchema << ")\n";
  OS << "inputs used: " << list(R.InputsUsed)
     << (R.Modeled ? " (the PC samples are modeled, not measured" +
                         probesNote(R) + ")"
                   : "")
     << "\ninputs missing: " << list(R.InputsMissing) << "\n";
  for (const std::string &Line : notRunLines(R))
    OS << Line << "\n";
  for (const std::string &N : R.Notes)
    OS << "note: " << N << "\n";
  if (!coverage(R).empty())
    OS << "blamer: " << coverage(R)
       << (R.HybridFunctions
               ? formatv("; hybrid mode (exact executions) in {0} "
                         "function(s)",
                         R.HybridFunctions)
                     .str()
               : std::string())
       << "\n";
  if (R.Ranked.empty()) {
    OS << "\nNo advice: no optimizer matched enough to estimate a 1% "
          "speedup.\n";
    return;
  }
  if (!R.Estimates)
    OS << "\nFindings, unranked: without PC samples there are no speedup "
          "estimates (`warpscope run --pc-sampling` gives them)\n";
  std::vector<std::string> Kernels;
  for (const Advice &A : R.Ranked)
    if (std::find(Kernels.begin(), Kernels.end(), A.Kernel) == Kernels.end())
      Kernels.push_back(A.Kernel);
  for (const std::string &K : Kernels) {
    OS << "\nKernel " << demangle(K) << "\n";
    unsigned N = 0;
    for (const Advice &A : R.Ranked) {
      if (A.Kernel != K)
        continue;
      OS << formatv("{0,2}. {1}: {2}\n", ++N, A.Title, speedupPhrase(R, A));
      OS << "    estimator: " << A.Estimator << "\n";
      for (const std::string &H : A.Hints)
        OS << "    hint: " << H << "\n";
      for (const Hotspot &H : A.Hotspots) {
        OS << "    hotspot: " << sourceLineLabel(shortFile(H.File), H.Line);
        if (H.DefLine)
          OS << " <- " << sourceLineLabel(shortFile(H.DefFile), H.DefLine)
             << formatv(" (distance {0})", H.Distance);
        OS << formatv(": {0} {1}", formatNumber(H.Samples, 1),
                      hotspotUnit(R, H));
        if (!H.Evidence.empty())
          OS << "; " << H.Evidence;
        OS << "\n";
        if (!H.Source.empty())
          OS << "      | " << StringRef(H.Source).trim() << "\n";
      }
    }
  }
}

static json::Array strings(const std::vector<std::string> &V) {
  json::Array A;
  for (const std::string &S : V)
    A.push_back(S);
  return A;
}

json::Value renderAdviceJson(const AdviceReport &R) {
  json::Array Skipped, Items;
  for (const SkippedOptimizer &S : R.Skipped)
    Skipped.push_back(json::Object{{"optimizer", S.Optimizer},
                                   {"missing", strings(S.Missing)},
                                   {"supplied_by", strings(S.Supply)}});
  for (const Advice &A : R.Ranked) {
    json::Array Hot;
    for (const Hotspot &H : A.Hotspots)
      Hot.push_back(json::Object{{"function", H.Function},
                                 {"file", H.File},
                                 {"line", H.Line},
                                 {"source", H.Source},
                                 {"def_file", H.DefFile},
                                 {"def_line", H.DefLine},
                                 {"distance", H.Distance},
                                 {"samples", H.Samples},
                                 {"unit", hotspotUnit(R, H)},
                                 {"evidence", H.Evidence}});
    json::Array Also;
    for (const auto &[Optimizer, Estimate] : A.AlsoFoundBy)
      Also.push_back(json::Object{
          {"optimizer", Optimizer},
          {R.Estimates ? "estimated_speedup" : "speedup_if_free", Estimate}});
    Items.push_back(json::Object{
        {"optimizer", A.Optimizer},
        {"title", A.Title},
        {"kernel", A.Kernel},
        {"estimated_speedup", isEstimate(R, A) ? json::Value(A.EstimatedSpeedup)
                                               : json::Value(nullptr)},
        {"speedup_if_free", isEstimate(R, A) ? json::Value(nullptr)
                                             : json::Value(A.EstimatedSpeedup)},
        {"estimate_kind", estimateKindName(A.Kind)},
        {"estimator", A.Estimator},
        {"bounded_by",
         A.BoundBy.empty() ? json::Value(nullptr) : json::Value(A.BoundBy)},
        {"hints", strings(A.Hints)},
        {"also_found_by", std::move(Also)},
        {"hotspots", std::move(Hot)}});
  }
  json::Object Top{{"schema", AdviceSchema},
                   {"inputs_used", strings(R.InputsUsed)},
                   {"inputs_missing", strings(R.InputsMissing)},
                   {"skipped", std::move(Skipped)},
                   {"notes", strings(R.Notes)},
                   {"samples_modeled", R.Modeled},
                   {"estimates", R.Estimates},
                   {"advice", std::move(Items)}};
  if (!R.ModelProbes.empty())
    Top["model_probes"] = R.ModelProbes;
  if (R.Nodes)
    Top["blamer"] = json::Object{{"nodes", R.Nodes},
                                 {"single_dependency_before", R.SingleBefore},
                                 {"single_dependency_after", R.SingleAfter},
                                 {"hybrid_functions", R.HybridFunctions}};
  return Top;
}

std::string renderAdviceHtml(const AdviceReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<h2>Advice</h2>\n<p>inputs used: " << escapeHtml(list(R.InputsUsed))
     << (R.Modeled ? " (PC samples modeled, not measured" +
                         escapeHtml(probesNote(R)) + ")"
                   : "")
     << "<br>inputs missing: " << escapeHtml(list(R.InputsMissing)) << "</p>\n";
  for (const std::string &Line : notRunLines(R))
    OS << "<p class=\"warn\">" << escapeHtml(Line) << "</p>\n";
  if (!R.Estimates && !R.Ranked.empty())
    OS << "<p class=\"warn\">Findings, unranked: without PC samples there "
          "are no speedup estimates (<code>warpscope run --pc-sampling</code> "
          "gives them).</p>\n";
  for (const std::string &N : R.Notes)
    OS << "<p class=\"warn\">" << escapeHtml(N) << "</p>\n";
  if (R.Ranked.empty())
    OS << "<p>No advice: no optimizer matched enough to estimate a 1% "
          "speedup.</p>\n";
  for (const Advice &A : R.Ranked) {
    OS << "<h3>" << escapeHtml(A.Title) << " &mdash; "
       << escapeHtml(demangle(A.Kernel)) << " &mdash; "
       << escapeHtml(speedupPhrase(R, A)) << "</h3>\n<p>"
       << escapeHtml(A.Estimator) << "</p>\n<ul>";
    for (const std::string &H : A.Hints)
      OS << "<li>" << escapeHtml(H) << "</li>";
    OS << "</ul>\n<table class=\"advice\"><thead><tr><th>line</th><th>source"
          "</th><th>def line</th><th>distance</th><th>samples (or unit "
          "given)</th>"
          "<th>evidence</th></tr></thead><tbody>\n";
    for (const Hotspot &H : A.Hotspots)
      OS << "<tr><td>" << escapeHtml(sourceLineLabel(shortFile(H.File), H.Line))
         << "</td><td><code>" << escapeHtml(StringRef(H.Source).trim())
         << "</code></td><td>"
         << (H.DefLine ? escapeHtml(shortFile(H.DefFile)) + ":" +
                             std::to_string(H.DefLine)
                       : std::string("-"))
         << "</td><td class=\"n\">" << H.Distance << "</td><td class=\"n\">"
         << formatNumber(H.Samples, 1)
         << (H.Unit.empty() ? std::string() : " " + escapeHtml(H.Unit))
         << "</td><td>" << escapeHtml(H.Evidence) << "</td></tr>\n";
    OS << "</tbody></table>\n";
  }
  return S;
}

json::Value
renderAdviceSarif(const AdviceReport &R,
                  const std::vector<std::unique_ptr<Optimizer>> &Opts,
                  StringRef Version) {
  json::Array Rules, Results;
  for (const std::unique_ptr<Optimizer> &O : Opts)
    Rules.push_back(json::Object{
        {"id", O->id()},
        {"name", O->name()},
        {"shortDescription", json::Object{{"text", O->name()}}},
        {"help", json::Object{{"text", O->help()}}},
        {"defaultConfiguration", json::Object{{"level", "note"}}}});
  for (const Advice &A : R.Ranked) {
    json::Array Locs;
    for (const Hotspot &H : A.Hotspots) {
      if (H.File.empty() || !H.Line)
        continue;
      std::string Uri =
          sys::path::is_absolute(H.File) ? "file://" + H.File : H.File;
      Locs.push_back(json::Object{
          {"physicalLocation",
           json::Object{{"artifactLocation", json::Object{{"uri", Uri}}},
                        {"region", json::Object{{"startLine", H.Line}}}}}});
      if (Locs.size() == 5)
        break;
    }
    std::string Msg = formatv("{0} in {1}: {2}. {3}", A.Title,
                              demangle(A.Kernel), speedupPhrase(R, A),
                              A.Hints.empty() ? std::string() : A.Hints.front())
                          .str();
    Results.push_back(json::Object{
        {"ruleId", A.Optimizer},
        {"level",
         R.Estimates && A.EstimatedSpeedup >= 1.1 ? "warning" : "note"},
        {"message", json::Object{{"text", Msg}}},
        {"locations", std::move(Locs)},
        {"properties",
         json::Object{{"kernel", A.Kernel},
                      {"estimated_speedup",
                       isEstimate(R, A) ? json::Value(A.EstimatedSpeedup)
                                        : json::Value(nullptr)},
                      {"speedup_if_free",
                       isEstimate(R, A) ? json::Value(nullptr)
                                        : json::Value(A.EstimatedSpeedup)},
                      {"estimate_kind", estimateKindName(A.Kind)},
                      {"estimator", A.Estimator}}}});
  }
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::Array{json::Object{
           {"tool", json::Object{{"driver",
                                  json::Object{{"name", "WarpScope advise"},
                                               {"version", Version},
                                               {"rules", std::move(Rules)}}}}},
           {"results", std::move(Results)}}}}};
}

} // namespace warpscope::advise
