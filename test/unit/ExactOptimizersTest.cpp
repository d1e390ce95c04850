//===- ExactOptimizersTest.cpp - The optimizers only exact counts allow ---===//
//
// Each optimizer on hand-built profiles and ground truth (in memory): one
// case where it must fire, with its estimate worked out by hand from the
// estimator in docs/advisor-estimators.md, and one where it must not.
//
//===----------------------------------------------------------------------===//

#include "Advice.h"
#include "Blame.h"
#include "Code.h"
#include "GroundTruth.h"
#include "MachineModel.h"
#include "PcSampling.h"
#include "ProfileModel.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace warpscope;
using namespace warpscope::advise;

namespace {

std::vector<Advice> runOptimizer(llvm::StringRef Id, const Inputs &In) {
  std::vector<Advice> Out;
  for (const auto &O : exactOptimizers())
    if (O->id() == Id)
      O->run(In, Out);
  return Out;
}

BlockCounts block(unsigned Id, std::vector<unsigned> Succ, uint64_t Warps,
                  uint64_t Threads, uint64_t Ptx) {
  BlockCounts B;
  B.Id = Id;
  B.Successors = std::move(Succ);
  B.WarpExecutions = Warps;
  B.ThreadExecutions = Threads;
  B.Ptx["add.s32"] = Ptx;
  return B;
}

/// if (c) { 20 instructions } else { 20 instructions }, 4 warp visits;
/// Divergent: every visit splits the lanes half and half; otherwise two
/// warps go each way whole.
ProfileSet ifElseKernel(bool Divergent, uint64_t SidePtx = 20) {
  FunctionProfile F;
  F.Name = "_Z6ifelsePf";
  F.Kernel = true;
  F.Blocks.push_back(block(0, {1, 2}, 4, 128, 2));
  if (Divergent) {
    F.Blocks.push_back(block(1, {3}, 4, 64, SidePtx));
    F.Blocks.push_back(block(2, {3}, 4, 64, SidePtx));
  } else {
    F.Blocks.push_back(block(1, {3}, 2, 64, SidePtx));
    F.Blocks.push_back(block(2, {3}, 2, 64, SidePtx));
  }
  F.Blocks.push_back(block(3, {}, 4, 128, 2));
  BranchCounts Br;
  Br.Id = 0;
  Br.Block = 0;
  Br.Successors = {1, 2};
  Br.Loc = {"/src/k.cu", 7, 3};
  Br.Visits = 4;
  Br.Divergent = Divergent ? 4 : 0;
  F.Branches.push_back(Br);
  ProfileSet P;
  P.Functions.push_back(std::move(F));
  return P;
}

Inputs countsOnly(const ProfileSet &P) {
  Inputs In;
  In.Profile = &P;
  In.Present = {InputKind::Counts, InputKind::Divergence};
  return In;
}

TEST(ExactOptimizers, AllFourWithTheirIds) {
  std::vector<std::string> Ids;
  for (const auto &O : exactOptimizers()) {
    Ids.push_back(O->id().str());
    EXPECT_FALSE(O->help().empty());
    EXPECT_FALSE(O->needs().empty());
  }
  EXPECT_EQ(Ids,
            (std::vector<std::string>{"divergence", "uncoalesced_access",
                                      "bank_conflicts", "occupancy_limiter"}));
}

TEST(Divergence, FiresOnDivergentIfElse) {
  ProfileSet P = ifElseKernel(true);
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  // Weights (warp executions x PTX): 8 + 80 + 80 + 8 = 176; both sides run
  // with 16 of 32 lanes: 80 of it is idle. 176 / 96.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 176.0 / 96.0, 1e-9);
  EXPECT_EQ(A[0].Kernel, "_Z6ifelsePf");
  ASSERT_EQ(A[0].Hotspots.size(), 1u);
  EXPECT_EQ(A[0].Hotspots[0].File, "/src/k.cu");
  EXPECT_EQ(A[0].Hotspots[0].Line, 7u);
  EXPECT_NEAR(A[0].Hotspots[0].Samples, 80.0, 1e-9);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("divergent on 4 of 4 visits"),
            std::string::npos);
  ASSERT_FALSE(A[0].Hints.empty());
  EXPECT_NE(A[0].Hints[0].find("Reorder the data"), std::string::npos);
  EXPECT_NE(A[0].Estimator.find("no samples"), std::string::npos);
}

