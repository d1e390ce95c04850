//===- HistogramAttributionTest.cpp - PTX to IR blocks, and edge counts ---===//

#include "InstructionMix.h"
#include "warpscope/PTX/BlockHistograms.h"
#include "warpscope/PTX/PtxListing.h"
#include <gtest/gtest.h>

using namespace warpscope;

namespace {

ptx::Function parseOne(const std::string &Body) {
  std::string Text = ".version 8.6\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\n" +
                     Body + "}\n";
  ptx::Module M;
  std::string Error;
  EXPECT_TRUE(ptx::parse(Text, M, Error)) << Error;
  EXPECT_EQ(M.Functions.size(), 1u);
  return M.Functions.empty() ? ptx::Function() : M.Functions[0];
}

// A probe scope naming the IR block whose record starts at Word.
std::string marker(unsigned Word) {
  return "{\n.reg .b32 %ws_block_" + std::to_string(Word) +
         ";\nactivemask.b32 %r9;\n}\n";
}

TEST(PtxListing, DebugLabelsDoNotSplitBlocks) {
  ptx::Function F = parseOne(marker(0) + "mov.u32 %r1, 1;\n$L__tmp0:\n"
                                         "add.s32 %r1, %r1, 1;\n$L__tmp1:\n"
                                         "ret;\n");
  ASSERT_EQ(F.Blocks.size(), 1u);
  EXPECT_EQ(F.InstrumentationInstructions, 1u);
}

TEST(PtxListing, BranchTargetsSplitBlocks) {
  ptx::Function F = parseOne(marker(0) + "@%p1 bra $L__BB0_2;\n" + marker(2) +
                             "mov.u32 %r1, 1;\n$L__BB0_2:\nret;\n");
  ASSERT_EQ(F.Blocks.size(), 3u);
  EXPECT_EQ(F.Blocks[0].Successors.size(), 2u);
}

// The side of a two-way branch that jumps to a marked block, with many
// debug labels in front of its marker: still an edge toward that block.
TEST(BlockHistograms, TowardEdgeThroughDebugLabels) {
  std::string Body =
      marker(0) + "@%p1 bra $L__BB0_3;\n" + marker(2) +
      "mov.u32 %r1, 1;\n@%p2 bra $L__BB0_3;\nbra.uni $L__BB0_4;\n"
      "$L__BB0_3:\n";
  for (int K = 0; K < 40; ++K)
    Body += "add.s32 %r2, %r2, 1;\n$L__tmp" + std::to_string(K) + ":\n";
  Body += marker(4) + "ret;\n$L__BB0_4:\n" + marker(6) + "ret;\n";
  ptx::FunctionHistograms H = ptx::attribute(parseOne(Body));
  EXPECT_TRUE(H.Unattributed.empty());
  EXPECT_EQ(H.Blocks[4]["add.s32"], 40u);
}

// A range check (in the switch's block, word 0) before a jump table over
// the blocks of words 2, 4, 6; word 8 is the default.
std::string jumpTable(bool DefaultInTable) {
  return marker(0) +
         "setp.gt.u32 %p1, %r1, 2;\n@%p1 bra $L__BB0_5;\n"
         "ld.param.b32 %r2, [p];\n"
         "$L_brx_0: .branchtargets $L__BB0_2, $L__BB0_3, " +
         std::string(DefaultInTable ? "$L__BB0_5" : "$L__BB0_4") +
         ";\nbrx.idx %r1, $L_brx_0;\n$L__BB0_2:\n" + marker(2) +
         "ret;\n$L__BB0_3:\n" + marker(4) + "ret;\n$L__BB0_4:\n" + marker(6) +
         "ret;\n$L__BB0_5:\n" + marker(8) + "ret;\n";
}

TEST(BlockHistograms, JumpTableIsASwitchPart) {
  ptx::FunctionHistograms H = ptx::attribute(parseOne(jumpTable(false)), {0});
  ASSERT_EQ(H.SwitchParts.size(), 1u);
  const auto &[Part, Hist] = *H.SwitchParts.begin();
  EXPECT_EQ(Part.From, 0u);
  EXPECT_EQ(Part.Reaches, (std::vector<uint64_t>{2, 4, 6}));
  EXPECT_EQ(Hist.at("brx.idx"), 1u);
  EXPECT_EQ(Hist.at("ld.param.b32"), 1u);
  EXPECT_TRUE(H.Unattributed.empty());
}

TEST(BlockHistograms, JumpTableWithTheDefaultInsideIsNot) {
  // Default lanes reach it both ways: some run the table's block, some not.
  ptx::FunctionHistograms H = ptx::attribute(parseOne(jumpTable(true)), {0});
  EXPECT_TRUE(H.SwitchParts.empty());
  EXPECT_EQ(H.Unattributed.at("brx.idx"), 1u);
}

TEST(BlockHistograms, SwitchPartsOnlyForSwitches) {
  ptx::FunctionHistograms H = ptx::attribute(parseOne(jumpTable(false)), {});
  EXPECT_TRUE(H.SwitchParts.empty());
}

// A probed switch 0 -> {1, 2, 3}: 10 visits, 4 divergent, uniform visits
// 3, 2, 1; threads 100, 120, 60.
FunctionProfile probedSwitch() {
  FunctionProfile F;
  F.PtxStatus = "ok";
  for (unsigned Id = 0; Id < 4; ++Id) {
    BlockCounts B;
    B.Id = Id;
    F.Blocks.push_back(B);
  }
  BranchCounts Br;
  Br.Block = 0;
  Br.Probed = true;
  Br.Successors = {1, 2, 3};
  Br.Visits = 10;
  Br.Divergent = 4;
  Br.ActiveThreads = 280;
  Br.SuccessorThreads = {100, 120, 60};
  Br.CountsUniformVisits = true;
  Br.UniformVisits = {3, 2, 1};
  F.Branches.push_back(Br);
  return F;
}

TEST(SwitchParts, OneExcludedSuccessor) {
  FunctionProfile F = probedSwitch();
  std::optional<WarpThread> X = switchPartExecutions(F, {0, {2, 3}, {}});
  ASSERT_TRUE(X);
  EXPECT_EQ(X->Warp, 7u); // all but the visits sending every lane to 1
  EXPECT_EQ(X->Thread, 180u);
  // Two excluded: visits with lanes only in {1, 2} are not known.
  EXPECT_FALSE(switchPartExecutions(F, {0, {3}, {}}));
  // Not a successor.
  EXPECT_FALSE(switchPartExecutions(F, {0, {2, 5}, {}}));
  // An older record without uniform visits.
  F.Branches[0].CountsUniformVisits = false;
  EXPECT_FALSE(switchPartExecutions(F, {0, {2, 3}, {}}));
}

// IR: 0 -> {1, 2} (uniform), 1 -> {1, 2} (uniform latch), 2 exit.
// Edge 1 -> 2 carries PTX. W(1->2) = W(2) - W(0->2), W(0->2) = W(0) - W(0->1)
// and W(0->1) = W(1) - W(1->1): rank-deficient without a count at 0.
FunctionProfile guardedLoop() {
  FunctionProfile F;
  F.PtxStatus = "ok";
  auto Block = [&](unsigned Id, uint64_t W, uint64_t T,
                   std::vector<unsigned> Succ, bool Reconverges = false) {
    BlockCounts B;
    B.Id = Id;
    B.WarpExecutions = W;
    B.ThreadExecutions = T;
    B.Successors = std::move(Succ);
    B.Reconverges = Reconverges;
    F.Blocks.push_back(B);
  };
  Block(0, 10, 320, {1, 2});
  Block(1, 70, 2240, {1, 2});
  Block(2, 10, 320, {});
  for (unsigned X : {0u, 1u}) {
    BranchCounts Br;
    Br.Id = X;
    Br.Block = X;
    Br.Uniform = true;
    Br.Successors = {1, 2};
    F.Branches.push_back(Br);
  }
  return F;
}

TEST(EdgeFlow, RankDeficientWithoutLoopEntryRecord) {
  FunctionProfile F = guardedLoop();
  PtxEdge E{1, 2, true, false, true, {{"bra.uni", 1}}};
  if (std::optional<WarpThread> X = edgeExecutions(F, E)) {
    EXPECT_LE(X->Warp, 1000u);
    EXPECT_LE(X->Thread, 32000u);
  }
}

TEST(EdgeFlow, LoopEntryRecordGivesTheExitEdge) {
  FunctionProfile F = guardedLoop();
  // 8 of the 10 visits of block 0 enter the loop (successor 0: block 1).
  F.Branches[0].CountsArrivals = true;
  F.Branches[0].Visits = 10;
  F.Branches[0].Successor0Arrivals = 8;
  F.Branches[0].ActiveThreads = 320;
  F.Branches[0].SuccessorThreads = {256, 64};
  PtxEdge E{1, 2, true, false, true, {{"bra.uni", 1}}};
  std::optional<WarpThread> X = edgeExecutions(F, E);
  ASSERT_TRUE(X);
  EXPECT_EQ(X->Warp, 8u); // W(2) - W(0->2) = 10 - 2
  EXPECT_EQ(X->Thread, 256u);
  // The same through the loop's side when the exit is where a divergent
  // branch's lanes meet again (arrivals there are not executions)...
  F.Blocks[2].Reconverges = true;
  std::optional<WarpThread> Y = edgeExecutions(F, E);
  ASSERT_TRUE(Y);
  EXPECT_EQ(Y->Warp, 8u);
  // ...but with the header such a block too, no flow is left.
  F.Blocks[1].Reconverges = true;
  if (std::optional<WarpThread> X = edgeExecutions(F, E)) {
    EXPECT_LE(X->Warp, 1000u);
    EXPECT_LE(X->Thread, 32000u);
  }
}

TEST(EdgeFlow, NeedsTheControlFlowGraph) {
  FunctionProfile F = guardedLoop();
  F.Branches[0].CountsArrivals = true;
  F.Branches[0].Successor0Arrivals = 8;
  F.Branches[0].SuccessorThreads = {256, 64};
  F.Blocks[1].Successors.reset();
  PtxEdge E{1, 2, true, false, true, {{"bra.uni", 1}}};
  if (std::optional<WarpThread> X = edgeExecutions(F, E)) {
    EXPECT_LE(X->Warp, 1000u);
    EXPECT_LE(X->Thread, 32000u);
  }
}

TEST(EdgeFlow, ImpossibleCountsGiveNothing) {
  FunctionProfile F = guardedLoop();
  F.Branches[0].CountsArrivals = true;
  F.Branches[0].Successor0Arrivals = 8;
  F.Branches[0].SuccessorThreads = {256, 64};
  // Fewer loop iterations than entries, fewer exits than the guard sends.
  F.Blocks[1].WarpExecutions = 5;
  F.Blocks[2].WarpExecutions = 1;
  PtxEdge E{1, 2, true, false, true, {{"bra.uni", 1}}};
  if (std::optional<WarpThread> X = edgeExecutions(F, E)) {
    EXPECT_LE(X->Warp, 1000u);
    EXPECT_LE(X->Thread, 32000u);
  }
}

// A ladder of 400 uniform two-way blocks, each to the next two: the ways to
// derive an edge multiply with the ladder's length. Derivations are bounded
// in depth and number and known edges are reused, so this returns, and what
// it returns fits the counts (no edge carries more than its block ran).
TEST(EdgeFlow, LongLadderTerminates) {
  FunctionProfile F;
  F.PtxStatus = "ok";
  const unsigned N = 400;
  for (unsigned I = 0; I < N; ++I) {
    BlockCounts B;
    B.Id = I;
    B.WarpExecutions = 1000;
    B.ThreadExecutions = 32000;
    B.Successors.emplace();
    if (I + 2 < N) {
      B.Successors = std::vector<unsigned>{I + 1, I + 2};
      BranchCounts Br;
      Br.Id = I;
      Br.Block = I;
      Br.Uniform = true;
      Br.Successors = {I + 1, I + 2};
      F.Branches.push_back(Br);
    }
    F.Blocks.push_back(B);
  }
  PtxEdge E{N - 3, N - 1, true, false, false, {{"bra.uni", 1}}};
  if (std::optional<WarpThread> X = edgeExecutions(F, E)) {
    EXPECT_LE(X->Warp, 1000u);
    EXPECT_LE(X->Thread, 32000u);
  }
}

} // namespace
