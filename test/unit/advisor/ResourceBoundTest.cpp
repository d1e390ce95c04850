//===- ResourceBoundTest.cpp - Formula estimates capped by exact counts ---===//
//
// boundByResources() (ResourceBound.h) on a hand-made kernel of 132 blocks
// with 10000 modeled cycles on the h100-sxm configuration (132 SMs, 4
// schedulers, L1 128 B and L2 2800 B per cycle): a formula estimate is
// capped where a resource its change does not reduce needs most of the
// modeled time, and stays where the change reduces it, where the estimate
// is below the cap, or where the model re-simulated the change.
//
//===----------------------------------------------------------------------===//

#include "ResourceBound.h"
#include "../GroundTruth.h"
#include "MachineModel.h"
#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::advise;

namespace {

const char *const K = "_Z1kPf";

struct Case {
  Truth GroundTruth;
  Inputs In;
  Case() {
    TruthLaunch L;
    L.Kernel = K;
    L.Grid[0] = 132;
    L.Modeled = TruthModeled();
    GroundTruth.Launches.push_back(L);
    GroundTruth.Functions[K].Kernel = true;
    In.GroundTruth = &GroundTruth;
    KernelModeledTime &M = In.ModeledTime[K];
    M.Cycles = 10000;
    M.LaunchCycles = 0;
    M.Config = "h100-sxm";
  }
  TruthInstruction &add(const char *Opcode, uint64_t Warp) {
    TruthInstruction I;
    I.Opcode = Opcode;
    I.Warp = Warp;
    GroundTruth.Functions[K].Insts.push_back(I);
    return GroundTruth.Functions[K].Insts.back();
  }
  /// 8000 of the 10000 cycles are needed to issue: 80%.
  Case &issueBound() {
    add("add.f32", 4 * 132 * 8000);
    // Neither branches (their unconditional half is free) nor the probes'
    // instructions are counted: a count the model need not issue is no
    // floor.
    add("bra.uni", 4 * 132 * 8000);
    add("add.s64", 4 * 132 * 8000).Instrumentation = true;
    // Nor the forms the timing model charges nothing for (ptxUnitOf's
    // free forms, PtxOpcodes.def).
    add("bar.warp.sync", 4 * 132 * 8000);
    add("prefetch.global.L2", 4 * 132 * 8000);
    return *this;
  }
  Advice run(const char *Optimizer, double Estimate,
             EstimateKind Kind = EstimateKind::Formula) {
    Advice A;
    A.Optimizer = Optimizer;
    A.Kernel = K;
    A.EstimatedSpeedup = Estimate;
    A.Estimator = "latency hiding";
    A.Kind = Kind;
    std::vector<Advice> All = {A};
    boundByResources(In, All);
    return All.at(0);
  }
};

bool configBuilt() { return machineConfig("h100-sxm").has_value(); }

TEST(ResourceBound, CapsLatencyHidingOnAnIssueBoundKernel) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  C.issueBound();
  Advice A = C.run("code_reordering", 1.6);
  EXPECT_NEAR(A.EstimatedSpeedup, 1.25, 1e-12);
  EXPECT_EQ(A.BoundBy, "issue");
  EXPECT_NE(A.Estimator.find("capped at 1.25x (the formula said 1.6x): "
                             "issue-bound, 80% of the modeled 10000 cycles"),
            std::string::npos)
      << A.Estimator;
  EXPECT_NE(A.Estimator.find("4224000 warp instructions"), std::string::npos)
      << A.Estimator;
}

TEST(ResourceBound, TheModelsOwnInstructionCountIsTheIssueFloor) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  // The launch says the model issued 6000 cycles' worth (a multiply fused
  // into its add issues nothing): that, not one per PTX instruction.
  Case C;
  C.issueBound();
  C.GroundTruth.Launches[0].Modeled->Instructions = 4 * 132 * 6000;
  Advice A = C.run("code_reordering", 2.0);
  EXPECT_NEAR(A.EstimatedSpeedup, 10000.0 / 6000, 1e-12);
  EXPECT_NE(A.Estimator.find("3168000 warp instructions"), std::string::npos)
      << A.Estimator;
}

TEST(ResourceBound, SilentWhereTheChangeReducesTheBindingResource) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  C.issueBound();
  // Strength reduction removes instructions: issue is no floor for it.
  Advice A = C.run("strength_reduction", 1.6);
  EXPECT_EQ(A.EstimatedSpeedup, 1.6);
  EXPECT_TRUE(A.BoundBy.empty());
  EXPECT_EQ(A.Estimator, "latency hiding");
}

TEST(ResourceBound, SilentBelowTheCapAndOnReSimulatedEstimates) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  C.issueBound();
  EXPECT_EQ(C.run("code_reordering", 1.2).EstimatedSpeedup, 1.2);
  // The model's own figure for the change is not capped by counts.
  EXPECT_EQ(
      C.run("code_reordering", 1.6, EstimateKind::Resimulated).EstimatedSpeedup,
      1.6);
}

TEST(ResourceBound, TheBusiestResourceTheChangeLeavesBinds) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  C.issueBound();
  // 9000 cycles of L1: 32 B x 4752000 sectors / 128 B per cycle / 132 SMs.
  C.add("ld.global.f32", 132 * 4).Mem.GlobalSectors = 4752000;
  Advice A = C.run("strength_reduction", 1.6);
  EXPECT_NEAR(A.EstimatedSpeedup, 10000.0 / 9000, 1e-12);
  EXPECT_EQ(A.BoundBy, "L1");
  // L1 binds before issue for a change that reduces neither.
  EXPECT_EQ(C.run("code_reordering", 1.6).BoundBy, "L1");
  // A change that reduces sectors (and instructions) is left alone.
  EXPECT_EQ(C.run("uncoalesced_access", 1.6).EstimatedSpeedup, 1.6);
}

TEST(ResourceBound, StoresBindAtL2) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  // 5000 cycles of L2: 32 B x 437500 store sectors / 2800 B per cycle.
  C.add("st.global.f32", 132 * 4).Mem.GlobalSectors = 437500;
  Advice A = C.run("bank_conflicts", 3);
  EXPECT_NEAR(A.EstimatedSpeedup, 2, 1e-12);
  EXPECT_EQ(A.BoundBy, "L2");
  // Loads may hit in L1: they give L2 no floor.
  Case Loads;
  Loads.add("ld.global.f32", 132 * 4).Mem.GlobalSectors = 437500;
  EXPECT_EQ(Loads.run("bank_conflicts", 3).EstimatedSpeedup, 3);
}

TEST(ResourceBound, NoCapWithoutAFloorBelowTheModeledTime) {
  if (!configBuilt())
    GTEST_SKIP() << "the timing model's configurations are not built";
  Case C;
  C.add("add.f32", 4 * 132 * 12000); // more than the 10000 cycles
  EXPECT_EQ(C.run("code_reordering", 1.6).EstimatedSpeedup, 1.6);
  Case Unknown;
  Unknown.issueBound();
  Unknown.In.ModeledTime[K].Config = "not-a-config";
  EXPECT_EQ(Unknown.run("code_reordering", 1.6).EstimatedSpeedup, 1.6);
  // An optimizer the table does not know may reduce anything.
  Case New;
  New.issueBound();
  EXPECT_EQ(New.run("a_new_optimizer", 1.6).EstimatedSpeedup, 1.6);
}

} // namespace
