//===- SassMetricsTest.cpp - sassmetrics-*.json -> per-function hardware --===//
//
// The files here are hand-written in the collector's format
// (docs/pc-sampling-schema.md), their numbers synthetic, chosen to make the
// sums and ratios easy to check; the metric names are those the collector
// gathered on an H100. test/lit/report/sassmetrics-h100.test reads a real
// file.
//
//===----------------------------------------------------------------------===//

#include "SassMetrics.h"
#include "Report.h"
#include "RunDirectory.h"
#include "SassReport.h"
#include "gtest/gtest.h"
#include <fstream>
#include <unistd.h>

using namespace warpscope;

namespace {

/// Dir's SASS metrics, read through a RunDirectory as the commands read
/// them.
llvm::Expected<std::optional<SassMetricsSet>>
loadSassMetrics(const std::string &Dir) {
  RunDirectory Run(Dir);
  llvm::Expected<const std::optional<SassMetricsSet> &> S = Run.sassMetrics();
  if (!S)
    return S.takeError();
  return *S;
}

std::string tempDir() {
  char Tmpl[] = "/tmp/wssassXXXXXX";
  return mkdtemp(Tmpl);
}

const char *AllMetrics = R"("collected_metrics": [
      "smsp__sass_inst_executed", "smsp__sass_thread_inst_executed",
      "smsp__sass_branch_targets", "smsp__sass_branch_targets_threads_uniform",
      "smsp__sass_branch_targets_threads_divergent"])";

/// One pcs[] entry of function Fn at Offset with Metrics (a JSON object).
std::string pc(const std::string &Fn, unsigned Offset,
               const std::string &Metrics) {
  return R"({"cubin_crc": "00000000000000c1", "function": ")" + Fn +
         R"(", "pc_offset": )" + std::to_string(Offset) + R"(, "metrics": )" +
         Metrics + "}";
}

std::string file(const std::string &Collected, const std::string &Pcs,
                 const std::string &Header =
                     R"("errors": [], "dropped_records": 0, "chip": "GH100")") {
  return R"({"schema": "warpscope-sassmetrics/1", "pid": 1, "program": "/x",
    "available_metrics": [], "flushes": 1, )" +
         Header + ", " + Collected + R"(, "pcs": [)" + Pcs + "]}";
}

void write(const std::string &Path, const std::string &Text) {
  std::ofstream(Path) << Text;
}

std::string loadError(const std::string &Dir) {
  auto S = loadSassMetrics(Dir);
  if (S)
    return "";
  return toString(S.takeError());
}

