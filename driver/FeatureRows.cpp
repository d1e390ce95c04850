//===- FeatureRows.cpp - Per-kernel, per-configuration rows of a profile --===//

#include "FeatureRows.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace warpscope;

uint64_t warpscope::staticInstructions(const FunctionProfile &F) {
  uint64_t N = 0;
  for (const BlockCounts &B : F.Blocks)
    for (const auto &[Op, K] : B.Ptx)
      N += K;
  for (const PtxEdge &E : F.PtxEdges)
    for (const auto &[Op, K] : E.Ptx)
      N += K;
  for (const PtxSwitchPart &P : F.PtxSwitchParts)
    for (const auto &[Op, K] : P.Ptx)
      N += K;
  for (const auto &[Op, K] : F.PtxUnattributed)
    N += K;
  return N;
}

uint64_t
FeatureRow::classThreads(std::initializer_list<const char *> Classes) const {
  uint64_t N = 0;
  for (const char *C : Classes) {
    auto It = S.Mix.ByClass.find(C);
    if (It != S.Mix.ByClass.end())
      N += It->second.Thread;
  }
  return N;
}

uint64_t FeatureRow::bytes(const char *Space) const {
  auto It = S.Mix.BytesBySpace.find(Space);
  return It == S.Mix.BytesBySpace.end() ? uint64_t(0) : It->second;
}

namespace {

void addMix(InstructionMix &Into, const InstructionMix &M) {
  for (const auto &[K, V] : M.ByOpcode)
    Into.ByOpcode[K] += V;
  for (const auto &[K, V] : M.ByClass)
    Into.ByClass[K] += V;
  Into.Total += M.Total;
  Into.FlopsHalf += M.FlopsHalf;
  Into.FlopsSingle += M.FlopsSingle;
  Into.FlopsDouble += M.FlopsDouble;
  for (const auto &[K, V] : M.BytesBySpace)
    Into.BytesBySpace[K] += V;
  for (const auto &[K, V] : M.Unknown)
    Into.Unknown[K] += V;
}

/// A kernel's row with the work of the device functions it called: their
/// counts are the kernel's exactly when it is the only kernel of their
/// module that ran (without -fgpu-rdc only a module's own kernels can call
/// its functions). Ratios are recomputed from the sums.
FeatureRow withCallees(const FunctionSummary &K,
                       const std::vector<const FunctionSummary *> &Callees) {
  FeatureRow R;
  R.S = K;
  R.Static = staticInstructions(*K.Function);
  for (const FunctionSummary *C : Callees) {
    addMix(R.S.Mix, C->Mix);
    R.Static += staticInstructions(*C->Function);
    R.S.WarpExecutions += C->WarpExecutions;
    R.S.ThreadExecutions += C->ThreadExecutions;
    R.S.Visits += C->Visits;
    R.S.Divergent += C->Divergent;
  }
  if (R.S.WarpExecutions)
    R.S.SimdEfficiency =
        double(R.S.ThreadExecutions) / (32.0 * R.S.WarpExecutions);
  if (R.S.Visits)
    R.S.BranchEfficiency = 1.0 - double(R.S.Divergent) / R.S.Visits;
  return R;
}

/// The rows of Selected (a summary and its number of configurations), with
/// callees' counts where they are exactly the kernel's; warns about callees
/// whose counts are in no row.
std::vector<FeatureRow> attributeCallees(
    const std::vector<FunctionSummary> &Sums,
    const std::vector<std::pair<const FunctionSummary *, size_t>> &Selected,
    StringRef Tool) {
  // Device functions that ran, and the kernels that ran, per module: a
  // module with one kernel that ran gets its functions' counts in that
  // kernel's row (one row: per-configuration rows cannot be split).
  std::map<std::string, std::vector<const FunctionSummary *>> Callees;
  std::map<std::string, std::vector<const FunctionProfile *>> KernelsRun;
  for (const FunctionSummary &S : Sums) {
    const FunctionProfile &F = *S.Function;
    if (!F.Kernel && S.Mix.Available && S.Mix.Total.Warp)
      Callees[F.ModuleId].push_back(&S);
    if (F.Kernel && !F.Launches.empty())
      KernelsRun[F.ModuleId].push_back(&F);
  }
  // Rows per kernel (per-configuration rows have profiles of their own).
  auto KeyOf = [](const FunctionProfile &F) {
    return F.ModuleId + "\n" + F.Name;
  };
  std::map<std::string, unsigned> RowsOf;
  for (const auto &[SP, Configurations] : Selected)
    ++RowsOf[KeyOf(*SP->Function)];
  std::vector<FeatureRow> RowData;
  for (const auto &[SP, Configurations] : Selected) {
    const FunctionProfile &F = *SP->Function;
    const auto &Mine = Callees[F.ModuleId];
    bool Exact = KernelsRun[F.ModuleId].size() == 1 && RowsOf[KeyOf(F)] == 1;
    RowData.push_back(withCallees(
        *SP, Exact ? Mine : std::vector<const FunctionSummary *>()));
    RowData.back().CalleesMissing = !Exact && !Mine.empty();
    RowData.back().Configurations = Configurations;
  }
  for (const auto &[Module, Fns] : Callees) {
    const auto &Ks = KernelsRun[Module];
    bool Split = Ks.size() == 1 && RowsOf[KeyOf(*Ks.front())] > 1;
    if (Ks.size() == 1 && !Split)
      continue;
    for (const FunctionSummary *C : Fns)
      WithColor::warning(errs(), Tool)
          << "device function " << C->Function->Demangled << " ran ("
          << C->Mix.Total.Thread << " thread instructions) but is in no "
          << "kernel's row (those say lower-bound): "
          << (Split ? "kernel " + Ks.front()->Demangled +
                          "'s rows are per launch configuration and the "
                          "profile does not record which launches called it"
                    : std::to_string(Ks.size()) +
                          " kernels of its module ran and the profile does "
                          "not record which called it")
          << "\n";
  }
  return RowData;
}

/// The timing model's figures of R's launches: those with R's
/// configuration when the kernel had one, else all of the kernel's.
void addModeled(const Truth &T, FeatureRow &R) {
  const FunctionProfile &F = R.function();
  const LaunchGroup &L = *R.Launch;
  for (const TruthLaunch &TL : T.Launches) {
    if (!TL.Modeled || TL.Kernel != F.Name)
      continue;
    bool Same = true;
    for (int K = 0; K < 3; ++K)
      Same &= TL.Grid[K] == L.Grid[K] && TL.Block[K] == L.Block[K];
    if (F.Launches.size() == 1 && !Same)
      continue;
    R.Modeled = true;
    R.ModeledCycles += TL.Modeled->Cycles;
    R.ModeledLaunchCycles += TL.Modeled->LaunchCycles;
    R.ModeledMicroseconds += TL.Modeled->Microseconds;
    ++R.ModeledLaunches;
    if (R.ModeledLaunches == 1) {
      R.ModeledConfig = TL.Modeled->Config;
      R.ModeledFingerprint = TL.Modeled->Fingerprint;
    }
    if (R.ModeledConfig != TL.Modeled->Config)
      R.ModeledConfig = "mixed";
    if (R.ModeledFingerprint != TL.Modeled->Fingerprint)
      R.ModeledFingerprint = "mixed";
  }
}

/// The kernel's own memory counts and warp instructions in the ground
/// truth, the probes' left out.
void addMemory(const Truth &T, FeatureRow &R) {
  auto It = T.Functions.find(R.function().Name);
  if (It == T.Functions.end())
    return;
  MemoryCounts C;
  for (const TruthInstruction &I : It->second.Insts) {
    if (I.Instrumentation)
      continue;
    R.TruthWarpInstructions += I.Warp;
    if (I.Memory)
      C += I.Mem;
  }
  R.Memory = C;
}

} // namespace

