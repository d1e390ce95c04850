//===- GpaOptimizersTest.cpp - GPA stall elimination fires, or not --------===//
//
// The stall-elimination optimizers of GPA's Table 2 (GpaStall.cpp): samples
// placed where each must match (advice with the estimate its estimator
// gives) and samples of a similar kind placed where it must not (no
// advice); and the table of all 17. Latency hiding: GpaLatencyTest.cpp;
// parallelism: GpaParallelTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "AdvisorFixture.h"
#include <memory>

using namespace warpscope;
using namespace warpscope::advise;
using namespace warpscope::advise::test;

namespace {

/// 80 active samples at the kernel's first instruction plus Matched
/// elsewhere: stall elimination gives 100 / (100 - M).
void background(Kernel &K, double Active = 80) { K.active(Active); }

const char *Straight2 = R"(.version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_p0)
{
.reg .f32 %f<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [k_p0];
ld.global.f32 %f1, [%rd1];
add.f32 %f2, %f1, %f1;
ret;
}
)";

TEST(RegisterIncrease, FiresOnLocalMemoryDependency) {
  Kernel K;
  background(K);
  K.stall(K.at("add.f32", 1), "long_scoreboard", 20); // waits for ld.local
  std::vector<Advice> A = K.run("register_increase");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Hotspots.at(0).Line, 7u);
  EXPECT_EQ(A[0].Hotspots.at(0).DefLine, 7u);
}
TEST(RegisterIncrease, SilentOnGlobalDependency) {
  Kernel K;
  background(K);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20); // waits for ld.global
  EXPECT_TRUE(K.run("register_increase").empty());
}

// The timing model's spill reloads (docs/timing-model.md, "Register
// spills") have no PTX instruction: the mul waits on the long scoreboard
// for a register an add wrote, which only a reload explains.
const char *SpilledUse = R"(.version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_p0)
{
.reg .f32 %f<4>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [k_p0];
ld.global.f32 %f1, [%rd1];
add.f32 %f2, %f1, %f1;
mul.f32 %f3, %f2, %f2;
ret;
}
)";

void spills(Kernel &K, uint64_t Bytes) {
  MachineResources R;
  R.Source = "ptxas";
  R.Known = true;
  R.Registers = 32;
  R.SpillStoreBytes = R.SpillLoadBytes = Bytes;
  K.Profile.Functions[0].Resources = R;
  K.In.SampleSource = "model";
}

TEST(RegisterIncrease, ModeledSpillReloadsAskForNoCap) {
  Kernel K(SpilledUse);
  background(K);
  spills(K, 280);
  K.stall(K.at("mul.f32"), "long_scoreboard", 20);
  std::vector<Advice> A = K.run("register_increase");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Change.Kernel, "k");
  EXPECT_EQ(A[0].Change.MaxRegisters, 255u);
  EXPECT_NE(A[0].Estimator.find("280 B spill stores"), std::string::npos)
      << A[0].Estimator;
}
TEST(RegisterIncrease, SilentWithoutSpillsOrOnLoadWaits) {
  Kernel K(SpilledUse);
  background(K);
  spills(K, 0);
  K.stall(K.at("mul.f32"), "long_scoreboard", 20);
  EXPECT_TRUE(K.run("register_increase").empty()); // ptxas spilled nothing
  Kernel L(SpilledUse);
  background(L);
  spills(L, 280);
  L.stall(L.at("add.f32"), "long_scoreboard", 20); // the global load's
  EXPECT_TRUE(L.run("register_increase").empty());
}

// The timing model runs div.rn.f32 as a chain of fixed-latency
// instructions: its reader waits (`wait`).
TEST(StrengthReduction, FiresOnDivisionResult) {
  Kernel K;
  background(K);
  K.stall(K.at("mul.f32"), "wait", 20);
  std::vector<Advice> A = K.run("strength_reduction");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Hotspots.at(0).Line, 7u);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("1 IEEE division/square root"),
            std::string::npos)
      << A[0].Hotspots[0].Evidence;
}

const char *Expensive = R"(.version 8.6
.target sm_90
.address_size 64
.file 1 "/t/e.cu"
.visible .entry k(.param .u32 k_p0)
{
.reg .b32 %r<8>;
.reg .f32 %f<4>;
.loc 1 3 1
ld.param.u32 %r1, [k_p0];
mov.u32 %r2, %tid.x;
.loc 1 4 1
div.s32 %r3, %r2, %r1;
rem.s32 %r4, %r2, %r1;
.loc 1 5 1
add.s32 %r5, %r3, %r4;
cvt.rn.f32.s32 %f1, %r5;
.loc 1 6 1
add.f32 %f2, %f1, %f1;
ret;
}
)";

