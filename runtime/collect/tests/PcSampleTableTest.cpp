//===- PcSampleTableTest.cpp - CUPTI records into our profile structures --===//
//
// Records are built the way cuptiPCSamplingGetData and
// cuptiSassMetricsFlushData fill them, so no GPU is needed.
//
//===----------------------------------------------------------------------===//

#include "PcSampleTable.h"
#include "CollectSettings.h"
#include "SassMetricsTable.h"
#include "warpscope/ABI/PcSampling.h"
#include "gtest/gtest.h"
#include <map>

using namespace warpscope::collect;

namespace {

/// One drain: PCs with (reason index, samples) lists.
struct Drain {
  std::vector<std::vector<CUpti_PCSamplingStallReason>> Reasons;
  std::vector<CUpti_PCSamplingPCData> Pcs;
  CUpti_PCSamplingData Data{};

  void pc(uint64_t Crc, const char *Function, uint64_t Offset,
          std::vector<std::pair<uint32_t, uint32_t>> Stalls) {
    Reasons.emplace_back();
    for (auto [Index, N] : Stalls)
      Reasons.back().push_back({Index, N});
    CUpti_PCSamplingPCData P{};
    P.size = sizeof P;
    P.cubinCrc = Crc;
    P.pcOffset = Offset;
    P.functionIndex = 3;
    P.functionName = const_cast<char *>(Function);
    Pcs.push_back(P);
  }
  const CUpti_PCSamplingData &done(uint64_t Total, uint64_t Dropped) {
    for (size_t I = 0; I < Pcs.size(); ++I) {
      Pcs[I].stallReason = Reasons[I].data();
      Pcs[I].stallReasonCount = Reasons[I].size();
    }
    Data.size = sizeof Data;
    Data.totalNumPcs = Pcs.size();
    Data.pPcData = Pcs.data();
    Data.totalSamples = Total;
    Data.droppedSamples = Dropped;
    return Data;
  }
};

TEST(PcSampleTable, MergesDrainsPerPcAndStallReason) {
  PcSampleTable T;
  // Names come from the device at run time; indices need not be dense.
  T.setStallReasons({0, 7, 9}, {"smsp__pcsamp_warps_issue_stalled_barrier",
                                "smsp__pcsamp_warps_issue_stalled_selected",
                                "smsp__pcsamp_warps_issue_stalled_wait"});
  Drain A;
  A.pc(0xabc, "_Z1kPi", 0x40, {{0, 5}, {7, 2}, {9, 0}});
  A.pc(0xabc, "_Z1kPi", 0x50, {{9, 4}});
  T.add(A.done(11, 1));
  Drain B;
  B.pc(0xabc, "_Z1kPi", 0x40, {{0, 1}, {12, 3}}); // 12 was never named
  B.pc(0xdef, "_Z1kPi", 0x40, {{7, 6}});          // same name, other cubin
  T.add(B.done(10, 2));

  EXPECT_EQ(T.Drains, 2u);
  EXPECT_EQ(T.TotalSamples, 21u);
  EXPECT_EQ(T.DroppedSamples, 3u);
  ASSERT_EQ(T.pcs().size(), 3u);
  const PcCounts &C = T.pcs().at({0xabc, "_Z1kPi", 0x40});
  EXPECT_EQ(T.samples(C), 11u);
  EXPECT_EQ(C.ByReason.at(0), 6u);
  EXPECT_EQ(C.ByReason.at(7), 2u);
  EXPECT_EQ(C.ByReason.at(12), 3u);
  EXPECT_EQ(C.ByReason.count(9), 0u) << "zero-sample reasons are not kept";
  EXPECT_EQ(T.reasonName(12), "stall-12");

  T.noteCubin(0xabc);
  nlohmann::json J = T.toJson(42, "/bin/app", 9);
  EXPECT_EQ(J["schema"], "warpscope-pcsampling/3");
  EXPECT_EQ(J["source"], "cupti");
  EXPECT_EQ(J["granularity"], "sass");
  EXPECT_EQ(J["sampling_period"], 9);
  EXPECT_EQ(J["dropped_samples"], 3);
  EXPECT_EQ(J["stall_reasons"].size(), 3u);
  EXPECT_EQ(J["cubins"][0]["file"], "cubin-0000000000000abc.cubin");
  ASSERT_EQ(J["pcs"].size(), 3u);
  const nlohmann::json &P = J["pcs"][0];
  EXPECT_EQ(P["cubin_crc"], "0000000000000abc");
  EXPECT_EQ(P["pc_offset"], 0x40);
  EXPECT_EQ(P["samples"], 11);
  EXPECT_EQ(P["stalls"]["smsp__pcsamp_warps_issue_stalled_barrier"], 6);
  EXPECT_EQ(P["stalls"]["stall-12"], 3);
  EXPECT_TRUE(T.toJson(1, "", std::nullopt)["sampling_period"].is_null());
}

// GH100 pairs every stall reason with "<reason>_not_issued": the samples of
// that reason taken when the scheduler issued nothing, a subset, not more
// samples.
// CUPTI's total_samples equals the sum of the base reasons alone (seen on an
// H100 for all 19 benchmarks).
TEST(PcSampleTable, NotIssuedCountsAreNotSamplesOfTheirOwn) {
  PcSampleTable T;
  Drain A;
  A.pc(0xabc, "_Z1kPi", 0x90, {{30, 1}, {31, 1}});          // one sample
  A.pc(0xabc, "_Z1kPi", 0xa0, {{28, 2}, {40, 3}, {41, 2}}); // five
  T.add(A.done(6, 0));
  // Named after the drain: the count follows the names, not the order.
  T.setStallReasons(
      {28, 30, 31, 40, 41},
      {"smsp__pcsamp_warps_issue_stalled_selected",
       "smsp__pcsamp_warps_issue_stalled_short_scoreboard",
       "smsp__pcsamp_warps_issue_stalled_short_scoreboard_not_issued",
       "smsp__pcsamp_warps_issue_stalled_wait",
       "smsp__pcsamp_warps_issue_stalled_wait_not_issued"});
  EXPECT_EQ(T.samples(T.pcs().at({0xabc, "_Z1kPi", 0x90})), 1u);
  EXPECT_EQ(T.samples(T.pcs().at({0xabc, "_Z1kPi", 0xa0})), 5u);
  nlohmann::json J = T.toJson(7, "p", std::nullopt);
  EXPECT_EQ(J["schema"], "warpscope-pcsampling/3");
  EXPECT_EQ(J["source"], "cupti");
  EXPECT_EQ(J["granularity"], "sass");
  const nlohmann::json &P = J["pcs"][0];
  EXPECT_EQ(P["samples"], 1) << "one sample, not base + not-issued";
  // Both kinds stay in stalls: the report shows the not-issued view.
  EXPECT_EQ(P["stalls"]["smsp__pcsamp_warps_issue_stalled_short_scoreboard"],
            1);
  EXPECT_EQ(P["stalls"]
             ["smsp__pcsamp_warps_issue_stalled_short_scoreboard_not_issued"],
            1);
  EXPECT_EQ(J["pcs"][1]["samples"], 5);
  uint64_t Base = 0;
  for (const nlohmann::json &Pc : J["pcs"])
    Base += Pc["samples"].get<uint64_t>();
  EXPECT_EQ(Base, J["total_samples"].get<uint64_t>());

  EXPECT_TRUE(warpscope::isNotIssuedStall("x_wait_not_issued"));
  EXPECT_FALSE(warpscope::isNotIssuedStall("_not_issued")) << "no base reason";
  EXPECT_FALSE(
      warpscope::isNotIssuedStall("smsp__pcsamp_warps_issue_stalled_wait"));
  EXPECT_FALSE(warpscope::isNotIssuedStall("stall-41"));
}

TEST(PcSampleTable, EmptyAndFullDrains) {
  PcSampleTable T;
  CUpti_PCSamplingData Empty{};
  T.add(Empty); // nothing sampled: no PCs array at all
  CUpti_PCSamplingData Full{};
  Full.hardwareBufferFull = 1;
  Full.droppedSamples = 100;
  T.add(Full);
  EXPECT_TRUE(T.pcs().empty());
  EXPECT_TRUE(T.HardwareBufferFull);
  EXPECT_EQ(T.DroppedSamples, 100u);
  EXPECT_EQ(T.toJson(1, "", 5)["hardware_buffer_full"], true);
}

TEST(SassMetricsTable, SumsInstancesAndFlushes) {
  SassMetricsTable T;
  T.noteMetric(11, "smsp__sass_inst_executed");
  T.noteMetric(12, "smsp__sass_thread_inst_executed");
  CUpti_SassMetrics_InstanceValue V[4] = {{11, 3}, {12, 90}, {11, 1}, {99, 7}};
  CUpti_SassMetrics_Data R[2]{};
  R[0].cubinCrc = 5;
  R[0].functionName = "_Z1kPi";
  R[0].pcOffset = 0x10;
  R[0].pInstanceValues = V;
  R[1] = R[0];
  R[1].pInstanceValues = V + 2;
  T.add(R, 2, 2);
  T.add(R, 1, 2);
  auto &M = T.pcs().at({5, "_Z1kPi", 0x10});
  EXPECT_EQ(M.at("smsp__sass_inst_executed"), 3u + 1u + 3u);
  EXPECT_EQ(M.at("smsp__sass_thread_inst_executed"), 180u);
  EXPECT_EQ(M.at("metric-99"), 7u);
  nlohmann::json J = T.toJson(1, "p", "GH100");
  EXPECT_EQ(J["schema"], "warpscope-sassmetrics/1");
  EXPECT_EQ(J["flushes"], 2);
  EXPECT_EQ(J["pcs"][0]["metrics"]["smsp__sass_inst_executed"], 7);
}

TEST(SassMetricsTable, WantsExecutionAndBranchMetricsOnly) {
  EXPECT_TRUE(isWantedSassMetric("smsp__sass_inst_executed"));
  EXPECT_TRUE(isWantedSassMetric("smsp__sass_thread_inst_executed"));
  EXPECT_TRUE(
      isWantedSassMetric("smsp__sass_branch_targets_threads_divergent"));
  EXPECT_TRUE(isWantedSassMetric("smsp__sass_branch_targets_threads_uniform"));
  EXPECT_FALSE(isWantedSassMetric("smsp__sass_inst_executed_op_shared_ld"));
  EXPECT_FALSE(isWantedSassMetric("sass_inst_executed"));
}

const char *lookup(std::map<std::string, std::string> &Env, const char *N) {
  auto It = Env.find(N);
  return It == Env.end() ? nullptr : It->second.c_str();
}
std::map<std::string, std::string> TestEnv;

TEST(CollectSettings, ReadsModePeriodAndDirectory) {
  auto Get = [](const char *N) { return lookup(TestEnv, N); };
  TestEnv = {};
  CollectSettings S = readCollectSettings(Get);
  EXPECT_EQ(S.Mode, CollectMode::PcSampling);
  EXPECT_FALSE(S.SamplingPeriod);
  EXPECT_EQ(S.OutputDirectory, "warpscope-out");
  TestEnv = {{"WARPSCOPE_COLLECT", "sass-metrics"},
             {"WARPSCOPE_SAMPLING_PERIOD", "31"},
             {"WARPSCOPE_OUT", "/tmp/x"}};
  S = readCollectSettings(Get);
  EXPECT_EQ(S.Mode, CollectMode::SassMetrics);
  EXPECT_EQ(*S.SamplingPeriod, 31u);
  EXPECT_EQ(S.OutputDirectory, "/tmp/x");
  EXPECT_TRUE(S.Warning.empty());
  TestEnv = {{"WARPSCOPE_SAMPLING_PERIOD", "4"}};
  S = readCollectSettings(Get);
  EXPECT_FALSE(S.SamplingPeriod);
  EXPECT_NE(S.Warning.find("5..31"), std::string::npos);
  for (const char *Bad : {"", "32", "-5", "5x", "100", "abc", " 5", "+5"}) {
    TestEnv = {{"WARPSCOPE_SAMPLING_PERIOD", Bad}};
    EXPECT_FALSE(readCollectSettings(Get).SamplingPeriod) << Bad;
  }
  TestEnv = {{"WARPSCOPE_SAMPLING_PERIOD", "5"}};
  EXPECT_EQ(*readCollectSettings(Get).SamplingPeriod, 5u);
}

} // namespace
