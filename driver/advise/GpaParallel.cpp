//===- GpaParallel.cpp - GPA's parallelism optimizers ---------------------===//
//
// Block increase and thread increase, estimated with Eq. 11:
// S = 1/C_W x C_I x f. C_W is the change of each scheduler's share of the
// warps' work, C_I the change of its issue rate 1 - (1 - R_I)^W with the
// warps resident on it (Eq. 9), R_I the issued share of the samples; f = 1
// (we assume no new pipeline or memory throttling).
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "Estimators.h"
#include "GpaCommon.h"
#include "warpscope/Support/Occupancy.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace warpscope::advise {

/// H100 SXM5's SM count, used when the profile does not say (the emulator
/// models an H100).
constexpr uint32_t DefaultSmCount = 132;
/// Warp schedulers per SM (sm_70 to sm_90).
constexpr double Schedulers = 4;

namespace {

uint64_t product(const uint32_t D[3]) { return uint64_t(D[0]) * D[1] * D[2]; }

/// The launch configuration with the most launches.
const LaunchGroup *mainLaunch(const FunctionProfile &P) {
  const LaunchGroup *Best = nullptr;
  for (const LaunchGroup &G : P.Launches)
    if (!Best || G.Count > Best->Count)
      Best = &G;
  return Best;
}

void blockIncrease(const Inputs &In, const KernelView &V, Match &M) {
  const LaunchGroup *G = V.Profile ? mainLaunch(*V.Profile) : nullptr;
  if (!G || V.T <= 0)
    return;
  uint32_t Sms =
      In.Profile && In.Profile->SmCount ? In.Profile->SmCount : DefaultSmCount;
  uint64_t Blocks = product(G->Grid);
  double WarpsPerBlock = double((product(G->Block) + 31) / 32);
  if (Blocks == 0 || Blocks >= Sms)
    return;
  double RI = V.A / V.T;
  // Now: one block per busy SM. Then: the same warps over every SM.
  double W = WarpsPerBlock / Schedulers;
  double WNew = WarpsPerBlock * double(Blocks) / (double(Sms) * Schedulers);
  M.Speedup = parallelism(W, WNew, W, WNew, RI);
  M.Evidence = formatv("{0} blocks for {1} SMs; warps per scheduler {2} "
                       "-> {3}, R_I = {4}, C_W = {5}, C_I = {6}, f = 1",
                       Blocks, Sms, formatNumber(W), formatNumber(WNew),
                       formatNumber(RI, 3), formatNumber(WNew / W, 3),
                       formatNumber(issueRate(RI, WNew) / issueRate(RI, W), 3))
                   .str();
  M.Hints = {formatv("Launch at least {0} blocks (one per SM): split each "
                     "block's work over more, smaller blocks.",
                     Sms)
                 .str()};
  M.Hotspots.push_back({V.Kernel, V.Profile->Loc.File, V.Profile->Loc.Line, "",
                        "", 0, 0, V.T, M.Evidence});
}

void threadIncrease(const Inputs &In, const KernelView &V, Match &M) {
  const LaunchGroup *G = V.Profile ? mainLaunch(*V.Profile) : nullptr;
  if (!G || V.T <= 0 || !V.Profile->Resources || !V.Profile->Resources->Known)
    return;
  SmLimits L = In.Profile && In.Profile->Limits ? *In.Profile->Limits
                                                : SmLimits(H100Limits);
  const MachineResources &R = *V.Profile->Resources;
  KernelFootprint K{uint32_t(product(G->Block)), R.Registers,
                    R.StaticSharedBytes, G->SharedBytes};
  OccupancyResult Now = theoreticalOccupancy(L, K);
  if (!(Now.Limiters & LimitBlocks) || Now.WarpsPerSM >= Now.MaxWarpsPerSM)
    return;
  // The block size (a multiple of the current one) that fits most warps.
  OccupancyResult Best = Now;
  uint32_t BestThreads = K.ThreadsPerBlock;
  for (uint32_t T = K.ThreadsPerBlock * 2; T <= L.MaxThreadsPerBlock; T *= 2) {
    KernelFootprint K2 = K;
    K2.ThreadsPerBlock = T;
    OccupancyResult O = theoreticalOccupancy(L, K2);
    if (O.WarpsPerSM > Best.WarpsPerSM) {
      Best = O;
      BestThreads = T;
    }
  }
  if (Best.WarpsPerSM <= Now.WarpsPerSM)
    return;
  uint32_t Sms =
      In.Profile && In.Profile->SmCount ? In.Profile->SmCount : DefaultSmCount;
  // Resident warps are also bounded by the launch's own warps per SM.
  double Total =
      double(product(G->Grid)) * double((K.ThreadsPerBlock + 31) / 32);
  double Have = std::min(double(Now.WarpsPerSM), Total / Sms);
  double Could = std::min(double(Best.WarpsPerSM), Total / Sms);
  if (Could <= Have)
    return;
  double RI = V.A / V.T;
  double W = Have / Schedulers, WNew = Could / Schedulers;
  // The work per scheduler stays; more of it is resident at once.
  M.Speedup = parallelism(1, 1, W, WNew, RI);
  M.Evidence =
      formatv("{0} threads per block: {1} blocks/SM reach the {2}-block "
              "limit, {3} of {4} warps/SM; with {5} threads {6} warps/SM; "
              "resident warps per scheduler {7} -> {8}, R_I = {9}, C_W = 1, "
              "C_I = {10}, f = 1",
              K.ThreadsPerBlock, Now.BlocksPerSM, L.MaxBlocksPerSM,
              Now.WarpsPerSM, Now.MaxWarpsPerSM, BestThreads, Best.WarpsPerSM,
              formatNumber(W), formatNumber(WNew), formatNumber(RI, 3),
              formatNumber(issueRate(RI, WNew) / issueRate(RI, W), 3))
          .str();
  M.Hints = {formatv("Use {0} threads per block (from {1}): occupancy is "
                     "limited by the number of blocks per SM.",
                     BestThreads, K.ThreadsPerBlock)
                 .str()};
  M.Hotspots.push_back({V.Kernel, V.Profile->Loc.File, V.Profile->Loc.Line, "",
                        "", 0, 0, V.T, M.Evidence});
}

} // namespace

void parallelismSpecs(std::vector<GpaSpec> &Out) {
  Out.push_back(
      {"block_increase",
       "Block increase",
       "GPA: matches kernels launched with fewer blocks than the GPU has "
       "SMs. Suggests more, smaller blocks. Estimate: parallelism (Eq. 11).",
       EstimatorKind::Parallelism,
       {InputKind::Samples, InputKind::Instructions, InputKind::LaunchConfig},
       blockIncrease});
  Out.push_back(
      {"thread_increase",
       "Thread increase",
       "GPA: matches kernels whose occupancy is limited by the number of "
       "threads per block (the blocks-per-SM limit binds). Suggests bigger "
       "blocks. Estimate: parallelism (Eq. 11).",
       EstimatorKind::Parallelism,
       {InputKind::Samples, InputKind::Instructions, InputKind::LaunchConfig,
        InputKind::Occupancy},
       threadIncrease});
}

} // namespace warpscope::advise
