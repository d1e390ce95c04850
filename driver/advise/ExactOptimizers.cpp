//===- ExactOptimizers.cpp - Advice only exact counts allow ---------------===//
//
// Issue 18 item 4: divergence, uncoalesced access, shared-memory bank
// conflicts, occupancy limiter (one file each), and what they share.
//
//===----------------------------------------------------------------------===//

#include "../PcSampling.h"
#include "../ProfileModel.h"
#include "../SourceText.h"
#include "Blame.h"
#include "ExactCommon.h"
#include <algorithm>

using llvm::StringRef;

namespace warpscope::advise {

std::vector<std::unique_ptr<Optimizer>> exactOptimizers() {
  std::vector<std::unique_ptr<Optimizer>> Out;
  Out.push_back(makeDivergenceOptimizer());
  Out.push_back(makeUncoalescedOptimizer());
  Out.push_back(makeBankConflictOptimizer());
  Out.push_back(makeOccupancyOptimizer());
  return Out;
}

double LineSamples::at(const std::string &File, unsigned Line) const {
  auto It = ByLine.find({File, Line});
  return It == ByLine.end() ? 0 : It->second;
}

double LineSamples::drainAt(const std::string &File, unsigned Line) const {
  auto It = DrainByLine.find({File, Line});
  return It == DrainByLine.end() ? 0 : It->second;
}

LineSamples lineSamples(const Inputs &In, const std::string &Kernel) {
  LineSamples S;
  if (!In.Samples || !In.has(InputKind::Samples))
    return S;
  for (const SampledPc &P : In.Samples->Pcs) {
    if (P.Function != Kernel)
      continue;
    S.Total += double(P.Samples);
    double Drain = 0, Long = 0;
    for (const auto &[Reason, N] : P.Stalls) {
      StringRef R = shortReason(Reason);
      Drain += R == "drain" ? double(N) : 0;
      Long += R == "long_scoreboard" ? double(N) : 0;
    }
    S.Drain += Drain;
    if (!P.File.empty()) {
      S.ByLine[{P.File, P.Line}] += double(P.Samples);
      S.DrainByLine[{P.File, P.Line}] += Drain;
      S.LongScoreboardByLine[{P.File, P.Line}] += Long;
    }
  }
  return S;
}

double speedupFromSaving(double Total, double Saved) {
  if (!(Total > 0) || !(Saved > 0))
    return 1.0;
  // Never the whole time: a kernel does at least a little of its work.
  Saved = std::min(Saved, 0.99 * Total);
  return Total / (Total - Saved);
}

std::string sourceLine(const Inputs &In, const std::string &File,
                       unsigned Line) {
  static const SourceHashes None;
  SourceText Text(In.Profile ? In.Profile->SourceHashes : None);
  return File.empty() ? "" : Text.line(File, Line);
}

} // namespace warpscope::advise
