//===- DiffCommand.cpp - warpscope diff: compare two profiles -------------===//
//
// Prints what changed between two profile directories (DiffCompare.h: every
// figure the report has, per function, branch and memory line), as text or
// JSON, naming the branches and lines found in only one of them.
// --fail-above METRIC=PCT exits 1 when a figure of that metric grew worse by
// more than PCT (percentage points for rates, percent for amounts): a CI
// regression gate; a bare number gates divergence, as before. Two profiles
// with no function in common are of unrelated programs: refused.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "DiffCompare.h"
#include "FormatOption.h"
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

using namespace llvm;
using namespace warpscope;

namespace {

/// One --fail-above: a metric and its limit.
struct Threshold {
  DiffMetric Metric = DiffMetric::Divergence;
  double Limit = 0;
};

/// Parses METRIC=PCT, the metric one of the names cl::values gives it, or a
/// bare PCT (divergence, as diff took before it had other metrics).
class ThresholdParser : public cl::basic_parser<Threshold> {
public:
  ThresholdParser(cl::Option &O) : basic_parser(O) {}
  void addLiteralOption(StringRef Name, int Value, StringRef Help) {
    Names.push_back({Name, DiffMetric(Value), Help});
  }
  bool parse(cl::Option &O, StringRef, StringRef Arg, Threshold &Val) {
    auto [Name, Number] =
        Arg.contains('=') ? Arg.split('=') : std::pair(StringRef(), Arg);
    Val.Metric = DiffMetric::Divergence;
    if (!Name.empty()) {
      auto It = std::find_if(Names.begin(), Names.end(),
                             [&](const Entry &E) { return E.Name == Name; });
      if (It == Names.end())
        return O.error("'" + Name + "' is not a metric; use one of " +
                       metricList());
      Val.Metric = It->Metric;
    }
    if (Number.trim().getAsDouble(Val.Limit) || !(Val.Limit >= 0) ||
        !std::isfinite(Val.Limit))
      return O.error("'" + Arg +
                     "' is not METRIC=PCT with PCT a number >= 0 "
                     "(metrics: " +
                     metricList() + ")");
    return false;
  }
  StringRef getValueName() const override { return "metric=pct"; }
  void printOptionInfo(const cl::Option &O, size_t GlobalWidth) const {
    basic_parser::printOptionInfo(O, GlobalWidth);
    for (const Entry &E : Names)
      outs() << formatv("      {0,-18} - {1}\n", E.Name, E.Help);
  }

private:
  struct Entry {
    StringRef Name;
    DiffMetric Metric;
    StringRef Help;
  };
  SmallVector<Entry, 8> Names;
  std::string metricList() const {
    std::string S;
    for (const Entry &E : Names)
      S += (S.empty() ? "" : ", ") + E.Name.str();
    return S;
  }
};

} // namespace

cl::SubCommand warpscope::DiffSub(
    "diff", "Compare two profile directories: warpscope diff BEFORE AFTER");

static cl::list<std::string> Dirs(cl::Positional, cl::desc("<before> <after>"),
                                  cl::sub(DiffSub));
static cl::list<Threshold, bool, ThresholdParser> FailAbove(
    "fail-above",
    cl::desc("Exit 1 if a figure of METRIC grew worse by more than PCT "
             "(percentage points for rates, percent for amounts); repeat or "
             "separate with commas for several metrics; a bare PCT gates "
             "divergence"),
    cl::CommaSeparated, cl::sub(DiffSub),
    cl::values(
        clEnumValN(int(DiffMetric::Divergence), "divergence",
                   "a branch's divergence rate or a kernel's branch "
                   "inefficiency (points)"),
        clEnumValN(int(DiffMetric::Instructions), "instructions",
                   "warp-level PTX instructions, else block executions "
                   "(percent)"),
        clEnumValN(int(DiffMetric::MemoryEfficiency), "memory-efficiency",
                   "global/local sectors and shared wavefronts, ideal over "
                   "actual, per kernel and line (points)"),
        clEnumValN(int(DiffMetric::ModeledTime), "modeled-time",
                   "the timing model's time per kernel (percent)"),
        clEnumValN(int(DiffMetric::Occupancy), "occupancy",
                   "theoretical occupancy per kernel (points)"),
        clEnumValN(int(DiffMetric::Time), "time",
                   "measured time per kernel (percent)")));
