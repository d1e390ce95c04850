//===- DiffCompare.cpp - What warpscope diff compares ---------------------===//
//
// Functions match by mangled name; probed branches by file, the text of
// their line (the database's hash of it), column, kind and order, so a
// branch whose line moved still matches, the rest by file, line, column,
// kind and order; memory lines by file and line.
//
//===----------------------------------------------------------------------===//

#include "DiffCompare.h"
#include "ResourceReport.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

using namespace llvm;
using namespace warpscope;

StringRef warpscope::diffMetricName(DiffMetric M) {
  switch (M) {
  case DiffMetric::Divergence:
    return "divergence";
  case DiffMetric::Instructions:
    return "instructions";
  case DiffMetric::MemoryEfficiency:
    return "memory-efficiency";
  case DiffMetric::ModeledTime:
    return "modeled-time";
  case DiffMetric::Occupancy:
    return "occupancy";
  case DiffMetric::Time:
    return "time";
  }
  return "?";
}

bool warpscope::diffMetricInPoints(DiffMetric M) {
  return M == DiffMetric::Divergence || M == DiffMetric::MemoryEfficiency ||
         M == DiffMetric::Occupancy;
}

bool DiffThresholds::any() const {
  return std::any_of(std::begin(Limit), std::end(Limit),
                     [](double L) { return L >= 0; });
}

double warpscope::divergencePercent(const BranchCounts &B) {
  return B.Visits ? 100.0 * B.Divergent / B.Visits : 0;
}

Expected<std::unique_ptr<DiffSide>> warpscope::loadDiffSide(RunDirectory &Run) {
  auto Side = std::make_unique<DiffSide>();
  Side->Dir = Run.path();
  Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set)
    return Set.takeError();
  Side->Set = &*Set;
  Expected<std::vector<FunctionSummary>> S = summarize(*Side->Set, "");
  if (!S)
    return S.takeError();
  Side->Summaries = std::move(*S);
  // The ground truth: the memory view and the modeled time.
  Expected<const Truth &> T = Run.truth();
  if (!T)
    return T.takeError();
  if (T->Files)
    Side->Memory = buildMemoryView(*T, "");
  Side->Modeled = buildModeledTime(*T, "");
  return Side;
}