TEST(Divergence, ShortSidesSuggestSelect) {
  ProfileSet P = ifElseKernel(true, 3);
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  // 8 + 12 + 12 + 8 = 40, of which 12 idle.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 40.0 / 28.0, 1e-9);
  EXPECT_NE(A[0].Hints[0].find("select"), std::string::npos);
}

/// One kernel with one divergent branch at block 0's or 1's end.
ProfileSet oneBranch(std::vector<BlockCounts> Blocks, unsigned At,
                     std::vector<unsigned> Succ) {
  FunctionProfile F;
  F.Name = "_Z1kv";
  F.Kernel = true;
  F.Blocks = std::move(Blocks);
  BranchCounts Br;
  Br.Block = At;
  Br.Successors = std::move(Succ);
  Br.Visits = Br.Divergent = 4;
  F.Branches.push_back(Br);
  ProfileSet P;
  P.Functions.push_back(std::move(F));
  return P;
}

TEST(Divergence, LoopExitSuggestsBalancing) {
  // Block 1 loops on itself; its lanes leave at different trips (16 of 32
  // active on average).
  ProfileSet P =
      oneBranch({block(0, {1}, 4, 128, 2), block(1, {1, 2}, 40, 640, 10),
                 block(2, {}, 4, 128, 2)},
                1, {1, 2});
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  // 8 + 400 + 8 = 416, of which 200 idle.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 416.0 / 216.0, 1e-9);
  EXPECT_NE(A[0].Hints[0].find("Balance the work per warp"), std::string::npos);
}

TEST(Divergence, IfAtALoopHeaderIsNotALoopExit) {
  // for (...) { if (c) A else B }: the if ends the loop's header block 1.
  BlockCounts Header = block(1, {2, 3}, 40, 1280, 2);
  Header.LoopHeader = true;
  ProfileSet P =
      oneBranch({block(0, {1}, 4, 128, 2), Header, block(2, {4}, 40, 640, 20),
                 block(3, {4}, 40, 640, 20), block(4, {1, 5}, 40, 1280, 2),
                 block(5, {}, 4, 128, 2)},
                1, {2, 3});
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  // 8 + 80 + 800 + 800 + 80 + 8 = 1776, of which 800 idle.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 1776.0 / 976.0, 1e-9);
  EXPECT_NE(A[0].Hints[0].find("Reorder the data"), std::string::npos);
}

TEST(Divergence, RareAtomicSuggestsWarpAggregation) {
  BlockCounts Then = block(1, {2}, 4, 8, 10);
  Then.Ptx["atom.global.add.u32"] = 1;
  ProfileSet P = oneBranch(
      {block(0, {1, 2}, 4, 128, 2), Then, block(2, {}, 4, 128, 2)}, 0, {1, 2});
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  // 8 + 44 + 8 = 60; the then block runs 2 of 32 lanes: 41.25 idle.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 60.0 / 18.75, 1e-9);
  EXPECT_NE(A[0].Hints[0].find("Aggregate the work per warp"),
            std::string::npos);
}

TEST(Divergence, PartialWarpsAreNotBlamedOnTheBranch) {
  // Blocks of 16 threads: every warp has 16 lanes from the start; the
  // branch splits them 8 and 8, so half of each side's lanes idle (not 3/4).
  ProfileSet P =
      oneBranch({block(0, {1, 2}, 4, 64, 2), block(1, {3}, 4, 32, 20),
                 block(2, {3}, 4, 32, 20), block(3, {}, 4, 64, 2)},
                0, {1, 2});
  std::vector<Advice> A = runOptimizer("divergence", countsOnly(P));
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 176.0 / 96.0, 1e-9);
}

TEST(Divergence, SilentOnUniformBranch) {
  ProfileSet P = ifElseKernel(false);
  EXPECT_TRUE(runOptimizer("divergence", countsOnly(P)).empty());
}

/// PC samples of ifElseKernel's kernel: (line of /src/k.cu, samples).
PcSampleSet ifElseSamples(std::vector<std::pair<unsigned, uint64_t>> Lines) {
  PcSampleSet S;
  for (auto [Line, N] : Lines) {
    SampledPc X;
    X.Function = "_Z6ifelsePf";
    X.File = "/src/k.cu";
    X.Line = Line;
    X.Samples = N;
    S.Pcs.push_back(X);
  }
  return S;
}

