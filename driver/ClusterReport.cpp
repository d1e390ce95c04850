//===- ClusterReport.cpp - One report over the ranks of an MPI job --------===//

#include "ClusterReport.h"
#include "Html.h"
#include "InstructionMix.h"
#include "Ranks.h"
#include "ReportFormats.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace llvm;
using namespace warpscope;

void warpscope::addRankCounts(RankKernel &K, const FunctionProfile &F) {
  uint64_t Threads = 0;
  for (const BlockCounts &B : F.Blocks)
    Threads += B.ThreadExecutions;
  if (!Threads)
    return; // not run by this rank
  InstructionMix Mix = instructionMix(F);
  K.InstructionsArePtx = Mix.Available;
  K.Instructions += Mix.Available ? Mix.Total.Thread : Threads;
  for (const BranchCounts &B : F.Branches)
    if (B.Probed) {
      K.Visits += B.Visits;
      K.Divergent += B.Divergent;
    }
}

namespace {

/// The spread of Values (rank, value), which must not be empty.
Spread spreadOf(std::vector<std::pair<double, int>> Values) {
  std::sort(Values.begin(), Values.end());
  Spread S;
  S.Ranks = Values.size();
  S.Min = Values.front().first;
  S.MinRank = Values.front().second;
  S.Max = Values.back().first;
  S.MaxRank = Values.back().second;
  size_t N = Values.size();
  S.Median = N % 2 ? Values[N / 2].first
                   : (Values[N / 2 - 1].first + Values[N / 2].first) / 2;
  return S;
}

/// Deviations of one metric; Points: absolute (a rate), else relative.
void deviations(ClusterKernel &K, const char *Metric, const Spread &S,
                const std::vector<std::pair<double, int>> &Values,
                bool Points) {
  for (auto [Value, Rank] : Values) {
    double Off = std::fabs(Value - S.Median);
    bool Deviates = Points
                        ? Off > DeviationPoints
                        : Off > DeviationShare * std::fabs(S.Median) && Off > 0;
    if (Deviates)
      K.Deviating.push_back({Rank, Metric, Value, S.Median});
  }
}

/// How far off D is, to order them: relative, a rate's points as such.
double weight(const Deviation &D) {
  if (D.Metric == "divergence")
    return std::fabs(D.Value - D.Median);
  return D.Median ? std::fabs(D.Value - D.Median) / D.Median : 1e300;
}

ClusterKernel kernelView(const ProfileSet &Set, const std::string &Module,
                         const FunctionProfile &F) {
  ClusterKernel K;
  K.Name = F.Name;
  K.Demangled = F.Demangled;
  K.Loc = F.Loc;
  std::vector<std::pair<double, int>> Time, Instr, Div;
  bool AnyTimed = false;
  for (const RankProfile &R : Set.Ranks) {
    RankValue V;
    V.Rank = R.Rank;
    auto It = R.Kernels.find({Module, F.Name});
    if (It != R.Kernels.end()) {
      const RankKernel &RK = It->second;
      V.Launches = RK.Launches;
      V.Instructions = RK.Instructions;
      K.InstructionsArePtx |= RK.InstructionsArePtx;
      if (RK.Timed)
        V.TimeMs = RK.TimeMs;
      if (RK.Visits)
        V.Divergence = double(RK.Divergent) / RK.Visits;
    }
    AnyTimed |= V.TimeMs.has_value();
    Instr.push_back({double(V.Instructions), V.Rank});
    if (V.Divergence)
      Div.push_back({*V.Divergence, V.Rank});
    K.PerRank.push_back(V);
  }
  // A rank that launched the kernel untimed is left out of the times; one
  // that never launched it spent no time in it.
  for (const RankValue &V : K.PerRank)
    if (AnyTimed && (V.TimeMs || !V.Launches))
      Time.push_back({V.TimeMs.value_or(0), V.Rank});
  std::vector<std::pair<double, int>> &ForImbalance =
      !Time.empty() ? Time : Instr;
  if (!Time.empty()) {
    K.TimeMs = spreadOf(Time);
    deviations(K, "time_ms", *K.TimeMs, Time, false);
  }
  K.Instructions = spreadOf(Instr);
  deviations(K, "instructions", *K.Instructions, Instr, false);
  if (!Div.empty()) {
    K.Divergence = spreadOf(Div);
    deviations(K, "divergence", *K.Divergence, Div, true);
  }
  double Sum = 0, Max = 0;
  for (auto [Value, Rank] : ForImbalance) {
    Sum += Value;
    Max = std::max(Max, Value);
  }
  if (Sum > 0)
    K.Imbalance = Max / (Sum / ForImbalance.size());
  std::stable_sort(K.Deviating.begin(), K.Deviating.end(),
                   [](const Deviation &A, const Deviation &B) {
                     return weight(A) > weight(B);
                   });
  return K;
}

} // namespace