// Per source line with exact executions: line 4's division and remainder
// get the stall on their results and, in hybrid mode, the active samples
// apportioned by executions (A x exec / sum of exec); line 5's conversion
// its active share. T = 100, A = 80 over 8 instructions of 10 executions.
TEST(StrengthReduction, CountsExpensiveOperationsPerLine) {
  Kernel K(Expensive);
  K.active(80);
  K.stall(K.at("add.s32"), "wait", 20);
  K.Executed["k"] = std::vector<double>(K.fn().Instrs.size(), 10);
  std::vector<Advice> A = K.run("strength_reduction");
  double Share = 80.0 / K.fn().Instrs.size();
  EXPECT_DOUBLE_EQ(only(A), 100 / (100 - 20 - 3 * Share));
  ASSERT_FALSE(A.empty());
  ASSERT_EQ(A[0].Hotspots.size(), 2u);
  EXPECT_EQ(A[0].Hotspots[0].Line, 4u);
  EXPECT_DOUBLE_EQ(A[0].Hotspots[0].Samples, 20 + 2 * Share);
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("2 integer division/remainder"),
            std::string::npos)
      << A[0].Hotspots[0].Evidence;
  EXPECT_NE(A[0].Hotspots[0].Evidence.find("20 warp executions (exact)"),
            std::string::npos);
  EXPECT_EQ(A[0].Hotspots[1].Line, 5u);
  EXPECT_NE(A[0].Hotspots[1].Evidence.find("1 int/float conversion"),
            std::string::npos);
  ASSERT_EQ(A[0].Hints.size(), 2u);
  EXPECT_NE(A[0].Hints[0].find("shift and a mask"), std::string::npos);
}
TEST(StrengthReduction, SilentOnCheapArithmetic) {
  Kernel K;
  background(K);
  K.stall(K.at("add.f32", 0), "wait", 20); // waits for the add before
  EXPECT_TRUE(K.run("strength_reduction").empty());
}
TEST(StrengthReduction, SilentOnSharedLoadResult) {
  Kernel K;
  background(K);
  K.stall(K.at("sub.f32"), "short_scoreboard", 20);
  EXPECT_TRUE(K.run("strength_reduction").empty());
}

TEST(FunctionSplit, FiresOnInstructionFetch) {
  Kernel K;
  background(K);
  K.stall(K.at("add.s32"), "no_instructions", 20);
  EXPECT_DOUBLE_EQ(only(K.run("function_split")), 1.25);
}
// The timing model's no_instructions samples are instruction cache misses
// (docs/timing-model.md, "Instruction fetch")...
TEST(FunctionSplit, FiresOnModeledFetchMisses) {
  Kernel K;
  background(K);
  K.stall(K.at("add.s32"), "no_instructions", 20);
  K.In.SampleSource = "model";
  EXPECT_DOUBLE_EQ(only(K.run("function_split")), 1.25);
}
// ...and, at the instruction after the parameter reads, warps starting,
// which no split removes.
TEST(FunctionSplit, SilentOnModeledWarpStarts) {
  Kernel K;
  background(K);
  K.stall(K.at("mov.u32"), "no_instructions", 20);
  K.In.SampleSource = "model";
  EXPECT_TRUE(K.run("function_split").empty());
}
// A line fewer warps ran than entered the kernel is rarely taken code: a
// split moves it out, and its fetch misses are paid where it runs then too
// (the advisor's split_loop). Entry: 32 warps; the loop's lines 320.
TEST(FunctionSplit, SilentOnFetchStallsOfRarelyTakenCode) {
  auto Make = [](uint64_t Line13) {
    auto K = std::make_unique<Kernel>();
    background(*K);
    K->stall(K->at("add.s32"), "no_instructions", 20);
    K->In.SampleSource = "model";
    K->GroundTruth.Files = 1;
    const Function &F = K->fn();
    for (unsigned I = 0; I < F.Instrs.size(); ++I) {
      TruthInstruction T;
      T.Opcode = F.Instrs[I].Opcode;
      T.Warp = F.Instrs[I].Line == 13 ? Line13 : I < 4 ? 32 : 320;
      K->GroundTruth.Functions["k"].Insts.push_back(T);
    }
    return K;
  };
  EXPECT_DOUBLE_EQ(only(Make(320)->run("function_split")), 1.25);
  EXPECT_TRUE(Make(4)->run("function_split").empty());
}
TEST(FunctionSplit, SilentWithoutFetchStalls) {
  Kernel K;
  background(K);
  K.stall(K.at("add.s32"), "branch_resolving", 20);
  EXPECT_TRUE(K.run("function_split").empty());
}