TEST(Divergence, SamplesReplaceCounts) {
  ProfileSet P = ifElseKernel(true);
  P.Functions[0].Loc = {"/src/k.cu", 5, 1};
  P.Functions[0].Blocks[1].Loc = {"/src/k.cu", 8, 1};
  P.Functions[0].Blocks[2].Loc = {"/src/k.cu", 10, 1};
  P.Functions[0].Blocks[3].Loc = {"/src/k.cu", 12, 1};
  // The then side: 60 samples, half its lanes idle; the else side:
  // nothing sampled; after the join: 40.
  PcSampleSet S = ifElseSamples({{8, 60}, {10, 0}, {12, 40}});
  Inputs In = countsOnly(P);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("divergence", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 70.0, 1e-9);
  EXPECT_NE(A[0].Estimator.find("PC samples"), std::string::npos);
}

TEST(Divergence, SamplesAreBoundedByTheExactCounts) {
  // Short sides (2 PTX instructions each): of the kernel's 32 warp
  // instructions, the idle lanes of the two sides cost 8 (half of each
  // side's 8), so removing every idle lane gives at most 32 / 24. The
  // samples crowd on the then side (90 of 100: 45 saved, 100 / 55), which
  // the counts do not allow.
  ProfileSet P = ifElseKernel(true, 2);
  P.Functions[0].Blocks[1].Loc = {"/src/k.cu", 8, 1};
  P.Functions[0].Blocks[2].Loc = {"/src/k.cu", 10, 1};
  P.Functions[0].Blocks[3].Loc = {"/src/k.cu", 12, 1};
  PcSampleSet S = ifElseSamples({{8, 90}, {12, 10}});
  Inputs In = countsOnly(P);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("divergence", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 32.0 / 24.0, 1e-9);
  EXPECT_NE(A[0].Estimator.find("bounded by the exact counts"),
            std::string::npos);
  EXPECT_EQ(A[0].Kind, EstimateKind::Formula);
}

TEST(Divergence, SamplesOnNoBlockCountInTheKernelTime) {
  // As SamplesReplaceCounts, plus 50 samples on no line of the kernel's
  // blocks (a new warp's first fetch): they are the kernel's time too.
  ProfileSet P = ifElseKernel(true);
  P.Functions[0].Blocks[1].Loc = {"/src/k.cu", 8, 1};
  P.Functions[0].Blocks[2].Loc = {"/src/k.cu", 10, 1};
  P.Functions[0].Blocks[3].Loc = {"/src/k.cu", 12, 1};
  PcSampleSet S;
  auto Pc = [&](const char *File, unsigned Line, uint64_t N) {
    SampledPc X;
    X.Function = "_Z6ifelsePf";
    X.File = File;
    X.Line = Line;
    X.Samples = N;
    S.Pcs.push_back(X);
  };
  Pc("/src/k.cu", 8, 60);
  Pc("/src/k.cu", 12, 40);
  Pc("/usr/include/builtin_vars.h", 66, 50);
  Inputs In = countsOnly(P);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("divergence", In);
  ASSERT_EQ(A.size(), 1u);
  // T = 150 samples, 30 saved (half of the then side's 60).
  EXPECT_NEAR(A[0].EstimatedSpeedup, 150.0 / 120.0, 1e-9);
}

TEST(Divergence, WaitsForLoadsBeforeTheBranchAreNotSaved) {
  ProfileSet P = ifElseKernel(true);
  P.Functions[0].Blocks[1].Loc = {"/src/k.cu", 8, 1};
  P.Functions[0].Blocks[2].Loc = {"/src/k.cu", 10, 1};
  P.Functions[0].Blocks[3].Loc = {"/src/k.cu", 12, 1};
  PcSampleSet S;
  SampledPc Then;
  Then.Function = "_Z6ifelsePf";
  Then.File = "/src/k.cu";
  Then.Line = 8;
  Then.Samples = 60; // 20 of them wait for a load
  Then.Stalls = {{"smsp__pcsamp_warps_issue_stalled_long_scoreboard", 20},
                 {"smsp__pcsamp_warps_issue_stalled_selected", 40}};
  SampledPc After = Then;
  After.Line = 12;
  After.Samples = 40;
  After.Stalls = {};
  S.Pcs = {Then, After};
  Inputs In = countsOnly(P);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  // The region loads nothing: its 20 waits are for a load before the
  // branch and stay; half of the other 40 go: 100 / 80.
  std::vector<Advice> A = runOptimizer("divergence", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 80.0, 1e-9);
  // A load in the region: its waits shrink with the region, 100 / 70.
  P.Functions[0].Blocks[1].Ptx["ld.global.f32"] = 1;
  A = runOptimizer("divergence", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 70.0, 1e-9);
}

