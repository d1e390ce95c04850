//===- ResimulateTest.cpp - advise --what-if's estimates ------------------===//
//
// resimulate() with a stand-in runner (the real one runs a program: the
// e2e test advise-what-if.cu): the estimate is the kernel's modeled time
// before over after, launch cost included; advice without a change or
// whose re-run fails keeps its formula estimate and says why.
//
//===----------------------------------------------------------------------===//

#include "Resimulate.h"
#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::advise;

namespace {

Inputs modeled() {
  Inputs In;
  KernelModeledTime &K = In.ModeledTime["_Z1kPf"];
  K.Cycles = 9000;
  K.LaunchCycles = 1000;
  K.Config = "h100-sxm";
  return In;
}

Advice advice(const char *Optimizer, double Estimate, emu::WhatIf Change) {
  Advice A;
  A.Optimizer = Optimizer;
  A.Kernel = "_Z1kPf";
  A.EstimatedSpeedup = Estimate;
  A.Estimator = "parallelism (GPA Eq. 11)";
  A.Change = Change;
  return A;
}

TEST(Resimulate, TheModelsTimeBeforeOverAfter) {
  Inputs In = modeled();
  std::vector<std::string> Asked;
  WhatIfRunner Run = [&](const emu::WhatIf &W, std::string &) {
    Asked.push_back(emu::formatWhatIf(W));
    return std::optional<double>(4000);
  };
  std::vector<Advice> All = {
      advice("block_increase", 5.9, {"_Z1kPf", 512, 0, 0, -1}),
      advice("divergence", 1.3, {})};
  std::vector<std::string> Notes;
  resimulate(In, Run, All, Notes);
  ASSERT_EQ(All.size(), 2u);
  // 9000 + 1000 cycles before, 4000 after: 2.5x, not the formula's 5.9x.
  EXPECT_NEAR(All[0].EstimatedSpeedup, 2.5, 1e-12);
  EXPECT_EQ(All[0].Kind, EstimateKind::Resimulated);
  EXPECT_NE(All[0].Estimator.find("512 blocks: 10000 -> 4000 modeled cycles"),
            std::string::npos)
      << All[0].Estimator;
  EXPECT_NE(All[0].Estimator.find("the formula said 5.9x"), std::string::npos);
  // Advice whose change is no parameter is not run.
  EXPECT_EQ(Asked, std::vector<std::string>{"_Z1kPf:grid=512"});
  EXPECT_EQ(All[1].Kind, EstimateKind::Formula);
  EXPECT_EQ(All[1].EstimatedSpeedup, 1.3);
  EXPECT_TRUE(Notes.empty());
}

TEST(Resimulate, AFailedRunKeepsTheFormula) {
  Inputs In = modeled();
  WhatIfRunner Run = [](const emu::WhatIf &, std::string &Why) {
    Why = "the run log records no `warpscope run ... -- PROGRAM`";
    return std::optional<double>();
  };
  std::vector<Advice> All = {
      advice("occupancy_limiter", 1.2, {"_Z1kPf", 0, 0, 0, 8192})};
  std::vector<std::string> Notes;
  resimulate(In, Run, All, Notes);
  ASSERT_EQ(All.size(), 1u);
  EXPECT_EQ(All[0].Kind, EstimateKind::Formula);
  EXPECT_EQ(All[0].EstimatedSpeedup, 1.2);
  EXPECT_NE(All[0].Estimator.find("not re-simulated: the run log records"),
            std::string::npos);
}

TEST(Resimulate, NoGainIsNotAdvised) {
  // The formula said 1.2x; the model runs the change in 9950 of 10000
  // cycles: under 1.01x, so the advice goes, with a note.
  Inputs In = modeled();
  WhatIfRunner Run = [](const emu::WhatIf &, std::string &) {
    return std::optional<double>(9950);
  };
  std::vector<Advice> All = {
      advice("occupancy_limiter", 1.2, {"_Z1kPf", 0, 0, 0, 8192})};
  std::vector<std::string> Notes;
  resimulate(In, Run, All, Notes);
  EXPECT_TRUE(All.empty());
  ASSERT_EQ(Notes.size(), 1u);
  EXPECT_NE(Notes[0].find("8192 B shared/block, 1.005x; not advised"),
            std::string::npos)
      << Notes[0];
}

TEST(WhatIf, FormatAndParseAgree) {
  emu::WhatIf W{"_Z4axpyPKfPfi", 512, 256, 32, 0}, Back;
  std::string Error;
  ASSERT_TRUE(emu::parseWhatIf(emu::formatWhatIf(W), Back, Error)) << Error;
  EXPECT_EQ(emu::formatWhatIf(Back),
            "_Z4axpyPKfPfi:grid=512,block=256,registers=32,shared=0");
  for (const char *Bad :
       {"", "k", "k:", "k:grid", "k:grid=-1", "k:grid=0", "k:warps=4",
        "k:grid=4x", "k:grid=99999999999", "k:maxregs=0"})
    EXPECT_FALSE(emu::parseWhatIf(Bad, Back, Error)) << Bad;
  // register_increase's change: the kernel compiled without a cap.
  emu::WhatIf NoCap;
  NoCap.Kernel = "_Z3mixPKfPfi";
  NoCap.MaxRegisters = 255;
  ASSERT_TRUE(emu::parseWhatIf(emu::formatWhatIf(NoCap), Back, Error)) << Error;
  EXPECT_EQ(emu::formatWhatIf(Back), "_Z3mixPKfPfi:maxregs=255");
  EXPECT_EQ(Back.MaxRegisters, 255u);
}

} // namespace