std::optional<ClusterView> warpscope::clusterView(const ProfileSet &Set,
                                                  const std::string &Filter) {
  if (Set.Ranks.size() < 2)
    return std::nullopt;
  ClusterView V;
  V.WorldSize = Set.WorldSize;
  std::set<int> Have;
  for (const RankProfile &R : Set.Ranks) {
    V.Ranks.push_back(R.Rank);
    Have.insert(R.Rank);
    if (R.EndedBySignal)
      V.Signaled.push_back({R.Rank, R.EndedBySignal});
  }
  // Ranks the launcher started that left no profile: unless --rank chose
  // some, every one of the job's.
  const std::optional<std::set<int>> &Chosen = selectedRanks();
  for (int R = 0; Set.WorldSize && R < *Set.WorldSize; ++R)
    if (!Have.count(R) && (!Chosen || Chosen->count(R)))
      V.Missing.push_back(R);
  std::optional<Regex> Re;
  if (!Filter.empty())
    Re.emplace(Filter);
  // (module id, kernel) the ranks ran or launched, in the set's order.
  std::set<std::pair<std::string, std::string>> Seen;
  for (const RankProfile &R : Set.Ranks)
    for (const auto &[Key, K] : R.Kernels)
      if (K.Launches || K.Instructions)
        Seen.insert(Key);
  for (const FunctionProfile &F : Set.Functions)
    if (F.Kernel && Seen.count({F.ModuleId, F.Name}) &&
        (!Re || Re->match(F.Name) || Re->match(F.Demangled)))
      V.Kernels.push_back(kernelView(Set, F.ModuleId, F));
  std::stable_sort(V.Kernels.begin(), V.Kernels.end(),
                   [](const ClusterKernel &A, const ClusterKernel &B) {
                     return A.Imbalance > B.Imbalance;
                   });
  return V;
}

static std::string metricName(const ClusterKernel &K, StringRef Metric) {
  if (Metric == "time_ms")
    return "time";
  if (Metric == "divergence")
    return "divergence";
  return K.InstructionsArePtx ? "instructions" : "block executions";
}

static std::string value(StringRef Metric, double X) {
  if (Metric == "time_ms")
    return formatv("{0:F3} ms", X).str();
  if (Metric == "divergence")
    return formatv("{0:F1}%", X * 100).str();
  return formatv("{0:F0}", X).str();
}

std::string warpscope::deviationText(const ClusterKernel &K,
                                     const Deviation &D) {
  double Diff = D.Metric == "divergence" ? (D.Value - D.Median) * 100
                : D.Median               ? (D.Value / D.Median - 1) * 100
                                         : 0;
  std::string Off =
      D.Metric == "divergence"
          ? formatv("{0}{1:F1} points", Diff < 0 ? "" : "+", Diff).str()
      : D.Median ? formatv("{0}{1:F0}%", Diff < 0 ? "" : "+", Diff).str()
                 : std::string("from none");
  return "rank " + std::to_string(D.Rank) + ": " + metricName(K, D.Metric) +
         " " + value(D.Metric, D.Value) + ", median " +
         value(D.Metric, D.Median) + " (" + Off + ")";
}

