//===- DiffCommand.cpp - warpscope diff: compare two profiles -------------===//
//
// Matches functions by mangled name and branches by the text of their line
// (else by source location), then prints changes in
// executions and divergence, as text or JSON. --fail-above P exits 1 when a
// branch's divergence rate, or a kernel's branch inefficiency, grew by more
// than P percentage points: a CI regression gate. Two profiles with no
// function in common are of unrelated programs: refused.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ProfileModel.h"
#include "Ranks.h"
#include "Report.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
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
static cl::opt<std::string>
    RankList("rank",
             cl::desc("Compare only the profiles of these MPI ranks (in "
                      "both directories), e.g. 0,3,8-15"),
             cl::value_desc("list"), cl::init(""), cl::sub(DiffSub));
static cl::opt<std::string> Format("format", cl::desc("text (default) or json"),
                                   cl::init("text"), cl::sub(DiffSub));

namespace {

/// A pair of probed branches, one per build, that are one source branch.
struct BranchMatch {
  const BranchCounts *Before, *After;
  bool ByText; ///< by the text of its line (the line may have moved)
};

std::vector<const BranchCounts *> probedBranches(const FunctionProfile &F) {
  std::vector<const BranchCounts *> Out;
  for (const BranchCounts &B : F.Branches)
    if (B.Probed)
      Out.push_back(&B);
  return Out;
}

/// Pairs the branches of Old and New (both in function order) whose KeyOf
/// is equal, the first with the first and so on, and removes them from
/// both lists. KeyOf gives no key for a branch it cannot place.
template <typename KeyFn>
void pairBy(std::vector<const BranchCounts *> &Old,
            std::vector<const BranchCounts *> &New, KeyFn KeyOf, bool ByText,
            std::vector<BranchMatch> &Out) {
  using Key = typename decltype(KeyOf(*Old.front()))::value_type;
  std::map<Key, std::vector<size_t>> OldByKey;
  for (size_t I = 0; I < Old.size(); ++I)
    if (auto K = KeyOf(*Old[I]))
      OldByKey[*K].push_back(I);
  std::map<Key, size_t> Taken;
  std::vector<bool> OldUsed(Old.size());
  std::vector<const BranchCounts *> NewLeft;
  for (const BranchCounts *B : New) {
    auto K = KeyOf(*B);
    auto It = K ? OldByKey.find(*K) : OldByKey.end();
    if (It != OldByKey.end() && Taken[*K] < It->second.size()) {
      size_t I = It->second[Taken[*K]++];
      OldUsed[I] = true;
      Out.push_back({Old[I], B, ByText});
      continue;
    }
    NewLeft.push_back(B);
  }
  std::vector<const BranchCounts *> OldLeft;
  for (size_t I = 0; I < Old.size(); ++I)
    if (!OldUsed[I])
      OldLeft.push_back(Old[I]);
  Old = std::move(OldLeft);
  New = std::move(NewLeft);
}

/// Matches the probed branches of two builds of one function: by file, the
/// text of the branch's line (the database's hash of it), column, kind and
/// order among branches with all of these, so a branch whose line moved
/// (lines inserted above it) still matches; the rest by file, line, column,
/// kind and order. Old and New keep the branches without a match.
std::vector<BranchMatch> matchBranches(std::vector<const BranchCounts *> &Old,
                                       std::vector<const BranchCounts *> &New) {
  std::vector<BranchMatch> Out;
  if (Old.empty() || New.empty())
    return Out;
  using TextKey = std::tuple<std::string, std::string, unsigned, int>;
  pairBy(
      Old, New,
      [](const BranchCounts &B) -> std::optional<TextKey> {
        if (B.LineHash.empty() || B.Loc.File.empty())
          return std::nullopt;
        return TextKey{B.Loc.File, B.LineHash, B.Loc.Column, int(B.Kind)};
      },
      /*ByText=*/true, Out);
  if (Old.empty() || New.empty())
    return Out;
  using LineKey = std::tuple<std::string, unsigned, unsigned, int>;
  pairBy(
      Old, New,
      [](const BranchCounts &B) -> std::optional<LineKey> {
        return LineKey{B.Loc.File, B.Loc.Line, B.Loc.Column, int(B.Kind)};
      },
      /*ByText=*/false, Out);
  return Out;
}

double rate(const BranchCounts &B) {
  return B.Visits ? 100.0 * B.Divergent / B.Visits : 0;
}

struct BranchDelta {
  BranchMatch Match;
  /// Order among the probed branches at the same location of its build.
  unsigned OrdinalBefore, Ordinal;
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
  std::vector<const BranchCounts *> Old = probedBranches(*Prev.Function),
                                    New = probedBranches(*Next.Function);
  std::map<const BranchCounts *, unsigned> Ordinal;
  for (const std::vector<const BranchCounts *> *Build : {&Old, &New}) {
    std::map<std::tuple<std::string, unsigned, unsigned>, unsigned> AtPlace;
    for (const BranchCounts *B : *Build)
      Ordinal[B] = AtPlace[{B->Loc.File, B->Loc.Line, B->Loc.Column}]++;
  }
  std::vector<BranchMatch> Matches = matchBranches(Old, New);
  // In the after build's order, as the reports list branches.
  std::sort(Matches.begin(), Matches.end(),
            [](const BranchMatch &A, const BranchMatch &B) {
              return A.After->Id < B.After->Id;
            });
  for (const BranchMatch &M : Matches) {
    double Growth = rate(*M.After) - rate(*M.Before);
    if (Growth == 0 && M.After->Visits == M.Before->Visits &&
        M.After->Divergent == M.Before->Divergent)
      continue;
    D.Branches.push_back(
        {M, Ordinal[M.Before], Ordinal[M.After], Growth, regressed(Growth)});
  }
  D.BranchesOnlyAfter = New.size();
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
    for (const BranchDelta &B : D.Branches) {
      const BranchCounts &Prev = *B.Match.Before, &Next = *B.Match.After;
      std::string Moved =
          Prev.Loc.Line != Next.Loc.Line
              ? formatv(" (line {0} before)", Prev.Loc.Line).str()
              : std::string();
      OS << formatv("  {0}:{1}:{2}{3}: divergence {4:F1}% -> {5:F1}% "
                    "({6} pp), visits {7}{8}\n",
                    sys::path::filename(Next.Loc.File), Next.Loc.Line,
                    Next.Loc.Column, Moved, rate(Prev), rate(Next),
                    signedFixed(B.Growth), change(Prev.Visits, Next.Visits),
                    B.Regression ? "  REGRESSION" : "");
    }
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
      Branches.push_back(json::Object{
          {"file", Br.Match.After->Loc.File},
          {"line", Br.Match.After->Loc.Line},
          {"column", Br.Match.After->Loc.Column},
          {"ordinal", Br.Ordinal},
          {"line_before", Br.Match.Before->Loc.Line},
          {"ordinal_before", Br.OrdinalBefore},
          {"matched_by", Br.Match.ByText ? "line text" : "location"},
          {"before", branchCounts(*Br.Match.Before)},
          {"after", branchCounts(*Br.Match.After)},
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
  if (RankList.getNumOccurrences())
    if (llvm::Error E = chooseRanks(RankList, {Dirs[0], Dirs[1]}))
      return Fail(toString(std::move(E)));
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
