//===- PlainHistogramsTest.cpp - The plain build's PTX on our blocks
//-------===//

#include "warpscope/PTX/PlainHistograms.h"
#include "warpscope/PTX/PtxListing.h"
#include <gtest/gtest.h>

using namespace warpscope;
using ptx::PlainAttribution;

namespace {

ptx::Function parseBody(const std::string &Body) {
  std::string Text = ".version 8.6\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k()\n{\n" +
                     Body + "}\n";
  ptx::Module M;
  std::string Error;
  EXPECT_TRUE(ptx::parse(Text, M, Error)) << Error;
  EXPECT_EQ(M.Functions.size(), 1u);
  return M.Functions.empty() ? ptx::Function() : M.Functions[0];
}

std::string probe(unsigned Word) {
  return "{\n.reg .b32 %ws_block_" + std::to_string(Word) +
         ";\nactivemask.b32 %r9;\n}\n";
}

// A loop (block 1) entered from block 0, left to block 2; Hoisted compares
// sit before the loop, the others in it. Probes: Probes.
std::string loop(unsigned Hoisted, bool Probes) {
  std::string S = (Probes ? probe(0) : "") + "mov.u32 %r1, 0;\n";
  for (unsigned K = 0; K < Hoisted; ++K)
    S += "setp.ge.s32 %p" + std::to_string(K + 2) + ", %r2, 1;\n";
  S += "$L__BB0_1:\n" + (Probes ? probe(2) : std::string());
  for (unsigned K = Hoisted; K < 4; ++K)
    S += "setp.ge.s32 %p" + std::to_string(K + 2) + ", %r2, 1;\n";
  S += "add.s32 %r1, %r1, 1;\nsetp.lt.s32 %p1, %r1, 9;\n"
       "@%p1 bra $L__BB0_1;\n" +
       (Probes ? probe(4) : std::string()) + "ret;\n";
  return S;
}

TEST(PlainHistograms, SameInstructionsAreSame) {
  PlainAttribution A =
      ptx::attributePlain(parseBody(loop(1, true)), parseBody(loop(1, false)));
  EXPECT_EQ(A.Status, PlainAttribution::Same) << A.Why;
}

// The scheduler may order a block's instructions differently around the
// probes: the counts are the same.
TEST(PlainHistograms, ReorderedInstructionsAreSame) {
  std::string Plain = loop(1, false), Add = "add.s32 %r1, %r1, 1;\n";
  Plain.erase(Plain.find(Add), Add.size());
  Plain.insert(Plain.find("@%p1 bra"), Add);
  PlainAttribution A =
      ptx::attributePlain(parseBody(loop(1, true)), parseBody(Plain));
  EXPECT_EQ(A.Status, PlainAttribution::Same) << A.Why;
}

// The plain build hoists 3 compares, the instrumented one 1: each plain
// block's instructions run with the instrumented block it maps to.
TEST(PlainHistograms, MappedBlocksTakeThePlainInstructions) {
  PlainAttribution A =
      ptx::attributePlain(parseBody(loop(1, true)), parseBody(loop(3, false)));
  ASSERT_EQ(A.Status, PlainAttribution::Mapped) << A.Why;
  const ptx::FunctionHistograms &H = A.Histograms;
  EXPECT_EQ(H.Blocks.at(0).at("setp.ge.s32"), 3u);
  EXPECT_EQ(H.Blocks.at(0).at("mov.u32"), 1u);
  EXPECT_EQ(H.Blocks.at(2).at("setp.ge.s32"), 1u);
  EXPECT_EQ(H.Blocks.at(2).at("add.s32"), 1u);
  EXPECT_EQ(H.Blocks.at(4).at("ret"), 1u);
  EXPECT_EQ(H.Blocks.at(4).size(), 1u);
  EXPECT_TRUE(H.Unattributed.empty());
  EXPECT_EQ(H.InstrumentationInstructions, 0u);
}

// A PTX block holding two IR blocks' markers (merged, so equally often):
// the plain block's instructions all go to the first; the branch still
// belongs to the last, so a marker-less side of it is an edge of the last.
TEST(PlainHistograms, MergedBlocksAndEdges) {
  auto Body = [](bool Probes, unsigned Extra) {
    std::string S = (Probes ? probe(0) : "") + "mov.u32 %r1, 0;\n" +
                    (Probes ? probe(2) : "");
    for (unsigned K = 0; K < Extra; ++K)
      S += "add.s32 %r1, %r1, 1;\n";
    S += "@%p1 bra $L__BB0_2;\nmul.lo.s32 %r3, %r1, 3;\n";
    for (unsigned K = 0; K < Extra; ++K)
      S += "shl.b32 %r3, %r3, 1;\n";
    S += "$L__BB0_2:\n" + (Probes ? probe(4) : std::string()) + "ret;\n";
    return S;
  };
  ptx::Function Ours = parseBody(Body(true, 0));
  PlainAttribution A = ptx::attributePlain(Ours, parseBody(Body(false, 2)));
  ASSERT_EQ(A.Status, PlainAttribution::Mapped) << A.Why;
  const ptx::FunctionHistograms &H = A.Histograms;
  EXPECT_EQ(H.Blocks.at(0).at("add.s32"), 2u);
  EXPECT_EQ(H.Blocks.at(0).at("bra"), 1u);
  EXPECT_EQ(H.Blocks.count(2), 0u);
  ASSERT_EQ(H.Edges.size(), 1u);
  const auto &[E, Hist] = *H.Edges.begin();
  EXPECT_EQ(E.From, 2u);
  EXPECT_EQ(E.Other, 4u);
  EXPECT_EQ(Hist.at("shl.b32"), 2u);
  EXPECT_EQ(Hist.at("mul.lo.s32"), 1u);
  // The owners are the instrumented build's own.
  ptx::FunctionHistograms Own = ptx::attribute(Ours);
  ASSERT_EQ(Own.Edges.size(), 1u);
  EXPECT_EQ(Own.Edges.begin()->first.From, E.From);
}

TEST(PlainHistograms, OtherBlocksDoNotMap) {
  std::string Extra = "$L__BB0_9:\nadd.s32 %r1, %r1, 1;\n"
                      "@%p1 bra $L__BB0_9;\n";
  PlainAttribution A = ptx::attributePlain(parseBody(loop(1, true)),
                                           parseBody(Extra + loop(1, false)));
  EXPECT_EQ(A.Status, PlainAttribution::NotMapped);
  EXPECT_EQ(A.Why, "the plain build's PTX has 4 blocks, the instrumented "
                   "build's 3");
  EXPECT_TRUE(A.Histograms.Blocks.empty());
}

TEST(PlainHistograms, OtherEdgesDoNotMap) {
  std::string Ours = probe(0) + "@%p1 bra $L__BB0_2;\n" + probe(2) +
                     "mov.u32 %r1, 1;\n$L__BB0_2:\n" + probe(4) + "ret;\n";
  std::string Plain = "@%p1 bra $L__BB0_2;\nmov.u32 %r1, 1;\nret;\n"
                      "$L__BB0_2:\nret;\n";
  PlainAttribution A = ptx::attributePlain(parseBody(Ours), parseBody(Plain));
  EXPECT_EQ(A.Status, PlainAttribution::NotMapped);
  EXPECT_NE(A.Why.find("PTX block 1 (plain line "), std::string::npos) << A.Why;
  EXPECT_NE(A.Why.find("goes to blocks {} in the plain build, {2} in the "
                       "instrumented build"),
            std::string::npos)
      << A.Why;
}

} // namespace
