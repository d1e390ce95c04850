//===- OccupancyOptimizer.cpp - What limits a kernel's occupancy ----------===//
//
// From the kernel's machine resources and each launch configuration
// (ResourceReport.h, Occupancy.h): the limit that keeps blocks off an SM
// (registers, shared memory or the block size) and the value that would
// let more blocks on. It fires only when the grid has more blocks than fit
// at once, so that more resident blocks could run. Estimator:
// docs/advisor-estimators.md.
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "../ResourceReport.h"
#include "ExactCommon.h"
#include "MachineModel.h"
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
           "occupancy calculator.";
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
  const SmLimits Limits = In.Profile->Limits ? *In.Profile->Limits : H100Limits;
  // The configuration with the most launches decides.
  std::vector<LaunchOccupancy> Occ = launchOccupancy(*In.Profile, F);
  const LaunchOccupancy *Best = nullptr;
  for (const LaunchOccupancy &O : Occ)
    if (!Best || O.Launch->Count > Best->Launch->Count)
      Best = &O;
  if (!Best || !Best->Result.BlocksPerSM)
    return;
  const LaunchGroup &G = *Best->Launch;
  const uint64_t GridBlocks = uint64_t(G.Grid[0]) * G.Grid[1] * G.Grid[2];
  const ParallelInputs P = parallelInputs(In, F.Name);
  const uint64_t Sms = uint64_t(P.Sms);
  const uint64_t Needed = (GridBlocks + Sms - 1) / Sms;
  if (Needed <= Best->Result.BlocksPerSM)
    return; // every block is resident at once already
  KernelFootprint K;
  K.ThreadsPerBlock = G.Block[0] * G.Block[1] * G.Block[2];
  K.RegistersPerThread = F.Resources->Registers;
  K.StaticSharedBytes = F.Resources->StaticSharedBytes;
  K.DynamicSharedBytes = G.SharedBytes;
  std::optional<Lift> L = liftFor(Limits, K, Best->Result, Needed);
  if (!L)
    return;
  // GPA's parallelism estimator over the rounds of the busiest SM: the
  // same work with more warps resident to hide latency, as far as the
  // issue rate (R_I), warp start/drain and DRAM bandwidth let them.
  const double NewBlocks = std::ceil(double(GridBlocks) * K.ThreadsPerBlock /
                                     std::max(1u, L->Changed.ThreadsPerBlock));
  LaunchShape Now{double(GridBlocks), std::ceil(K.ThreadsPerBlock / 32.0),
                  double(Best->Result.BlocksPerSM)};
  LaunchShape New{NewBlocks, std::ceil(L->Changed.ThreadsPerBlock / 32.0),
                  double(std::max(1u, L->Result.BlocksPerSM))};
  const ParallelEstimate E = estimateParallelism(P, Now, New);
  Advice A;
  A.Optimizer = "occupancy_limiter";
  A.Title = "Lift the occupancy limit";
  A.Kernel = F.Name;
  A.EstimatedSpeedup = std::max(1.0, E.Speedup);
  A.Estimator = "parallelism (GPA Eq. 11 over the rounds of the busiest SM): "
                "1/C_W x C_I x f; " +
                describe(P, E) + "; exact resources and launch configuration";
  if (A.EstimatedSpeedup < MinExactSpeedup)
    return;
  A.Hints.push_back(L->Hint);
  // Registers and shared memory only place blocks (the functional run is
  // the same): the timing model can run the change (advise --what-if).
  if (L->Changed.RegistersPerThread != K.RegistersPerThread)
    A.Change = {F.Name, 0, 0, L->Changed.RegistersPerThread, -1};
  else if (L->Changed.StaticSharedBytes != K.StaticSharedBytes ||
           L->Changed.DynamicSharedBytes != K.DynamicSharedBytes)
    A.Change = {
        F.Name, 0, 0, 0,
        int64_t(L->Changed.StaticSharedBytes + L->Changed.DynamicSharedBytes)};
  Hotspot H;
  H.Function = F.Name;
  H.File = F.Loc.File;
  H.Line = F.Loc.Line;
  H.Source = sourceLine(In, F.Loc.File, F.Loc.Line);
  H.Evidence = formatv(
      "block {0}x{1}x{2}, {3} registers/thread, {4} B shared/block: {5} "
      "blocks/SM ({6}/{7} warps), limited by {8}; after: {9} blocks/SM "
      "({10} warps); the grid's {11} blocks need {12}/SM",
      G.Block[0], G.Block[1], G.Block[2], K.RegistersPerThread,
      K.StaticSharedBytes + K.DynamicSharedBytes, Best->Result.BlocksPerSM,
      Best->Result.WarpsPerSM, Best->Result.MaxWarpsPerSM,
      limiterNames(Best->Result.Limiters), L->Result.BlocksPerSM,
      L->Result.WarpsPerSM, GridBlocks, Needed);
  A.Hotspots.push_back(std::move(H));
  Out.push_back(std::move(A));
}

} // namespace

std::unique_ptr<Optimizer> makeOccupancyOptimizer() {
  return std::make_unique<OccupancyOptimizer>();
}

} // namespace warpscope::advise
