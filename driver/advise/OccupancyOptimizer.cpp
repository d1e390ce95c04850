//===- OccupancyOptimizer.cpp - What limits a kernel's occupancy ----------===//
//
// From the kernel's machine resources and each launch configuration
// (ResourceReport.h, Occupancy.h): the limit that keeps blocks off an SM
// (registers, shared memory or the block size) and the value that would
// let more blocks on. It fires only when the grid has more blocks than fit
// at once, so that more resident blocks could run. Estimator:
// docs/advisor-estimators.md.
//
// Where the ground truth records the shared memory the kernel's blocks
// touched (emu-*.json's shared_touched, the contract's SharedTouched) and
// that is less than they reserve, it first proposes reserving only that:
// the change costs no code, and besides the occupancy it can shrink the
// SM's shared-memory carveout and so grow its L1 (Occupancy.h's
// sharedCarveout, the timing model's rule). It says nothing when the
// kernel uses what it reserves, or when reserving less would change
// neither the blocks that fit nor the carveout. No formula estimates the
// L1's part: `advise --what-if` re-simulates the change (Resimulate.h).
//
//===----------------------------------------------------------------------===//

#include "../GroundTruth.h"
#include "../ProfileModel.h"
#include "../ResourceReport.h"
#include "ExactCommon.h"
#include "MachineModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace warpscope::advise {
namespace {

/// A change of one resource and the occupancy it gives.
struct Lift {
  std::string Hint, Evidence;
  KernelFootprint Changed;
  OccupancyResult Result;
};

uint32_t blocksOf(const SmLimits &L, const KernelFootprint &K) {
  return theoreticalOccupancy(L, K).BlocksPerSM;
}

/// The most registers per thread that still fit Target blocks (0: none).
uint32_t registersFor(const SmLimits &L, KernelFootprint K, uint32_t Target) {
  for (uint32_t R = K.RegistersPerThread; R >= 16; --R) {
    K.RegistersPerThread = R;
    if (blocksOf(L, K) >= Target)
      return R;
  }
  return 0;
}

/// The most shared memory per block (static + dynamic) that fits Target.
uint64_t sharedFor(const SmLimits &L, KernelFootprint K, uint32_t Target) {
  const uint64_t Per = L.SharedPerSM / Target;
  if (Per <= L.ReservedSharedPerBlock)
    return 0;
  uint64_t Bytes = (Per - L.ReservedSharedPerBlock) / L.SharedAllocationUnit *
                   L.SharedAllocationUnit;
  K.StaticSharedBytes = Bytes;
  K.DynamicSharedBytes = 0;
  return blocksOf(L, K) >= Target ? Bytes : 0;
}

/// The most shared memory per block (static + dynamic) with which Target
/// blocks fit in Carveout bytes of shared memory (0: none).
uint64_t sharedWithin(const SmLimits &L, uint64_t Carveout, uint32_t Target) {
  const uint64_t Per = Carveout / Target;
  if (Per <= L.ReservedSharedPerBlock)
    return 0;
  return (Per - L.ReservedSharedPerBlock) / L.SharedAllocationUnit *
         L.SharedAllocationUnit;
}

/// The shared-memory change for Target blocks/SM. The most a block may
/// hold (Most) fills the SM's largest carveout, and the L1 is what the
/// carveout leaves of the unified L1/shared memory (Occupancy.h): Most can
/// cost the kernel most of its L1 cache. The size advised is therefore the
/// most that fits Target blocks in the carveout the launch has now, so
/// that the change is the occupancy alone and the L1 stays as large; the
/// hint names both.
void liftShared(const SmLimits &L, const KernelFootprint &K, uint32_t Blocks,
                uint32_t Target, uint64_t Most, Lift &Out) {
  const uint64_t Now = K.StaticSharedBytes + K.DynamicSharedBytes;
  const uint64_t Carveout = sharedCarveout(L, Blocks * sharedPerBlock(L, K));
  const uint64_t Keep = sharedWithin(L, Carveout, Target);
  const uint64_t Bytes = Keep && Keep < Most ? Keep : Most;
  Out.Changed = K;
  Out.Changed.StaticSharedBytes = Bytes;
  Out.Changed.DynamicSharedBytes = 0;
  Out.Hint = formatv("Use at most {0} B of shared memory per block (now "
                     "{1} B) for {2} blocks/SM: a smaller tile, narrower "
                     "types, or reuse of one buffer for two phases",
                     Bytes, Now, Target);
  if (Bytes == Most)
    return;
  KernelFootprint AtMost = Out.Changed;
  AtMost.StaticSharedBytes = Most;
  const uint64_t MostCarveout =
      sharedCarveout(L, Target * sharedPerBlock(L, AtMost));
  Out.Hint += formatv(". That keeps the SM's shared-memory carveout at {0} KB "
                      "and so its L1 cache as large as now; up to {1} B also "
                      "fits {2} blocks/SM, but a {3} KB carveout takes the "
                      "difference from the L1",
                      Carveout / 1024, Most, Target, MostCarveout / 1024)
                  .str();
}

/// The change that removes the binding limit up to Needed blocks per SM
/// (or gets as close as it can), or nullopt when the limit is not one a
/// change of the kernel lifts.
std::optional<Lift> liftFor(const SmLimits &L, const KernelFootprint &K,
                            const OccupancyResult &R, uint64_t Needed) {
  auto Capped = [&](uint32_t Blocks) {
    return uint32_t(std::min<uint64_t>(Blocks, Needed));
  };
  // Blocks the other limits would allow, with the binding one removed.
  KernelFootprint Free = K;
  Lift Out;
  if (R.Limiters & LimitRegisters) {
    Free.RegistersPerThread = 0;
    uint32_t Target = Capped(blocksOf(L, Free)), Regs = 0;
    // The most blocks some register count reaches.
    while (Target > R.BlocksPerSM && !(Regs = registersFor(L, K, Target)))
      --Target;
    if (!Regs || Regs >= K.RegistersPerThread)
      return std::nullopt;
    Out.Changed = K;
    Out.Changed.RegistersPerThread = Regs;
    Out.Hint = formatv("Limit the kernel to {0} registers/thread (now {1}): "
                       "__launch_bounds__({2}, {3}) or -maxrregcount={0}; "
                       "check that ptxas reports no new spills",
                       Regs, K.RegistersPerThread, K.ThreadsPerBlock, Target);
  } else if (R.Limiters & LimitShared) {
    Free.StaticSharedBytes = Free.DynamicSharedBytes = 0;
    uint32_t Target = Capped(blocksOf(L, Free));
    uint64_t Bytes = 0;
    while (Target > R.BlocksPerSM && !(Bytes = sharedFor(L, K, Target)))
      --Target;
    const uint64_t Now = K.StaticSharedBytes + K.DynamicSharedBytes;
    if (!Bytes || Bytes >= Now)
      return std::nullopt;
    liftShared(L, K, R.BlocksPerSM, Target, Bytes, Out);
  } else if (R.Limiters & LimitBlocks) {
    // Small blocks: the 32-block limit binds before the warp limit.
    const uint32_t Threads =
        std::min(L.MaxThreadsPerBlock,
                 (L.MaxThreadsPerSM / L.MaxBlocksPerSM + L.WarpSize - 1) /
                     L.WarpSize * L.WarpSize);
    if (Threads <= K.ThreadsPerBlock)
      return std::nullopt;
    Out.Changed = K;
    Out.Changed.ThreadsPerBlock = Threads;
    Out.Hint = formatv("Launch blocks of at least {0} threads (now {1}): at "
                       "most {2} blocks fit on an SM, so small blocks leave "
                       "warp slots empty",
                       Threads, K.ThreadsPerBlock, L.MaxBlocksPerSM);
  } else {
    return std::nullopt; // the warp limit: occupancy is already full
  }
  Out.Result = theoreticalOccupancy(L, Out.Changed);
  return Out;
}

/// Reserving only the shared memory the kernel touched.
struct Reservation {
  KernelFootprint Changed;
  OccupancyResult Result;
  uint64_t CarveoutNow = 0, CarveoutNew = 0;
  bool MoreBlocks = false; ///< more of the needed blocks fit on an SM
};

/// The reservation of the touched bytes T when it lets more of the Needed
/// blocks on an SM or changes the carveout (that of the blocks the
/// occupancy allows, as the timing model configures it); nullopt when the
/// kernel uses what it reserves (to the allocation unit) or nothing would
/// change.
std::optional<Reservation> reservationFor(const SmLimits &L,
                                          const KernelFootprint &K,
                                          const OccupancyResult &R,
                                          const SharedTouched &T,
                                          uint64_t Needed) {
  Reservation Out;
  Out.Changed = K;
  // The emulator's static size may differ from ptxas's: never more than
  // the kernel reserves.
  Out.Changed.StaticSharedBytes = std::min(T.Static, K.StaticSharedBytes);
  Out.Changed.DynamicSharedBytes = std::min(T.Dynamic, K.DynamicSharedBytes);
  if (sharedPerBlock(L, Out.Changed) >= sharedPerBlock(L, K))
    return std::nullopt;
  Out.Result = theoreticalOccupancy(L, Out.Changed);
  Out.CarveoutNow = sharedCarveout(L, R.BlocksPerSM * sharedPerBlock(L, K));
  Out.CarveoutNew = sharedCarveout(L, Out.Result.BlocksPerSM *
                                          sharedPerBlock(L, Out.Changed));
  Out.MoreBlocks = std::min<uint64_t>(Out.Result.BlocksPerSM, Needed) >
                   std::min<uint64_t>(R.BlocksPerSM, Needed);
  if (!Out.MoreBlocks && Out.CarveoutNew == Out.CarveoutNow)
    return std::nullopt;
  return Out;
}

/// The shared memory the launches of Kernel in configuration G touched, the
/// most over them; nullopt when no such launch recorded it.
std::optional<SharedTouched>
touchedBy(const Inputs &In, const std::string &Kernel, const LaunchGroup &G) {
  if (!In.GroundTruth)
    return std::nullopt;
  std::optional<SharedTouched> Out;
  for (const TruthLaunch &L : In.GroundTruth->Launches) {
    if (L.Kernel != Kernel || !L.Touched || L.DynamicShared != G.SharedBytes ||
        !std::equal(L.Grid, L.Grid + 3, G.Grid) ||
        !std::equal(L.Block, L.Block + 3, G.Block))
      continue;
    if (!Out)
      Out = SharedTouched();
    Out->Static = std::max(Out->Static, L.Touched->Static);
    Out->Dynamic = std::max(Out->Dynamic, L.Touched->Dynamic);
  }
  return Out;
}

/// "a 196 KB carveout (60 KB of L1)", without the L1 when Unified is 0.
std::string carveoutWords(uint64_t Carveout, double Unified) {
  std::string S = formatv("a {0} KB carveout", Carveout / 1024).str();
  if (Unified > double(Carveout))
    S += formatv(" ({0} KB of L1)",
                 formatNumber((Unified - double(Carveout)) / 1024, 0))
             .str();
  return S;
}

/// What to change for Res, in the terms the program reserves in.
std::string reservationHint(const KernelFootprint &K, const Reservation &Res) {
  const KernelFootprint &U = Res.Changed;
  std::vector<std::string> Do;
  if (U.DynamicSharedBytes < K.DynamicSharedBytes)
    Do.push_back(formatv("launch it with {0} B of dynamic shared memory (the "
                         "third <<<>>> parameter; now {1} B)",
                         U.DynamicSharedBytes, K.DynamicSharedBytes));
  if (U.StaticSharedBytes < K.StaticSharedBytes)
    Do.push_back(formatv("declare its __shared__ arrays in {0} B (now {1} B)",
                         U.StaticSharedBytes, K.StaticSharedBytes));
  return formatv("Reserve only the shared memory the kernel touches: {0}. "
                 "This run touched no byte above that; make sure no other "
                 "input needs more",
                 join(Do, ", and "))
      .str();
}

/// One kernel's most frequent launch configuration, as the occupancy
/// rules and the estimator see it.
struct KernelLaunch {
  SmLimits Limits;
  const LaunchGroup *G = nullptr;
  uint64_t GridBlocks = 0, Needed = 0; ///< Needed: blocks per SM to hold all
  KernelFootprint K;
  OccupancyResult R;
  ParallelInputs P;
};

/// GPA's parallelism estimator over the rounds of the busiest SM: the same
/// work with New's blocks resident to hide latency, as far as the issue
/// rate (R_I), warp start/drain and DRAM bandwidth let them.
ParallelEstimate occupancyEstimate(const KernelLaunch &C,
                                   const KernelFootprint &New,
                                   const OccupancyResult &NewR) {
  const double NewBlocks =
      std::ceil(double(C.GridBlocks) * C.K.ThreadsPerBlock /
                std::max(1u, New.ThreadsPerBlock));
  LaunchShape Now{double(C.GridBlocks), std::ceil(C.K.ThreadsPerBlock / 32.0),
                  double(C.R.BlocksPerSM)};
  LaunchShape After{NewBlocks, std::ceil(New.ThreadsPerBlock / 32.0),
                    double(std::max(1u, NewR.BlocksPerSM))};
  return estimateParallelism(C.P, Now, After);
}

/// The advice's hotspot: the kernel's line, with Evidence.
Hotspot kernelHotspot(const Inputs &In, const FunctionProfile &F,
                      std::string Evidence) {
  Hotspot H;
  H.Function = F.Name;
  H.File = F.Loc.File;
  H.Line = F.Loc.Line;
  H.Source = sourceLine(In, F.Loc.File, F.Loc.Line);
  H.Evidence = std::move(Evidence);
  return H;
}

/// "block 256x1x1, 32 registers/thread, 61440 B shared/block: 3 blocks/SM
/// (24/64 warps), limited by shared memory".
std::string launchWords(const KernelLaunch &C) {
  return formatv("block {0}x{1}x{2}, {3} registers/thread, {4} B "
                 "shared/block: {5} blocks/SM ({6}/{7} warps), limited by {8}",
                 C.G->Block[0], C.G->Block[1], C.G->Block[2],
                 C.K.RegistersPerThread,
                 C.K.StaticSharedBytes + C.K.DynamicSharedBytes,
                 C.R.BlocksPerSM, C.R.WarpsPerSM, C.R.MaxWarpsPerSM,
                 limiterNames(C.R.Limiters))
      .str();
}

/// The advice to reserve only the shared memory the kernel touched.
Advice reservationAdvice(const Inputs &In, const FunctionProfile &F,
                         const KernelLaunch &C, const Reservation &Res) {
  const KernelFootprint &U = Res.Changed;
  const uint64_t Now = C.K.StaticSharedBytes + C.K.DynamicSharedBytes;
  const uint64_t Touched = U.StaticSharedBytes + U.DynamicSharedBytes;
  const std::optional<MachineConfig> M = machineConfig(C.P.Config);
  const double Unified = M ? M->UnifiedL1Bytes : 0;
  Advice A;
  A.Optimizer = "occupancy_limiter";
  A.Title = "Reserve only the shared memory the kernel uses";
  A.Kernel = F.Name;
  const bool MoreBlocks = Res.MoreBlocks;
  const ParallelEstimate E =
      MoreBlocks ? occupancyEstimate(C, U, Res.Result) : ParallelEstimate();
  A.EstimatedSpeedup = std::max(1.0, E.Speedup);
  A.Estimator = MoreBlocks
                    ? "parallelism (GPA Eq. 11 over the rounds of the busiest "
                      "SM) for the blocks/SM alone: 1/C_W x C_I x f; " +
                          describe(C.P, E)
                    : std::string("the blocks/SM do not change");
  if (Res.CarveoutNew != Res.CarveoutNow)
    A.Estimator += formatv("; the carveout {0} -> {1} KB changes the L1, "
                           "which no formula estimates (`advise --what-if` "
                           "re-simulates the change)",
                           Res.CarveoutNow / 1024, Res.CarveoutNew / 1024)
                       .str();
  A.Estimator += "; exact resources, launch configuration and shared memory "
                 "touched (emulator)";
  A.Hints.push_back(reservationHint(C.K, Res));
  A.Change = {F.Name, 0, 0, 0, int64_t(Touched)};
  A.Hotspots.push_back(kernelHotspot(
      In, F,
      formatv("{0}; its blocks touched {1} B of the {2} B they reserve "
              "(static {3} of {4} B, dynamic {5} of {6} B); reserving {1} B: "
              "{7} blocks/SM and {8}, against {9} now; the grid's {10} "
              "blocks need {11}/SM",
              launchWords(C), Touched, Now, U.StaticSharedBytes,
              C.K.StaticSharedBytes, U.DynamicSharedBytes,
              C.K.DynamicSharedBytes, Res.Result.BlocksPerSM,
              carveoutWords(Res.CarveoutNew, Unified),
              carveoutWords(Res.CarveoutNow, Unified), C.GridBlocks, C.Needed)
          .str()));
  return A;
}

class OccupancyOptimizer : public Optimizer {
public:
  StringRef id() const override { return "occupancy_limiter"; }
  StringRef name() const override { return "Occupancy limiter"; }
  StringRef help() const override {
    return "Fewer warps fit on an SM than it can hold because of the "
           "kernel's registers per thread, its shared memory per block or a "
           "small block size, and the grid has more blocks than fit at "
           "once. The advice names the limit and the value that would let "
           "more blocks on, from the same occupancy rules as the CUDA "
           "occupancy calculator. Where the emulator recorded that the "
           "kernel's blocks touch less shared memory than they reserve, it "
           "proposes reserving only that when more blocks would fit or the "
           "SM's shared-memory carveout, and so its L1 cache, would change.";
  }
  std::vector<InputKind> needs() const override {
    return {InputKind::Occupancy, InputKind::LaunchConfig};
  }
  void run(const Inputs &In, std::vector<Advice> &Out) const override {
    if (!In.Profile)
      return;
    for (const FunctionProfile &F : In.Profile->Functions)
      if (F.Kernel)
        runKernel(In, F, Out);
  }

private:
  void runKernel(const Inputs &In, const FunctionProfile &F,
                 std::vector<Advice> &Out) const;
};

void OccupancyOptimizer::runKernel(const Inputs &In, const FunctionProfile &F,
                                   std::vector<Advice> &Out) const {
  KernelLaunch C;
  C.Limits = In.Profile->Limits ? *In.Profile->Limits : H100Limits;
  // The configuration with the most launches decides.
  std::vector<LaunchOccupancy> Occ = launchOccupancy(*In.Profile, F);
  const LaunchOccupancy *Best = nullptr;
  for (const LaunchOccupancy &O : Occ)
    if (!Best || O.Launch->Count > Best->Launch->Count)
      Best = &O;
  if (!Best || !Best->Result.BlocksPerSM)
    return;
  C.G = Best->Launch;
  C.R = Best->Result;
  const LaunchGroup &G = *C.G;
  C.GridBlocks = uint64_t(G.Grid[0]) * G.Grid[1] * G.Grid[2];
  C.P = parallelInputs(In, F.Name);
  const uint64_t Sms = uint64_t(C.P.Sms);
  C.Needed = (C.GridBlocks + Sms - 1) / Sms;
  C.K.ThreadsPerBlock = G.Block[0] * G.Block[1] * G.Block[2];
  C.K.RegistersPerThread = F.Resources->Registers;
  C.K.StaticSharedBytes = F.Resources->StaticSharedBytes;
  C.K.DynamicSharedBytes = G.SharedBytes;
  std::optional<Reservation> Res;
  if (std::optional<SharedTouched> T = touchedBy(In, F.Name, G))
    Res = reservationFor(C.Limits, C.K, C.R, *T, C.Needed);
  if (Res)
    Out.push_back(reservationAdvice(In, F, C, *Res));
  if (C.Needed <= C.R.BlocksPerSM)
    return; // every block is resident at once already
  std::optional<Lift> L = liftFor(C.Limits, C.K, C.R, C.Needed);
  // Reserving what the kernel touches lets as many on without a change
  // of its code: that advice says it.
  if (!L || (Res && L->Result.BlocksPerSM <=
                        std::min<uint64_t>(Res->Result.BlocksPerSM, C.Needed)))
    return;
  const ParallelEstimate E = occupancyEstimate(C, L->Changed, L->Result);
  Advice A;
  A.Optimizer = "occupancy_limiter";
  A.Title = "Lift the occupancy limit";
  A.Kernel = F.Name;
  A.EstimatedSpeedup = std::max(1.0, E.Speedup);
  A.Estimator = "parallelism (GPA Eq. 11 over the rounds of the busiest SM): "
                "1/C_W x C_I x f; " +
                describe(C.P, E) + "; exact resources and launch configuration";
  if (A.EstimatedSpeedup < MinExactSpeedup)
    return;
  A.Hints.push_back(L->Hint);
  // Registers and shared memory only place blocks (the functional run is
  // the same): the timing model can run the change (advise --what-if).
  const KernelFootprint &K = C.K;
  if (L->Changed.RegistersPerThread != K.RegistersPerThread)
    A.Change = {F.Name, 0, 0, L->Changed.RegistersPerThread, -1};
  else if (L->Changed.StaticSharedBytes != K.StaticSharedBytes ||
           L->Changed.DynamicSharedBytes != K.DynamicSharedBytes)
    A.Change = {
        F.Name, 0, 0, 0,
        int64_t(L->Changed.StaticSharedBytes + L->Changed.DynamicSharedBytes)};
  A.Hotspots.push_back(kernelHotspot(
      In, F,
      formatv("{0}; after: {1} blocks/SM ({2} warps); the grid's {3} blocks "
              "need {4}/SM",
              launchWords(C), L->Result.BlocksPerSM, L->Result.WarpsPerSM,
              C.GridBlocks, C.Needed)
          .str()));
  Out.push_back(std::move(A));
}

} // namespace

std::unique_ptr<Optimizer> makeOccupancyOptimizer() {
  return std::make_unique<OccupancyOptimizer>();
}

} // namespace warpscope::advise
