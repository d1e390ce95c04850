//===- StallReport.cpp - Stall view: where warps wait, next to divergence -===//

#include "StallReport.h"
#include "Html.h"
#include "ModeledTime.h"
#include "Report.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace warpscope;

std::string warpscope::shortStallName(StringRef Name) {
  if (isNotIssuedStall(Name))
    Name = Name.drop_back(NotIssuedSuffix.size());
  size_t At = Name.find("_stalled_");
  if (At != StringRef::npos && At + 9 < Name.size())
    return Name.drop_front(At + 9).str();
  return Name.str();
}

void StallCounts::add(const SampledPc &P) {
  Samples += P.Samples;
  for (const auto &[Reason, N] : P.Stalls) {
    if (!N)
      continue;
    if (isNotIssuedStall(Reason)) {
      NotIssued += N;
      NotIssuedStalls[shortStallName(Reason)] += N;
    } else {
      Stalls[shortStallName(Reason)] += N;
    }
  }
}

bool warpscope::sameSourceFile(StringRef A, StringRef B) {
  if (A.empty() || B.empty())
    return false;
  if (A == B)
    return true;
  if (A.size() < B.size())
    std::swap(A, B);
  return A.ends_with(B) && A[A.size() - B.size() - 1] == '/';
}

namespace {

/// The top N reasons of a map, most samples first (ties by name).
std::vector<std::pair<std::string, uint64_t>>
topStalls(const std::map<std::string, uint64_t> &M, size_t N) {
  std::vector<std::pair<std::string, uint64_t>> V(M.begin(), M.end());
  std::stable_sort(V.begin(), V.end(), [](const auto &A, const auto &B) {
    return A.second > B.second;
  });
  if (N && V.size() > N)
    V.resize(N);
  return V;
}

std::optional<double> rate(uint64_t Num, uint64_t Den) {
  if (!Den)
    return std::nullopt;
  return double(Num) / double(Den);
}

std::string where(const StallLine &L) {
  return L.File.empty() ? "(no line info)"
                        : formatv("{0}:{1}", L.File, L.Line).str();
}

/// "long_scoreboard 40.0% wait 20.0%": each reason's share of Total.
std::string shares(const std::map<std::string, uint64_t> &M, uint64_t Total,
                   size_t N, StringRef Sep) {
  std::string S;
  for (const auto &[Reason, Count] : topStalls(M, N))
    S += (S.empty() ? "" : Sep.str()) + Reason + " " +
         formatPercent(rate(Count, Total));
  return S;
}

/// The share of C's samples taken when the scheduler issued nothing; unknown
/// without not-issued reasons.
std::optional<double> notIssuedRate(const StallView &V, const StallCounts &C) {
  return V.NotIssuedKnown ? rate(C.NotIssued, C.Samples) : std::nullopt;
}

/// "47 samples, not issued 42 (89.4%)".
std::string sampleSummary(const StallView &V, const StallCounts &C) {
  if (!V.NotIssuedKnown)
    return formatv("{0} samples, not issued unknown", C.Samples).str();
  return formatv("{0} samples, not issued {1} ({2})", C.Samples, C.NotIssued,
                 formatPercent(notIssuedRate(V, C)))
      .str();
}

json::Value countOrNull(const StallView &V, uint64_t N) {
  return V.NotIssuedKnown ? json::Value(N) : json::Value(nullptr);
}

json::Value rateOrNull(std::optional<double> R) {
  return R ? json::Value(*R) : json::Value(nullptr);
}

json::Object countsJson(const StallView &V, const StallCounts &C) {
  json::Object Stalls, NotIssued;
  for (const auto &[Reason, N] : C.Stalls)
    Stalls[Reason] = N;
  for (const auto &[Reason, N] : C.NotIssuedStalls)
    NotIssued[Reason] = N;
  return json::Object{
      {"samples", C.Samples},
      {"stalls", std::move(Stalls)},
      {"not_issued_samples", countOrNull(V, C.NotIssued)},
      {"not_issued_rate", rateOrNull(notIssuedRate(V, C))},
      {"not_issued_stalls", V.NotIssuedKnown ? json::Value(std::move(NotIssued))
                                             : json::Value(nullptr)}};
}

} // namespace