/// One kernel: `Others` non-memory warp instructions and one memory
/// instruction with the given counts.
Truth memoryKernel(const char *Opcode, TruthMemory M, uint64_t Others) {
  Truth T;
  TruthFunction &F = T.Functions["_Z4copyPf"];
  F.Kernel = true;
  TruthInstruction Alu;
  Alu.Opcode = "add.s32";
  Alu.Warp = Others;
  Alu.Thread = Others * 32;
  TruthInstruction Mem;
  Mem.Opcode = Opcode;
  Mem.File = "/src/copy.cu";
  Mem.Line = 12;
  Mem.Warp = 100;
  Mem.Thread = 3200;
  Mem.Memory = true;
  Mem.Mem = M;
  F.Insts = {Alu, Mem};
  T.Files = 1;
  return T;
}

/// Modeled cycles and the SMs the launches used (Inputs::ModeledTime).
KernelModeledTime modeledTime(double Cycles, double SmsUsed) {
  KernelModeledTime M;
  M.Cycles = Cycles;
  M.SmsUsed = SmsUsed;
  return M;
}

Inputs truthOnly(const Truth &T) {
  Inputs In;
  In.GroundTruth = &T;
  In.Present = {InputKind::MemoryCounts};
  return In;
}

TEST(Uncoalesced, FiresOnStrideTwo) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", truthOnly(T));
  ASSERT_EQ(A.size(), 1u);
  // max(400/4, 800/4) = 200 cycles before, max(100, 400/4) = 100 after.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 2.0, 1e-9);
  ASSERT_EQ(A[0].Hotspots.size(), 1u);
  EXPECT_EQ(A[0].Hotspots[0].Line, 12u);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("8.00 sectors/request, ideal 4.00"),
            std::string::npos);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("stride of about 8 B"),
            std::string::npos);
}

TEST(Uncoalesced, SamplesReplaceTheThroughputBound) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  PcSampleSet S;
  SampledPc AtLoad, Elsewhere;
  AtLoad.Function = Elsewhere.Function = "_Z4copyPf";
  AtLoad.File = "/src/copy.cu";
  AtLoad.Line = 12;
  AtLoad.Samples = 40;
  Elsewhere.Samples = 60; // no line
  S.Pcs = {AtLoad, Elsewhere};
  Inputs In = truthOnly(T);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  // Half of the line's 40 samples are excess sectors: 100 / 80.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 1.25, 1e-9);
  EXPECT_NEAR(A[0].Hotspots[0].Samples, 40.0, 1e-9);
}

/// A sample at File:Line (no file: none) of copy's, Drain of them drain.
SampledPc copySample(const char *File, unsigned Line, uint64_t N,
                     uint64_t Drain = 0) {
  SampledPc X;
  X.Function = "_Z4copyPf";
  X.File = File;
  X.Line = Line;
  X.Samples = N;
  if (Drain)
    X.Stalls = {{"smsp__pcsamp_warps_issue_stalled_drain", Drain},
                {"smsp__pcsamp_warps_issue_stalled_drain_not_issued", Drain}};
  return X;
}

TEST(Uncoalesced, DrainSamplesGoToTheExcessStoreSectors) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("st.global.f32", M, 300);
  PcSampleSet S;
  // 50 on the store's line (10 of them drain), 10 drain at the exit,
  // 40 on no line.
  S.Pcs = {copySample("/src/copy.cu", 12, 50, 10),
           copySample("/src/copy.cu", 20, 10, 10), copySample("", 0, 40)};
  Inputs In = truthOnly(T);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  // Half of the line's 40 non-drain samples and half of the 20 drain
  // samples (the store's sectors are half excess): 100 / 70.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 70.0, 1e-9);
}

TEST(Uncoalesced, DrainSamplesAreNotALoadsSaving) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  PcSampleSet S;
  S.Pcs = {copySample("/src/copy.cu", 12, 40),
           copySample("/src/copy.cu", 20, 20, 20), copySample("", 0, 40)};
  Inputs In = truthOnly(T);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 80.0, 1e-9);
}