namespace {

//===-- branches ----------------------------------------------------------===//

struct BranchPair {
  const BranchCounts *Before, *After;
  bool ByText;
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
            std::vector<BranchPair> &Out) {
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

/// Matches by the text of the line first, then by location; Old and New
/// keep the branches without a match.
std::vector<BranchPair> matchBranches(std::vector<const BranchCounts *> &Old,
                                      std::vector<const BranchCounts *> &New) {
  std::vector<BranchPair> Out;
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

void compareBranches(const FunctionProfile &Prev, const FunctionProfile &Next,
                     const DiffThresholds &T, DiffFunction &D) {
  std::vector<const BranchCounts *> Old = probedBranches(Prev),
                                    New = probedBranches(Next);
  std::map<const BranchCounts *, unsigned> Ordinal;
  for (const std::vector<const BranchCounts *> *Build : {&Old, &New}) {
    std::map<std::tuple<std::string, unsigned, unsigned>, unsigned> AtPlace;
    for (const BranchCounts *B : *Build)
      Ordinal[B] = AtPlace[{B->Loc.File, B->Loc.Line, B->Loc.Column}]++;
  }
  std::vector<BranchPair> Pairs = matchBranches(Old, New);
  // In the after build's order, as the reports list branches.
  std::sort(Pairs.begin(), Pairs.end(),
            [](const BranchPair &A, const BranchPair &B) {
              return A.After->Id < B.After->Id;
            });
  double Limit = T.of(DiffMetric::Divergence);
  for (const BranchPair &P : Pairs) {
    double Growth = divergencePercent(*P.After) - divergencePercent(*P.Before);
    if (Growth == 0 && P.After->Visits == P.Before->Visits &&
        P.After->Divergent == P.Before->Divergent)
      continue;
    D.Branches.push_back({P.Before, P.After, P.ByText, Ordinal[P.Before],
                          Ordinal[P.After], Growth,
                          Limit >= 0 && Growth > Limit});
  }
  D.BranchesOnlyBefore = std::move(Old);
  D.BranchesOnlyAfter = std::move(New);
}

//===-- figures -----------------------------------------------------------===//

/// Fills Change and Regression from Before and After.
void settle(DiffFigure &F, const DiffThresholds &T) {
  if (!F.Before || !F.After)
    return;
  bool Points = F.Metric ? diffMetricInPoints(*F.Metric) : F.Unit == "%";
  if (Points)
    F.Change = *F.After - *F.Before;
  else if (*F.Before != 0)
    F.Change = 100 * (*F.After - *F.Before) / *F.Before;
  else if (*F.After == 0)
    F.Change = 0;
  if (!F.Metric || T.of(*F.Metric) < 0)
    return;
  if (!F.Change) // from nothing to something: worse only if more is
    F.Regression = F.HigherIsWorse;
  else
    F.Regression = (F.HigherIsWorse ? *F.Change : -*F.Change) > T.of(*F.Metric);
}

std::optional<double> percentOf(uint64_t Part, uint64_t Whole) {
  if (!Whole)
    return std::nullopt;
  return 100.0 * double(Part) / double(Whole);
}

std::optional<double> count(uint64_t N) { return double(N); }

/// Memory efficiency figures of two sets of counts (either may be absent):
/// global, local and shared, where a side has requests of that space.
std::vector<DiffFigure> memoryFigures(const TruthMemory *A,
                                      const TruthMemory *B) {
  struct Space {
    const char *Name, *Key, *Unit;
    uint64_t TruthMemory::*Requests, TruthMemory::*Actual, TruthMemory::*Ideal;
  };
  static const Space Spaces[] = {
      {"global memory efficiency", "global_efficiency", "sectors",
       &TruthMemory::GlobalRequests, &TruthMemory::GlobalSectors,
       &TruthMemory::GlobalIdealSectors},
      {"local memory efficiency", "local_efficiency", "sectors",
       &TruthMemory::LocalRequests, &TruthMemory::LocalSectors,
       &TruthMemory::LocalIdealSectors},
      {"shared memory efficiency", "shared_efficiency", "wavefronts",
       &TruthMemory::SharedRequests, &TruthMemory::SharedWavefronts,
       &TruthMemory::SharedIdealWavefronts}};
  std::vector<DiffFigure> Out;
  for (const Space &S : Spaces) {
    auto Efficiency = [&](const TruthMemory *C) -> std::optional<double> {
      if (!C || !(C->*S.Requests))
        return std::nullopt;
      return percentOf(C->*S.Ideal, C->*S.Actual);
    };
    auto PerRequest = [&](const TruthMemory *C) -> std::string {
      if (!C || !(C->*S.Requests))
        return "-";
      return formatv("{0:F2}", double(C->*S.Actual) / (C->*S.Requests)).str();
    };
    DiffFigure F{DiffMetric::MemoryEfficiency, S.Name, S.Key, "%"};
    F.Before = Efficiency(A);
    F.After = Efficiency(B);
    F.HigherIsWorse = false;
    if (!F.Before && !F.After)
      continue;
    std::string Was = PerRequest(A), Is = PerRequest(B);
    F.Note = (Was == Is ? Is : Was + " -> " + Is) + " " + S.Unit + "/request";
    Out.push_back(std::move(F));
  }
  return Out;
}

const MemoryFunction *memoryOf(const DiffSide &S, const std::string &Name) {
  if (!S.Memory)
    return nullptr;
  for (const MemoryFunction &F : S.Memory->Functions)
    if (F.Mangled == Name)
      return &F;
  return nullptr;
}

std::optional<double> modeledUs(const DiffSide &S, const std::string &Name) {
  if (S.Modeled)
    for (const ModeledKernel &K : S.Modeled->Kernels)
      if (K.Mangled == Name)
        return K.Microseconds;
  return std::nullopt;
}

/// Theoretical occupancy in percent, weighted by each configuration's
/// launches; none when the resources are unknown.
std::optional<double> occupancy(const DiffSide &S, const FunctionProfile &F) {
  double Sum = 0;
  uint64_t Launches = 0;
  for (const LaunchOccupancy &O : launchOccupancy(*S.Set, F)) {
    if (!O.Launch || !O.Result.MaxWarpsPerSM)
      continue;
    Sum += 100 * O.Result.fraction() * O.Launch->Count;
    Launches += O.Launch->Count;
  }
  if (!Launches)
    return std::nullopt;
  return Sum / Launches;
}

/// Every figure of one function the report shows, in its order.
std::vector<DiffFigure> functionFigures(const DiffSide &SA,
                                        const FunctionSummary *A,
                                        const DiffSide &SB,
                                        const FunctionSummary *B) {
  using Get = std::function<std::optional<double>(const DiffSide &,
                                                  const FunctionSummary &)>;
  auto Both = [&](const Get &G) {
    return std::pair(A ? G(SA, *A) : std::nullopt,
                     B ? G(SB, *B) : std::nullopt);
  };
  std::vector<DiffFigure> Out;
  auto Add = [&](std::optional<DiffMetric> M, const char *Name, const char *Key,
                 const char *Unit, bool HigherIsWorse, const Get &G) {
    DiffFigure F{M, Name, Key, Unit};
    std::tie(F.Before, F.After) = Both(G);
    F.HigherIsWorse = HigherIsWorse;
    if (F.Before || F.After)
      Out.push_back(std::move(F));
  };
  bool Mix = (A && A->Mix.Available) || (B && B->Mix.Available);
  Add(std::nullopt, "launches", "launches", "", true,
      [](const DiffSide &, const FunctionSummary &S) {
        return S.Function->Kernel ? count(S.Function->launches())
                                  : std::nullopt;
      });
  // Without PTX histograms, block executions stand for instructions.
  Add(Mix ? std::nullopt : std::optional(DiffMetric::Instructions),
      "warp executions", "warp_executions", "", true,
      [](const DiffSide &, const FunctionSummary &S) {
        return count(S.WarpExecutions);
      });
  Add(std::nullopt, "thread executions", "thread_executions", "", true,
      [](const DiffSide &, const FunctionSummary &S) {
        return count(S.ThreadExecutions);
      });
  if (Mix)
    Add(DiffMetric::Instructions, "PTX instructions (warp-level)",
        "instructions", "", true,
        [](const DiffSide &, const FunctionSummary &S) {
          return S.Mix.Available ? count(S.Mix.Total.Warp) : std::nullopt;
        });
  Add(DiffMetric::Divergence, "branch efficiency", "branch_efficiency", "%",
      false, [](const DiffSide &, const FunctionSummary &S) {
        return S.BranchEfficiency ? std::optional(100 * *S.BranchEfficiency)
                                  : std::nullopt;
      });
  const MemoryFunction *MA = A ? memoryOf(SA, A->Function->Name) : nullptr;
  const MemoryFunction *MB = B ? memoryOf(SB, B->Function->Name) : nullptr;
  for (DiffFigure &F :
       memoryFigures(MA ? &MA->Counts : nullptr, MB ? &MB->Counts : nullptr))
    Out.push_back(std::move(F));
  Add(DiffMetric::ModeledTime, "modeled time", "modeled_microseconds", "us",
      true, [](const DiffSide &S, const FunctionSummary &F) {
        return modeledUs(S, F.Function->Name);
      });
  Add(DiffMetric::Occupancy, "theoretical occupancy", "occupancy", "%", false,
      [](const DiffSide &S, const FunctionSummary &F) {
        return F.Function->Kernel ? occupancy(S, *F.Function) : std::nullopt;
      });
  Add(DiffMetric::Time, "time", "time_ms", "ms", true,
      [](const DiffSide &, const FunctionSummary &S) { return S.TimeMs; });
  return Out;
}

/// Memory accesses (a line's loads, stores, atomics) of one function in
/// both profiles: changed ones, and those only in one.
void compareLines(const MemoryFunction *A, const MemoryFunction *B,
                  const DiffThresholds &T, DiffFunction &D) {
  using Key = std::tuple<std::string, unsigned, std::string>;
  std::map<Key, const MemoryLine *> Before;
  if (A)
    for (const MemoryLine &L : A->Lines)
      Before[{L.File, L.Line, L.Access}] = &L;
  if (B)
    for (const MemoryLine &L : B->Lines) {
      auto It = Before.find({L.File, L.Line, L.Access});
      if (It == Before.end()) {
        D.LinesOnlyAfter.push_back(&L);
        continue;
      }
      DiffLine Line{L.File, L.Line, L.Access,
                    memoryFigures(&It->second->Counts, &L.Counts)};
      Before.erase(It);
      bool Changed = false;
      for (DiffFigure &F : Line.Figures) {
        settle(F, T);
        Changed |= F.changed();
      }
      if (Changed)
        D.Lines.push_back(std::move(Line));
    }
  for (const auto &[Where, L] : Before)
    D.LinesOnlyBefore.push_back(L);
}

DiffFunction compareFunction(const DiffSide &SA, const FunctionSummary *A,
                             const DiffSide &SB, const FunctionSummary *B,
                             const DiffThresholds &T) {
  DiffFunction D;
  D.Before = A;
  D.After = B;
  D.Figures = functionFigures(SA, A, SB, B);
  for (DiffFigure &F : D.Figures) {
    settle(F, T);
    D.Regression |= F.Regression;
  }
  if (!A || !B)
    return D;
  compareBranches(*A->Function, *B->Function, T, D);
  compareLines(memoryOf(SA, A->Function->Name), memoryOf(SB, B->Function->Name),
               T, D);
  return D;
}

} // namespace

DiffResult warpscope::compareProfiles(const DiffSide &A, const DiffSide &B,
                                      const DiffThresholds &T) {
  std::map<std::string, const FunctionSummary *> Before;
  for (const FunctionSummary &S : A.Summaries)
    Before[S.Function->Name] = &S;
  DiffResult R;
  for (const FunctionSummary &After : B.Summaries) {
    auto It = Before.find(After.Function->Name);
    const FunctionSummary *Prev = It == Before.end() ? nullptr : It->second;
    R.Functions.push_back(compareFunction(A, Prev, B, &After, T));
    if (Prev)
      Before.erase(It);
  }
  for (const FunctionSummary &S : A.Summaries)
    if (Before.count(S.Function->Name))
      R.Functions.push_back(compareFunction(A, &S, B, nullptr, T));
  for (const DiffFunction &F : R.Functions) {
    for (const DiffFigure &G : F.Figures)
      R.Regressions += G.Regression;
    for (const DiffBranch &Br : F.Branches)
      R.Regressions += Br.Regression;
    for (const DiffLine &L : F.Lines)
      for (const DiffFigure &G : L.Figures)
        R.Regressions += G.Regression;
  }
  return R;
}