StallView warpscope::buildStallView(const PcSampleSet &Samples,
                                    const ProfileSet &Set,
                                    const std::string &Filter) {
  StallView V;
  V.TotalSamples = Samples.TotalSamples;
  V.DroppedSamples = Samples.DroppedSamples;
  V.NonUserSamples = Samples.NonUserSamples;
  V.NotIssuedKnown = Samples.NotIssuedKnown;
  V.Source = Samples.Source;
  V.ModelConfig = Samples.ModelConfig;
  V.ModelProbes = Samples.ModelProbes;
  V.Method = Samples.Method;
  V.Warnings = Samples.Warnings;
  std::optional<Regex> R;
  if (!Filter.empty())
    R.emplace(Filter);

  std::map<std::string, StallKernel> Kernels;
  std::map<std::string, std::map<std::pair<std::string, unsigned>, StallLine>>
      Lines;
  for (const SampledPc &P : Samples.Pcs) {
    std::string Name = demangle(P.Function);
    if (R && !R->match(P.Function) && !R->match(Name))
      continue;
    StallKernel &K = Kernels[P.Function];
    K.Mangled = P.Function;
    K.Name = Name;
    K.add(P);
    StallLine &L = Lines[P.Function][{P.File, P.Line}];
    L.File = P.File;
    L.Line = P.Line;
    L.add(P);
    V.All.add(P);
  }

  // Join: every probed branch whose condition sits on the line, in any
  // function (inlined device code keeps its own file:line).
  for (auto &[Mangled, ByLine] : Lines) {
    StallKernel &K = Kernels[Mangled];
    for (auto &[Key, L] : ByLine) {
      for (const FunctionProfile &F : Set.Functions)
        for (const BranchCounts &B : F.Branches)
          if (B.Probed && B.Loc.Line == L.Line &&
              sameSourceFile(B.Loc.File, L.File)) {
            ++L.Branches;
            L.Visits += B.Visits;
            L.Divergent += B.Divergent;
          }
      K.Lines.push_back(L);
    }
    std::stable_sort(K.Lines.begin(), K.Lines.end(),
                     [](const StallLine &A, const StallLine &B) {
                       return A.Samples > B.Samples;
                     });
  }
  for (auto &[Mangled, K] : Kernels)
    V.Kernels.push_back(std::move(K));
  std::stable_sort(V.Kernels.begin(), V.Kernels.end(),
                   [](const StallKernel &A, const StallKernel &B) {
                     return A.Samples > B.Samples;
                   });
  return V;
}

Expected<std::optional<StallView>>
warpscope::loadStallView(RunDirectory &Run, const ProfileSet &Set,
                         const std::string &Filter) {
  Expected<const std::optional<PcSampleSet> &> S = Run.pcSamples();
  if (!S)
    return S.takeError();
  if (!*S)
    return std::nullopt;
  return std::optional<StallView>(buildStallView(**S, Set, Filter));
}

std::string StallView::title() const {
  if (Source == PcSourceModel && Method == "exact")
    return "Stall view (modeled exact stall cycles, counted as samples: "
           "emulator timing model, configuration " +
           ModelConfig + modeledProbesLabel(ModelProbes) + ", not measured)";
  if (Source == PcSourceModel)
    return "Stall view (modeled PC sampling: emulator timing model, "
           "configuration " +
           ModelConfig + modeledProbesLabel(ModelProbes) + ", not measured)";
  return "Stall view (PC sampling)";
}

void warpscope::renderStallText(const StallView &V, unsigned Top,
                                raw_ostream &OS) {
  OS << formatv("\n{0}: {1} samples, {2} dropped", V.title(), V.TotalSamples,
                V.DroppedSamples);
  if (V.NonUserSamples)
    OS << ", " << V.NonUserSamples << " in non-user kernels";
  OS << "\n  at the pcs of the kernels below: " << sampleSummary(V, V.All)
     << "\n";
  for (const std::string &W : V.Warnings)
    OS << "warning: " << W << "\n";
  for (const StallKernel &K : V.Kernels) {
    // Shares of each view's own samples, as Nsight Compute's two Warp
    // Stall Sampling views: each adds up to 100%.
    OS << "\n"
       << K.Name << ": " << sampleSummary(V, K)
       << "\n  stalls (all samples): " << shares(K.Stalls, K.Samples, 0, " ")
       << "\n";
    if (K.NotIssued)
      OS << "  stalls (not-issued samples): "
         << shares(K.NotIssuedStalls, K.NotIssued, 0, " ") << "\n";
    OS << formatv("  {0,-32} {1,8} {2,10} {3,-44} {4}\n", "line", "samples",
                  "not issued", "top stalls", "divergence");
    size_t Shown = 0;
    for (const StallLine &L : K.Lines) {
      if (Top && Shown++ == Top)
        break;
      std::string Div =
          L.Branches ? formatv("{0} of {1} visits ({2})", L.Divergent, L.Visits,
                               formatPercent(rate(L.Divergent, L.Visits)))
                           .str()
                     : "-";
      OS << formatv("  {0,-32} {1,8} {2,10} {3,-44} {4}\n", where(L), L.Samples,
                    formatPercent(notIssuedRate(V, L)),
                    shares(L.Stalls, L.Samples, 3, ", "), Div);
    }
  }
}

