//===- GpaLatencyTest.cpp - GPA latency hiding fires, or not --------------===//
//
// The latency-hiding optimizers of GPA's Table 2 (GpaLatency.cpp, with
// function inlining's matcher in FunctionInlining.cpp): each fires where
// it must, with its estimator's speedup, and stays silent where it must not.
//
//===----------------------------------------------------------------------===//

#include "AdvisorFixture.h"

using namespace warpscope;
using namespace warpscope::advise;
using namespace warpscope::advise::test;

namespace {

TEST(LoopUnrolling, FiresOnDependencyInsideTheLoop) {
  Kernel K;
  K.active(50);
  K.stall(K.at("mul.wide.u32"), "selected", 30); // active inside the loop
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20);
  std::vector<Advice> A = K.run("loop_unrolling");
  EXPECT_DOUBLE_EQ(only(A), 100.0 / 80);
  ASSERT_FALSE(A.empty());
  EXPECT_NE(A[0].Hints.at(0).find("k.cu:5"), std::string::npos)
      << A[0].Hints[0];
}
// Scope analysis: no active samples in the loop, nothing to hide with.
TEST(LoopUnrolling, SilentWithoutActiveSamplesInTheLoop) {
  Kernel K;
  K.active(80);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20);
  EXPECT_TRUE(K.run("loop_unrolling").empty());
}

TEST(CodeReordering, FiresBoundedByActive) {
  Kernel K;
  K.active(10);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 90);
  // min(A = 10, M^L = 90) = 10 hidden: 100 / 90.
  EXPECT_DOUBLE_EQ(only(K.run("code_reordering")), 100.0 / 90);
}
// GPA's active samples are those in which the scheduler issued, whichever
// warp it picked: 2 of this warp's (selected) and 8 of others'
// (not_selected); the other 90 are not-issued samples.
TEST(CodeReordering, ActiveSamplesAreThoseTheSchedulerIssuedIn) {
  Kernel K;
  K.active(2);
  K.stall(K.at("mul.wide.u32"), "not_selected", 8);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 90);
  K.Issued["k"] = 10;
  // min(A = 10, M^L = 90) = 10 hidden: 100 / 90 (the selected 2: 100 / 98).
  EXPECT_DOUBLE_EQ(only(K.run("code_reordering")), 100.0 / 90);
}
TEST(CodeReordering, SilentWithoutActiveSamples) {
  Kernel K;
  K.stall(K.at("add.f32", 0), "long_scoreboard", 90);
  K.stall(K.at("bar.sync"), "barrier", 10);
  EXPECT_TRUE(K.run("code_reordering").empty());
}

TEST(AsyncCopy, FiresOnGlobalToSharedCopy) {
  Kernel K;
  K.active(80);
  K.stall(K.at("st.shared.f32"), "long_scoreboard", 20);
  EXPECT_DOUBLE_EQ(only(K.run("async_memory_copy")), 1.25);
}
TEST(AsyncCopy, SilentWhenTheUseIsNotASharedStore) {
  Kernel K;
  K.active(80);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20);
  EXPECT_TRUE(K.run("async_memory_copy").empty());
}

void branch(Kernel &K, uint64_t Arrivals0) {
  BranchCounts B;
  B.Loc = {"/t/k.cu", 13, 1};
  B.Successors = {1, 2};
  B.CountsArrivals = true;
  B.Visits = 100;
  B.Successor0Arrivals = Arrivals0;
  K.Profile.Functions[0].Branches.push_back(B);
}

TEST(BranchElimination, FiresOnADeterminedBranch) {
  Kernel K;
  K.active(80);
  branch(K, 100); // every visit went to successor 0
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20);
  EXPECT_DOUBLE_EQ(only(K.run("branch_elimination")), 1.25);
}
TEST(BranchElimination, SilentOnABranchGoingBothWays) {
  Kernel K;
  K.active(80);
  branch(K, 50);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 20);
  EXPECT_TRUE(K.run("branch_elimination").empty());
}

