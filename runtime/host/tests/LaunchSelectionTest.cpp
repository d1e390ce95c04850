//===- LaunchSelectionTest.cpp - --launch-skip/--launch-count -------------===//

#include "LaunchSelection.h"
#include "Environment.h"
#include "FakeEnvironment.h"
#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace warpscope::rt;
using namespace warpscope::rt::test;

namespace {

LaunchSelectionSettings sel(uint64_t Skip, std::optional<uint64_t> Count,
                            bool PerKernel) {
  LaunchSelectionSettings S;
  S.Skip = Skip;
  S.Count = Count;
  S.PerKernel = PerKernel;
  return S;
}

/// Which of Launches (kernel names, in order) S profiles, as a 0/1 string.
std::string pattern(LaunchSelectionSettings S,
                    const std::vector<std::string> &Launches) {
  LaunchSelection Sel(S);
  std::string Out;
  for (const std::string &K : Launches)
    Out += Sel.admit({0, K}) ? '1' : '0';
  return Out;
}

const std::vector<std::string> Mixed = {"a", "b", "a", "a", "b", "c", "b", "a"};

TEST(LaunchSelection, InactiveProfilesEverything) {
  EXPECT_FALSE(LaunchSelectionSettings().active());
  EXPECT_EQ(pattern(LaunchSelectionSettings(), Mixed), "11111111");
}

TEST(LaunchSelection, SkipAndCountOverall) {
  EXPECT_EQ(pattern(sel(2, std::nullopt, false), Mixed), "00111111");
  EXPECT_EQ(pattern(sel(0, 3, false), Mixed), "11100000");
  EXPECT_EQ(pattern(sel(3, 2, false), Mixed), "00011000");
  EXPECT_EQ(pattern(sel(100, std::nullopt, false), Mixed), "00000000");
}

TEST(LaunchSelection, SkipAndCountPerKernel) {
  // a: launches 0,2,3,7; b: 1,4,6; c: 5. Skip each kernel's first, keep one.
  EXPECT_EQ(pattern(sel(1, 1, true), Mixed), "00101000");
  EXPECT_EQ(pattern(sel(0, 2, true), Mixed), "11101100");
  EXPECT_EQ(pattern(sel(1, std::nullopt, true), Mixed), "00111011");
}

TEST(LaunchSelection, SameNameInTwoModulesIsTwoKernels) {
  LaunchSelection Sel(sel(0, 1, true));
  EXPECT_TRUE(Sel.admit({0, "k"}));
  EXPECT_TRUE(Sel.admit({1, "k"}));
  EXPECT_FALSE(Sel.admit({0, "k"}));
}

TEST(LaunchSelection, KernelRegexOnMangledOrDemangledNames) {
  LaunchSelectionSettings S;
  S.KernelRegex = "^count_b\\(";
  S.Count = 1;
  ASSERT_TRUE(S.active());
  LaunchSelection Sel(S);
  // Other kernels are left out and do not use up the count.
  EXPECT_FALSE(Sel.admit({0, "_Z7count_aPi"}));
  EXPECT_TRUE(Sel.admit({0, "_Z7count_bPi"}));
  EXPECT_FALSE(Sel.admit({0, "_Z7count_bPi"}));
  LaunchSelectionSettings M;
  M.KernelRegex = "_Z7count_a";
  M.Skip = 1;
  LaunchSelection ByMangled(M);
  EXPECT_FALSE(ByMangled.admit({0, "_Z7count_aPi"}));
  EXPECT_FALSE(ByMangled.admit({0, "_Z7count_bPi"}));
  EXPECT_TRUE(ByMangled.admit({0, "_Z7count_aPi"}));
  EXPECT_NE(kernelRegexError("("), "");
  EXPECT_EQ(kernelRegexError("a|b"), "");
}

TEST(LaunchSelection, ReadFromTheEnvironment) {
  FakeEnv = {{"WARPSCOPE_LAUNCH_SKIP", "5"},
             {"WARPSCOPE_LAUNCH_COUNT", "2"},
             {"WARPSCOPE_LAUNCH_SCOPE", "per-kernel"}};
  Settings S = readSettings(fakeGetenv);
  EXPECT_EQ(S.Selection.Skip, 5u);
  EXPECT_EQ(S.Selection.Count, 2u);
  EXPECT_TRUE(S.Selection.PerKernel);
  EXPECT_TRUE(S.Selection.active());
  EXPECT_EQ(S.Warning, "");
  FakeEnv = {{"WARPSCOPE_LAUNCH_COUNT", "0"}};
  S = readSettings(fakeGetenv);
  EXPECT_FALSE(S.Selection.Count) << "0 is not a count: no limit";
  EXPECT_NE(S.Warning.find("WARPSCOPE_LAUNCH_COUNT='0'"), std::string::npos)
      << S.Warning;
  FakeEnv = {{"WARPSCOPE_LAUNCH_SKIP", "-1"}};
  S = readSettings(fakeGetenv);
  EXPECT_EQ(S.Selection.Skip, 0u);
  EXPECT_NE(S.Warning.find("WARPSCOPE_LAUNCH_SKIP='-1'"), std::string::npos);
  FakeEnv = {{"WARPSCOPE_LAUNCH_KERNEL", "("}};
  S = readSettings(fakeGetenv);
  EXPECT_EQ(S.Selection.KernelRegex, "");
  EXPECT_FALSE(S.Selection.active());
  EXPECT_NE(S.Warning.find("WARPSCOPE_LAUNCH_KERNEL='(' is not a regular "
                           "expression"),
            std::string::npos)
      << S.Warning;
  FakeEnv = {{"WARPSCOPE_LAUNCH_SCOPE", "kernel"}};
  S = readSettings(fakeGetenv);
  EXPECT_FALSE(S.Selection.PerKernel);
  EXPECT_NE(S.Warning.find("WARPSCOPE_LAUNCH_SCOPE='kernel'"),
            std::string::npos);
}

} // namespace