TEST(Uncoalesced, ModeledThroughputBoundsTheSampleSaving) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  PcSampleSet S;
  S.Pcs = {copySample("/src/copy.cu", 12, 80), copySample("", 0, 20)};
  Inputs In = truthOnly(T);
  In.Samples = &S;
  In.Present.push_back(InputKind::Samples);
  // Samples alone: half of 80 saved, 100 / 60. The 400 excess sectors on
  // one SM take max(400 / 4, 400 x 32 / 2800) = 100 of 1000 modeled
  // cycles: at most 10% of the samples, 100 / 90.
  In.ModeledTime["_Z4copyPf"] = modeledTime(1000, 1);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 90.0, 1e-9);
  EXPECT_NE(A[0].Estimator.find("bounded by the modeled cycles"),
            std::string::npos);
  // A bound looser than the samples' leaves their estimate.
  In.ModeledTime["_Z4copyPf"] = modeledTime(100, 1);
  A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 60.0, 1e-9);
}

TEST(Uncoalesced, SilentWhenCoalesced) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 400;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  EXPECT_TRUE(runOptimizer("uncoalesced_access", truthOnly(T)).empty());
}

TEST(BankConflicts, FiresOnColumnAccess) {
  TruthMemory M;
  M.SharedRequests = 100;
  M.SharedWavefronts = 3200;
  M.SharedIdealWavefronts = 100;
  Truth T = memoryKernel("ld.shared.f32", M, 300);
  std::vector<Advice> A = runOptimizer("bank_conflicts", truthOnly(T));
  ASSERT_EQ(A.size(), 1u);
  // max(400/4, 3200) = 3200 cycles before, max(100, 100) = 100 after.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 32.0, 1e-9);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("32.0-way bank conflict"),
            std::string::npos);
  EXPECT_NE(A[0].Hints[0].find("[32 + 1]"), std::string::npos);
  // The uncoalesced optimizer has nothing to say about shared memory.
  EXPECT_TRUE(runOptimizer("uncoalesced_access", truthOnly(T)).empty());
}

TEST(BankConflicts, ModeledTimeReplacesTheThroughputBound) {
  TruthMemory M;
  M.SharedRequests = 100;
  M.SharedWavefronts = 3200;
  M.SharedIdealWavefronts = 100;
  Truth T = memoryKernel("ld.shared.f32", M, 300);
  Inputs In = truthOnly(T);
  In.ModeledTime["_Z4copyPf"] = modeledTime(1000, 31);
  In.Present.push_back(InputKind::ModeledTime);
  std::vector<Advice> A = runOptimizer("bank_conflicts", In);
  ASSERT_EQ(A.size(), 1u);
  // 3100 excess wavefronts over 31 SMs: 100 of the 1000 modeled cycles.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 1000.0 / 900.0, 1e-9);
  EXPECT_NE(A[0].Estimator.find("modeled time"), std::string::npos);
}

TEST(Uncoalesced, ModeledTimeChargesTheSlowerOfL1AndL2) {
  TruthMemory M;
  M.GlobalRequests = 100;
  M.GlobalSectors = 800;
  M.GlobalIdealSectors = 400;
  Truth T = memoryKernel("ld.global.f32", M, 300);
  Inputs In = truthOnly(T);
  In.Present.push_back(InputKind::ModeledTime);
  // On 10 SMs L1 binds: 400 / 10 / 4 = 10 cycles.
  In.ModeledTime["_Z4copyPf"] = modeledTime(100, 10);
  std::vector<Advice> A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / 90.0, 1e-9);
  // On 100 SMs L2 binds: 400 x 32 B / 2800 B per cycle.
  In.ModeledTime["_Z4copyPf"] = modeledTime(100, 100);
  A = runOptimizer("uncoalesced_access", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 100.0 / (100.0 - 12800.0 / 2800.0), 1e-9);
}

TEST(BankConflicts, SilentOnBroadcast) {
  TruthMemory M;
  M.SharedRequests = 100;
  M.SharedWavefronts = 100;
  M.SharedIdealWavefronts = 100;
  Truth T = memoryKernel("ld.shared.f32", M, 300);
  EXPECT_TRUE(runOptimizer("bank_conflicts", truthOnly(T)).empty());
}

