//===- DiffCommand.cpp - warpscope diff: compare two profiles -------------===//
//
// Matches functions by mangled name and branches by source location (and
// their order among branches at the same location), then prints changes in
// executions and divergence, as text or JSON. --fail-above P exits 1 when a
// branch's divergence rate, or a kernel's branch inefficiency, grew by more
// than P percentage points: a CI regression gate. Two profiles with no
// function in common are of unrelated programs: refused.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ProfileModel.h"
#include "Report.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
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
static cl::opt<std::string> Format("format", cl::desc("text (default) or json"),
                                   cl::init("text"), cl::sub(DiffSub));

namespace {

/// File, line, column, and the branch's order among those at that place.
using BranchKey = std::tuple<std::string, unsigned, unsigned, unsigned>;

std::map<BranchKey, const BranchCounts *>
branchesByLocation(const FunctionProfile &F) {
  std::map<BranchKey, const BranchCounts *> Out;
  std::map<std::tuple<std::string, unsigned, unsigned>, unsigned> Seen;
  for (const BranchCounts &B : F.Branches) {
    if (!B.Probed)
      continue;
    unsigned Ordinal = Seen[{B.Loc.File, B.Loc.Line, B.Loc.Column}]++;
    Out[{B.Loc.File, B.Loc.Line, B.Loc.Column, Ordinal}] = &B;
  }
  return Out;
}

double rate(const BranchCounts &B) {
  return B.Visits ? 100.0 * B.Divergent / B.Visits : 0;
}

struct BranchDelta {
  BranchKey Key;
  const BranchCounts *Before, *After;
  double Growth; ///< percentage points of divergence rate
  bool Regression;
};

/// One function in either profile.
struct FunctionDelta {
  const FunctionSummary *Before = nullptr, *After = nullptr;
  std::optional<double> EfficiencyDrop; ///< points; both measured
  bool Regression = false;
  std::vector<BranchDelta> Branches; ///< matched, changed
  unsigned BranchesOnlyBefore = 0, BranchesOnlyAfter = 0;
  const FunctionProfile &function() const {
    return *(After ? After : Before)->Function;
  }
};

struct Comparison {
  std::vector<FunctionDelta> Functions;
  unsigned Regressions = 0;
};

bool regressed(double GrowthPoints) {
  return FailAbove >= 0 && GrowthPoints > FailAbove;
}

FunctionDelta compare(const FunctionSummary &Prev,
                      const FunctionSummary &Next) {
  FunctionDelta D;
  D.Before = &Prev;
  D.After = &Next;
  if (Prev.BranchEfficiency && Next.BranchEfficiency) {
    D.EfficiencyDrop = 100 * (*Prev.BranchEfficiency - *Next.BranchEfficiency);
    D.Regression = regressed(*D.EfficiencyDrop);
  }
  auto Old = branchesByLocation(*Prev.Function);
  for (auto &[Key, Br] : branchesByLocation(*Next.Function)) {
    auto O = Old.find(Key);
    if (O == Old.end()) {
      ++D.BranchesOnlyAfter;
      continue;
    }
    const BranchCounts *Before = O->second;
    Old.erase(O);
    double Growth = rate(*Br) - rate(*Before);
    if (Growth == 0 && Br->Visits == Before->Visits &&
        Br->Divergent == Before->Divergent)
      continue;
    D.Branches.push_back({Key, Before, Br, Growth, regressed(Growth)});
  }
  D.BranchesOnlyBefore = Old.size();
  return D;
}

Comparison compareAll(const std::vector<FunctionSummary> &SA,
                      const std::vector<FunctionSummary> &SB) {
  std::map<std::string, const FunctionSummary *> Before;
  for (const FunctionSummary &S : SA)
    Before[S.Function->Name] = &S;
  Comparison C;
  for (const FunctionSummary &After : SB) {
    auto It = Before.find(After.Function->Name);
    if (It == Before.end()) {
      FunctionDelta D;
      D.After = &After;
      C.Functions.push_back(std::move(D));
      continue;
    }
    C.Functions.push_back(compare(*It->second, After));
    Before.erase(It);
  }
  for (const FunctionSummary &S : SA)
    if (Before.count(S.Function->Name)) {
      FunctionDelta D;
      D.Before = &S;
      C.Functions.push_back(std::move(D));
    }
  for (const FunctionDelta &F : C.Functions) {
    C.Regressions += F.Regression;
    for (const BranchDelta &B : F.Branches)
      C.Regressions += B.Regression;
  }
  return C;
}

std::string signedFixed(double X) {
  double Rounded = std::round(X * 10) / 10;
  if (Rounded == 0)
    return "0.0"; // also for -0.0
  return (Rounded > 0 ? "+" : "") + formatv("{0:F1}", Rounded).str();
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

void renderText(const Comparison &C, raw_ostream &OS) {
  for (const FunctionDelta &D : C.Functions) {
    const FunctionProfile &F = D.function();
    if (!D.Before || !D.After) {
      OS << F.Demangled << ": only in " << Dirs[D.After ? 1 : 0] << "\n";
      continue;
    }
    OS << F.Demangled << "\n  warp executions "
       << change(D.Before->WarpExecutions, D.After->WarpExecutions)
       << "\n  thread executions "
       << change(D.Before->ThreadExecutions, D.After->ThreadExecutions) << "\n";
    if (D.EfficiencyDrop)
      OS << formatv(
          "  branch efficiency {0:F1}% -> {1:F1}% ({2} pp){3}\n",
          100 * *D.Before->BranchEfficiency, 100 * *D.After->BranchEfficiency,
          signedFixed(-*D.EfficiencyDrop), D.Regression ? "  REGRESSION" : "");
    for (const BranchDelta &B : D.Branches)
      OS << formatv("  {0}:{1}:{2}: divergence {3:F1}% -> {4:F1}% "
                    "({5} pp), visits {6}{7}\n",
                    sys::path::filename(std::get<0>(B.Key)), std::get<1>(B.Key),
                    std::get<2>(B.Key), rate(*B.Before), rate(*B.After),
                    signedFixed(B.Growth),
                    change(B.Before->Visits, B.After->Visits),
                    B.Regression ? "  REGRESSION" : "");
    if (D.BranchesOnlyBefore || D.BranchesOnlyAfter)
      OS << formatv("  probed branches without a match: {0} only in {1}, "
                    "{2} only in {3}\n",
                    D.BranchesOnlyBefore, Dirs[0], D.BranchesOnlyAfter,
                    Dirs[1]);
  }
  if (FailAbove >= 0)
    OS << formatv("diff: {0} regression(s) above {1} percentage points\n",
                  C.Regressions, FailAbove.getValue());
}

json::Value counts(const FunctionSummary *S) {
  if (!S)
    return nullptr;
  return json::Object{{"launches", S->Function->launches()},
                      {"warp_executions", S->WarpExecutions},
                      {"thread_executions", S->ThreadExecutions},
                      {"branch_efficiency",
                       S->BranchEfficiency ? json::Value(*S->BranchEfficiency)
                                           : json::Value(nullptr)}};
}

json::Value branchCounts(const BranchCounts &B) {
  return json::Object{
      {"visits", B.Visits},
      {"divergent", B.Divergent},
      {"divergence_rate", B.Visits ? json::Value(double(B.Divergent) / B.Visits)
                                   : json::Value(nullptr)}};
}

json::Value renderJson(const Comparison &C, const ProfileSet &A,
                       const ProfileSet &B) {
  json::Array Functions;
  for (const FunctionDelta &D : C.Functions) {
    const FunctionProfile &F = D.function();
    json::Array Branches;
    for (const BranchDelta &Br : D.Branches)
      Branches.push_back(json::Object{{"file", std::get<0>(Br.Key)},
                                      {"line", std::get<1>(Br.Key)},
                                      {"column", std::get<2>(Br.Key)},
                                      {"ordinal", std::get<3>(Br.Key)},
                                      {"before", branchCounts(*Br.Before)},
                                      {"after", branchCounts(*Br.After)},
                                      {"divergence_change_points", Br.Growth},
                                      {"regression", Br.Regression}});
    Functions.push_back(
        json::Object{{"name", F.Demangled},
                     {"mangled", F.Name},
                     {"kind", F.Kernel ? "kernel" : "device"},
                     {"in", !D.Before  ? "after"
                            : !D.After ? "before"
                                       : "both"},
                     {"before", counts(D.Before)},
                     {"after", counts(D.After)},
                     {"branch_efficiency_change_points",
                      D.EfficiencyDrop ? json::Value(-*D.EfficiencyDrop)
                                       : json::Value(nullptr)},
                     {"regression", D.Regression},
                     {"branches_changed", std::move(Branches)},
                     {"branches_only_before", D.BranchesOnlyBefore},
                     {"branches_only_after", D.BranchesOnlyAfter}});
  }
  return json::Object{
      {"schema", schema::Diff},
      {"before", json::Object{{"directory", Dirs[0]}, {"program", A.Program}}},
      {"after", json::Object{{"directory", Dirs[1]}, {"program", B.Program}}},
      {"fail_above_points", FailAbove >= 0 ? json::Value(FailAbove.getValue())
                                           : json::Value(nullptr)},
      {"regressions", C.Regressions},
      {"functions", std::move(Functions)}};
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
  if (Format != "text" && Format != "json")
    return Fail("--format '" + Format + "' is not one of text, json");
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
  Comparison C = compareAll(*SA, *SB);
  // Profiles that share no function are of different programs (or of
  // builds too different to match): every line would be "only in".
  bool Shared =
      std::any_of(C.Functions.begin(), C.Functions.end(),
                  [](const FunctionDelta &D) { return D.Before && D.After; });
  if (!Shared && !SA->empty() && !SB->empty())
    return Fail("'" + Dirs[0] + "' (" + sys::path::filename(A->Program) +
                ") and '" + Dirs[1] + "' (" + sys::path::filename(B->Program) +
                ") have no kernel or device function in common; diff "
                "compares two runs or builds of one program");
  if (Format == "json")
    outs() << formatv("{0:2}", renderJson(C, *A, *B)) << "\n";
  else
    renderText(C, outs());
  return C.Regressions ? 1 : 0;
}
