//===- SourceLinesTest.cpp - Per-line counts and per-source-branch rows ---===//
//
// Hand-made functions whose expected numbers are worked out by hand: a line
// split over two blocks (the demo's collatz: line 33 in the loop guard and
// the preheader), a block covering three lines, inlined code, and a branch
// the compiler copied twice.
//
//===----------------------------------------------------------------------===//

#include "SourceLines.h"
#include "Report.h"
#include "gtest/gtest.h"

using namespace warpscope;

namespace {

const char *File = "/src/k.cu";

BlockCounts block(unsigned Id, unsigned FirstLine, uint64_t Warp,
                  uint64_t Thread, std::vector<unsigned> Offsets) {
  BlockCounts B;
  B.Id = Id;
  B.Loc = {File, FirstLine, 3};
  B.WarpExecutions = Warp;
  B.ThreadExecutions = Thread;
  for (unsigned O : Offsets)
    B.InlineStacks.push_back({{"_Z1kv", O, 0}});
  return B;
}

BranchCounts branch(unsigned Id, unsigned Line, unsigned Column,
                    uint64_t Visits, uint64_t Divergent, uint64_t Active,
                    uint64_t ToFirst) {
  BranchCounts B;
  B.Id = Id;
  B.Loc = {File, Line, Column};
  B.Probed = true;
  B.Visits = Visits;
  B.Divergent = Divergent;
  B.ActiveThreads = Active;
  B.SuccessorThreads = {ToFirst, Active - ToFirst};
  return B;
}

/// void k() at line 10.
FunctionProfile function() {
  FunctionProfile F;
  F.Name = "_Z1kv";
  F.Demangled = "k()";
  F.Kernel = true;
  F.Loc = {File, 10, 0};
  F.PtxStatus = "ok";
  // Lines 13 and 15 split over two blocks that run 2048 and 2045 times.
  F.Blocks.push_back(block(0, 13, 64, 2048, {3, 5}));
  F.Blocks.push_back(block(1, 13, 64, 2045, {3, 5}));
  // One block over lines 16, 17, 18, the last twice (two positions).
  F.Blocks.push_back(block(2, 16, 900, 12000, {6, 7, 8, 8}));
  // Inlined code: a deeper frame counts on the call line, 19.
  BlockCounts Inl = block(3, 19, 10, 320, {});
  Inl.InlineStacks.push_back({{"_Z1kv", 9, 0}, {"_Z6helperv", 2, 0}});
  F.Blocks.push_back(Inl);
  F.Blocks[0].Ptx = {{"add.s32", 2}, {"ld.global.u32", 1}};
  F.Blocks[2].Ptx = {{"mul.lo.s32", 4}};
  // Line 16's branch copied twice (unrolled), plus one on line 13.
  F.Branches.push_back(branch(0, 16, 7, 500, 100, 8000, 2000));
  F.Branches.push_back(branch(1, 16, 7, 400, 300, 4000, 1000));
  F.Branches.push_back(branch(2, 13, 9, 64, 0, 2048, 2048));
  return F;
}

TEST(SourceLines, EachBlockOncePerLineItCovers) {
  FunctionProfile F = function();
  LineMap M = lineCounts(F);
  const auto &L = M.at(File);
  // Line 13: the most executed of its two blocks, not their sum (4093).
  EXPECT_EQ(L.at(13).ThreadExecutions, 2048u);
  EXPECT_EQ(L.at(13).WarpExecutions, 64u);
  EXPECT_EQ(L.at(13).Blocks, (std::vector<unsigned>{0, 1}));
  // Line 15 is no block's first line and still has its counts.
  EXPECT_EQ(L.at(15).ThreadExecutions, 2048u);
  // Lines 17 and 18 only appear in block 2's inline stacks; 18 once.
  for (unsigned Line : {16u, 17u, 18u}) {
    EXPECT_EQ(L.at(Line).ThreadExecutions, 12000u) << Line;
    EXPECT_EQ(L.at(Line).Blocks, (std::vector<unsigned>{2})) << Line;
  }
  // Inlined code lands on the call line.
  EXPECT_EQ(L.at(19).ThreadExecutions, 320u);
  EXPECT_EQ(L.size(), 6u); // 13, 15, 16, 17, 18, 19
}

TEST(SourceLines, InstructionsWhereTheBlockStarts) {
  LineMap M = lineCounts(function());
  const auto &L = M.at(File);
  // Block 0: 3 PTX per execution x 2048 threads; block 1 has none.
  EXPECT_EQ(L.at(13).ThreadInstructions, std::optional<uint64_t>(6144));
  EXPECT_EQ(L.at(16).ThreadInstructions, std::optional<uint64_t>(48000));
  EXPECT_FALSE(L.at(15).ThreadInstructions.has_value());
  FunctionProfile NoPtx = function();
  NoPtx.PtxStatus = "";
  EXPECT_FALSE(lineCounts(NoPtx).at(File).at(13).ThreadInstructions);
}

TEST(SourceLines, BranchesSummedOnTheirLine) {
  LineMap M = lineCounts(function());
  EXPECT_EQ(M.at(File).at(16).Visits, 900u);
  EXPECT_EQ(M.at(File).at(16).Divergent, 400u);
}

TEST(SourceBranches, CopiesAreOneRow) {
  ProfileSet Set;
  Set.Functions.push_back(function());
  auto S = summarize(Set, "");
  ASSERT_TRUE(bool(S));
  ASSERT_EQ(S->size(), 1u);
  const FunctionSummary &K = S->front();
  EXPECT_EQ(K.Probed, 3u);
  ASSERT_EQ(K.Rows.size(), 2u);
  const BranchRow &Top = K.Rows[0];
  EXPECT_EQ(Top.loc().Line, 16u);
  EXPECT_EQ(Top.Copies.size(), 2u);
  EXPECT_EQ(Top.Visits, 900u);
  EXPECT_EQ(Top.Divergent, 400u);
  EXPECT_EQ(Top.ActiveThreads, 12000u);
  EXPECT_DOUBLE_EQ(Top.Rate, 400.0 / 900);
  EXPECT_DOUBLE_EQ(Top.Share, 1.0);
  // Copies need not share a polarity: no successor-0 share for the row.
  EXPECT_FALSE(Top.Successor0Fraction.has_value());
  const BranchRow &One = K.Rows[1];
  EXPECT_EQ(One.Copies.size(), 1u);
  EXPECT_EQ(One.Successor0Fraction, std::optional<double>(1.0));
  // 90% of the divergence is in one source branch, not two copies.
  EXPECT_EQ(K.Concentration90, 1u);
}

TEST(SourceBranches, UnlocatedBranchesStayApart) {
  FunctionProfile F = function();
  for (BranchCounts &B : F.Branches)
    B.Loc = {};
  ProfileSet Set;
  Set.Functions.push_back(F);
  auto S = summarize(Set, "");
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->front().Rows.size(), 3u);
}

} // namespace
