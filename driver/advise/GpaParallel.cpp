//===- GpaParallel.cpp - GPA's parallelism optimizers ---------------------===//
//
// Block increase and thread increase, estimated with Eq. 11,
// S = 1/C_W x C_I x f, applied round by round to the busiest SM
// (MachineModel.h): C_W from the schedulers the launch keeps busy, C_I from
// the warps resident on each (Eq. 9 with R_I, the issued share of the
// samples), f from the warp start/drain samples and the kernel's DRAM
// bound. The new launch keeps the kernel's work: where the kernel's
// outermost loop runs several trips per warp (a grid-stride loop, from
// exact counts) more threads take the trips over; otherwise the grid keeps
// its threads. Formulas: docs/advisor-estimators.md "Parallelism".
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "GpaCommon.h"
#include "MachineModel.h"
#include "warpscope/Support/Occupancy.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>

using namespace llvm;

namespace warpscope::advise {

/// Thread increase grows blocks up to this many threads: the top of the
/// CUDA C++ Best Practices Guide's starting range ("Thread and Block
/// Heuristics": 128 to 256 threads per block), past which bigger blocks
/// add no resident warps that more blocks would not.
constexpr uint32_t GuideThreads = 256;

namespace {

uint64_t product(const uint32_t D[3]) { return uint64_t(D[0]) * D[1] * D[2]; }

/// Threads as a 2D block, as square as powers of two make it: 256 is
/// "16x16", 128 "16x8".
std::string squareBlock(uint32_t Threads) {
  uint32_t X = 1;
  while (X * X < Threads)
    X *= 2;
  return formatv("{0}x{1}", X, Threads / X).str();
}

/// The launch configuration with the most launches.
const LaunchGroup *mainLaunch(const FunctionProfile &P) {
  const LaunchGroup *Best = nullptr;
  for (const LaunchGroup &G : P.Launches)
    if (!Best || G.Count > Best->Count)
      Best = &G;
  return Best;
}

SmLimits limitsOf(const Inputs &In) {
  return In.Profile && In.Profile->Limits ? *In.Profile->Limits
                                          : SmLimits(H100Limits);
}

/// Blocks of Threads threads resident per SM: the occupancy rules with the
/// kernel's resources, or the warp and block limits alone without them.
double blocksPerSM(const Inputs &In, const FunctionProfile &F,
                   const LaunchGroup &G, uint32_t Threads) {
  SmLimits L = limitsOf(In);
  if (Threads == product(G.Block) && G.BlocksPerSM && *G.BlocksPerSM)
    return *G.BlocksPerSM;
  if (F.Resources && F.Resources->Known) {
    KernelFootprint K{Threads, F.Resources->Registers,
                      F.Resources->StaticSharedBytes, G.SharedBytes};
    return std::max(1u, theoreticalOccupancy(L, K).BlocksPerSM);
  }
  uint32_t Warps = (Threads + L.WarpSize - 1) / L.WarpSize;
  return std::max(1u, std::min(L.MaxBlocksPerSM, L.maxWarpsPerSM() / Warps));
}

/// Warps resident at once on the busiest SM.
double residentWarps(const ParallelInputs &P, const LaunchShape &S) {
  double PerSm = std::ceil(S.Blocks / P.Sms);
  return std::min(S.BlocksPerSM, PerSm) * S.WarpsPerBlock;
}

void addHotspot(const KernelView &V, Match &M) {
  M.Hotspots.push_back({V.Kernel, V.Profile->Loc.File, V.Profile->Loc.Line, "",
                        "", 0, 0, V.T, M.Evidence, ""});
}

void blockIncrease(const Inputs &In, const KernelView &V, Match &M) {
  const LaunchGroup *G = V.Profile ? mainLaunch(*V.Profile) : nullptr;
  if (!G || V.T <= 0)
    return;
  ParallelInputs P = parallelInputs(In, V.Kernel);
  const double Blocks = double(product(G->Grid));
  const uint32_t Threads = uint32_t(product(G->Block));
  if (Blocks == 0 || Threads == 0 || Blocks >= P.Sms)
    return;
  const double Warps = std::ceil(Threads / 32.0);
  LaunchShape Now{Blocks, Warps, blocksPerSM(In, *V.Profile, *G, Threads)};
  LaunchShape New = Now;
  const double Trips = outerTrips(In, V.Kernel);
  std::string Hint;
  if (Trips >= 2) {
    // A loop over the work: more blocks of the same size take its trips.
    New.Blocks = std::min(P.Sms * Now.BlocksPerSM, std::floor(Blocks * Trips));
    Hint = formatv("Launch {0} blocks of {1} threads (now {2}): the kernel's "
                   "outer loop runs {3} trips per warp, so more blocks can "
                   "take them over and fill every SM",
                   formatNumber(New.Blocks), Threads, formatNumber(Blocks),
                   formatNumber(Trips, 1))
               .str();
  } else {
    // The same threads in more, smaller blocks, one per SM at least.
    New.Blocks = std::min(P.Sms, Blocks * Warps);
    New.WarpsPerBlock = std::ceil(Blocks * Warps / New.Blocks);
    uint32_t NewThreads = uint32_t(New.WarpsPerBlock * 32);
    New.BlocksPerSM = blocksPerSM(In, *V.Profile, *G, NewThreads);
    Hint = formatv("Launch {0} blocks of {1} threads (now {2} of {3}): split "
                   "each block's work over more, smaller blocks so every SM "
                   "has one",
                   formatNumber(New.Blocks), NewThreads, formatNumber(Blocks),
                   Threads)
               .str();
  }
  if (New.Blocks <= Blocks)
    return;
  // A grid-stride loop computes the same with any grid: the timing model
  // can run the new one (advise --what-if).
  if (Trips >= 2 && G->Grid[1] == 1 && G->Grid[2] == 1)
    M.Change = {V.Kernel, uint32_t(New.Blocks), 0, 0, -1};
  ParallelEstimate E = estimateParallelism(P, Now, New);
  M.Speedup = E.Speedup;
  M.Evidence =
      formatv("{0} blocks for {1} SMs, {2} -> {3} blocks; warps on the "
              "busiest SM {4} -> {5}; {6}",
              formatNumber(Blocks), formatNumber(P.Sms), formatNumber(Blocks),
              formatNumber(New.Blocks), formatNumber(residentWarps(P, Now)),
              formatNumber(residentWarps(P, New)), describe(P, E))
          .str();
  M.Hints = {Hint};
  addHotspot(V, M);
}

void threadIncrease(const Inputs &In, const KernelView &V, Match &M) {
  const LaunchGroup *G = V.Profile ? mainLaunch(*V.Profile) : nullptr;
  if (!G || V.T <= 0 || !V.Profile->Resources || !V.Profile->Resources->Known)
    return;
  SmLimits L = limitsOf(In);
  ParallelInputs P = parallelInputs(In, V.Kernel);
  const uint32_t Threads = uint32_t(product(G->Block));
  const double Blocks = double(product(G->Grid));
  if (Threads == 0 || Blocks == 0 || Threads * 2 > GuideThreads)
    return;
  LaunchShape Now{Blocks, std::ceil(Threads / 32.0),
                  blocksPerSM(In, *V.Profile, *G, Threads)};
  if (residentWarps(P, Now) >= L.maxWarpsPerSM())
    return;
  // The biggest power-of-two multiple of the block within the guide's range.
  uint32_t NewThreads = Threads;
  while (NewThreads * 2 <= std::min(GuideThreads, L.MaxThreadsPerBlock))
    NewThreads *= 2;
  const double Grow = double(NewThreads) / Threads;
  const double Trips = outerTrips(In, V.Kernel);
  LaunchShape New{Blocks, std::ceil(NewThreads / 32.0),
                  blocksPerSM(In, *V.Profile, *G, NewThreads)};
  // A loop over the work lets the grid stay and each thread take fewer
  // trips; otherwise the grid keeps its threads in fewer blocks.
  const bool Stride = Trips >= Grow;
  if (!Stride)
    New.Blocks = std::ceil(Blocks / Grow);
  // A block of 16 threads is a warp with 16 idle lanes: bigger blocks pack
  // the same threads into fewer warp instructions (Rodinia gaussian's 4x4
  // Fan2, GPA's Table 3: thread increase, 3.86x). Without idle lanes to
  // fill, the change must add resident warps.
  const double LanesNow = Threads / (32 * std::ceil(Threads / 32.0));
  const double LanesNew = NewThreads / (32 * std::ceil(NewThreads / 32.0));
  if (LanesNow >= LanesNew && residentWarps(P, New) <= residentWarps(P, Now))
    return;
  // Only a grid-stride loop keeps its results with bigger blocks and the
  // same grid (advise --what-if).
  if (Stride && G->Block[1] == 1 && G->Block[2] == 1)
    M.Change = {V.Kernel, 0, NewThreads, 0, -1};
  ParallelEstimate E = estimateParallelism(P, Now, New, LanesNow / LanesNew);
  M.Speedup = E.Speedup;
  M.Evidence =
      formatv(
          "{0} threads per block: {1} warps resident on the busiest SM "
          "(of {2}); {3} threads in {4} blocks: {5} warps; {6}{7}",
          Threads, formatNumber(residentWarps(P, Now)), L.maxWarpsPerSM(),
          NewThreads, formatNumber(New.Blocks),
          formatNumber(residentWarps(P, New)), describe(P, E),
          LanesNow < LanesNew
              ? formatv("; {0}% of each warp's lanes hold a thread, {1}% "
                        "with the bigger blocks: {2}x the warp instructions",
                        formatNumber(100 * LanesNow),
                        formatNumber(100 * LanesNew),
                        formatNumber(LanesNow / LanesNew, 2))
                    .str()
              : std::string())
          .str();
  M.Hints = {
      formatv("Use {0} threads per block (from {1}){2}: the blocks now leave "
              "{3}",
              NewThreads, Threads,
              Stride
                  ? formatv(" with the same {0} blocks; the kernel's "
                            "outer loop then runs {1} instead of {2} "
                            "trips per warp",
                            formatNumber(Blocks), formatNumber(Trips / Grow, 1),
                            formatNumber(Trips, 1))
                        .str()
                  : formatv(" in {0} blocks", formatNumber(New.Blocks)).str(),
              LanesNow < LanesNew
                  ? formatv("{0} of each warp's 32 lanes idle in every "
                            "instruction{1}",
                            formatNumber(32 * (1 - LanesNow)),
                            G->Block[1] > 1 ? formatv(" (as a 2D block: {0})",
                                                      squareBlock(NewThreads))
                                                  .str()
                                            : std::string())
                        .str()
                  : std::string("the SMs' warp slots and schedulers idle"))
          .str()};
  addHotspot(V, M);
}

} // namespace

void parallelismSpecs(std::vector<GpaSpec> &Out) {
  Out.push_back(
      {"block_increase",
       "Block increase",
       "GPA: matches kernels launched with fewer blocks than the GPU has "
       "SMs. Suggests more blocks (a grid-stride loop's trips spread over "
       "them) or more, smaller blocks. Estimate: parallelism (Eq. 11) over "
       "the rounds of the busiest SM, bounded by DRAM bandwidth.",
       EstimatorKind::Parallelism,
       {InputKind::Samples, InputKind::Instructions, InputKind::LaunchConfig},
       blockIncrease});
  Out.push_back(
      {"thread_increase",
       "Thread increase",
       "GPA: matches kernels whose blocks are too small to fill the SMs' "
       "warp slots: the block limit or the grid leaves warps per SM "
       "unused. Suggests bigger blocks. Estimate: parallelism (Eq. 11) over "
       "the rounds of the busiest SM, bounded by DRAM bandwidth.",
       EstimatorKind::Parallelism,
       {InputKind::Samples, InputKind::Instructions, InputKind::LaunchConfig,
        InputKind::Occupancy},
       threadIncrease});
}

} // namespace warpscope::advise
