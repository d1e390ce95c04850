//===- StallReportTest.cpp - pcsamples + database -> per-line stall rows --===//

#include "StallReport.h"
#include "PcSampling.h"
#include "RunDirectory.h"
#include "gtest/gtest.h"
#include <fstream>
#include <unistd.h>

using namespace warpscope;

namespace {

const std::string Fixtures = WARPSCOPE_FIXTURES;

/// Dir's PC samples, read through a RunDirectory as the commands read them.
llvm::Expected<std::optional<PcSampleSet>>
loadPcSamples(const std::string &Dir) {
  RunDirectory Run(Dir);
  llvm::Expected<const std::optional<PcSampleSet> &> S = Run.pcSamples();
  if (!S)
    return S.takeError();
  return *S;
}

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
  // 0xe0 -> line 6; two pcsamples files (two processes, /1 and /2) merge.
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
    "schema": "warpscope-pcsampling/2", "total_samples": 30,
    "dropped_samples": 2, "pcs": [
    {"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",
     "pc_offset": 144, "samples": 20,
     "stalls": {"smsp__pcsamp_warps_issue_stalled_long_scoreboard": 5,
                "smsp__pcsamp_warps_issue_stalled_wait": 15,
                "smsp__pcsamp_warps_issue_stalled_wait_not_issued": 12}},
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
  EXPECT_EQ(K.Lines[0].NotIssuedStalls.at("wait"), 12u);
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
                                        ->operator[](1)
                                        .getAsObject();
  EXPECT_EQ(*Line4->getNumber("divergence_rate"), 0.25);
  EXPECT_EQ(*Line4->getInteger("line"), 4);

  EXPECT_EQ(buildStallView(**Samples, Set, "^count").Kernels.size(), 0u);
}

/// A temp dir with the cubin whose lines the pcs map to (0x90 -> line 5,
/// 0xe0 -> line 6).
std::string sampleDir() {
  std::string Dir = tempDir();
  std::ifstream In(Fixtures + "/cubin/lines.cubin", std::ios::binary);
  std::ofstream(Dir + "/cubin-00000000000000c1.cubin", std::ios::binary)
      << In.rdbuf();
  return Dir;
}

/// Writes Dir/pcsamples-<N>.json with one kernel's pcs.
void writeSamples(const std::string &Dir, int N, const std::string &Schema,
                  uint64_t Total, const std::string &Pcs) {
  std::ofstream(Dir + "/pcsamples-" + std::to_string(N) + ".json")
      << R"({"schema": ")" << Schema << R"(", "total_samples": )" << Total
      << R"(, "dropped_samples": 0, "non_user_samples": 0, "pcs": [)" << Pcs
      << "]}";
}

std::string pc(unsigned Offset, unsigned Samples, const std::string &Stalls) {
  return R"({"cubin_crc": "00000000000000c1", "function": "_Z5scalePfPKfi",)"
         R"( "pc_offset": )" +
         std::to_string(Offset) + R"(, "samples": )" + std::to_string(Samples) +
         R"(, "stalls": {)" + Stalls + "}}";
}

const std::string LS = R"("smsp__pcsamp_warps_issue_stalled_long_scoreboard)";
const std::string Wait = R"("smsp__pcsamp_warps_issue_stalled_wait)";
const std::string Sel = R"("smsp__pcsamp_warps_issue_stalled_selected)";

StallView viewOf(const std::string &Dir) {
  auto Samples = loadPcSamples(Dir);
  EXPECT_TRUE(bool(Samples)) << toString(Samples.takeError());
  return buildStallView(**Samples, ProfileSet(), "");
}