static cl::opt<std::string>
    DiffRankList("rank",
                 cl::desc("Compare only the profiles of these MPI ranks (in "
                          "both directories), e.g. 0,3,8-15"),
                 cl::value_desc("list"), cl::init(""), cl::sub(DiffSub));
static FormatOption DiffFormat("format", cl::desc("Output format"),
                               formats{
                                   {OutputFormat::Text, "a table (default)"},
                                   {OutputFormat::Json, "one JSON object"}},
                               cl::sub(DiffSub));

namespace {

std::string signedFixed(double X) {
  double Rounded = std::round(X * 10) / 10;
  if (Rounded == 0)
    return "0.0"; // also for -0.0
  return (Rounded > 0 ? "+" : "") + formatv("{0:F1}", Rounded).str();
}

std::string value(const DiffFigure &F, double V) {
  if (F.Unit == "%")
    return formatv("{0:F1}%", V).str();
  if (F.Unit == "us")
    return formatv("{0:F2} us", V).str();
  if (F.Unit == "ms")
    return formatv("{0:F3} ms", V).str();
  return formatv("{0}", uint64_t(V)).str();
}

/// "80.0% -> 95.0% (+15.0 pp)", "10 (same)", "0 -> 4", "- -> 12.00 us".
std::string change(const DiffFigure &F) {
  auto Side = [&](const std::optional<double> &V) {
    return V ? value(F, *V) : std::string("-");
  };
  if (!F.changed())
    return Side(F.After) + " (same)";
  std::string S = Side(F.Before) + " -> " + Side(F.After);
  if (F.Change) {
    bool Points = F.Metric ? diffMetricInPoints(*F.Metric) : F.Unit == "%";
    S += " (" + signedFixed(*F.Change) + (Points ? " pp)" : "%)");
  }
  return S;
}

std::string figureText(const DiffFigure &F) {
  return F.Name + " " + change(F) + (F.Note.empty() ? "" : ", " + F.Note) +
         (F.Regression ? "  REGRESSION" : "");
}

std::string branchPlace(const BranchCounts &B) {
  return formatv("{0}:{1}:{2}", sys::path::filename(B.Loc.File), B.Loc.Line,
                 B.Loc.Column)
      .str();
}

std::string linePlace(const std::string &File, unsigned Line) {
  return File.empty()
             ? "(no line info)"
             : formatv("{0}:{1}", sys::path::filename(File), Line).str();
}

void renderBranchesText(const DiffFunction &D, raw_ostream &OS) {
  for (const DiffBranch &B : D.Branches) {
    const BranchCounts &Prev = *B.Before, &Next = *B.After;
    std::string Moved = Prev.Loc.Line != Next.Loc.Line
                            ? formatv(" (line {0} before)", Prev.Loc.Line).str()
                            : std::string();
    DiffFigure Visits{std::nullopt, "visits", "", ""};
    Visits.Before = Prev.Visits;
    Visits.After = Next.Visits;
    if (Prev.Visits && Prev.Visits != Next.Visits)
      Visits.Change = 100.0 * (double(Next.Visits) - Prev.Visits) / Prev.Visits;
    OS << formatv("  {0}{1}: divergence {2:F1}% -> {3:F1}% ({4} pp), {5}{6}\n",
                  branchPlace(Next), Moved, divergencePercent(Prev),
                  divergencePercent(Next), signedFixed(B.Growth),
                  figureText(Visits), B.Regression ? "  REGRESSION" : "");
  }
  for (const auto &[List, Dir] : {std::pair(&D.BranchesOnlyBefore, Dirs[0]),
                                  std::pair(&D.BranchesOnlyAfter, Dirs[1])})
    for (const BranchCounts *B : *List)
      OS << formatv("  branch only in {0}: {1}: divergence {2:F1}%, visits "
                    "{3}\n",
                    Dir, branchPlace(*B), divergencePercent(*B), B->Visits);
}

void renderLinesText(const DiffFunction &D, raw_ostream &OS) {
  for (const DiffLine &L : D.Lines)
    for (const DiffFigure &F : L.Figures)
      if (F.changed())
        OS << "  " << linePlace(L.File, L.Line) << " " << L.Access << ": "
           << figureText(F) << "\n";
  for (const auto &[List, Dir] : {std::pair(&D.LinesOnlyBefore, Dirs[0]),
                                  std::pair(&D.LinesOnlyAfter, Dirs[1])})
    for (const MemoryLine *L : *List)
      OS << "  memory access only in " << Dir << ": "
         << linePlace(L->File, L->Line) << " " << L->Access << "\n";
}

std::string thresholdsText(const DiffThresholds &T) {
  std::string S;
  for (unsigned M = 0; M < NumDiffMetrics; ++M)
    if (T.Limit[M] >= 0)
      S += formatv("{0}{1} {2:F2}{3}", S.empty() ? "" : ", ",
                   diffMetricName(DiffMetric(M)), T.Limit[M],
                   diffMetricInPoints(DiffMetric(M)) ? " pp" : "%");
  return S;
}

void renderDiffText(const DiffResult &R, const DiffThresholds &T,
                    raw_ostream &OS) {
  for (const DiffFunction &D : R.Functions) {
    const FunctionProfile &F = D.function();
    if (!D.Before || !D.After) {
      OS << F.Demangled << ": only in " << Dirs[D.After ? 1 : 0] << "\n";
      continue;
    }
    OS << F.Demangled << "\n";
    for (const DiffFigure &G : D.Figures)
      OS << "  " << figureText(G) << "\n";
    renderBranchesText(D, OS);
    renderLinesText(D, OS);
  }
  if (T.any())
    OS << formatv("diff: {0} regression(s) above {1}\n", R.Regressions,
                  thresholdsText(T));
}

json::Value optionalNumber(const std::optional<double> &V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

json::Array figuresJson(const std::vector<DiffFigure> &Figures) {
  json::Array Out;
  for (const DiffFigure &F : Figures)
    Out.push_back(json::Object{
        {"name", F.Key},
        {"metric", F.Metric ? json::Value(diffMetricName(*F.Metric))
                            : json::Value(nullptr)},
        {"unit", F.Unit},
        {"before", optionalNumber(F.Before)},
        {"after", optionalNumber(F.After)},
        {"change", optionalNumber(F.Change)},
        {"change_unit",
         (F.Metric ? diffMetricInPoints(*F.Metric) : F.Unit == "%")
             ? "points"
             : "percent"},
        {"regression", F.Regression}});
  return Out;
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

json::Object branchJson(const BranchCounts &B) {
  return json::Object{
      {"file", B.Loc.File},
      {"line", B.Loc.Line},
      {"column", B.Loc.Column},
      {"visits", B.Visits},
      {"divergent", B.Divergent},
      {"divergence_rate", B.Visits ? json::Value(double(B.Divergent) / B.Visits)
                                   : json::Value(nullptr)}};
}

json::Array branchesJson(const DiffFunction &D) {
  json::Array Out;
  for (const DiffBranch &Br : D.Branches)
    Out.push_back(
        json::Object{{"file", Br.After->Loc.File},
                     {"line", Br.After->Loc.Line},
                     {"column", Br.After->Loc.Column},
                     {"ordinal", Br.Ordinal},
                     {"line_before", Br.Before->Loc.Line},
                     {"ordinal_before", Br.OrdinalBefore},
                     {"matched_by", Br.ByText ? "line text" : "location"},
                     {"before", branchJson(*Br.Before)},
                     {"after", branchJson(*Br.After)},
                     {"divergence_change_points", Br.Growth},
                     {"regression", Br.Regression}});
  return Out;
}

json::Object functionJson(const DiffFunction &D) {
  const FunctionProfile &F = D.function();
  auto Branches = [](const std::vector<const BranchCounts *> &L) {
    json::Array A;
    for (const BranchCounts *B : L)
      A.push_back(branchJson(*B));
    return A;
  };
  auto Lines = [](const std::vector<const MemoryLine *> &L) {
    json::Array A;
    for (const MemoryLine *M : L)
      A.push_back(json::Object{
          {"file", M->File}, {"line", M->Line}, {"access", M->Access}});
    return A;
  };
  json::Array Changed;
  for (const DiffLine &L : D.Lines)
    Changed.push_back(json::Object{{"file", L.File},
                                   {"line", L.Line},
                                   {"access", L.Access},
                                   {"figures", figuresJson(L.Figures)}});
  return json::Object{{"name", F.Demangled},
                      {"mangled", F.Name},
                      {"kind", F.Kernel ? "kernel" : "device"},
                      {"in", !D.Before  ? "after"
                             : !D.After ? "before"
                                        : "both"},
                      {"before", counts(D.Before)},
                      {"after", counts(D.After)},
                      {"figures", figuresJson(D.Figures)},
                      {"regression", D.Regression},
                      {"branches_changed", branchesJson(D)},
                      {"branches_only_before", Branches(D.BranchesOnlyBefore)},
                      {"branches_only_after", Branches(D.BranchesOnlyAfter)},
                      {"lines_changed", std::move(Changed)},
                      {"lines_only_before", Lines(D.LinesOnlyBefore)},
                      {"lines_only_after", Lines(D.LinesOnlyAfter)}};
}

json::Value renderDiffJson(const DiffResult &R, const DiffThresholds &T,
                           const DiffSide &A, const DiffSide &B) {
  json::Array Functions;
  for (const DiffFunction &D : R.Functions)
    Functions.push_back(functionJson(D));
  json::Object Limits;
  for (unsigned M = 0; M < NumDiffMetrics; ++M)
    if (T.Limit[M] >= 0)
      Limits[diffMetricName(DiffMetric(M))] = T.Limit[M];
  return json::Object{{"schema", schema::Diff},
                      {"before", json::Object{{"directory", Dirs[0]},
                                              {"program", A.Set->Program}}},
                      {"after", json::Object{{"directory", Dirs[1]},
                                             {"program", B.Set->Program}}},
                      {"fail_above", std::move(Limits)},
                      {"regressions", R.Regressions},
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
  RunDirectory RunA(Dirs[0]), RunB(Dirs[1]);
  if (DiffRankList.getNumOccurrences())
    if (llvm::Error E = chooseRanks(DiffRankList, {&RunA, &RunB}))
      return Fail(toString(std::move(E)));
  DiffThresholds T;
  for (const Threshold &Th : FailAbove)
    T.Limit[int(Th.Metric)] = Th.Limit;
  Expected<std::unique_ptr<DiffSide>> A = loadDiffSide(RunA);
  if (!A)
    return Fail(toString(A.takeError()));
  Expected<std::unique_ptr<DiffSide>> B = loadDiffSide(RunB);
  if (!B)
    return Fail(toString(B.takeError()));
  DiffResult R = compareProfiles(**A, **B, T);
  // Profiles that share no function are of different programs (or of
  // builds too different to match): every line would be "only in".
  bool Shared =
      std::any_of(R.Functions.begin(), R.Functions.end(),
                  [](const DiffFunction &D) { return D.Before && D.After; });
  if (!Shared && !(*A)->Summaries.empty() && !(*B)->Summaries.empty())
    return Fail("'" + Dirs[0] + "' (" +
                sys::path::filename((*A)->Set->Program) + ") and '" + Dirs[1] +
                "' (" + sys::path::filename((*B)->Set->Program) +
                ") have no kernel or device function in common; diff "
                "compares two runs or builds of one program");
  if (DiffFormat == OutputFormat::Json)
    outs() << formatv("{0:2}", renderDiffJson(R, T, **A, **B)) << "\n";
  else
    renderDiffText(R, T, outs());
  return R.Regressions ? 1 : 0;
}
