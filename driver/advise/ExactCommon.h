//===- ExactCommon.h - What the exact-count optimizers share ----*- C++ -*-===//
//
// Private to the optimizers only exact counts allow (divergence, uncoalesced
// access, bank conflicts, occupancy limiter; docs/advisor-estimators.md):
// the factories, the time weights (PC samples per source line where the
// directory has them), the speedup an estimated saving gives, and source
// text for hotspots.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_EXACTCOMMON_H
#define WARPSCOPE_DRIVER_ADVISE_EXACTCOMMON_H

#include "Advice.h"
#include <map>
#include <string>
#include <utility>

namespace warpscope::advise {

/// Advice whose estimate is below this is not given: a change that buys
/// under 2% is noise next to the others (docs/advisor-estimators.md).
inline constexpr double MinExactSpeedup = 1.02;

/// Hotspots an advice lists at most (the largest first).
inline constexpr size_t MaxExactHotspots = 10;

/// SMs of the emulated H100 (runtime/emu/cudart/RuntimeState.h SmCount,
/// the H100 SXM's 132), for how many blocks a grid puts on each SM.
inline constexpr unsigned H100SmCount = 132;

std::unique_ptr<Optimizer> makeDivergenceOptimizer();
std::unique_ptr<Optimizer> makeUncoalescedOptimizer();
std::unique_ptr<Optimizer> makeBankConflictOptimizer();
std::unique_ptr<Optimizer> makeOccupancyOptimizer();

/// One kernel's PC samples by (file, line); Total counts every sample of
/// the kernel, also those on no line. Drain: the samples of warps that
/// issued their last instruction and wait for their stores (`drain`), in
/// Total and ByLine as well, also by line (they sit at the exit, not at
/// the stores they wait for). LongScoreboardByLine: the samples waiting
/// for a global, local or atomic result, by line.
struct LineSamples {
  std::map<std::pair<std::string, unsigned>, double> ByLine, DrainByLine,
      LongScoreboardByLine;
  double Total = 0, Drain = 0;
  double at(const std::string &File, unsigned Line) const;
  double drainAt(const std::string &File, unsigned Line) const;
};
/// The samples of Kernel (mangled) in In; empty without samples.
LineSamples lineSamples(const Inputs &In, const std::string &Kernel);

/// Total / (Total - Saved), 1 when nothing is saved; Saved is clamped so
/// a saving can never reach the whole time.
double speedupFromSaving(double Total, double Saved);

/// The trimmed text of File:Line ("" when unreadable or stale: the
/// profile's source hashes are checked).
std::string sourceLine(const Inputs &In, const std::string &File,
                       unsigned Line);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_EXACTCOMMON_H