// As an H100 reports them: each sample has one reason; "<reason>_not_issued"
// counts the subset taken when the scheduler issued nothing. 10 samples here
// (CUPTI's total), 7 of them not issued; not 17 samples.
TEST(StallReport, NotIssuedIsASubsetNotMoreSamples) {
  const std::string Pcs =
      pc(144, 8,
         LS + R"(": 6, )" + LS + R"(_not_issued": 6, )" + Wait + R"(": 2, )" +
             Wait + R"(_not_issued": 1)") +
      ", " + pc(224, 2, Sel + R"(": 2)");
  std::string V2 = sampleDir();
  writeSamples(V2, 1, "warpscope-pcsampling/2", 10, Pcs);
  StallView V = viewOf(V2);
  EXPECT_TRUE(V.NotIssuedKnown);
  EXPECT_EQ(V.All.Samples, V.TotalSamples);
  EXPECT_EQ(V.All.NotIssued, 7u);
  ASSERT_EQ(V.Kernels.size(), 1u);
  const StallKernel &K = V.Kernels[0];
  EXPECT_EQ(K.Samples, 10u);
  EXPECT_EQ(K.NotIssued, 7u);
  // Reasons are the base ones only and add up to the samples.
  EXPECT_EQ(K.Stalls,
            (std::map<std::string, uint64_t>{
                {"long_scoreboard", 6}, {"selected", 2}, {"wait", 2}}));
  EXPECT_EQ(K.NotIssuedStalls, (std::map<std::string, uint64_t>{
                                   {"long_scoreboard", 6}, {"wait", 1}}));
  ASSERT_EQ(K.Lines.size(), 2u);
  EXPECT_EQ(K.Lines[0].Samples, 8u);
  EXPECT_EQ(K.Lines[0].NotIssued, 7u);
  EXPECT_EQ(K.Lines[1].NotIssued, 0u) << "selected: the warp issued";

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderStallText(V, 0, OS);
  EXPECT_NE(Text.find("10 samples, not issued 7 (70.0%)"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("stalls (all samples): long_scoreboard 60.0% selected "
                      "20.0% wait 20.0%\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("stalls (not-issued samples): long_scoreboard 85.7% "
                      "wait 14.3%\n"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("_not_issued"), std::string::npos) << Text;

  llvm::json::Value J = renderStallJson(V);
  const llvm::json::Object &O = *J.getAsObject();
  EXPECT_EQ(*O.getInteger("version"), 2);
  EXPECT_EQ(*O.getInteger("samples"), 10);
  EXPECT_EQ(*O.getInteger("not_issued_samples"), 7);
  EXPECT_EQ(*O.getNumber("not_issued_rate"), 0.7);
  const llvm::json::Object &JK = *O.getArray("kernels")->front().getAsObject();
  EXPECT_EQ(JK.getObject("stalls")->size(), 3u);
  EXPECT_EQ(*JK.getObject("not_issued_stalls")->getInteger("long_scoreboard"),
            6);
  const llvm::json::Object &Top = *JK.getArray("lines")
                                       ->front()
                                       .getAsObject()
                                       ->getArray("top_stalls")
                                       ->front()
                                       .getAsObject();
  EXPECT_EQ(*Top.getString("reason"), "long_scoreboard");
  EXPECT_EQ(*Top.getInteger("not_issued_samples"), 6);

  // A /1 file (written before the fix: samples = all reasons) is recounted.
  std::string V1 = sampleDir();
  writeSamples(V1, 1, "warpscope-pcsampling/1", 10,
               pc(144, 15,
                  LS + R"(": 6, )" + LS + R"(_not_issued": 6, )" + Wait +
                      R"(": 2, )" + Wait + R"(_not_issued": 1)") +
                   ", " + pc(224, 2, Sel + R"(": 2)"));
  StallView W = viewOf(V1);
  EXPECT_EQ(W.All.Samples, 10u);
  EXPECT_EQ(W.All.NotIssued, 7u);
  EXPECT_EQ(W.Kernels[0].Stalls, K.Stalls);
  EXPECT_EQ(W.Kernels[0].NotIssuedStalls, K.NotIssuedStalls);

  // /2 with /1's count, and /1 with /2's, are damaged.
  std::string Bad = tempDir();
  writeSamples(Bad, 1, "warpscope-pcsampling/2", 10,
               pc(144, 12, LS + R"(": 6, )" + LS + R"(_not_issued": 6)"));
  auto E = loadPcSamples(Bad);
  ASSERT_FALSE(bool(E));
  EXPECT_NE(toString(E.takeError()).find("do not add up"), std::string::npos);
  writeSamples(Bad, 1, "warpscope-pcsampling/1", 10,
               pc(144, 6, LS + R"(": 6, )" + LS + R"(_not_issued": 6)"));
  E = loadPcSamples(Bad);
  ASSERT_FALSE(bool(E));
  EXPECT_NE(toString(E.takeError()).find("do not add up"), std::string::npos);
  writeSamples(Bad, 1, "warpscope-pcsampling/2", 10,
               pc(144, 6, LS + R"(": 6, )" + Wait + R"(_not_issued": 7)"));
  E = loadPcSamples(Bad);
  ASSERT_FALSE(bool(E));
  EXPECT_NE(toString(E.takeError()).find("more not-issued than stalled"),
            std::string::npos);
}

// A device without not-issued reasons says nothing about issue: unknown,
// never 0%.
TEST(StallReport, NotIssuedUnknownWithoutNotIssuedReasons) {
  std::string Dir = tempDir();
  writeSamples(Dir, 1, "warpscope-pcsampling/2", 6,
               pc(144, 6, LS + R"(": 4, )" + Wait + R"(": 2)"));
  StallView V = viewOf(Dir);
  EXPECT_FALSE(V.NotIssuedKnown);
  EXPECT_EQ(V.Kernels[0].Samples, 6u);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderStallText(V, 0, OS);
  EXPECT_NE(Text.find("6 samples, not issued unknown"), std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("not-issued samples"), std::string::npos) << Text;
  llvm::json::Value J = renderStallJson(V);
  const llvm::json::Object &K =
      *J.getAsObject()->getArray("kernels")->front().getAsObject();
  EXPECT_EQ(K.get("not_issued_samples")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(K.get("not_issued_rate")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(K.get("not_issued_stalls")->kind(), llvm::json::Value::Null);

  // One file listing the device's not-issued reasons is enough to know.
  std::ofstream(Dir + "/pcsamples-1.json")
      << R"({"schema": "warpscope-pcsampling/2", "total_samples": 6,
      "dropped_samples": 0, "stall_reasons": [{"index": 3, "name":
      "smsp__pcsamp_warps_issue_stalled_wait_not_issued"}], "pcs": [)"
      << pc(144, 6, LS + R"(": 4, )" + Wait + R"(": 2)") << "]}";
  EXPECT_TRUE(viewOf(Dir).NotIssuedKnown);
}

TEST(StallReport, NamesAndPaths) {
  EXPECT_EQ(shortStallName("smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
            "long_scoreboard");
  EXPECT_EQ(shortStallName(
                "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued"),
            "long_scoreboard");
  EXPECT_TRUE(
      isNotIssuedStall("smsp__pcsamp_warps_issue_stalled_wait_not_issued"));
  EXPECT_FALSE(
      isNotIssuedStall("smsp__pcsamp_warps_issue_stalled_not_selected"));
  EXPECT_FALSE(isNotIssuedStall("_not_issued"));
  EXPECT_EQ(shortStallName("some_other_reason"), "some_other_reason");
  EXPECT_TRUE(sameSourceFile("/a/b/lines.cu", "b/lines.cu"));
  EXPECT_TRUE(sameSourceFile("lines.cu", "/a/lines.cu"));
  EXPECT_FALSE(sameSourceFile("/a/xlines.cu", "lines.cu"));
  EXPECT_FALSE(sameSourceFile("", "lines.cu"));
}

// Version 3 from the emulator's timing model: PTX granularity, lines from
// the file itself, labelled as modeled.
TEST(StallReport, ModeledSamplesAtPtxGranularity) {
  std::string Dir = tempDir();
  std::ofstream(Dir + "/pcsamples-1.json")
      << R"({"schema": "warpscope-pcsampling/3", "source": "model",
      "granularity": "ptx", "model_config": "h100-sxm", "total_samples": 7,
      "dropped_samples": 0, "non_user_samples": 0, "stall_reasons": [],
      "cubins": [], "pcs": [{"function": "_Z1kv", "ptx_index": 12,
      "file": "/src/k.cu", "line": 40, "samples": 7, "stalls": {
      "smsp__pcsamp_warps_issue_stalled_barrier": 5,
      "smsp__pcsamp_warps_issue_stalled_barrier_not_issued": 4,
      "smsp__pcsamp_warps_issue_stalled_selected": 2}}], "errors": []})";
  auto Samples = loadPcSamples(Dir);
  ASSERT_TRUE(bool(Samples)) << toString(Samples.takeError());
  const PcSampleSet &Set = **Samples;
  EXPECT_EQ(Set.Source, "model");
  EXPECT_EQ(Set.ModelConfig, "h100-sxm");
  ASSERT_EQ(Set.Pcs.size(), 1u);
  ASSERT_TRUE(Set.Pcs[0].PtxIndex.has_value());
  EXPECT_EQ(*Set.Pcs[0].PtxIndex, 12u);
  EXPECT_EQ(Set.Pcs[0].File, "/src/k.cu");
  EXPECT_EQ(Set.Pcs[0].Line, 40u);
  EXPECT_TRUE(Set.Warnings.empty()); // no cubin is looked for
  StallView V = buildStallView(Set, ProfileSet(), "");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderStallText(V, 0, OS);
  EXPECT_NE(Text.find("Stall view (modeled PC sampling: emulator timing "
                      "model, configuration h100-sxm, not measured)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("/src/k.cu:40"), std::string::npos) << Text;
  llvm::json::Value J = renderStallJson(V);
  EXPECT_EQ(J.getAsObject()->getString("source"), "model");
  EXPECT_NE(renderStallHtml(V).find("modeled PC sampling"), std::string::npos);

  // A version 3 file must say where its samples come from.
  std::ofstream(Dir + "/pcsamples-1.json")
      << R"({"schema": "warpscope-pcsampling/3", "granularity": "ptx",
      "total_samples": 0, "dropped_samples": 0, "pcs": []})";
  auto Bad = loadPcSamples(Dir);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError())
                .find("source must be cupti or model and granularity sass or "
                      "ptx"),
            std::string::npos);
}

// Modeled samples of an instrumented program say how the model treated its
// probe instructions; the view's title and JSON carry it, and a value that
// is none of free, modeled or mixed is refused.
TEST(StallReport, ModeledSamplesSayHowProbesWereTreated) {
  std::string Dir = tempDir();
  auto Write = [&](const char *Probes) {
    std::ofstream(Dir + "/pcsamples-1.json")
        << R"({"schema": "warpscope-pcsampling/3", "source": "model",
        "granularity": "ptx", "model_config": "h100-sxm", "model_probes": ")"
        << Probes << R"(", "total_samples": 2, "dropped_samples": 0,
        "stall_reasons": [], "pcs": [{"function": "_Z1kv", "ptx_index": 3,
        "file": "/src/k.cu", "line": 9, "samples": 2, "stalls": {
        "smsp__pcsamp_warps_issue_stalled_selected": 2}}], "errors": []})";
  };
  Write("free");
  auto Samples = loadPcSamples(Dir);
  ASSERT_TRUE(bool(Samples)) << toString(Samples.takeError());
  EXPECT_EQ((*Samples)->ModelProbes, "free");
  StallView V = buildStallView(**Samples, ProfileSet(), "");
  EXPECT_EQ(V.title(), "Stall view (modeled PC sampling: emulator timing "
                       "model, configuration h100-sxm, probe instructions "
                       "free, not measured)");
  EXPECT_EQ(renderStallJson(V).getAsObject()->getString("model_probes"),
            "free");
  Write("cheap");
  auto Bad = loadPcSamples(Dir);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError())
                .find("model_probes must be free, modeled or mixed"),
            std::string::npos);
}

TEST(StallReport, NoPcSamplesIsNoView) {
  std::string Dir = tempDir();
  auto Samples = loadPcSamples(Dir);
  ASSERT_TRUE(bool(Samples));
  EXPECT_FALSE(Samples->has_value());
}

} // namespace