static std::string listRanks(const std::vector<int> &Ranks) {
  return rankRanges(std::set<int>(Ranks.begin(), Ranks.end()));
}

void warpscope::renderClusterText(const ClusterView &V, raw_ostream &OS) {
  OS << "\nranks: " << V.Ranks.size() << " (" << listRanks(V.Ranks) << ")";
  if (V.WorldSize)
    OS << " of " << *V.WorldSize;
  OS << "; the sections above sum them\n";
  if (!V.Missing.empty())
    OS << "  no profile from rank " << listRanks(V.Missing)
       << ": it ended before writing one (killed, or crashed without the "
          "runtime's handler)\n";
  for (auto [Rank, Sig] : V.Signaled)
    OS << "  rank " << Rank << " ended by signal " << Sig
       << ": its counts are those up to then\n";
  for (const ClusterKernel &K : V.Kernels) {
    OS << "\n  " << K.Demangled << formatv("  imbalance {0:F2}", K.Imbalance)
       << " (max/mean of " << (K.TimeMs ? "time" : metricName(K, "")) << ")\n";
    OS << formatv("    {0,-18} {1,16} {2,16} {3,16}\n", "over ranks", "min",
                  "median", "max");
    auto Row = [&](StringRef Metric, const std::optional<Spread> &S) {
      if (!S)
        return;
      OS << formatv("    {0,-18} {1,16} {2,16} {3,16}\n", metricName(K, Metric),
                    value(Metric, S->Min) + " @" + std::to_string(S->MinRank),
                    value(Metric, S->Median),
                    value(Metric, S->Max) + " @" + std::to_string(S->MaxRank));
    };
    Row("time_ms", K.TimeMs);
    Row("instructions", K.Instructions);
    Row("divergence", K.Divergence);
    if (K.Deviating.empty()) {
      OS << "    no rank deviates from the median\n";
      continue;
    }
    size_t Shown = std::min<size_t>(K.Deviating.size(), 8);
    OS << "    deviating (" << K.Deviating.size() << "):\n";
    for (size_t I = 0; I < Shown; ++I)
      OS << "      " << deviationText(K, K.Deviating[I]) << "\n";
    if (Shown < K.Deviating.size())
      OS << "      ... " << K.Deviating.size() - Shown
         << " more (--format json or csv --csv-rows ranks lists them)\n";
  }
}

static json::Value spreadJson(const std::optional<Spread> &S) {
  if (!S)
    return nullptr;
  return json::Object{{"min", S->Min},          {"median", S->Median},
                      {"max", S->Max},          {"min_rank", S->MinRank},
                      {"max_rank", S->MaxRank}, {"ranks", int64_t(S->Ranks)}};
}

static json::Value optional(std::optional<double> X) {
  return X ? json::Value(*X) : json::Value(nullptr);
}

json::Value warpscope::renderClusterJson(const ClusterView &V) {
  json::Array Kernels;
  for (const ClusterKernel &K : V.Kernels) {
    json::Array Dev, PerRank;
    for (const Deviation &D : K.Deviating)
      Dev.push_back(json::Object{{"rank", D.Rank},
                                 {"metric", D.Metric},
                                 {"value", D.Value},
                                 {"median", D.Median}});
    for (const RankValue &R : K.PerRank)
      PerRank.push_back(json::Object{{"rank", R.Rank},
                                     {"launches", int64_t(R.Launches)},
                                     {"time_ms", optional(R.TimeMs)},
                                     {"instructions", int64_t(R.Instructions)},
                                     {"divergence", optional(R.Divergence)}});
    Kernels.push_back(json::Object{
        {"name", K.Name},
        {"demangled", K.Demangled},
        {"instructions_unit", K.InstructionsArePtx ? "ptx" : "blocks"},
        {"time_ms", spreadJson(K.TimeMs)},
        {"instructions", spreadJson(K.Instructions)},
        {"divergence", spreadJson(K.Divergence)},
        {"imbalance", K.Imbalance},
        {"deviating", std::move(Dev)},
        {"per_rank", std::move(PerRank)}});
  }
  json::Array Signaled;
  for (auto [Rank, Sig] : V.Signaled)
    Signaled.push_back(json::Object{{"rank", Rank}, {"signal", Sig}});
  return json::Object{
      {"ranks", json::Array(V.Ranks)},
      {"world_size", V.WorldSize ? json::Value(*V.WorldSize) : nullptr},
      {"missing", json::Array(V.Missing)},
      {"ended_by_signal", std::move(Signaled)},
      {"deviation_share", DeviationShare},
      {"deviation_points", DeviationPoints},
      {"kernels", std::move(Kernels)}};
}