ProfileSet occupancyKernel(uint32_t Registers, uint32_t GridBlocks) {
  FunctionProfile F;
  F.Name = "_Z5heavyPf";
  F.Kernel = true;
  MachineResources R;
  R.Source = "ptxas";
  R.Known = true;
  R.Registers = Registers;
  F.Resources = R;
  LaunchGroup L;
  L.Grid[0] = GridBlocks;
  L.Block[0] = 256;
  L.Count = 1;
  F.Launches.push_back(L);
  ProfileSet P;
  P.Functions.push_back(std::move(F));
  return P;
}

Inputs occupancyInputs(const ProfileSet &P) {
  Inputs In;
  In.Profile = &P;
  In.Present = {InputKind::Occupancy, InputKind::LaunchConfig};
  return In;
}

TEST(OccupancyLimiter, FiresOnRegisters) {
  // 128 registers x 32 lanes = 4096 per warp: 4 warps per sub-partition,
  // 16 per SM = 2 blocks of 8 warps; the grid wants 8 per SM.
  ProfileSet P = occupancyKernel(128, 8 * 132);
  std::vector<Advice> A = runOptimizer("occupancy_limiter", occupancyInputs(P));
  ASSERT_EQ(A.size(), 1u);
  // 8 blocks (64 warps) need 1024 registers per warp: 32 per thread. No
  // samples: latency bound (R_I -> 0), so the time follows the rounds of
  // the busiest SM, 4 -> 1.
  EXPECT_NEAR(A[0].EstimatedSpeedup, 4.0, 1e-9);
  ASSERT_EQ(A[0].Hints.size(), 1u);
  EXPECT_NE(A[0].Hints[0].find("32 registers/thread (now 128)"),
            std::string::npos);
  EXPECT_NE(A[0].Hints[0].find("__launch_bounds__(256, 8)"), std::string::npos);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("limited by registers"),
            std::string::npos);
  // The change is a machine parameter `advise --what-if` can re-simulate.
  EXPECT_EQ(emu::formatWhatIf(A[0].Change), "_Z5heavyPf:registers=32");
}

/// The occupancy limiter's advice for a kernel of 32 registers (8 blocks
/// of 256 threads would fit) with Bytes of shared memory per block, in a
/// grid that wants 8 blocks per SM.
std::vector<Advice> sharedLimited(uint64_t Bytes) {
  ProfileSet P = occupancyKernel(32, 8 * 132);
  P.Functions[0].Resources->StaticSharedBytes = Bytes;
  return runOptimizer("occupancy_limiter", occupancyInputs(P));
}

TEST(OccupancyLimiter, FiresOnSharedMemory) {
  // 48 KB of shared memory per block (+1 KB reserved): 4 blocks of the
  // H100's 228 KB; 32 registers would allow 8, which the grid wants.
  std::vector<Advice> A = sharedLimited(48 * 1024);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("limited by shared memory"),
            std::string::npos);
  // 4 blocks of 49 KB hold 196 KB: a 196 KB carveout, the rest of the
  // 256 KB is L1. 8 blocks fit in it with 196 KB / 8 less the 1 KB
  // reserved, in 128 B units: 24064 B, which keeps the L1; the most that
  // fits 8 (228 KB / 8 - 1 KB = 28160 B) needs the 228 KB carveout.
  EXPECT_NE(A[0].Hints[0].find("at most 24064 B of shared memory per block"),
            std::string::npos)
      << A[0].Hints[0];
  EXPECT_NE(A[0].Hints[0].find("carveout at 196 KB"), std::string::npos);
  EXPECT_NE(A[0].Hints[0].find("up to 28160 B also fits 8 blocks/SM, but a "
                               "228 KB carveout"),
            std::string::npos);
  EXPECT_EQ(emu::formatWhatIf(A[0].Change), "_Z5heavyPf:shared=24064");
}

TEST(OccupancyLimiter, SharedMemoryAtTheLargestCarveout) {
  // 56 KB per block: 4 x 57 KB fill the 228 KB carveout already, so the
  // most that fits 8 blocks costs no L1: advised as it is.
  std::vector<Advice> A = sharedLimited(56 * 1024);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].Hints[0].find("at most 28160 B of shared memory per block"),
            std::string::npos)
      << A[0].Hints[0];
  EXPECT_EQ(A[0].Hints[0].find("carveout"), std::string::npos);
  EXPECT_EQ(emu::formatWhatIf(A[0].Change), "_Z5heavyPf:shared=28160");
}

