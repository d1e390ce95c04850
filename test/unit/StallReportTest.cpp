//===- StallReportTest.cpp - pcsamples + database -> per-line stall rows --===//

#include "StallReport.h"
#include "PcSampling.h"
#include "gtest/gtest.h"
#include <fstream>
#include <unistd.h>

using namespace warpscope;

namespace {

const std::string Fixtures = WARPSCOPE_FIXTURES;

std::string tempDir() {
  char Tmpl[] = "/tmp/wsstallXXXXXX";
  return mkdtemp(Tmpl);
}

/// A probed branch of a one-function profile.
BranchCounts branch(const char *File, unsigned Line, uint64_t Visits,
                    uint64_t Divergent) {
  BranchCounts B;
  B.Probed = true;
  B.Loc = {File, Line, 1};
  B.Visits = Visits;
  B.Divergent = Divergent;
  return B;
}

TEST(StallReport, JoinsLinesWithTheDivergenceMap) {
  std::string Dir = tempDir();
  std::ifstream In(Fixtures + "/cubin/lines.cubin", std::ios::binary);
  std::ofstream(Dir + "/cubin-00000000000000c1.cubin", std::ios::binary)
      << In.rdbuf();
  // scale: 0x50 -> line 4, 0x80 and 0x90 -> line 5 (two pcs, one line),
  // 0xe0 -> line 6; two pcsamples files (two processes) merge.
  std::ofstream(Dir + "/pcsamples-1.json") << R"({
    "schema": "warpscope-pcsampling/1", "total_samples": 70,
    "dropped_samples": 1, "pcs": [
    {"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",
     "pc_offset": 80, "samples": 10,
     "stalls": {"smsp__pcsamp_warps_issue_stalled_branch_resolving": 10}},
    {"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",
     "pc_offset": 128, "samples": 30,
     "stalls": {"smsp__pcsamp_warps_issue_stalled_long_scoreboard": 30}}]})";
  std::ofstream(Dir + "/pcsamples-2.json") << R"({
    "schema": "warpscope-pcsampling/1", "total_samples": 30,
    "dropped_samples": 2, "pcs": [
    {"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",
     "pc_offset": 144, "samples": 20,
     "stalls": {"smsp__pcsamp_warps_issue_stalled_long_scoreboard": 5,
                "smsp__pcsamp_warps_issue_stalled_wait": 15}},
    {"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",
     "pc_offset": 224, "samples": 4,
     "stalls": {"smsp__pcsamp_warps_issue_stalled_selected": 4}}]})";

  auto Samples = loadPcSamples(Dir);
  ASSERT_TRUE(bool(Samples)) << toString(Samples.takeError());
  ASSERT_TRUE(Samples->has_value());
  EXPECT_EQ((*Samples)->Files.size(), 2u);
  EXPECT_TRUE((*Samples)->Warnings.empty());

  ProfileSet Set;
  FunctionProfile F;
  F.Name = "_Z5scalePfPKfi";
  // The database may name the file relative to the build directory.
  F.Branches = {branch("lines.cu", 4, 8, 2), branch("lines.cu", 6, 8, 6),
                branch("lines.cu", 6, 4, 1), branch("other.cu", 5, 9, 9)};
  F.Branches[2].Probed = false; // proven uniform: not part of the map
  Set.Functions.push_back(F);

  StallView V = buildStallView(**Samples, Set, "");
  EXPECT_EQ(V.TotalSamples, 100u);
  EXPECT_EQ(V.DroppedSamples, 3u);
  ASSERT_EQ(V.Kernels.size(), 1u);
  const StallKernel &K = V.Kernels[0];
  EXPECT_EQ(K.Name, "scale(float*, float const*, int)");
  EXPECT_EQ(K.Samples, 64u);
  EXPECT_EQ(K.Stalls.at("long_scoreboard"), 35u);
  ASSERT_EQ(K.Lines.size(), 3u);
  // Most samples first: line 5 (two pcs), then 4, then 6.
  EXPECT_EQ(K.Lines[0].Line, 5u);
  EXPECT_EQ(K.Lines[0].Samples, 50u);
  EXPECT_EQ(K.Lines[0].Stalls.at("wait"), 15u);
  EXPECT_EQ(K.Lines[0].Branches, 0u) << "other.cu:5 is another file";
  EXPECT_EQ(K.Lines[1].Line, 4u);
  EXPECT_EQ(K.Lines[1].Branches, 1u);
  EXPECT_EQ(K.Lines[1].Visits, 8u);
  EXPECT_EQ(K.Lines[1].Divergent, 2u);
  EXPECT_EQ(K.Lines[2].Line, 6u);
  EXPECT_EQ(K.Lines[2].Visits, 8u) << "unprobed branches are not joined";
  EXPECT_EQ(K.Lines[2].Divergent, 6u);

  llvm::json::Value J = renderStallJson(V);
  const llvm::json::Object *Line4 = J.getAsObject()
                                        ->getArray("kernels")
                                        ->front()
                                        .getAsObject()
                                        ->getArray("lines")
                                        ->
                                        operator[](1)
                                        .getAsObject();
  EXPECT_EQ(*Line4->getNumber("divergence_rate"), 0.25);
  EXPECT_EQ(*Line4->getInteger("line"), 4);

  EXPECT_EQ(buildStallView(**Samples, Set, "^count").Kernels.size(), 0u);
}

TEST(StallReport, NamesAndPaths) {
  EXPECT_EQ(shortStallName("smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
            "long_scoreboard");
  EXPECT_EQ(shortStallName("some_other_reason"), "some_other_reason");
  EXPECT_TRUE(sameSourceFile("/a/b/lines.cu", "b/lines.cu"));
  EXPECT_TRUE(sameSourceFile("lines.cu", "/a/lines.cu"));
  EXPECT_FALSE(sameSourceFile("/a/xlines.cu", "lines.cu"));
  EXPECT_FALSE(sameSourceFile("", "lines.cu"));
}

TEST(StallReport, NoPcSamplesIsNoView) {
  std::string Dir = tempDir();
  auto Samples = loadPcSamples(Dir);
  ASSERT_TRUE(bool(Samples));
  EXPECT_FALSE(Samples->has_value());
}

} // namespace
