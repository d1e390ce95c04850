//===- GpaOptimizers.cpp - GPA's optimizers and estimators ----------------===//
//
// Issue 18 item 4: the 17 optimizers of Table 2 of the GPA papers (TPDS'21;
// CGO'21 has 12 of them), each a matcher (GpaStall.cpp, GpaLatency.cpp,
// GpaParallel.cpp) and one of GPA's estimators. The "hybrid" ones (memory
// access adjustment, branch elimination) use our exact counts.
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "Advice.h"
#include "Estimators.h"
#include "GpaCommon.h"
#include "warpscope/Support/MathHeaders.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <set>

using namespace llvm;

namespace warpscope::advise {

/// The same file named by two paths (one may be relative to a directory
/// the other names).
static bool sameFile(StringRef A, StringRef B) {
  if (A.size() < B.size())
    std::swap(A, B);
  return A == B || (A.ends_with(B) && A[A.size() - B.size() - 1] == '/');
}

bool isMathCode(const Inputs &In, const Function &Fn, const Instr &I) {
  if (isMathLibraryHeader(I.File))
    return true;
  for (const InlinedFrame &F : I.Inlined)
    if (isMathLibraryHeader(F.File))
      return true;
  if (!In.Profile || I.Line == 0 || I.File.empty())
    return false;
  for (const FunctionProfile &P : In.Profile->Functions)
    if (P.Name == Fn.Name)
      for (const SourceLocation &S : P.MathCallSites)
        if (S.Line == I.Line && (I.Column == 0 || S.Column == I.Column) &&
            sameFile(S.File, I.File))
          return true;
  return false;
}

std::vector<double> activeSamples(const FunctionBlame &B) {
  size_t N = B.Code->Instrs.size();
  std::vector<double> Out(N, 0);
  double Sum = 0;
  for (double E : B.Executed)
    Sum += E;
  for (size_t I = 0; I < N; ++I)
    Out[I] = B.Executed.size() != N ? B.Stalls[I].of(StallKind::Active)
             : Sum > 0              ? B.Active * B.Executed[I] / Sum
                                    : 0;
  return Out;
}

std::vector<KernelView> kernelViews(const Inputs &In) {
  std::vector<KernelView> Views;
  if (!In.Blame || !In.Code)
    return Views;
  // Callers of each sampled function; roots are kernels and functions no
  // sampled code calls.
  std::set<std::string> Called;
  for (const auto &[Name, B] : *In.Blame)
    for (const Instr &I : B.Code->Instrs)
      if (!I.Callee.empty() && I.Callee != Name)
        Called.insert(I.Callee);
  for (const auto &[Name, B] : *In.Blame) {
    if (!B.Code->Kernel && Called.count(Name))
      continue;
    KernelView V;
    V.Kernel = Name;
    std::vector<std::string> Work = {Name};
    std::set<std::string> Seen = {Name};
    while (!Work.empty()) {
      std::string F = Work.back();
      Work.pop_back();
      auto It = In.Blame->find(F);
      if (It == In.Blame->end())
        continue;
      V.Parts.push_back(&It->second);
      V.T += It->second.Total;
      V.A += It->second.active();
      for (const Instr &I : It->second.Code->Instrs)
        if (!I.Callee.empty() && Seen.insert(I.Callee).second)
          Work.push_back(I.Callee);
    }
    if (In.Profile)
      for (const FunctionProfile &P : In.Profile->Functions)
        if (P.Name == Name)
          V.Profile = &P;
    if (V.T > 0)
      Views.push_back(std::move(V));
  }
  return Views;
}

static std::string where(const std::string &File, unsigned Line) {
  if (File.empty())
    return "(no line)";
  return File.substr(File.rfind('/') + 1) + ":" + std::to_string(Line);
}

Hotspot edgeHotspot(const FunctionBlame &B, const BlameEdge &E) {
  const Instr &Def = B.Code->Instrs[E.Def], &Use = B.Code->Instrs[E.Use];
  Hotspot H;
  H.Function = B.Code->Name;
  H.File = Use.File;
  H.Line = Use.Line;
  H.DefFile = Def.File;
  H.DefLine = Def.Line;
  H.Distance = E.MinDistance;
  H.Samples = E.Samples;
  H.Evidence =
      formatv("{0} dependency: '{1}' ({2}) waits for '{3}' ({4})",
              depClassName(E.Class), Use.Opcode, where(Use.File, Use.Line),
              Def.Opcode, where(Def.File, Def.Line))
          .str();
  return H;
}

Hotspot instrHotspot(const FunctionBlame &B, unsigned I, double Samples,
                     const std::string &Evidence) {
  const Instr &In = B.Code->Instrs[I];
  Hotspot H;
  H.Function = B.Code->Name;
  H.File = In.File;
  H.Line = In.Line;
  H.Samples = Samples;
  H.Evidence = Evidence.empty() ? "'" + In.Opcode + "'" : Evidence;
  return H;
}

void rankHotspots(std::vector<Hotspot> &H, size_t Keep) {
  // Merged by (use line, def line); evidence and distance stay those of the
  // biggest single contribution.
  std::vector<Hotspot> Merged;
  std::vector<double> Biggest;
  for (Hotspot &X : H) {
    auto It = std::find_if(Merged.begin(), Merged.end(), [&](const Hotspot &Y) {
      return Y.Function == X.Function && Y.File == X.File && Y.Line == X.Line &&
             Y.DefFile == X.DefFile && Y.DefLine == X.DefLine;
    });
    if (It == Merged.end()) {
      Biggest.push_back(X.Samples);
      Merged.push_back(std::move(X));
      continue;
    }
    double &Big = Biggest[size_t(It - Merged.begin())];
    if (X.Samples > Big) {
      Big = X.Samples;
      It->Evidence = X.Evidence;
      It->Distance = X.Distance;
    }
    It->Samples += X.Samples;
  }
  std::stable_sort(
      Merged.begin(), Merged.end(),
      [](const Hotspot &A, const Hotspot &B) { return A.Samples > B.Samples; });
  if (Merged.size() > Keep)
    Merged.resize(Keep);
  H = std::move(Merged);
}

namespace {

/// Advice below this estimated speedup is noise, not advice.
constexpr double MinSpeedup = 1.01;

class GpaOptimizer : public Optimizer {
public:
  explicit GpaOptimizer(GpaSpec S) : Spec(std::move(S)) {}
  StringRef id() const override { return Spec.Id; }
  StringRef name() const override { return Spec.Name; }
  StringRef help() const override { return Spec.Help; }
  std::vector<InputKind> needs() const override { return Spec.Needs; }
  void run(const Inputs &In, std::vector<Advice> &Out) const override {
    for (const KernelView &V : kernelViews(In)) {
      Match M;
      Spec.Matcher(In, V, M);
      Advice A;
      A.Optimizer = Spec.Id;
      A.Title = Spec.Name;
      A.Kernel = V.Kernel;
      std::string Unit =
          In.SampleSource == "model" ? "modeled samples" : "samples";
      switch (Spec.Estimator) {
      case EstimatorKind::StallElimination:
        if (M.M <= 0)
          continue;
        A.EstimatedSpeedup = stallElimination(V.T, M.M);
        A.Estimator = formatv("stall elimination (GPA Eq. 2): T / (T - M), "
                              "T = {0} {2}, M = {1} matched",
                              formatNumber(V.T, 1), formatNumber(M.M, 1), Unit)
                          .str();
        break;
      case EstimatorKind::LatencyHiding: {
        double Hidden =
            M.Scopes.empty() ? std::min(V.A, M.M) : hiddenByScopes(M.Scopes);
        if (M.Scopes.empty() ? M.M <= 0 : Hidden <= 0)
          continue;
        A.EstimatedSpeedup = latencyHiding(V.T, Hidden, Hidden);
        A.Estimator =
            formatv("latency hiding (GPA Eq. {0}): T / (T - min(A, M^L)), "
                    "T = {1} {4}, A = {2} active, {3} latency {4} hidden",
                    M.Scopes.empty() ? "4" : "5, per scope",
                    formatNumber(V.T, 1), formatNumber(V.A, 1),
                    formatNumber(Hidden, 1), Unit)
                .str();
        break;
      }
      case EstimatorKind::Combined:
        if (M.Speedup <= 0)
          continue;
        A.EstimatedSpeedup = M.Speedup;
        A.Estimator = M.Evidence;
        break;
      case EstimatorKind::Parallelism:
        if (M.Speedup <= 0)
          continue;
        A.EstimatedSpeedup = M.Speedup;
        A.Estimator =
            "parallelism (GPA Eq. 11): 1/C_W x C_I x f; " + M.Evidence;
        break;
      }
      if (A.EstimatedSpeedup < MinSpeedup)
        continue;
      if (!M.Evidence.empty() && Spec.Estimator != EstimatorKind::Parallelism &&
          Spec.Estimator != EstimatorKind::Combined)
        A.Estimator += "; " + M.Evidence;
      A.Hints = std::move(M.Hints);
      A.Change = M.Change;
      rankHotspots(M.Hotspots);
      A.Hotspots = std::move(M.Hotspots);
      Out.push_back(std::move(A));
    }
  }

private:
  GpaSpec Spec;
};

} // namespace

std::vector<std::unique_ptr<Optimizer>> gpaOptimizers() {
  std::vector<GpaSpec> Specs;
  stallEliminationSpecs(Specs);
  latencyHidingSpecs(Specs);
  parallelismSpecs(Specs);
  std::vector<std::unique_ptr<Optimizer>> Out;
  for (GpaSpec &S : Specs)
    Out.push_back(std::make_unique<GpaOptimizer>(std::move(S)));
  return Out;
}

} // namespace warpscope::advise
