//===- SharedReservationTest.cpp - Reserve the shared memory that is used -===//
//
// The occupancy limiter's reservation advice (OccupancyOptimizer.cpp): on
// hand-built profiles and ground truth whose launches record the shared
// memory their blocks touched (emu-*.json's shared_touched), it proposes
// reserving only that where more blocks would fit or the SM's carveout
// would change, and stays silent where the kernel uses what it reserves or
// nothing would change. Its estimate is re-simulated (a stand-in runner).
//
//===----------------------------------------------------------------------===//

#include "Advice.h"
#include "GroundTruth.h"
#include "ProfileModel.h"
#include "Resimulate.h"
#include "gtest/gtest.h"

using namespace warpscope;
using namespace warpscope::advise;

namespace {

const char *Kernel = "_Z5chasePKiPii";

/// A kernel of 32 registers and 256 threads in GridBlocks blocks, each
/// reserving Static + Dynamic bytes of shared memory, whose launch touched
/// Touched; Launched: the dynamic bytes the recorded launch had (another
/// configuration when it differs from Dynamic).
struct ReservationCase {
  ProfileSet P;
  Truth T;
  Inputs In;
  ReservationCase(uint64_t Static, uint64_t Dynamic, SharedTouched Touched,
                  uint32_t GridBlocks,
                  std::optional<uint64_t> Launched = std::nullopt) {
    FunctionProfile F;
    F.Name = Kernel;
    F.Kernel = true;
    MachineResources R;
    R.Source = "ptxas";
    R.Known = true;
    R.Registers = 32;
    R.StaticSharedBytes = Static;
    F.Resources = R;
    LaunchGroup L;
    L.Grid[0] = GridBlocks;
    L.Block[0] = 256;
    L.SharedBytes = Dynamic;
    L.Count = 1;
    F.Launches.push_back(L);
    P.Functions.push_back(std::move(F));
    TruthLaunch TL;
    TL.Kernel = Kernel;
    TL.Grid[0] = GridBlocks;
    TL.Block[0] = 256;
    TL.DynamicShared = Launched.value_or(Dynamic);
    TL.Touched = Touched;
    T.Launches.push_back(TL);
    In.Profile = &P;
    In.GroundTruth = &T;
    In.Present = {InputKind::Occupancy, InputKind::LaunchConfig};
  }
  std::vector<Advice> run() const {
    std::vector<Advice> Out;
    for (const auto &O : exactOptimizers())
      if (O->id() == "occupancy_limiter")
        O->run(In, Out);
    return Out;
  }
};

bool has(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

const char *Reserve = "Reserve only the shared memory the kernel uses";

TEST(SharedReservation, DynamicMemoryTheKernelDoesNotTouch) {
  // The advisor pair occupancy_dynamic: 60 KB of dynamic shared memory,
  // 1 KB touched. 61 KB per block (1 KB reserved by the system): 3 blocks
  // of the 228 KB, in a 196 KB carveout. Reserving 1 KB: 2 KB per block,
  // 8 blocks (the threads' limit) in a 16 KB carveout.
  ReservationCase C(0, 60 * 1024, {0, 1024}, 8 * 132);
  std::vector<Advice> A = C.run();
  ASSERT_EQ(A.size(), 1u); // the limit's own lift reaches no more blocks
  EXPECT_EQ(A[0].Title, Reserve);
  EXPECT_EQ(emu::formatWhatIf(A[0].Change),
            std::string(Kernel) + ":shared=1024");
  EXPECT_TRUE(has(A[0].Hints[0], "launch it with 1024 B of dynamic shared "
                                 "memory (the third <<<>>> parameter; now "
                                 "61440 B)"))
      << A[0].Hints[0];
  const std::string &E = A[0].Hotspots[0].Evidence;
  EXPECT_TRUE(has(E, "3 blocks/SM (24/64 warps), limited by shared memory"))
      << E;
  EXPECT_TRUE(has(E, "touched 1024 B of the 61440 B they reserve (static 0 "
                     "of 0 B, dynamic 1024 of 61440 B); reserving 1024 B: 8 "
                     "blocks/SM and a 16 KB carveout"))
      << E;
  EXPECT_TRUE(has(E, "against a 196 KB carveout")) << E;
  // The formula sees the blocks: 3 rounds of 3 -> 1 of 8 (latency bound,
  // no samples); the L1 is the re-simulation's.
  EXPECT_GT(A[0].EstimatedSpeedup, 2.0);
  EXPECT_TRUE(has(A[0].Estimator, "the carveout 196 -> 16 KB changes the L1"))
      << A[0].Estimator;
}

TEST(SharedReservation, StaticArraysLargerThanUsed) {
  // The pair occupancy_limiter: a 48 KB static buffer of which 8 KB is used.
  ReservationCase C(48 * 1024, 0, {8192, 0}, 8 * 132);
  std::vector<Advice> A = C.run();
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Title, Reserve);
  EXPECT_EQ(emu::formatWhatIf(A[0].Change),
            std::string(Kernel) + ":shared=8192");
  EXPECT_TRUE(has(A[0].Hints[0],
                  "declare its __shared__ arrays in 8192 B (now 49152 B)"))
      << A[0].Hints[0];
  // 4 x 49 KB = 196 KB -> 8 x 9 KB = 72 KB: the 100 KB carveout.
  EXPECT_TRUE(has(A[0].Hotspots[0].Evidence,
                  "8 blocks/SM and a 100 KB carveout, against a 196 KB"))
      << A[0].Hotspots[0].Evidence;
}

TEST(SharedReservation, TheCarveoutAloneIsAReason) {
  // One block per SM: the occupancy does not matter, but the 2 blocks that
  // fit of 101 KB each take the 228 KB carveout; reserving the 4 KB
  // touched: 8 of 5 KB, the 64 KB carveout. Only re-simulation estimates
  // what the larger L1 gives.
  ReservationCase C(0, 100 * 1024, {0, 4096}, 132);
  std::vector<Advice> A = C.run();
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Title, Reserve);
  EXPECT_EQ(A[0].EstimatedSpeedup, 1.0);
  EXPECT_TRUE(has(A[0].Estimator, "the blocks/SM do not change; the carveout "
                                  "228 -> 64 KB changes the L1"))
      << A[0].Estimator;
  EXPECT_EQ(emu::formatWhatIf(A[0].Change),
            std::string(Kernel) + ":shared=4096");
}