TEST(SassMetrics, SumsPerFunctionOverPcsAndFiles) {
  std::string Dir = tempDir();
  // scale: a branch at 0x10 (8 targets, 6 uniform, 2 divergent) and a
  // plain instruction at 0x20 that has no branch metrics; count: no branch.
  write(Dir + "/sassmetrics-1.json",
        file(AllMetrics, pc("_Z5scalePfPKfi", 16,
                            R"({"smsp__sass_inst_executed": 10,
                    "smsp__sass_thread_inst_executed": 300,
                    "smsp__sass_branch_targets": 8,
                    "smsp__sass_branch_targets_threads_uniform": 6,
                    "smsp__sass_branch_targets_threads_divergent": 2})") +
                             "," +
                             pc("_Z5scalePfPKfi", 32,
                                R"({"smsp__sass_inst_executed": 20,
                        "smsp__sass_thread_inst_executed": 640})") +
                             "," +
                             pc("_Z5countPiPKii", 16,
                                R"({"smsp__sass_inst_executed": 4,
                        "smsp__sass_branch_targets": 0})")));
  // A second process: one more branch pc of scale, all uniform, and a
  // collector error line.
  write(Dir + "/sassmetrics-2.json",
        file(AllMetrics,
             pc("_Z5scalePfPKfi", 48,
                R"({"smsp__sass_inst_executed": 2,
                    "smsp__sass_branch_targets": 4,
                    "smsp__sass_branch_targets_threads_uniform": 4})"),
             R"("errors": ["warpscope-collect: x failed"], "dropped_records": 3,
                "chip": "GH100")"));

  auto S = loadSassMetrics(Dir);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  ASSERT_TRUE(S->has_value());
  const SassMetricsSet &Set = **S;
  EXPECT_EQ(Set.Files.size(), 2u);
  EXPECT_EQ(Set.Chips, std::vector<std::string>{"GH100"});
  EXPECT_EQ(Set.DroppedRecords, 3u);
  ASSERT_EQ(Set.Warnings.size(), 2u);
  EXPECT_EQ(Set.Warnings[0], "sassmetrics-2.json: warpscope-collect: x failed");
  EXPECT_NE(Set.Warnings[1].find("3 SASS record(s) were dropped"),
            std::string::npos);

  ASSERT_EQ(Set.Functions.size(), 2u);
  const SassFunction &Scale = Set.Functions.at("_Z5scalePfPKfi");
  EXPECT_EQ(Scale.Pcs, 3u);
  EXPECT_EQ(Scale[SassCounter::InstExecuted].Value, 32u);
  EXPECT_EQ(Scale[SassCounter::InstExecuted].Metric,
            "smsp__sass_inst_executed");
  EXPECT_EQ(Scale[SassCounter::ThreadInstExecuted].Value, 940u);
  EXPECT_EQ(Scale[SassCounter::BranchTargets].Value, 12u);
  EXPECT_EQ(Scale[SassCounter::BranchTargetsUniform].Value, 10u);
  EXPECT_EQ(Scale[SassCounter::BranchTargetsDivergent].Value, 2u);
  SassRatio E = hardwareBranchEfficiency(Scale);
  ASSERT_TRUE(E.Value.has_value()) << E.Why;
  EXPECT_DOUBLE_EQ(*E.Value, 10.0 / 12.0);

  // No branch ran: 100%, as Nsight Compute shows it.
  SassRatio Count =
      hardwareBranchEfficiency(Set.Functions.at("_Z5countPiPKii"));
  ASSERT_TRUE(Count.Value.has_value());
  EXPECT_EQ(*Count.Value, 1.0);

  // Beside ours: 75% -> +8.3 points; 32 SASS / 40 PTX warp instructions.
  InstructionMix Mix;
  Mix.Available = true;
  Mix.Total.Warp = 40;
  HardwareComparison H = compareWithHardware(&Scale, 0.75, Mix);
  ASSERT_TRUE(H.DifferencePoints.has_value());
  EXPECT_NEAR(*H.DifferencePoints, (10.0 / 12.0 - 0.75) * 100, 1e-9);
  ASSERT_TRUE(H.InstRatio.Value.has_value());
  EXPECT_DOUBLE_EQ(*H.InstRatio.Value, 0.8);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderHardwareBranchText(H, OS);
  renderHardwareInstText(H, OS);
  EXPECT_EQ(Text, "  hardware branch efficiency (SASS): 83.3% (10 of 12 "
                  "branch targets uniform, 2 divergent); +8.3 percentage "
                  "points vs ours\n"
                  "  SASS instructions: 32 warp, 940 thread; 0.80x our PTX "
                  "warp instructions (informational: SASS and PTX counts "
                  "differ by design)\n");

  llvm::json::Object J;
  addHardwareJson(H, J);
  const llvm::json::Object *Hw = J.getObject("hardware");
  ASSERT_TRUE(Hw);
  EXPECT_EQ(*Hw->getInteger("branch_targets"), 12);
  EXPECT_NEAR(*Hw->getNumber("branch_efficiency_difference_points"), 8.333333,
              1e-5);
  EXPECT_EQ(*Hw->getNumber("inst_executed_per_ptx_warp_instruction"), 0.8);
  EXPECT_EQ(Hw->get("branch_efficiency_note")->kind(), llvm::json::Value::Null);
}

