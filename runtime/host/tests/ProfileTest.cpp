//===- ProfileTest.cpp - Profile JSON and atomic writes
//--------------------===//

#include "Profile.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope;
using namespace warpscope::rt;

namespace {

int Stub;
uint64_t ProfiledShadow[3];
const KernelEntry ProfiledKernels[] = {{&Stub, "_Z1kv"}};
const char Db[] = "{\"schema\":\"warpscope-db/1\"}";
const ModuleDescriptor ProfiledModule = {
    AbiVersion,
    1,
    "0123456789abcdef",
    "__warpscope_counters_0123456789abcdef",
    3,
    ProfiledShadow,
    Db,
    sizeof(Db) - 1,
    ProfiledKernels,
    1,
    3};

std::string tempDir() {
  char Tmpl[] = "/tmp/wsprofXXXXXX";
  return mkdtemp(Tmpl);
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

TEST(Profile, AggregateJsonHasModulesAndGroupedLaunches) {
  Registry R;
  R.addModule(&ProfiledModule);
  LaunchConfig C;
  C.Grid = {2, 1, 1};
  C.Block = {64, 1, 1};
  R.recordLaunch(R.findKernel(&Stub), C);
  R.recordLaunch(R.findKernel(&Stub), C);
  R.accumulate(0, {4, 128, 2});
  ProcessInfo P;
  P.Pid = 99;
  nlohmann::json J = profileJson(R, P);
  EXPECT_EQ(J["schema"], "warpscope-profile/2");
  EXPECT_EQ(J["mode"], "aggregate");
  EXPECT_EQ(J["modules"][0]["counters"], nlohmann::json::array({4, 128, 2}));
  EXPECT_EQ(J["modules"][0]["database"], "db-0123456789abcdef.json");
  EXPECT_TRUE(J["modules"][0]["complete"].get<bool>());
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["count"], 2);
  EXPECT_EQ(J["launches"][0]["kernel"], "_Z1kv");
  EXPECT_EQ(J["launches"][0]["block"], nlohmann::json::array({64, 1, 1}));
}

TEST(Profile, KernelResourcesAskedOnceAndWritten) {
  Registry R;
  R.addModule(&ProfiledModule);
  KernelRef K = R.findKernel(&Stub);
  OccupancyKey O{{K.Module, K.Name}, 64, 0};
  ResourceQuestions First = R.claimResourceQuestions(K, O);
  EXPECT_TRUE(First.Attributes);
  EXPECT_TRUE(First.Occupancy);
  ResourceQuestions Again = R.claimResourceQuestions(K, O);
  EXPECT_FALSE(Again.Attributes);
  EXPECT_FALSE(Again.Occupancy);
  // Another block size: occupancy again, attributes not.
  ResourceQuestions Other = R.claimResourceQuestions(K, {O.Kernel, 128, 0});
  EXPECT_FALSE(Other.Attributes);
  EXPECT_TRUE(Other.Occupancy);
  KernelAttributes A;
  A.Source = "ptxas";
  A.Known = true;
  A.Registers = 40;
  A.LocalBytes = 16;
  A.SpillStoreBytes = 8;
  A.SpillLoadBytes = 4;
  A.StaticSharedBytes = 1024;
  A.MaxThreadsPerBlock = 1024;
  R.setAttributes(K, A);
  R.setBlocksPerSM(O, 12);
  LaunchConfig C;
  C.Block = {64, 1, 1};
  R.recordLaunch(K, C);
  C.Block = {128, 1, 1};
  R.recordLaunch(K, C); // its question claimed, never answered
  ProcessInfo P;
  DeviceLimits L;
  L.ComputeCapability = "9.0";
  L.RegistersPerSM = 65536;
  P.Limits = L;
  nlohmann::json J = profileJson(R, P);
  EXPECT_EQ(J["device_limits"]["compute_capability"], "9.0");
  EXPECT_EQ(J["device_limits"]["registers_per_sm"], 65536);
  ASSERT_EQ(J["kernels"].size(), 1u);
  const nlohmann::json &KJ = J["kernels"][0];
  EXPECT_EQ(KJ["kernel"], "_Z1kv");
  EXPECT_EQ(KJ["source"], "ptxas");
  EXPECT_EQ(KJ["registers"], 40);
  EXPECT_EQ(KJ["local_bytes"], 16);
  EXPECT_EQ(KJ["spill_store_bytes"], 8);
  EXPECT_EQ(KJ["spill_load_bytes"], 4);
  EXPECT_EQ(KJ["static_shared_bytes"], 1024);
  EXPECT_FALSE(KJ.contains("error"));
  ASSERT_EQ(J["launches"].size(), 2u);
  EXPECT_EQ(J["launches"][0]["blocks_per_sm"], 12);
  EXPECT_TRUE(J["launches"][1]["blocks_per_sm"].is_null());
}

TEST(Profile, UnknownKernelResourcesAreNull) {
  Registry R;
  R.addModule(&ProfiledModule);
  KernelRef K = R.findKernel(&Stub);
  KernelAttributes A;
  A.Source = "cuda-runtime";
  A.Error = "cudaFuncGetAttributes failed: invalid device function";
  R.setAttributes(K, A);
  nlohmann::json J = profileJson(R, ProcessInfo());
  EXPECT_TRUE(J["device_limits"].is_null());
  const nlohmann::json &KJ = J["kernels"][0];
  EXPECT_TRUE(KJ["registers"].is_null());
  EXPECT_TRUE(KJ["spill_store_bytes"].is_null());
  EXPECT_EQ(KJ["error"], A.Error);
}

TEST(Profile, PerLaunchGroupsInProfileRecordsInJsonLines) {
  Registry R;
  R.addModule(&ProfiledModule);
  R.recordLaunch(R.findKernel(&Stub), {}, 0.25, {0, 7, 0}, "");
  R.recordLaunch(R.findKernel(&Stub), {}, 0.5, {1, 0, 0}, "");
  ProcessInfo P;
  P.Pid = 7;
  P.CollectionMode = Mode::PerLaunch;
  nlohmann::json J = profileJson(R, P);
  EXPECT_EQ(J["mode"], "per-launch");
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["count"], 2);
  EXPECT_EQ(J["launches"][0]["time_ms"], 0.75);
  EXPECT_EQ(J["launch_records"], "launches-7.jsonl");
  std::string Lines = launchesJsonLines(R);
  ASSERT_EQ(std::count(Lines.begin(), Lines.end(), '\n'), 2);
  nlohmann::json First =
      nlohmann::json::parse(Lines.substr(0, Lines.find('\n')));
  EXPECT_EQ(First["time_ms"], 0.25);
  EXPECT_EQ(First["counters"],
            nlohmann::json::array({nlohmann::json::array({1, 7})}));
}

