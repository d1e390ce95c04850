//===- PgoRecordTest.cpp - A device function's counts in an LLVM profile --===//

#include "warpscope/ABI/PgoRecord.h"
#include "gtest/gtest.h"

using namespace warpscope;

namespace {

pgo::FunctionCounts sample() {
  pgo::FunctionCounts F;
  F.Blocks = {64, 40, 24, 64};
  F.Branches = {{{1280, 768}, 3, 64}, {{7, 0, 9}, 0, 0}};
  return F;
}

TEST(PgoRecord, RoundTrips) {
  std::vector<uint64_t> C = pgo::encode(sample());
  EXPECT_EQ(C, (std::vector<uint64_t>{64, 40, 24, 64, 1280, 768, 3, 64, 7, 0, 9,
                                      0, 0}));
  pgo::FunctionCounts Back;
  ASSERT_TRUE(pgo::decode(C, 4, {2, 3}, Back));
  EXPECT_EQ(Back.Blocks, sample().Blocks);
  ASSERT_EQ(Back.Branches.size(), 2u);
  EXPECT_EQ(Back.Branches[0].Sides, (std::vector<uint64_t>{1280, 768}));
  EXPECT_EQ(Back.Branches[0].Divergent, 3u);
  EXPECT_EQ(Back.Branches[0].Visits, 64u);
  EXPECT_EQ(Back.Branches[1].Sides, (std::vector<uint64_t>{7, 0, 9}));
}

// A record of another shape is stale, never read as counts of this one.
TEST(PgoRecord, OtherShapesAreRejected) {
  std::vector<uint64_t> C = pgo::encode(sample());
  pgo::FunctionCounts Out;
  EXPECT_FALSE(pgo::decode(C, 5, {2, 3}, Out)); // a block more
  EXPECT_FALSE(pgo::decode(C, 4, {2, 2}, Out)); // a side fewer
  EXPECT_FALSE(pgo::decode(C, 4, {2}, Out));    // a branch fewer
  EXPECT_FALSE(pgo::decode({}, 0, {}, Out));    // no blocks
  EXPECT_TRUE(pgo::decode({5}, 1, {}, Out));
  EXPECT_EQ(Out.Blocks, std::vector<uint64_t>{5});
}

// LLVM's flag bits stay clear, whatever the checksum.
TEST(PgoRecord, HashLeavesLLVMsFlagBitsClear) {
  EXPECT_EQ(pgo::recordHash(0x33a7000000000001ull), 0x03a7000000000001ull);
  EXPECT_EQ(pgo::recordHash(0x0123456789abcdefull), 0x0123456789abcdefull);
}

TEST(PgoRecord, NamesKeepModulesApart) {
  EXPECT_EQ(pgo::recordName("00112233aabbccdd", "_Z1kPi"),
            "00112233aabbccdd;_Z1kPi");
}

} // namespace
