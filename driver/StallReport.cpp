//===- StallReport.cpp - Stall view: where warps wait, next to divergence -===//

#include "StallReport.h"
#include "Html.h"
#include "Report.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace warpscope;

std::string warpscope::shortStallName(StringRef Name) {
  size_t At = Name.find("_stalled_");
  if (At != StringRef::npos && At + 9 < Name.size())
    return Name.drop_front(At + 9).str();
  return Name.str();
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

} // namespace

StallView warpscope::buildStallView(const PcSampleSet &Samples,
                                    const ProfileSet &Set,
                                    const std::string &Filter) {
  StallView V;
  V.TotalSamples = Samples.TotalSamples;
  V.DroppedSamples = Samples.DroppedSamples;
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
    K.Samples += P.Samples;
    StallLine &L = Lines[P.Function][{P.File, P.Line}];
    L.File = P.File;
    L.Line = P.Line;
    L.Samples += P.Samples;
    for (const auto &[Reason, N] : P.Stalls) {
      if (!N)
        continue;
      K.Stalls[shortStallName(Reason)] += N;
      L.Stalls[shortStallName(Reason)] += N;
    }
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
warpscope::loadStallView(const std::string &Dir, const ProfileSet &Set,
                         const std::string &Filter) {
  Expected<std::optional<PcSampleSet>> S = loadPcSamples(Dir);
  if (!S)
    return S.takeError();
  if (!*S)
    return std::nullopt;
  return std::optional<StallView>(buildStallView(**S, Set, Filter));
}

void warpscope::renderStallText(const StallView &V, unsigned Top,
                                raw_ostream &OS) {
  OS << formatv("\nStall view (PC sampling): {0} samples, {1} dropped\n",
                V.TotalSamples, V.DroppedSamples);
  for (const std::string &W : V.Warnings)
    OS << "warning: " << W << "\n";
  for (const StallKernel &K : V.Kernels) {
    OS << "\n" << K.Name << ": " << K.Samples << " samples\n  stalls:";
    for (const auto &[Reason, N] : topStalls(K.Stalls, 0))
      OS << " " << Reason << " " << formatPercent(rate(N, K.Samples));
    OS << "\n";
    OS << formatv("  {0,-32} {1,8} {2,-44} {3}\n", "line", "samples",
                  "top stalls", "divergence");
    size_t Shown = 0;
    for (const StallLine &L : K.Lines) {
      if (Top && Shown++ == Top)
        break;
      std::string Stalls;
      for (const auto &[Reason, N] : topStalls(L.Stalls, 3))
        Stalls += (Stalls.empty() ? "" : ", ") + Reason + " " +
                  formatPercent(rate(N, L.Samples));
      std::string Div =
          L.Branches ? formatv("{0} of {1} visits ({2})", L.Divergent, L.Visits,
                               formatPercent(rate(L.Divergent, L.Visits)))
                           .str()
                     : "-";
      OS << formatv("  {0,-32} {1,8} {2,-44} {3}\n", where(L), L.Samples,
                    Stalls, Div);
    }
  }
}

json::Value warpscope::renderStallJson(const StallView &V) {
  json::Array Kernels;
  for (const StallKernel &K : V.Kernels) {
    json::Array Lines;
    for (const StallLine &L : K.Lines) {
      json::Array Top;
      for (const auto &[Reason, N] : topStalls(L.Stalls, 3))
        Top.push_back(json::Object{{"reason", Reason}, {"samples", N}});
      json::Object Stalls;
      for (const auto &[Reason, N] : L.Stalls)
        Stalls[Reason] = N;
      std::optional<double> Rate = rate(L.Divergent, L.Visits);
      Lines.push_back(json::Object{
          {"file", L.File.empty() ? json::Value(nullptr) : json::Value(L.File)},
          {"line", L.File.empty() ? json::Value(nullptr) : json::Value(L.Line)},
          {"samples", L.Samples},
          {"stalls", std::move(Stalls)},
          {"top_stalls", std::move(Top)},
          {"branches_probed", L.Branches},
          {"visits", L.Visits},
          {"divergent", L.Divergent},
          {"divergence_rate",
           Rate ? json::Value(*Rate) : json::Value(nullptr)}});
    }
    json::Object Stalls;
    for (const auto &[Reason, N] : K.Stalls)
      Stalls[Reason] = N;
    Kernels.push_back(json::Object{{"name", K.Name},
                                   {"mangled", K.Mangled},
                                   {"samples", K.Samples},
                                   {"stalls", std::move(Stalls)},
                                   {"lines", std::move(Lines)}});
  }
  json::Array Warnings;
  for (const std::string &W : V.Warnings)
    Warnings.push_back(W);
  return json::Object{{"version", 1},
                      {"total_samples", V.TotalSamples},
                      {"dropped_samples", V.DroppedSamples},
                      {"warnings", std::move(Warnings)},
                      {"kernels", std::move(Kernels)}};
}

std::string warpscope::renderStallHtml(const StallView &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<h2>Stall view (PC sampling)</h2>\n<p>"
     << formatv("{0} samples, {1} dropped", V.TotalSamples, V.DroppedSamples)
     << "</p>\n";
  for (const std::string &W : V.Warnings)
    OS << "<p class=\"warn\">" << escapeHtml(W) << "</p>\n";
  for (const StallKernel &K : V.Kernels) {
    OS << "<h3>" << escapeHtml(K.Name) << " &mdash; " << K.Samples
       << " samples</h3>\n<p>";
    for (const auto &[Reason, N] : topStalls(K.Stalls, 0))
      OS << escapeHtml(Reason) << " " << formatPercent(rate(N, K.Samples)) << "; ";
    OS << "</p>\n<table class=\"stalls\"><thead><tr><th>line</th>"
          "<th>samples</th><th>top stalls</th><th>divergent visits</th>"
          "<th>divergence</th></tr></thead><tbody>\n";
    for (const StallLine &L : K.Lines) {
      std::string Top;
      for (const auto &[Reason, N] : topStalls(L.Stalls, 3))
        Top += (Top.empty() ? "" : ", ") + Reason + " " +
               formatPercent(rate(N, L.Samples));
      OS << "<tr><td>" << escapeHtml(where(L)) << "</td><td>" << L.Samples
         << "</td><td>" << escapeHtml(Top) << "</td><td>"
         << (L.Branches ? formatv("{0} / {1}", L.Divergent, L.Visits).str()
                        : "-")
         << "</td><td>" << formatPercent(rate(L.Divergent, L.Visits))
         << "</td></tr>\n";
    }
    OS << "</tbody></table>\n";
  }
  return S;
}