TEST(FastMath, FiresInMathHeaderCode) {
  Kernel K;
  background(K);
  K.stall(K.at("ex2.approx.f32"), "math_pipe_throttle", 20);
  EXPECT_DOUBLE_EQ(only(K.run("fast_math")), 1.25);
}
// fmaxf, fabsf and isnan are one exact instruction each in the math
// header's code: no fast variant, so no fast-math advice (the colmax pair's
// max.f32 drew 1.22x). Where such instructions are part of a function that
// has one (line 200: a selection beside an ex2), they count with it.
const char *ExactMath = R"(.version 8.6
.target sm_90
.address_size 64
.file 1 "/t/k.cu"
.file 2 "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_math.h"
.visible .entry k(.param .u64 k_p0)
{
.reg .pred %p<2>;
.reg .f32 %f<8>;
.reg .b64 %rd<4>;
.loc 1 2 1
ld.param.u64 %rd1, [k_p0];
ld.global.f32 %f1, [%rd1];
.loc 2 100 1
max.f32 %f2, %f1, %f1;
abs.f32 %f3, %f2;
testp.nan.f32 %p1, %f3;
.loc 2 200 1
selp.f32 %f4, %f3, %f2, %p1;
ex2.approx.f32 %f5, %f4;
.loc 1 4 1
st.global.f32 [%rd1], %f5;
ret;
}
)";
TEST(FastMath, SilentOnExactMathFunctions) {
  Kernel K(ExactMath);
  background(K);
  for (const char *Op : {"max.f32", "abs.f32", "testp.nan.f32"})
    K.stall(K.at(Op), "wait", 5);
  K.stall(K.at("ld.global.f32"), "long_scoreboard", 5);
  EXPECT_TRUE(K.run("fast_math").empty());
  Kernel Ex2(ExactMath);
  background(Ex2);
  Ex2.stall(Ex2.at("ex2.approx.f32"), "math_pipe_throttle", 15);
  Ex2.stall(Ex2.at("selp.f32"), "wait", 5);
  Ex2.stall(Ex2.at("max.f32"), "wait", 5);
  // ex2 and the selection beside it: 20 of 105.
  EXPECT_DOUBLE_EQ(only(Ex2.run("fast_math")), 105.0 / 85);
}
TEST(FastMath, SilentInUserCode) {
  Kernel K;
  background(K);
  K.stall(K.at("mul.f32"), "math_pipe_throttle", 20);
  EXPECT_TRUE(K.run("fast_math").empty());
}

TEST(WarpBalance, FiresOnBarrierStalls) {
  Kernel K;
  background(K);
  K.stall(K.at("bar.sync"), "barrier", 20);
  EXPECT_DOUBLE_EQ(only(K.run("warp_balance")), 1.25);
}
// The H100 samples barrier stalls after the barrier: blamed on it.
TEST(WarpBalance, BlamesTheBarrierBefore) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.shared.f32"), "barrier", 20);
  std::vector<Advice> A = K.run("warp_balance");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Hotspots.at(0).DefLine, 9u); // bar.sync
  EXPECT_EQ(A[0].Hotspots.at(0).Distance, 0u);
}
TEST(WarpBalance, SilentWithoutSyncStalls) {
  Kernel K;
  background(K);
  K.stall(K.at("bar.sync"), "dispatch_stall", 20);
  EXPECT_TRUE(K.run("warp_balance").empty());
}

TEST(GlobalTransactions, FiresOnGlobalThrottle) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.global.f32"), "lg_throttle", 20);
  EXPECT_DOUBLE_EQ(only(K.run("global_memory_transaction_reduction")), 1.25);
}
// Warps waiting at exit for their stores: blamed on the global store.
TEST(GlobalTransactions, FiresOnDrainAtTheStores) {
  Kernel K;
  background(K);
  K.stall(K.at("ret"), "drain", 20);
  std::vector<Advice> A = K.run("global_memory_transaction_reduction");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Hotspots.at(0).Line, 15u); // st.global.f32
  EXPECT_EQ(A[0].Hotspots[0].Evidence.find("same address"), std::string::npos);
}

const char *Accumulate = R"(.version 8.6
.target sm_90
.address_size 64
.file 1 "/t/a.cu"
.visible .entry k(.param .u64 k_p0, .param .u64 k_p1)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .f32 %f<4>;
.reg .b64 %rd<6>;
.loc 1 3 1
ld.param.u64 %rd1, [k_p0];
ld.param.u64 %rd2, [k_p1];
mov.u32 %r1, 0;
mov.f32 %f1, 0f00000000;
$L__BB0_1:
.loc 1 5 1
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd4, %rd1, %rd3;
ld.global.f32 %f2, [%rd4];
add.f32 %f1, %f1, %f2;
st.global.f32 [%rd2], %f1;
add.s32 %r1, %r1, 1;
setp.lt.s32 %p1, %r1, 32;
@%p1 bra $L__BB0_1;
.loc 1 7 1
ret;
}
)";