TEST(SassMetrics, PrefersSmspAmongUnits) {
  std::string Dir = tempDir();
  // Summing sm__ and smsp__ would count every execution twice.
  write(Dir + "/sassmetrics-1.json",
        file(R"("collected_metrics": ["sm__sass_inst_executed",
                                      "smsp__sass_inst_executed"])",
             pc("_Z1fv", 0,
                R"({"sm__sass_inst_executed": 7,
                    "smsp__sass_inst_executed": 5})")));
  auto S = loadSassMetrics(Dir);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  const SassCounterSum &Inst =
      (*S)->Functions.at("_Z1fv")[SassCounter::InstExecuted];
  EXPECT_EQ(Inst.Metric, "smsp__sass_inst_executed");
  EXPECT_EQ(Inst.Value, 5u);
}

TEST(SassMetrics, MissingMetricGivesAReasonNotZero) {
  std::string Dir = tempDir();
  // The chip offered no uniform-target metric in process 1; process 2 did.
  write(Dir + "/sassmetrics-1.json",
        file(R"("collected_metrics": ["smsp__sass_inst_executed",
                                      "smsp__sass_branch_targets"])",
             pc("_Z1fv", 0,
                R"({"smsp__sass_inst_executed": 5,
                    "smsp__sass_branch_targets": 4})")));
  write(Dir + "/sassmetrics-2.json",
        file(AllMetrics, pc("_Z1fv", 0,
                            R"({"smsp__sass_branch_targets": 2,
                                "smsp__sass_branch_targets_threads_uniform": 2})") +
                             "," +
                             pc("_Z1gv", 0,
                                R"({"smsp__sass_branch_targets": 2,
                                    "smsp__sass_branch_targets_threads_uniform": 1})")));
  auto S = loadSassMetrics(Dir);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  const SassFunction &F = (*S)->Functions.at("_Z1fv");
  SassRatio E = hardwareBranchEfficiency(F);
  EXPECT_FALSE(E.Value.has_value()) << "a partial sum is not the kernel's";
  EXPECT_EQ(E.Why, "sassmetrics-1.json did not collect "
                   "*__sass_branch_targets_threads_uniform (not in its "
                   "collected_metrics)");
  EXPECT_EQ(F[SassCounter::InstExecuted].Value, 5u);
  EXPECT_FALSE(F[SassCounter::ThreadInstExecuted].available());
  // g ran only where everything was collected.
  SassRatio G = hardwareBranchEfficiency((*S)->Functions.at("_Z1gv"));
  ASSERT_TRUE(G.Value.has_value()) << G.Why;
  EXPECT_EQ(*G.Value, 0.5);

  HardwareComparison H = compareWithHardware(&F, 0.9, InstructionMix());
  EXPECT_FALSE(H.DifferencePoints.has_value());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderHardwareBranchText(H, OS);
  EXPECT_EQ(Text, "  hardware branch efficiency (SASS): not available: " +
                      E.Why + "\n");
  llvm::json::Object J;
  addHardwareJson(H, J);
  const llvm::json::Object *Hw = J.getObject("hardware");
  EXPECT_EQ(Hw->get("branch_efficiency")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(Hw->get("branch_targets_uniform")->kind(), llvm::json::Value::Null);
  EXPECT_EQ(*Hw->getString("branch_efficiency_note"), E.Why);
  EXPECT_EQ(*Hw->getInteger("branch_targets"), 6);

  // No records at all (e.g. a device function inlined into its callers).
  HardwareComparison None = compareWithHardware(nullptr, 0.9, InstructionMix());
  EXPECT_FALSE(None.HasRecords);
  EXPECT_FALSE(None.BranchEfficiency.Value.has_value());
  EXPECT_FALSE(None.BranchEfficiency.Why.empty());
}