Expected<std::unique_ptr<FeatureRowSet>>
warpscope::featureRows(RunDirectory &Run, const ProfileSet &Set,
                       StringRef Tool) {
  auto Out = std::make_unique<FeatureRowSet>();
  Expected<std::vector<FunctionSummary>> Sums = summarize(Set, "");
  if (!Sums)
    return Sums.takeError();
  Out->Sums = std::move(*Sums);
  // A per-launch run (warpscope run --mode per-launch) counts each launch
  // configuration apart: one row each. Otherwise a kernel's counts cover all
  // its launches: one row naming its most launched configuration and how
  // many configurations there were.
  for (const ConfigurationProfile &C : Set.Configurations)
    Out->PerConfiguration.Functions.push_back(C.Function);
  Expected<std::vector<FunctionSummary>> ConfigSums =
      summarize(Out->PerConfiguration, "");
  if (!ConfigSums)
    return ConfigSums.takeError();
  Out->ConfigSums = std::move(*ConfigSums);
  std::vector<std::pair<const FunctionSummary *, size_t>> Selected;
  for (const FunctionSummary &S : Out->Sums) {
    const FunctionProfile &F = *S.Function;
    if (!F.Kernel || F.Launches.empty())
      continue;
    size_t Before = Selected.size();
    for (const FunctionSummary &C : Out->ConfigSums)
      if (C.Function->ModuleId == F.ModuleId && C.Function->Name == F.Name)
        Selected.push_back({&C, 1});
    if (Selected.size() == Before)
      Selected.push_back({&S, F.Launches.size()});
  }
  Out->Rows = attributeCallees(Out->Sums, Selected, Tool);
  // The timing model's figures and the exact memory counts, when the run
  // was emulated.
  Expected<const Truth &> T = Run.truth();
  if (!T)
    return T.takeError();
  for (FeatureRow &R : Out->Rows) {
    const FunctionProfile &F = R.function();
    const LaunchGroup *L = &F.Launches.front();
    for (const LaunchGroup &G : F.Launches)
      if (G.Count > L->Count)
        L = &G;
    R.Launch = L;
    R.Exact =
        R.S.Mix.Available && R.S.Mix.unknownStatic() == 0 && !R.CalleesMissing;
    addModeled(*T, R);
    addMemory(*T, R);
  }
  return Out;
}