// A loop storing to one address every trip (Out[R] += ...): the exact
// executions and the loop-invariant address are the evidence.
TEST(GlobalTransactions, PointsOutAStoreToAnInvariantAddress) {
  Kernel K(Accumulate);
  background(K);
  K.stall(K.at("ret"), "drain", 20);
  K.Executed["k"] = std::vector<double>(K.fn().Instrs.size(), 32);
  std::vector<Advice> A = K.run("global_memory_transaction_reduction");
  ASSERT_EQ(A.size(), 1u);
  // One store; no memory dependency stall on the load: the drain alone.
  EXPECT_DOUBLE_EQ(A[0].EstimatedSpeedup, 1.25);
  const Hotspot &H = A[0].Hotspots.at(0);
  EXPECT_EQ(H.Line, 5u);
  EXPECT_NE(H.Evidence.find("same address every trip of the loop at line 5"),
            std::string::npos)
      << H.Evidence;
  EXPECT_NE(H.Evidence.find("32 warp executions (exact)"), std::string::npos);
  EXPECT_NE(A[0].Hints.at(0).find("accumulate in a register"),
            std::string::npos);
}
// Hybrid: the stalls on the global load shrink by the share of the global
// accesses that the invariant-address store is (32 of 64 executions).
TEST(GlobalTransactions, RedundantStoresShareTheLoadStalls) {
  Kernel K(Accumulate);
  background(K);
  K.stall(K.at("add.f32"), "long_scoreboard", 40); // waits for the load
  K.Executed["k"] = std::vector<double>(K.fn().Instrs.size(), 32);
  std::vector<Advice> A = K.run("global_memory_transaction_reduction");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_DOUBLE_EQ(A[0].EstimatedSpeedup, 120.0 / (120 - 20));
  EXPECT_NE(A[0].Hotspots.at(0).Evidence.find("50% of the kernel's global"),
            std::string::npos)
      << A[0].Hotspots[0].Evidence;
  // Without exact executions the share is unknown: nothing matched.
  Kernel S(Accumulate);
  background(S);
  S.stall(S.at("add.f32"), "long_scoreboard", 40);
  EXPECT_TRUE(S.run("global_memory_transaction_reduction").empty());
}
// By time: stores write through to L2 while loads may hit in L1. Where the
// chip's L2 needs 75% of the modeled time for the invariant store's sectors
// (656,250 sectors x 32 B at h100-sxm's 2,800 B per cycle = 7,500 of 10,000
// cycles), the loads' stalls shrink by 75%, not by the stores' 50% of the
// accesses (the colmax pair: 49% by count, 74% by time).
TEST(GlobalTransactions, RedundantStoresWeighByTheirL2Time) {
  auto Make = [](uint64_t StoreSectors) {
    auto K = std::make_unique<Kernel>(Accumulate);
    background(*K);
    K->stall(K->at("add.f32"), "long_scoreboard", 40);
    K->Executed["k"] = std::vector<double>(K->fn().Instrs.size(), 32);
    K->GroundTruth.Files = 1;
    for (const Instr &I : K->fn().Instrs) {
      TruthInstruction T;
      T.Opcode = I.Opcode;
      T.Warp = 32;
      T.Memory = I.Class == OpClass::Memory;
      if (I.Store)
        T.Mem.GlobalSectors = StoreSectors;
      K->GroundTruth.Functions["k"].Insts.push_back(T);
    }
    KernelModeledTime &M = K->In.ModeledTime["k"];
    M.Cycles = 10000;
    M.Config = "h100-sxm";
    return K;
  };
  auto Slow = Make(656250);
  std::vector<Advice> A = Slow->run("global_memory_transaction_reduction");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_DOUBLE_EQ(A[0].EstimatedSpeedup, 120.0 / (120 - 30));
  EXPECT_NE(A[0].Hotspots.at(0).Evidence.find("the L2 needs 75% of the"),
            std::string::npos)
      << A[0].Hotspots[0].Evidence;
  // Where the L2 time is the smaller share, the share of accesses stays.
  auto Fast = Make(8750); // 100 of 10,000 cycles
  A = Fast->run("global_memory_transaction_reduction");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_DOUBLE_EQ(A[0].EstimatedSpeedup, 120.0 / (120 - 20));
}
TEST(GlobalTransactions, SilentOnDrainWithoutGlobalStores) {
  Kernel K(Straight2);
  background(K);
  K.stall(K.at("ret"), "drain", 20);
  EXPECT_TRUE(K.run("global_memory_transaction_reduction").empty());
}
TEST(GlobalTransactions, SilentOnLocalThrottle) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.local.f32"), "lg_throttle", 20);
  EXPECT_TRUE(K.run("global_memory_transaction_reduction").empty());
}