TEST(SassMetrics, BranchTargetsFromTheirPartsWhereTheChipLacksTheTotal) {
  // What the collector gathered on an H100 (GH100 offers no
  // *__sass_branch_targets): the total is the sum of its two parts.
  std::string Dir = tempDir();
  write(Dir + "/sassmetrics-1.json",
        file(R"("collected_metrics": ["smsp__sass_thread_inst_executed",
                 "smsp__sass_branch_targets_threads_divergent",
                 "smsp__sass_inst_executed",
                 "smsp__sass_branch_targets_threads_uniform"])",
             pc("_Z1fv", 0,
                R"({"smsp__sass_branch_targets_threads_uniform": 6,
                    "smsp__sass_branch_targets_threads_divergent": 2,
                    "smsp__sass_inst_executed": 8})") +
                 "," +
                 pc("_Z1fv", 16,
                    R"({"smsp__sass_branch_targets_threads_uniform": 3})")));
  auto S = loadSassMetrics(Dir);
  ASSERT_TRUE(bool(S)) << toString(S.takeError());
  const SassFunction &F = (*S)->Functions.at("_Z1fv");
  EXPECT_EQ(F[SassCounter::BranchTargets].Value, 11u);
  EXPECT_EQ(F[SassCounter::BranchTargets].Metric,
            "smsp__sass_branch_targets_threads_uniform + "
            "smsp__sass_branch_targets_threads_divergent");
  EXPECT_TRUE(F[SassCounter::BranchTargets].Derived);
  EXPECT_FALSE(F[SassCounter::BranchTargetsUniform].Derived);
  SassRatio E = hardwareBranchEfficiency(F);
  ASSERT_TRUE(E.Value.has_value()) << E.Why;
  EXPECT_DOUBLE_EQ(*E.Value, 9.0 / 11.0);

  // Without one of the parts there is no total either.
  std::string Dir2 = tempDir();
  write(Dir2 + "/sassmetrics-1.json",
        file(R"("collected_metrics": ["smsp__sass_inst_executed",
                 "smsp__sass_branch_targets_threads_uniform"])",
             pc("_Z1fv", 0,
                R"({"smsp__sass_branch_targets_threads_uniform": 6})")));
  auto S2 = loadSassMetrics(Dir2);
  ASSERT_TRUE(bool(S2)) << toString(S2.takeError());
  EXPECT_FALSE(hardwareBranchEfficiency((*S2)->Functions.at("_Z1fv")).Value);
}

TEST(SassMetrics, CorruptOrInconsistentFilesAreOneLineErrors) {
  struct Case {
    std::string Text, Expected;
  };
  std::string Good = pc("_Z1fv", 0, R"({"smsp__sass_inst_executed": 1})");
  std::vector<Case> Cases = {
      {file(AllMetrics, Good).substr(0, 120), "is not valid JSON"},
      {R"({"schema": "warpscope-sassmetrics/9", "pcs": []})",
       "has schema 'warpscope-sassmetrics/9', this warpscope reads "
       "'warpscope-sassmetrics/1'"},
      {R"({"schema": "warpscope-sassmetrics/1", "pcs": []})",
       "lacks collected_metrics, dropped_records or pcs"},
      {file(R"("collected_metrics": [3])", Good),
       "collected_metrics[] holds a non-string"},
      {file(AllMetrics, R"({"function": "_Z1fv", "metrics": {}})"),
       "a pcs[] entry lacks cubin_crc, function, pc_offset or metrics"},
      {file(AllMetrics, pc("_Z1fv", 0, R"({"smsp__sass_inst_executed": -1})")),
       "metric 'smsp__sass_inst_executed' at pc 0 of _Z1fv is not a count"},
      {file(AllMetrics, pc("_Z1fv", 0, R"({"smsp__sass_inst_executed": "1"})")),
       "is not a count"},
      {file(AllMetrics, pc("_Z1fv", 0, R"({"smsp__other": 1})")),
       "pc 0 of _Z1fv has metric 'smsp__other', which collected_metrics does "
       "not list; the file is damaged"},
      {file(AllMetrics, Good + "," + Good),
       "pc 0 of _Z1fv appears twice; the file is damaged"},
      {file(AllMetrics, pc("_Z1fv", 8,
                           R"({"smsp__sass_branch_targets": 2,
                               "smsp__sass_branch_targets_threads_uniform": 3})")),
       "pc 8 of _Z1fv has more sass_branch_targets_threads_uniform than "
       "branch targets; the file is damaged"},
      {file(AllMetrics, pc("_Z1fv", 8,
                           R"({"smsp__sass_inst_executed": 1,
                               "smsp__sass_thread_inst_executed": 33})")),
       "pc 8 of _Z1fv has more thread-level than 32 x warp-level "
       "instructions; the file is damaged"},
      {file(AllMetrics, Good, R"("errors": [1], "dropped_records": 0)"),
       "errors[] holds a non-string"},
  };
  for (const Case &C : Cases) {
    std::string Dir = tempDir();
    write(Dir + "/sassmetrics-7.json", C.Text);
    std::string Error = loadError(Dir);
    EXPECT_NE(Error.find(Dir + "/sassmetrics-7.json: "), std::string::npos)
        << C.Text;
    EXPECT_NE(Error.find(C.Expected), std::string::npos)
        << Error << "\n  expected: " << C.Expected;
    EXPECT_NE(Error.find("rerun `warpscope run --sass-metrics`"),
              std::string::npos);
    EXPECT_EQ(Error.find('\n'), std::string::npos) << "one line";
  }
}

