//===- OccupancyTest.cpp - Theoretical occupancy against hand counts ------===//
//
// Each expectation is worked out by hand from the H100 figures (64K
// registers in 4 sub-partitions, 256-register units, 64 warps, 32 blocks,
// 228 KB shared with 1 KB reserved per block, 128-byte units).

#include "warpscope/Support/Occupancy.h"
#include <gtest/gtest.h>

using namespace warpscope;

namespace {

OccupancyResult occupancy(uint32_t Threads, uint32_t Regs,
                          uint64_t StaticShared = 0,
                          uint64_t DynamicShared = 0) {
  KernelFootprint K;
  K.ThreadsPerBlock = Threads;
  K.RegistersPerThread = Regs;
  K.StaticSharedBytes = StaticShared;
  K.DynamicSharedBytes = DynamicShared;
  return theoreticalOccupancy(H100Limits, K);
}

TEST(Occupancy, FullWhenThreadsAndRegistersTie) {
  // 256 threads = 8 warps; 32 regs x 32 lanes = 1024 regs/warp, 16 warps
  // per 16K sub-partition = 64 warps = 8 blocks; threads: 2048/256 = 8.
  OccupancyResult R = occupancy(256, 32);
  EXPECT_EQ(R.BlocksPerSM, 8u);
  EXPECT_EQ(R.WarpsPerSM, 64u);
  EXPECT_EQ(R.MaxWarpsPerSM, 64u);
  EXPECT_DOUBLE_EQ(R.fraction(), 1.0);
  EXPECT_EQ(R.Limiters, unsigned(LimitThreads | LimitRegisters));
}

TEST(Occupancy, RegisterLimitedBigBlock) {
  // 1024 threads = 32 warps x 64 regs: 2048 regs/warp, 8 per sub-partition
  // = 32 warps = 1 block of 32 warps: 50%.
  OccupancyResult R = occupancy(1024, 64);
  EXPECT_EQ(R.BlocksPerSM, 1u);
  EXPECT_EQ(R.WarpsPerSM, 32u);
  EXPECT_DOUBLE_EQ(R.fraction(), 0.5);
  EXPECT_EQ(R.Limiters, unsigned(LimitRegisters));
}

TEST(Occupancy, SubPartitionsRoundWarpsDown) {
  // 40 regs: 1280 regs/warp; 16384/1280 = 12 warps per sub-partition, 48
  // per SM (not 65536/1280 = 51); 128 threads = 4 warps: 12 blocks.
  OccupancyResult R = occupancy(128, 40);
  EXPECT_EQ(R.BlocksPerSM, 12u);
  EXPECT_EQ(R.WarpsPerSM, 48u);
  EXPECT_EQ(R.Limiters, unsigned(LimitRegisters));
}

TEST(Occupancy, RegisterUnitRoundsUp) {
  // 33 regs x 32 = 1056, rounded to 1280: the same as 40 regs.
  EXPECT_EQ(occupancy(128, 33).BlocksPerSM, 12u);
}

TEST(Occupancy, SharedMemoryLimited) {
  // 48 KB static + 1 KB reserved = 50176 B per block; 233472 / 50176 = 4.
  OccupancyResult R = occupancy(128, 16, 48 * 1024);
  EXPECT_EQ(R.BlocksPerSM, 4u);
  EXPECT_EQ(R.WarpsPerSM, 16u);
  EXPECT_EQ(R.Limiters, unsigned(LimitShared));
  // Dynamic shared memory counts the same as static.
  EXPECT_EQ(occupancy(128, 16, 0, 48 * 1024).BlocksPerSM, 4u);
  // 100 bytes + 1024 reserved rounds to 1152; 233472 / 1152 = 202: the
  // 32-block limit binds instead.
  EXPECT_EQ(occupancy(32, 16, 100).Limiters, unsigned(LimitBlocks));
}

TEST(Occupancy, BlockLimited) {
  // 64 threads = 2 warps: threads allow 32 blocks, the block limit is 32.
  OccupancyResult R = occupancy(64, 16);
  EXPECT_EQ(R.BlocksPerSM, 32u);
  EXPECT_EQ(R.WarpsPerSM, 64u);
  EXPECT_EQ(R.Limiters, unsigned(LimitThreads | LimitBlocks));
  // 32 threads: one warp per block, 32 blocks = 32 warps = 50%.
  EXPECT_EQ(occupancy(32, 16).WarpsPerSM, 32u);
  EXPECT_EQ(occupancy(32, 16).Limiters, unsigned(LimitBlocks));
}

TEST(Occupancy, PartialWarpsCountWhole) {
  // 100 threads = 4 warps; 2048 threads / (4 x 32) = 16 blocks.
  EXPECT_EQ(occupancy(100, 16).BlocksPerSM, 16u);
}

TEST(Occupancy, NothingFits) {
  EXPECT_EQ(occupancy(1024, 255).BlocksPerSM, 0u); // 1024 x 255 > 64K
  EXPECT_EQ(occupancy(64, 256).BlocksPerSM, 0u);   // > 255 per thread
  EXPECT_EQ(occupancy(64, 16, 0, 228 * 1024).BlocksPerSM, 0u);
  EXPECT_EQ(occupancy(2048, 16).BlocksPerSM, 0u); // > 1024 per block
  EXPECT_EQ(occupancy(0, 16).BlocksPerSM, 0u);
  // 227 KB is the most a block may have: it fits once.
  EXPECT_EQ(occupancy(64, 16, 0, 227 * 1024).BlocksPerSM, 1u);
}

TEST(Occupancy, CarveoutIsTheSmallestCapacityThatHoldsTheBlocks) {
  KernelFootprint K;
  K.DynamicSharedBytes = 60 * 1024;
  // 60 KB + the 1 KB reserved per block, in 128 B units.
  EXPECT_EQ(sharedPerBlock(H100Limits, K), 61u * 1024);
  K.DynamicSharedBytes = 1000;
  EXPECT_EQ(sharedPerBlock(H100Limits, K), 2048u);
  // 3 x 61 KB = 183 KB: the 196 KB carveout; 8 x 9 KB = 72 KB: 100 KB.
  EXPECT_EQ(sharedCarveout(H100Limits, 183 * 1024), 196u * 1024);
  EXPECT_EQ(sharedCarveout(H100Limits, 72 * 1024), 100u * 1024);
  EXPECT_EQ(sharedCarveout(H100Limits, 64 * 1024), 64u * 1024);
  EXPECT_EQ(sharedCarveout(H100Limits, 0), 0u);
  EXPECT_EQ(sharedCarveout(H100Limits, 228 * 1024), 228u * 1024);
  // Never more than the SM's shared memory (an A100's 164 KB).
  SmLimits A100 = H100Limits;
  A100.SharedPerSM = 164 * 1024;
  EXPECT_EQ(sharedCarveout(A100, 150 * 1024), 164u * 1024);
  EXPECT_EQ(sharedCarveout(A100, 170 * 1024), 164u * 1024);
}

TEST(Occupancy, LimiterNames) {
  EXPECT_EQ(limiterNames(LimitThreads | LimitRegisters), "registers, threads");
  EXPECT_EQ(limiterNames(LimitShared), "shared memory");
  EXPECT_EQ(limiterNames(0), "");
}

} // namespace