TEST(OccupancyLimiter, LastPartialRoundCounts) {
  // 72 registers: 2304 per warp, 7 warps per sub-partition = 28 per SM =
  // 3 blocks; the grid wants 4 per SM, which 64 registers (2048 per warp,
  // 8 warps per sub-partition) allow: rounds 2 (3 + 1) -> 1.
  ProfileSet P = occupancyKernel(72, 4 * 132);
  std::vector<Advice> A = runOptimizer("occupancy_limiter", occupancyInputs(P));
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NEAR(A[0].EstimatedSpeedup, 2.0, 1e-9);
  EXPECT_NE(A[0].Hints[0].find("64 registers/thread"), std::string::npos);
}

/// The kernel of occupancyKernel with samples: T of them, A issued.
struct Sampled {
  Function Code;
  CodeSet Set;
  std::map<std::string, FunctionBlame> Blame;
  Sampled(double T, double A) {
    Code.Name = "_Z5heavyPf";
    Code.Kernel = true;
    Set.Functions[Code.Name] = Code;
    FunctionBlame &B = Blame[Code.Name];
    B.Code = &Set.Functions[Code.Name];
    B.Total = T;
    B.Active = A;
  }
  void into(Inputs &In) {
    In.Code = &Set;
    In.Blame = &Blame;
    In.Present.push_back(InputKind::Samples);
  }
};

TEST(OccupancyLimiter, IssueRateLimitsWhatMoreWarpsHide) {
  ProfileSet P = occupancyKernel(128, 8 * 132);
  Inputs In = occupancyInputs(P);
  Sampled S(100, 30); // R_I = 0.3
  S.into(In);
  std::vector<Advice> A = runOptimizer("occupancy_limiter", In);
  ASSERT_EQ(A.size(), 1u);
  // 4 rounds of 2 blocks (W = 4 per scheduler) -> 1 round of 8 (W = 16):
  // I(16) / I(4), Eq. 9 with R_I = 0.3.
  double I4 = 1 - std::pow(0.7, 4), I16 = 1 - std::pow(0.7, 16);
  EXPECT_NEAR(A[0].EstimatedSpeedup, I16 / I4, 1e-9);
}

TEST(OccupancyLimiter, BoundedByDram) {
  ProfileSet P = occupancyKernel(128, 8 * 132);
  Inputs In = occupancyInputs(P);
  Sampled S(100, 30);
  S.into(In);
  TruthMemory M;
  M.GlobalRequests = 1000;
  M.GlobalSectors = 40000; // 1.28 MB
  Truth T = memoryKernel("ld.global.f32", M, 300);
  T.Functions["_Z5heavyPf"] = T.Functions.begin()->second;
  In.GroundTruth = &T;
  std::optional<MachineConfig> C = machineConfig("h100-sxm");
  if (!C)
    GTEST_SKIP() << "built without the emulator's timing configurations";
  // The kernel takes 1.19 times the cycles its 1.28 MB need at the
  // configuration's sustained DRAM bandwidth: no launch shape does better.
  const double MinCycles = 40000 * 32 / C->DramBytesPerCycle;
  In.ModeledTime["_Z5heavyPf"].Cycles = 1.19 * MinCycles;
  In.ModeledTime["_Z5heavyPf"].Config = "h100-sxm";
  std::vector<Advice> A = runOptimizer("occupancy_limiter", In);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_NE(A[0].Estimator.find("DRAM bound"), std::string::npos)
      << A[0].Estimator;
  EXPECT_NEAR(A[0].EstimatedSpeedup, 1.19, 1e-9);
}

TEST(OccupancyLimiter, SilentWhenIssueIsSaturated) {
  // Nearly every sample issued: more warps have nothing to hide.
  ProfileSet P = occupancyKernel(128, 8 * 132);
  Inputs In = occupancyInputs(P);
  Sampled S(100, 99);
  S.into(In);
  EXPECT_TRUE(runOptimizer("occupancy_limiter", In).empty());
}

TEST(OccupancyLimiter, SilentWhenTheGridFitsAtOnce) {
  // Same registers, but one block per SM: nothing waits for a slot.
  ProfileSet P = occupancyKernel(128, 132);
  EXPECT_TRUE(runOptimizer("occupancy_limiter", occupancyInputs(P)).empty());
}

TEST(OccupancyLimiter, SilentAtFullOccupancy) {
  ProfileSet P = occupancyKernel(32, 64 * 132);
  EXPECT_TRUE(runOptimizer("occupancy_limiter", occupancyInputs(P)).empty());
}

} // namespace
