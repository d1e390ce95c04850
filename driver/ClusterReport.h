//===- ClusterReport.h - One report over the ranks of an MPI job ----------===//
//
// A directory of an MPI or Slurm job holds one profile per rank. The report
// sums them (its usual sections); this adds, per kernel, the spread over the
// ranks (min, median, max) of its time, instructions and divergence rate,
// and the ranks that deviate from the median: load imbalance.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_CLUSTERREPORT_H
#define WARPSCOPE_DRIVER_CLUSTERREPORT_H

#include "ProfileModel.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// Adds F's counts (one rank's, one module's) to K: instructions and
/// divergence. The loader adds launches and time.
void addRankCounts(RankKernel &K, const FunctionProfile &F);

/// A rank deviates from the median of a metric by more than these: time and
/// instructions relative to the median, the divergence rate in points.
inline constexpr double DeviationShare = 0.10;
inline constexpr double DeviationPoints = 0.05;

/// A metric over the ranks.
struct Spread {
  double Min = 0, Median = 0, Max = 0;
  int MinRank = 0, MaxRank = 0;
  size_t Ranks = 0; ///< that have the metric
};

/// A rank whose value is off the median (Metric "time_ms", "instructions"
/// or "divergence").
struct Deviation {
  int Rank = 0;
  std::string Metric;
  double Value = 0, Median = 0;
};

/// One kernel in one rank (a rank that did not launch it: zeros).
struct RankValue {
  int Rank = 0;
  uint64_t Launches = 0;
  std::optional<double> TimeMs;
  uint64_t Instructions = 0;
  std::optional<double> Divergence; ///< divergent / visits
};

struct ClusterKernel {
  std::string Name, Demangled;
  Location Loc;
  bool InstructionsArePtx = false;
  std::optional<Spread> TimeMs, Instructions, Divergence;
  /// Max over mean of time (of instructions where untimed): 1 is balanced.
  double Imbalance = 1;
  std::vector<Deviation> Deviating; ///< largest deviation first
  std::vector<RankValue> PerRank;   ///< by rank
};

struct ClusterView {
  std::vector<int> Ranks;       ///< with a profile (as selected)
  std::optional<int> WorldSize; ///< as the launcher said
  std::vector<int> Missing;     ///< below WorldSize, without a profile
  std::vector<std::pair<int, int>> Signaled; ///< rank, signal that ended it
  std::vector<ClusterKernel> Kernels;        ///< most imbalanced first
};

/// The view of a set whose profiles name two ranks or more; none otherwise.
/// Filter is the report's --kernel regex (already checked).
std::optional<ClusterView> clusterView(const ProfileSet &Set,
                                       const std::string &Filter);

void renderClusterText(const ClusterView &V, llvm::raw_ostream &OS);
llvm::json::Value renderClusterJson(const ClusterView &V);
/// --csv-rows ranks: one row per kernel and rank.
void renderClusterCsv(const ClusterView &V, llvm::raw_ostream &OS);
/// A section for the HTML page.
std::string renderClusterHtml(const ClusterView &V);
/// One line per deviation of K, as the text and SARIF say it.
std::string deviationText(const ClusterKernel &K, const Deviation &D);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_CLUSTERREPORT_H
