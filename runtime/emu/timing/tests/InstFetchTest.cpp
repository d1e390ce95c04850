//===- InstFetchTest.cpp - The timing model's instruction fetch ----------===//
//
// Instruction fetch (InstFetch.cpp): a kernel whose code fits the warmed
// entry lines and the stream buffer runs exactly as without an instruction
// cache; a loop larger than the L1 instruction cache waits for its head on
// every iteration (no_instructions at the head); a branch past cold code
// waits once per SM; straight-line code streams in.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace inst_fetch_test {
namespace {

/// N independent FP32 instructions laid out one after another (16 bytes
/// each), as the core lays out code.
std::vector<StaticInst> straight(uint32_t N) {
  std::vector<StaticInst> T(N);
  for (uint32_t K = 0; K < N; ++K) {
    T[K].P = Pipe::Fp32;
    T[K].Code = 16 * K;
  }
  return T;
}

Config config(bool Icache) {
  Config C; // H100-like defaults, one SM
  C.Name = "test";
  C.Sms = 1;
  if (Icache) { // the h100-sxm configuration's figures
    C.IcacheL0Bytes = 16384, C.IcacheL1Bytes = 131072;
    C.IcacheLineBytes = 128, C.IcacheL1Latency = 20;
    C.IcachePrefetchLines = 8;
  }
  return C;
}

/// Four warps (one per sub-partition) each running Ids; the modeled cycles
/// and the exact no_instructions cycles by instruction.
struct Outcome {
  uint64_t Cycles = 0;
  std::vector<double> NoInstructions;
};
Outcome run(const Config &C, const std::vector<StaticInst> &T,
            const std::vector<uint32_t> &Ids) {
  CtaTrace Cta;
  for (int W = 0; W < 4; ++W) {
    WarpTrace WT;
    for (uint32_t Id : Ids)
      WT.Ops.push_back({Id, NoMem});
    Cta.Warps.push_back(std::move(WT));
  }
  LaunchShape S;
  S.ThreadsPerCta = 128;
  LaunchModel M(C, T, 16, S, 0, 1, 0, /*ExactStalls=*/true);
  M.submit(std::move(Cta));
  Outcome R;
  R.Cycles = M.finish().Cycles;
  for (const StallCycles &E : M.stallCycles())
    R.NoInstructions.push_back(E.All[(unsigned)ModelStall::NoInstructions]);
  return R;
}

/// Ids of a loop over instructions [From, To) run Times times.
std::vector<uint32_t> loop(uint32_t From, uint32_t To, unsigned Times) {
  std::vector<uint32_t> Ids;
  for (unsigned K = 0; K < Times; ++K)
    for (uint32_t I = From; I < To; ++I)
      Ids.push_back(I);
  return Ids;
}

} // namespace

// A loop of 64 instructions (1 KB: the entry line and the stream buffer's
// 8 lines, which the launch's fixed cost covers) is not slowed at all.
TEST(TimingMechanism, CodeThatFitsTheWarmLinesIsUnchanged) {
  std::vector<StaticInst> T = straight(64);
  std::vector<uint32_t> Ids = loop(0, 64, 50);
  Outcome On = run(config(true), T, Ids), Off = run(config(false), T, Ids);
  EXPECT_EQ(On.Cycles, Off.Cycles);
  EXPECT_EQ(On.NoInstructions, Off.NoInstructions);
}

// A loop of 12,288 instructions (192 KB, more than the 128 KB L1
// instruction cache): every iteration's jump back to the head misses to L2,
// and the warps wait there with no_instructions. The same loop of 4,096
// instructions (64 KB: fits the L1, not the 16 KB L0) waits for the L1 only.
TEST(TimingMechanism, ALoopLargerThanTheCacheWaitsForItsHead) {
  const uint32_t Big = 12288, Fits = 4096;
  std::vector<StaticInst> T = straight(Big);
  Outcome On = run(config(true), T, loop(0, Big, 4));
  Outcome Off = run(config(false), T, loop(0, Big, 4));
  const Config C = config(true);
  // Iterations 2 to 4 each wait at least an L2 round trip at the head.
  EXPECT_GE(On.Cycles, Off.Cycles + 3 * (uint64_t)C.L2Latency);
  EXPECT_GE(On.NoInstructions[0] - Off.NoInstructions[0],
            3 * C.L2Latency); // all four warps at the head, a quarter each
  Outcome OnFits = run(config(true), T, loop(0, Fits, 12));
  Outcome OffFits = run(config(false), T, loop(0, Fits, 12));
  // The same instructions executed: after its first pass the smaller loop
  // finds its code in the L1 (20 cycles), not in L2.
  EXPECT_GT(OnFits.Cycles, OffFits.Cycles);
  EXPECT_LT(OnFits.Cycles - OffFits.Cycles, On.Cycles - Off.Cycles);
}

// A jump over 2,000 cold instructions (a rare path inlined in the middle)
// to the epilogue waits for the epilogue's line once; the same code with
// the rare path elsewhere (a function of its own) does not wait.
TEST(TimingMechanism, AJumpPastColdCodeWaitsOnce) {
  std::vector<StaticInst> T = straight(2048 + 16);
  std::vector<uint32_t> Inlined = loop(0, 16, 1), Split = loop(0, 32, 1);
  for (uint32_t I = 2048; I < 2048 + 16; ++I)
    Inlined.push_back(I);
  Outcome A = run(config(true), T, Inlined), B = run(config(true), T, Split);
  const Config C = config(true);
  EXPECT_GE(A.Cycles, B.Cycles + (uint64_t)(C.L2Latency + C.IcacheL1Latency));
  EXPECT_GT(A.NoInstructions[2048], 0);
  EXPECT_EQ(B.Cycles, run(config(false), T, Split).Cycles);
}

// Straight-line code past the warm lines streams in: the stream buffer
// keeps 8 lines ahead, so 1,024 cold instructions wait far less than a miss
// per line (128 lines x an L2 round trip).
TEST(TimingMechanism, StraightLineCodeStreamsIn) {
  std::vector<StaticInst> T = straight(1024);
  Outcome On = run(config(true), T, loop(0, 1024, 1));
  Outcome Off = run(config(false), T, loop(0, 1024, 1));
  const Config C = config(true);
  EXPECT_GT(On.Cycles, Off.Cycles);
  EXPECT_LT(On.Cycles - Off.Cycles, 128 / 4 * (uint64_t)C.L2Latency);
}

// Code that the L1 instruction cache holds but the L0 does not (a loop of
// 4,096 instructions, 64 KB) streams from the L1 without waiting after its
// first pass: the first use of each prefetched line sends the next one, so
// a pass waits only at its head (an L1 trip), not once per 9 lines.
TEST(TimingMechanism, CodeInTheL1StreamsWithoutWaiting) {
  const uint32_t N = 4096;
  std::vector<StaticInst> T = straight(N);
  const Config C = config(true);
  auto Extra = [&](unsigned Times) {
    return run(C, T, loop(0, N, Times)).Cycles -
           run(config(false), T, loop(0, N, Times)).Cycles;
  };
  const uint64_t Two = Extra(2), Twelve = Extra(12);
  EXPECT_GT(Two, 0u);
  EXPECT_LE(Twelve - Two, 10 * 2 * (uint64_t)C.IcacheL1Latency);
}

} // namespace inst_fetch_test