TEST(SharedTransactions, FiresOnSharedThrottle) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.shared.f32"), "mio_throttle", 20);
  EXPECT_DOUBLE_EQ(only(K.run("shared_memory_transaction_reduction")), 1.25);
}
TEST(SharedTransactions, SilentOnGlobalThrottle) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.global.f32"), "mio_throttle", 20);
  EXPECT_TRUE(K.run("shared_memory_transaction_reduction").empty());
}

TEST(IndirectAccess, FiresOnLoadedAddress) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.global.f32", 1), "wait", 20); // a[b[i]]
  EXPECT_DOUBLE_EQ(only(K.run("indirect_memory_access_reduction")), 1.25);
}
TEST(IndirectAccess, SilentOnComputedAddress) {
  Kernel K;
  background(K);
  K.stall(K.at("ld.global.f32", 0), "wait", 20); // a[i]
  EXPECT_TRUE(K.run("indirect_memory_access_reduction").empty());
}

void globalCounts(Kernel &K, uint64_t Sectors, uint64_t Ideal) {
  TruthInstruction I;
  I.Opcode = "ld.global.f32";
  I.File = "/t/k.cu";
  I.Line = 5;
  I.Memory = true;
  I.Mem.GlobalRequests = 10;
  I.Mem.GlobalSectors = Sectors;
  I.Mem.GlobalIdealSectors = Ideal;
  K.GroundTruth.Functions["k"].Insts.push_back(I);
  K.GroundTruth.Files = 1;
}

TEST(GlobalAccessAdjustment, FiresOnExcessSectors) {
  Kernel K;
  background(K);
  globalCounts(K, 80, 40); // half the sectors are excess
  K.stall(K.at("ld.global.f32"), "lg_throttle", 20);
  std::vector<Advice> A = K.run("global_memory_access_adjustment");
  EXPECT_DOUBLE_EQ(only(A), 100.0 / 90);
  ASSERT_FALSE(A.empty());
  EXPECT_NE(A[0].Hotspots.at(0).Evidence.find("8 sectors/request, ideal 4"),
            std::string::npos)
      << A[0].Hotspots[0].Evidence;
}
TEST(GlobalAccessAdjustment, SilentWhenCoalesced) {
  Kernel K;
  background(K);
  globalCounts(K, 40, 40);
  K.stall(K.at("ld.global.f32"), "lg_throttle", 20);
  EXPECT_TRUE(K.run("global_memory_access_adjustment").empty());
}

void sharedCounts(Kernel &K, uint64_t Wavefronts) {
  TruthInstruction I;
  I.Opcode = "ld.shared.f32";
  I.File = "/t/k.cu";
  I.Line = 9;
  I.Memory = true;
  I.Mem.SharedRequests = 10;
  I.Mem.SharedWavefronts = Wavefronts;
  I.Mem.SharedIdealWavefronts = 10;
  K.GroundTruth.Functions["k"].Insts.push_back(I);
  K.GroundTruth.Files = 1;
}

TEST(SharedAccessAdjustment, FiresOnBankConflicts) {
  Kernel K;
  background(K);
  sharedCounts(K, 40); // 4-way conflicts: 3/4 of the wavefronts excess
  K.stall(K.at("ld.shared.f32"), "mio_throttle", 20);
  EXPECT_DOUBLE_EQ(only(K.run("shared_memory_access_adjustment")), 100.0 / 85);
}
TEST(SharedAccessAdjustment, SilentWithoutConflicts) {
  Kernel K;
  background(K);
  sharedCounts(K, 10);
  K.stall(K.at("ld.shared.f32"), "mio_throttle", 20);
  EXPECT_TRUE(K.run("shared_memory_access_adjustment").empty());
}

TEST(GpaOptimizers, AllSeventeenWithHelp) {
  std::vector<std::string> Ids;
  for (auto &O : gpaOptimizers()) {
    Ids.push_back(O->id().str());
    EXPECT_FALSE(O->help().empty()) << O->id().str();
    EXPECT_FALSE(O->needs().empty()) << O->id().str();
  }
  EXPECT_EQ(Ids.size(), 17u);
}

} // namespace