TEST(SassMetrics, NoFilesIsNoView) {
  auto S = loadSassMetrics(tempDir());
  ASSERT_TRUE(bool(S));
  EXPECT_FALSE(S->has_value());
}

TEST(SassMetrics, JoinsByMangledName) {
  ProfileSet Set;
  FunctionProfile K;
  K.Name = "_Z5scalePfPKfi";
  K.Demangled = "scale(float*, float const*, int)";
  K.Kernel = true;
  BlockCounts B;
  B.WarpExecutions = 4;
  B.ThreadExecutions = 128;
  K.Blocks.push_back(B);
  BranchCounts Br;
  Br.Probed = true;
  Br.Visits = 4;
  Br.Divergent = 1;
  K.Branches.push_back(Br);
  Set.Functions.push_back(K);
  auto Summaries = summarize(Set, "");
  ASSERT_TRUE(bool(Summaries));

  SassMetricsSet Sass;
  SassFunction F;
  F.Function = K.Name;
  F.Pcs = 1;
  F[SassCounter::BranchTargets].Value = 10;
  F[SassCounter::BranchTargetsUniform].Value = 5;
  for (SassCounter C :
       {SassCounter::InstExecuted, SassCounter::ThreadInstExecuted,
        SassCounter::BranchTargetsDivergent})
    F[C].Missing = "not collected";
  Sass.Functions[K.Name] = F;
  SassFunction Other;
  Other.Function = "_Z5otherv";
  Sass.Functions[Other.Function] = Other;

  SassMetricsSummary Sum = joinSassMetrics(*Summaries, Sass, "");
  ASSERT_EQ(Summaries->size(), 1u);
  const FunctionSummary &S = Summaries->front();
  ASSERT_TRUE(S.Hardware.has_value());
  EXPECT_EQ(*S.Hardware->BranchEfficiency.Value, 0.5);
  // Ours: 1 - 1/4 = 75%; the hardware's 50% is 25 points below.
  EXPECT_DOUBLE_EQ(*S.Hardware->DifferencePoints, -25.0);
  ASSERT_EQ(Sum.NotInReport.size(), 1u);
  EXPECT_EQ(Sum.NotInReport[0].Mangled, "_Z5otherv");
  // --kernel scale: other is filtered, not missing.
  EXPECT_TRUE(joinSassMetrics(*Summaries, Sass, "scale").NotInReport.empty());

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  renderText(Set, *Summaries, 10, OS);
  EXPECT_NE(Text.find("branch efficiency 75.0%\n  hardware branch efficiency "
                      "(SASS): 50.0% (5 of 10 branch targets uniform); "
                      "-25.0 percentage points vs ours\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("  SASS instructions: not available: not collected\n"),
            std::string::npos)
      << Text;
}

TEST(SassMetrics, FormatsPoints) {
  EXPECT_EQ(formatPoints(12.34), "+12.3 percentage points");
  EXPECT_EQ(formatPoints(-0.04), "0.0 percentage points");
  EXPECT_EQ(formatPoints(-7.25), "-7.3 percentage points");
  EXPECT_EQ(formatSignedPoints(25), "+25.0");
}

} // namespace