json::Value warpscope::renderStallJson(const StallView &V) {
  json::Array Kernels;
  for (const StallKernel &K : V.Kernels) {
    json::Array Lines;
    for (const StallLine &L : K.Lines) {
      json::Array Top;
      for (const auto &[Reason, N] : topStalls(L.Stalls, 3)) {
        auto NI = L.NotIssuedStalls.find(Reason);
        Top.push_back(json::Object{
            {"reason", Reason},
            {"samples", N},
            {"not_issued_samples",
             countOrNull(V, NI == L.NotIssuedStalls.end() ? 0 : NI->second)}});
      }
      json::Object O = countsJson(V, L);
      O["file"] = L.File.empty() ? json::Value(nullptr) : json::Value(L.File);
      O["line"] = L.File.empty() ? json::Value(nullptr) : json::Value(L.Line);
      O["top_stalls"] = std::move(Top);
      O["branches_probed"] = L.Branches;
      O["visits"] = L.Visits;
      O["divergent"] = L.Divergent;
      O["divergence_rate"] = rateOrNull(rate(L.Divergent, L.Visits));
      Lines.push_back(std::move(O));
    }
    json::Object O = countsJson(V, K);
    O["name"] = K.Name;
    O["mangled"] = K.Mangled;
    O["lines"] = std::move(Lines);
    Kernels.push_back(std::move(O));
  }
  json::Array Warnings;
  for (const std::string &W : V.Warnings)
    Warnings.push_back(W);
  json::Object O = countsJson(V, V.All);
  O["version"] = 2;
  O["source"] = V.Source;
  if (V.Source == PcSourceModel)
    O["model_config"] = V.ModelConfig;
  if (V.Source == PcSourceModel)
    O["method"] = V.Method;
  if (V.Source == PcSourceModel && !V.ModelProbes.empty())
    O["model_probes"] = V.ModelProbes;
  O["total_samples"] = V.TotalSamples;
  O["dropped_samples"] = V.DroppedSamples;
  O["non_user_samples"] = V.NonUserSamples;
  O["warnings"] = std::move(Warnings);
  O["kernels"] = std::move(Kernels);
  return O;
}

std::string warpscope::renderStallHtml(const StallView &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<h2>" << escapeHtml(V.title()) << "</h2>\n<p>"
     << formatv("{0} samples, {1} dropped", V.TotalSamples, V.DroppedSamples);
  if (V.NonUserSamples)
    OS << ", " << V.NonUserSamples << " in non-user kernels";
  OS << "; at the pcs of the kernels below: "
     << escapeHtml(sampleSummary(V, V.All)) << "</p>\n";
  for (const std::string &W : V.Warnings)
    OS << "<p class=\"warn\">" << escapeHtml(W) << "</p>\n";
  for (const StallKernel &K : V.Kernels) {
    OS << "<h3>" << escapeHtml(K.Name) << " &mdash; "
       << escapeHtml(sampleSummary(V, K)) << "</h3>\n<p>stalls (all samples): "
       << escapeHtml(shares(K.Stalls, K.Samples, 0, "; ")) << "</p>\n";
    if (K.NotIssued)
      OS << "<p>stalls (not-issued samples): "
         << escapeHtml(shares(K.NotIssuedStalls, K.NotIssued, 0, "; "))
         << "</p>\n";
    OS << "<table class=\"stalls\"><thead><tr><th>line</th>"
          "<th>samples</th><th>not issued</th><th>top stalls</th>"
          "<th>divergent visits</th><th>divergence</th></tr></thead><tbody>\n";
    for (const StallLine &L : K.Lines)
      OS << "<tr>" << sourceLineCell(L.File, L.Line) << "<td>" << L.Samples
         << "</td><td>" << formatPercent(notIssuedRate(V, L)) << "</td><td>"
         << escapeHtml(shares(L.Stalls, L.Samples, 3, ", ")) << "</td><td>"
         << (L.Branches ? formatv("{0} / {1}", L.Divergent, L.Visits).str()
                        : "-")
         << "</td><td>" << formatPercent(rate(L.Divergent, L.Visits))
         << "</td></tr>\n";
    OS << "</tbody></table>\n";
  }
  return S;
}