const char *WithCall = R"(.version 8.6
.target sm_90
.address_size 64
.file 1 "/t/c.cu"
.func (.param .b32 dev_r) dev(.param .b64 dev_a)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
.loc 1 3 1
ld.param.u64 %rd1, [dev_a];
ld.global.u32 %r1, [%rd1];
add.s32 %r2, %r1, 1;
st.param.b32 [dev_r], %r2;
ret;
}
.visible .entry k(.param .u64 k_p)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
.loc 1 8 1
ld.param.u64 %rd1, [k_p];
{
.param .b64 p0;
st.param.b64 [p0], %rd1;
.param .b32 rv;
call.uni (rv), dev, (p0);
ld.param.b32 %r1, [rv];
}
add.s32 %r2, %r1, 2;
st.global.u32 [%rd1], %r2;
ret;
}
)";

TEST(FunctionInlining, FiresOnStallsInACalledFunction) {
  Kernel K(WithCall);
  K.active(80);
  K.stall(K.at("add.s32", 0), "selected", 0, "dev");
  K.stall(2, "long_scoreboard", 20, "dev"); // the add in dev
  std::vector<Advice> A = K.run("function_inlining");
  EXPECT_DOUBLE_EQ(only(A), 1.25);
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A[0].Kernel, "k");
}
// The call, the callee's ret, its parameter read (with the call's branch
// latency at the callee's entry) go: E = 10 + 15 + 5 = 30, 15 of them
// active; the callee's other latency, 30, is hidden by the active samples
// left (55 - 15): 100 / (100 - 30 - 30).
TEST(FunctionInlining, EliminatesTheCallOverhead) {
  Kernel K(WithCall);
  K.active(40);
  K.stall(K.at("call.uni"), "selected", 10);
  K.stall(0, "branch_resolving", 15, "dev"); // ld.param, the entry
  K.stall(4, "selected", 5, "dev");          // ret
  K.stall(2, "long_scoreboard", 30, "dev");  // add
  std::vector<Advice> A = K.run("function_inlining");
  EXPECT_DOUBLE_EQ(only(A), 2.5);
  ASSERT_FALSE(A.empty());
  EXPECT_NE(A[0].Estimator.find("E = 30"), std::string::npos) << A[0].Estimator;
  // Hybrid: the exact calls and parameter moves (st.param and the return
  // value's ld.param in k, ld.param and st.param in dev).
  Kernel H(WithCall);
  H.active(40);
  H.stall(2, "long_scoreboard", 30, "dev");
  H.Executed["k"] = std::vector<double>(H.fn().Instrs.size(), 4);
  H.Executed["dev"] = std::vector<double>(H.fn("dev").Instrs.size(), 4);
  std::vector<Advice> B = H.run("function_inlining");
  ASSERT_EQ(B.size(), 1u);
  EXPECT_NE(B[0].Estimator.find("4 calls, 16 parameter moves"),
            std::string::npos)
      << B[0].Estimator;
}
// A stall on a parameter move's result goes with the move; a move waiting
// for real work (st.param of the add's result) keeps that wait as latency:
// T = 116, A = 55, E = 30 + 6, E_A = 15, M^L = 30 + 10.
TEST(FunctionInlining, DependencyStallsFollowTheirSource) {
  Kernel K(WithCall);
  K.active(40);
  K.stall(K.at("call.uni"), "selected", 10);
  K.stall(0, "branch_resolving", 15, "dev");
  K.stall(4, "selected", 5, "dev");
  K.stall(2, "long_scoreboard", 30, "dev");
  K.stall(1, "wait", 6, "dev");  // ld.global waits for ld.param's %rd1
  K.stall(3, "wait", 10, "dev"); // st.param waits for the add
  std::vector<Advice> A = K.run("function_inlining");
  EXPECT_DOUBLE_EQ(only(A), 116.0 / (116 - 36 - 40));
}
TEST(FunctionInlining, SilentWithoutCalls) {
  Kernel K;
  K.active(40);
  K.stall(K.at("add.f32", 0), "long_scoreboard", 60);
  EXPECT_TRUE(K.run("function_inlining").empty());
}
TEST(FunctionInlining, SilentOnStallsInTheKernelOnly) {
  Kernel K(WithCall);
  K.active(80);
  K.stall(K.at("add.s32"), "long_scoreboard", 20);
  EXPECT_TRUE(K.run("function_inlining").empty());
}

} // namespace
