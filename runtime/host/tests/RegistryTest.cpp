//===- RegistryTest.cpp - Runtime bookkeeping without a GPU
//----------------===//

#include "Registry.h"
#include "Environment.h"
#include "FakeEnvironment.h"
#include "warpscope/ABI/Files.h"
#include "gtest/gtest.h"
#include <map>
#include <string>

using namespace warpscope;
using namespace warpscope::rt;
using namespace warpscope::rt::test;

namespace {

int StubA, StubB, StubC;
uint64_t Shadow[4];
const KernelEntry Kernels[] = {{&StubA, "_Z1av"}, {&StubB, "_Z1bv"}};
const ModuleDescriptor Desc = {AbiVersion,
                               2,
                               "00000000000000aa",
                               "__warpscope_counters_00000000000000aa",
                               4,
                               Shadow,
                               "{}",
                               2,
                               Kernels,
                               1,
                               4};

TEST(Registry, FindsKernelsByStub) {
  Registry R;
  EXPECT_EQ(R.addModule(&Desc), 0);
  EXPECT_EQ(R.addModule(&Desc), 0) << "registering twice keeps one module";
  EXPECT_EQ(R.findKernel(&StubB).Name, "_Z1bv");
  EXPECT_EQ(R.findKernel(&StubB).Module, 0);
  EXPECT_EQ(R.findKernel(&StubC).Module, -1);
}

TEST(Registry, StreamsGetDenseIndicesDefaultIsZero) {
  Registry R;
  int S1, S2;
  EXPECT_EQ(R.streamIndex(nullptr), 0u);
  EXPECT_EQ(R.streamIndex(&S1), 1u);
  EXPECT_EQ(R.streamIndex(&S2), 2u);
  EXPECT_EQ(R.streamIndex(&S1), 1u);
}

TEST(Registry, AggregateGroupsLaunchesByConfiguration) {
  Registry R;
  R.addModule(&Desc);
  LaunchConfig C1, C2;
  C1.Grid = {4, 1, 1};
  C2.Grid = {8, 1, 1};
  KernelRef A = R.findKernel(&StubA);
  R.recordLaunch(A, C1);
  R.recordLaunch(A, C1);
  R.recordLaunch(A, C2);
  auto Groups = R.launchGroups();
  ASSERT_EQ(Groups.size(), 2u);
  EXPECT_EQ((Groups[{0, "_Z1av", C1}]), 2u);
  EXPECT_EQ((Groups[{0, "_Z1av", C2}]), 1u);
  EXPECT_EQ(R.launchCount(), 3u);
  EXPECT_EQ(R.takeDirtyModules(), std::vector<int>{0});
  EXPECT_TRUE(R.takeDirtyModules().empty());
}

TEST(Registry, PerLaunchRecordsSumToTotals) {
  Registry R;
  R.addModule(&Desc);
  KernelRef A = R.findKernel(&StubA);
  R.recordLaunch(A, {}, 1.5, {1, 0, 3, 0}, "");
  R.recordLaunch(A, {}, 2.0, {2, 5, 0, 0}, "");
  auto Records = R.launchRecords();
  ASSERT_EQ(Records.size(), 2u);
  EXPECT_EQ(Records[0].Sequence, 0u);
  EXPECT_EQ(Records[1].Sequence, 1u);
  // Sparse: only non-zero counters are kept.
  ASSERT_EQ(Records[0].Counters.size(), 2u);
  EXPECT_EQ(Records[0].Counters[1], (std::pair<uint32_t, uint64_t>{2, 3}));
  std::vector<uint64_t> Sum(4, 0);
  for (const LaunchRecord &L : Records)
    for (auto [I, V] : L.Counters)
      Sum[I] += V;
  EXPECT_EQ(Sum, R.modules()[0].Totals);
  EXPECT_EQ(R.modules()[0].Totals, (std::vector<uint64_t>{3, 5, 3, 0}));
}

TEST(Registry, ErrorsMarkModulesIncomplete) {
  Registry R;
  R.addModule(&Desc);
  R.setModuleError(0, "reading counters failed: boom");
  R.setModuleError(0, "second error is not kept");
  EXPECT_EQ(R.modules()[0].Error, "reading counters failed: boom");
}

TEST(Environment, DefaultsModesAndRanks) {
  FakeEnv = {};
  Settings S = readSettings(fakeGetenv);
  EXPECT_EQ(S.CollectionMode, Mode::Aggregate);
  EXPECT_EQ(S.OutputDirectory, "warpscope-out");
  EXPECT_FALSE(S.Rank);
  FakeEnv = {{"WARPSCOPE_MODE", "per-launch"},
             {"WARPSCOPE_OUT", "/tmp/x"},
             {"SLURM_PROCID", "7"}};
  S = readSettings(fakeGetenv);
  EXPECT_EQ(S.CollectionMode, Mode::PerLaunch);
  EXPECT_EQ(S.OutputDirectory, "/tmp/x");
  EXPECT_EQ(S.Rank, 7);
  EXPECT_EQ(profileFileName(42, S.Rank), "profile-42-rank7.json");
  EXPECT_EQ(profileFileName(42, std::nullopt), "profile-42.json");
}

TEST(Environment, BadModeWarnsAndFallsBack) {
  FakeEnv = {{"WARPSCOPE_MODE", "sometimes"}, {"OMPI_COMM_WORLD_RANK", "x1"}};
  Settings S = readSettings(fakeGetenv);
  EXPECT_EQ(S.CollectionMode, Mode::Aggregate);
  EXPECT_NE(S.Warning.find("'sometimes'"), std::string::npos);
  EXPECT_FALSE(S.Rank) << "a malformed rank is ignored";
}

TEST(Environment, RankVariablesInOrderAndWorldSize) {
  FakeEnv = {{"PMI_RANK", "3"}, {"PMI_SIZE", "4"}, {"SLURM_PROCID", "9"}};
  Settings S = readSettings(fakeGetenv);
  EXPECT_EQ(S.Rank, 3) << "Open MPI, PMIx, PMI, then Slurm";
  EXPECT_EQ(S.WorldSize, 4);
  FakeEnv = {{"OMPI_COMM_WORLD_RANK", "12"}, {"PMI_RANK", "3"}};
  S = readSettings(fakeGetenv);
  EXPECT_EQ(S.Rank, 12);
  EXPECT_FALSE(S.WorldSize);
  FakeEnv = {{"OMPI_COMM_WORLD_RANK", "2x"}, {"SLURM_PROCID", "5"}};
  EXPECT_EQ(readSettings(fakeGetenv).Rank, 5) << "a malformed one is skipped";
  FakeEnv = {{"SLURM_PROCID", "-1"}};
  EXPECT_FALSE(readSettings(fakeGetenv).Rank);
}

TEST(Environment, FileNamesGiveBackPidAndRank) {
  using warpscope::files::Launches;
  using warpscope::files::Profile;
  using warpscope::files::Truth;
  EXPECT_EQ(Profile.rankIn(profileFileName(42, 1023)), 1023);
  EXPECT_EQ(Profile.pidIn(profileFileName(42, 1023)), 42);
  EXPECT_FALSE(Profile.rankIn(profileFileName(42, std::nullopt)));
  EXPECT_EQ(Profile.pidIn(profileFileName(42, std::nullopt)), 42);
  EXPECT_EQ(Launches.rankIn(launchesFileName(7, 0)), 0);
  EXPECT_EQ(Truth.pidIn("emu-77-0.json"), 77);
  EXPECT_FALSE(Truth.rankIn("emu-77-0.json"));
  EXPECT_FALSE(Profile.pidIn("profile-x.json"));
  EXPECT_FALSE(Profile.rankIn("profile-1-rank.json"));
  EXPECT_FALSE(Profile.rankIn("profile-1-rank99999999999.json"));
}

} // namespace