void warpscope::renderClusterCsv(const ClusterView &V, raw_ostream &OS) {
  OS << "kernel,demangled,rank,launches,time_ms,instructions,"
        "instructions_unit,divergence,deviates\n";
  for (const ClusterKernel &K : V.Kernels)
    for (const RankValue &R : K.PerRank) {
      std::string Metrics;
      for (const Deviation &D : K.Deviating)
        if (D.Rank == R.Rank)
          Metrics += (Metrics.empty() ? "" : " ") + D.Metric;
      OS << csvField(K.Name) << ',' << csvField(K.Demangled) << ',' << R.Rank
         << ',' << R.Launches << ','
         << (R.TimeMs ? formatv("{0:F6}", *R.TimeMs).str() : "") << ','
         << R.Instructions << ',' << (K.InstructionsArePtx ? "ptx" : "blocks")
         << ',' << (R.Divergence ? formatv("{0:F6}", *R.Divergence).str() : "")
         << ',' << Metrics << '\n';
    }
}

std::string warpscope::renderClusterHtml(const ClusterView &V) {
  std::string H = "<h2 id=\"ranks\">Ranks</h2>\n<p>" +
                  std::to_string(V.Ranks.size()) + " ranks (" +
                  listRanks(V.Ranks) + ")" +
                  (V.WorldSize ? " of " + std::to_string(*V.WorldSize) : "") +
                  "; the sections above sum them.</p>\n";
  if (!V.Missing.empty())
    H += "<p>No profile from rank " + listRanks(V.Missing) +
         ": it ended before writing one.</p>\n";
  for (auto [Rank, Sig] : V.Signaled)
    H += "<p>Rank " + std::to_string(Rank) + " ended by signal " +
         std::to_string(Sig) + ": its counts are those up to then.</p>\n";
  H += "<table class=\"ranks\"><tr><th>kernel</th><th>metric</th><th>min "
       "(rank)</th><th>median</th><th>max (rank)</th><th>imbalance</th>"
       "<th>deviating ranks</th></tr>\n";
  for (const ClusterKernel &K : V.Kernels) {
    std::string Dev;
    for (const Deviation &D : K.Deviating)
      Dev += escapeHtml(deviationText(K, D)) + "<br>";
    bool First = true;
    for (auto [Metric, S] :
         {std::pair<StringRef, const std::optional<Spread> *>{"time_ms",
                                                              &K.TimeMs},
          {"instructions", &K.Instructions},
          {"divergence", &K.Divergence}}) {
      if (!*S)
        continue;
      const Spread &X = **S;
      H += "<tr><td>" + (First ? escapeHtml(K.Demangled) : "") + "</td><td>" +
           metricName(K, Metric) + "</td><td class=\"n\">" +
           value(Metric, X.Min) + " (" + std::to_string(X.MinRank) +
           ")</td><td class=\"n\">" + value(Metric, X.Median) +
           "</td><td class=\"n\">" + value(Metric, X.Max) + " (" +
           std::to_string(X.MaxRank) + ")</td><td class=\"n\">" +
           (First ? formatv("{0:F2}", K.Imbalance).str() : "") + "</td><td>" +
           (First ? Dev : "") + "</td></tr>\n";
      First = false;
    }
  }
  return H + "</table>\n";
}