TEST(SharedReservation, SilentWhenTheKernelUsesWhatItReserves) {
  // Every byte touched, or all but a few within the 128 B allocation unit.
  for (uint64_t Touched : {61440u, 61400u}) {
    EXPECT_TRUE(ReservationCase(0, 61440, {0, Touched}, 132).run().empty())
        << Touched;
    // With more blocks than fit, the limit's own lift still speaks.
    std::vector<Advice> A =
        ReservationCase(0, 61440, {0, Touched}, 8 * 132).run();
    ASSERT_EQ(A.size(), 1u);
    EXPECT_EQ(A[0].Title, "Lift the occupancy limit");
  }
}

TEST(SharedReservation, SilentWhenNothingWouldChange) {
  // 40 KB reserved, 39.5 KB touched, one block per SM: 5 blocks fit either
  // way, and 5 x 41 KB or 5 x 40.5 KB both take the 228 KB carveout.
  EXPECT_TRUE(ReservationCase(0, 40 * 1024, {0, 40448}, 132).run().empty());
  // 38 KB touched would do: 5 x 39 KB fit in the 196 KB carveout.
  EXPECT_EQ(ReservationCase(0, 40 * 1024, {0, 38 * 1024}, 132).run().size(),
            1u);
}

TEST(SharedReservation, OnlyTheSameConfigurationsTouch) {
  // The recorded launch had 4 KB of dynamic memory, the profile's 60 KB:
  // what the other touched says nothing about this one.
  std::vector<Advice> A =
      ReservationCase(0, 60 * 1024, {0, 1024}, 8 * 132, 4096).run();
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].Title, "Lift the occupancy limit");
}

TEST(SharedReservation, TheEstimateIsReSimulated) {
  ReservationCase C(0, 100 * 1024, {0, 4096}, 132);
  KernelModeledTime &M = C.In.ModeledTime[Kernel];
  M.Cycles = 14000;
  M.LaunchCycles = 1000;
  M.Config = "h100-sxm";
  std::vector<Advice> A = C.run();
  std::vector<std::string> Asked, Notes;
  WhatIfRunner Run = [&](const emu::WhatIf &W, std::string &) {
    Asked.push_back(emu::formatWhatIf(W));
    return std::optional<double>(10000);
  };
  resimulate(C.In, Run, A, Notes);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(Asked,
            std::vector<std::string>{std::string(Kernel) + ":shared=4096"});
  EXPECT_EQ(A[0].Kind, EstimateKind::Resimulated);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 1.5, 1e-12);
  EXPECT_TRUE(has(A[0].Estimator, "4096 B shared/block: 15000 -> 10000"))
      << A[0].Estimator;
}

} // namespace
