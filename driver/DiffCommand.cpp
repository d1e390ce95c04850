//===- DiffCommand.cpp - warpscope diff: compare two profiles -------------===//
//
// Matches functions by mangled name and branches by source location (and
// their order among branches at the same location), then prints changes in
// executions and divergence. --fail-above P exits 1 when a branch's divergence
// rate, or a kernel's branch inefficiency, grew by more than P percentage
// points: a CI regression gate.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ProfileModel.h"
#include "Report.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <map>
#include <tuple>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::DiffSub(
    "diff", "Compare two profile directories: warpscope diff BEFORE AFTER");

static cl::list<std::string> Dirs(cl::Positional, cl::desc("<before> <after>"),
                                  cl::sub(DiffSub));
static cl::opt<double> FailAbove(
    "fail-above",
    cl::desc("Exit 1 if divergence grew by more than this many percentage "
             "points (per branch, or per kernel branch efficiency)"),
    cl::init(-1), cl::sub(DiffSub));

namespace {

using BranchKey = std::tuple<std::string, unsigned, unsigned, unsigned>;

std::map<BranchKey, const BranchCounts *>
branchesByLocation(const FunctionProfile &F) {
  std::map<BranchKey, const BranchCounts *> Out;
  std::map<std::tuple<std::string, unsigned, unsigned>, unsigned> Seen;
  for (const BranchCounts &B : F.Branches) {
    unsigned Ordinal = Seen[{B.Loc.File, B.Loc.Line, B.Loc.Column}]++;
    Out[{B.Loc.File, B.Loc.Line, B.Loc.Column, Ordinal}] = &B;
  }
  return Out;
}

std::string signedFixed(double X) {
  double Rounded = std::round(X * 10) / 10;
  if (Rounded == 0)
    return "0.0"; // also for -0.0
  return (Rounded > 0 ? "+" : "") + formatv("{0:F1}", Rounded).str();
}

double rate(const BranchCounts &B) {
  return B.Visits ? 100.0 * B.Divergent / B.Visits : 0;
}

std::string change(uint64_t A, uint64_t B) {
  if (A == B)
    return formatv("{0} (same)", A).str();
  if (!A)
    return formatv("0 -> {0}", B).str();
  return formatv("{0} -> {1} ({2}%)", A, B,
                 signedFixed(100.0 * (double(B) - double(A)) / A))
      .str();
}

} // namespace

int warpscope::runDiff() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope diff") << Msg << "\n";
    return 2;
  };
  if (Dirs.size() != 2)
    return Fail("give two profile directories: warpscope diff BEFORE AFTER");
  if (FailAbove.getNumOccurrences() && !(FailAbove >= 0))
    return Fail("--fail-above " + formatv("{0}", FailAbove.getValue()).str() +
                " is not a number of percentage points >= 0");
  Expected<ProfileSet> A = loadProfileDirectory(Dirs[0]);
  if (!A)
    return Fail(toString(A.takeError()));
  Expected<ProfileSet> B = loadProfileDirectory(Dirs[1]);
  if (!B)
    return Fail(toString(B.takeError()));
  Expected<std::vector<FunctionSummary>> SA = summarize(*A, "");
  Expected<std::vector<FunctionSummary>> SB = summarize(*B, "");
  if (!SA || !SB)
    return Fail(toString(SA ? SB.takeError() : SA.takeError()));
  std::map<std::string, const FunctionSummary *> Before;
  for (const FunctionSummary &S : *SA)
    Before[S.Function->Name] = &S;

  unsigned Regressions = 0;
  auto Regressed = [&](double GrowthPoints) {
    bool R = FailAbove >= 0 && GrowthPoints > FailAbove;
    Regressions += R;
    return R ? "  REGRESSION" : "";
  };
  for (const FunctionSummary &After : *SB) {
    const FunctionProfile &F = *After.Function;
    auto It = Before.find(F.Name);
    if (It == Before.end()) {
      outs() << F.Demangled << ": only in " << Dirs[1] << "\n";
      continue;
    }
    const FunctionSummary &Prev = *It->second;
    Before.erase(It);
    outs() << F.Demangled << "\n  warp executions "
           << change(Prev.WarpExecutions, After.WarpExecutions)
           << "\n  thread executions "
           << change(Prev.ThreadExecutions, After.ThreadExecutions) << "\n";
    if (Prev.BranchEfficiency && After.BranchEfficiency) {
      double Drop = 100 * (*Prev.BranchEfficiency - *After.BranchEfficiency);
      outs() << formatv("  branch efficiency {0:F1}% -> {1:F1}% ({2} pp){3}\n",
                        100 * *Prev.BranchEfficiency,
                        100 * *After.BranchEfficiency, signedFixed(-Drop),
                        Regressed(Drop));
    }
    auto Old = branchesByLocation(*Prev.Function);
    for (auto &[Key, Br] : branchesByLocation(F)) {
      auto O = Old.find(Key);
      if (O == Old.end() || !Br->Probed || !O->second->Probed)
        continue;
      double Growth = rate(*Br) - rate(*O->second);
      if (Growth == 0 && Br->Visits == O->second->Visits)
        continue;
      outs() << formatv(
          "  {0}:{1}:{2}: divergence {3:F1}% -> {4:F1}% "
          "({5} pp), visits {6}{7}\n",
          sys::path::filename(std::get<0>(Key)), std::get<1>(Key),
          std::get<2>(Key), rate(*O->second), rate(*Br), signedFixed(Growth),
          change(O->second->Visits, Br->Visits), Regressed(Growth));
    }
  }
  for (auto &[Name, S] : Before)
    outs() << S->Function->Demangled << ": only in " << Dirs[0] << "\n";
  if (FailAbove >= 0)
    outs() << formatv("diff: {0} regression(s) above {1} percentage points\n",
                      Regressions, FailAbove.getValue());
  return Regressions ? 1 : 0;
}