TEST(Profile, IncompleteModulesSaySo) {
  Registry R;
  R.addModule(&ProfiledModule);
  R.setModuleError(0, "reading counters failed: x");
  nlohmann::json J = profileJson(R, ProcessInfo{});
  EXPECT_FALSE(J["modules"][0]["complete"].get<bool>());
  EXPECT_EQ(J["modules"][0]["error"], "reading counters failed: x");
}

TEST(Profile, WritesProfileAndDatabaseWithoutTempFiles) {
  std::string Dir = tempDir() + "/nested/out";
  Registry R;
  R.addModule(&ProfiledModule);
  ProcessInfo P;
  P.Pid = 1234;
  std::string Error;
  std::string Path = writeProfile(R, P, Dir, Error);
  ASSERT_EQ(Error, "");
  EXPECT_EQ(Path, Dir + "/profile-1234.json");
  EXPECT_EQ(slurp(Dir + "/db-0123456789abcdef.json"), Db);
  nlohmann::json J = nlohmann::json::parse(slurp(Path));
  EXPECT_EQ(J["pid"], 1234);
  EXPECT_TRUE(J["launches"].empty()) << "no launches: a valid empty profile";
  EXPECT_NE(access((Path + ".tmp." + std::to_string(getpid())).c_str(), F_OK),
            0);
}

TEST(Profile, UnwritableDirectoryIsAnErrorNotACrash) {
  Registry R;
  std::string Error;
  EXPECT_EQ(writeProfile(R, ProcessInfo{}, "/proc/no/such/dir", Error), "");
  EXPECT_NE(Error.find("cannot create directory"), std::string::npos);
}

} // namespace
