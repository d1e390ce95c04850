//===- MachineModel.cpp - What the parallelism estimators model -----------===//

#include "MachineModel.h"
#include "AdviseInputs.h"
#include "GpaCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>
#ifdef WARPSCOPE_ADVISE_TIMING_CONFIGS
#include "warpscope/Emu/TimingConfig.h"
#endif

using namespace llvm;

namespace warpscope::advise {

std::optional<MachineConfig> machineConfig(const std::string &Name) {
#ifdef WARPSCOPE_ADVISE_TIMING_CONFIGS
  const std::vector<std::string> Builtin = emu::timing::builtinConfigs();
  if (std::find(Builtin.begin(), Builtin.end(), Name) == Builtin.end())
    return std::nullopt;
  emu::timing::Config C;
  std::string Error;
  if (!emu::timing::loadConfig(Name, C, Error))
    return std::nullopt;
  return MachineConfig{C.Name,           C.Sms,
                       C.SubPartitions,  C.dramBytesPerCycle(),
                       C.L1Bytes,        C.L1BytesPerCycle,
                       C.L2BytesPerCycle};
#else
  (void)Name;
  return std::nullopt;
#endif
}

namespace {

/// Issued warp instructions per cycle of one scheduler holding W warps:
/// Eq. 9, or W itself (up to a constant) when R_I is unknown, the limit
/// of Eq. 9 for a latency-bound kernel (R_I -> 0).
double rate(double RI, double W) { return RI > 0 ? issueRate(RI, W) : W; }

} // namespace

double roundsTime(const ParallelInputs &P, const LaunchShape &S,
                  double *Rounds) {
  const double Blocks = std::max(1.0, S.Blocks);
  const double PerSm = std::ceil(Blocks / std::max(1.0, P.Sms));
  const double Resident = std::max(1.0, std::min(S.BlocksPerSM, PerSm));
  const double Full = std::floor(PerSm / Resident);
  const double Rest = PerSm - Full * Resident;
  auto Round = [&](double K) {
    double Warps = K * std::max(1.0, S.WarpsPerBlock);
    double Busy = std::min(P.Schedulers, Warps);
    return K / Blocks / (Busy * rate(P.RI, Warps / Busy));
  };
  if (Rounds)
    *Rounds = Full + (Rest > 0 ? 1 : 0);
  return Full * Round(Resident) + (Rest > 0 ? Round(Rest) : 0.0);
}

ParallelEstimate estimateParallelism(const ParallelInputs &P,
                                     const LaunchShape &Now,
                                     const LaunchShape &New, double WorkRatio) {
  ParallelEstimate E;
  double TNow = roundsTime(P, Now, &E.RoundsNow);
  double TNew = roundsTime(P, New, &E.RoundsNew) * WorkRatio;
  if (TNow <= 0 || TNew <= 0)
    return E;
  E.Issue = TNow / TNew;
  // Warp start and drain are latencies every warp of a round pays at the
  // same time: they take the same time per round, whatever its warps.
  const double F = std::clamp(P.FixedShare, 0.0, 1.0);
  const double Left = (1 - F) / E.Issue + F * E.RoundsNew / E.RoundsNow;
  E.Speedup = Left > 0 ? 1 / Left : 1;
  // f: no launch moves its bytes faster than DRAM does.
  if (P.Cycles > 0 && P.MinCycles > 0 && P.Cycles > P.MinCycles) {
    E.Bound = P.Cycles / P.MinCycles;
    E.Speedup = std::min(E.Speedup, E.Bound);
  }
  return E;
}

ParallelInputs parallelInputs(const Inputs &In, const std::string &Kernel) {
  ParallelInputs P;
  if (In.Profile && In.Profile->SmCount)
    P.Sms = In.Profile->SmCount;
  std::optional<MachineConfig> C;
  auto Modeled = In.ModeledTime.find(Kernel);
  if (Modeled != In.ModeledTime.end()) {
    P.Config = Modeled->second.Config;
    C = machineConfig(Modeled->second.Config);
    P.Cycles = Modeled->second.Cycles;
  }
  if (C) {
    P.Sms = C->Sms;
    P.Schedulers = C->Schedulers;
  }
  for (const KernelView &V : kernelViews(In)) {
    if (V.Kernel != Kernel || V.T <= 0)
      continue;
    // A warp is ready when it issued (selected) and when it could have
    // but another was picked (not_selected).
    double Ready = 0, Fixed = 0;
    for (const FunctionBlame *B : V.Parts)
      Ready += B->Active;
    for (const FunctionBlame *B : V.Parts)
      for (const InstrStalls &S : B->Stalls)
        for (const auto &[R, N] : S.ByReason) {
          if (R == "not_selected")
            Ready += N;
          else if (R == "no_instructions" || R == "drain")
            Fixed += N;
        }
    P.RI = std::min(1.0, Ready / V.T);
    P.FixedShare = Fixed / V.T;
  }
  if (C && C->DramBytesPerCycle > 0 && In.GroundTruth) {
    auto F = In.GroundTruth->Functions.find(Kernel);
    double Bytes = 0;
    if (F != In.GroundTruth->Functions.end())
      for (const TruthInstruction &I : F->second.Insts)
        if (!I.Instrumentation)
          Bytes += 32.0 * double(I.Mem.GlobalSectors + I.Mem.LocalSectors);
    P.MinCycles = Bytes / C->DramBytesPerCycle;
  }
  return P;
}

bool readsGridSize(const Function &F) {
  for (const Instr &I : F.Instrs)
    if (I.Text.find("%nctaid") != std::string::npos)
      return true;
  return false;
}

double outerTrips(const Inputs &In, const std::string &Kernel) {
  const Function *F = In.Code ? In.Code->find(Kernel) : nullptr;
  if (!F || !In.GroundTruth || !readsGridSize(*F))
    return 1;
  std::vector<double> Exec = exactExecutions(*F, *In.GroundTruth);
  if (Exec.empty() || Exec[0] <= 0)
    return 1;
  double Trips = 1;
  for (const Loop &L : F->Loops)
    if (L.Parent < 0 && L.Header < F->Blocks.size())
      Trips = std::max(Trips, Exec[F->Blocks[L.Header].First] / Exec[0]);
  return Trips;
}

std::string describe(const ParallelInputs &P, const ParallelEstimate &E) {
  std::string S =
      P.RI > 0 ? "R_I = " + formatNumber(P.RI, 3)
               : std::string("no samples: latency bound assumed (R_I -> 0)");
  S += formatv(", warp start/drain {0}% of the samples, rounds on the "
               "busiest SM {1} -> {2}, Eq. 11 over the rounds {3}x",
               formatNumber(100 * P.FixedShare, 1), formatNumber(E.RoundsNow),
               formatNumber(E.RoundsNew), formatNumber(E.Issue, 3))
           .str();
  if (E.Bound > 0)
    S += ", DRAM bound " + formatNumber(E.Bound, 2) + "x (" + P.Config +
         ", modeled)";
  return S;
}

} // namespace warpscope::advise
