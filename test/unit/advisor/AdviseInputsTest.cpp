//===- AdviseInputsTest.cpp - What the advise loader makes of a directory -===//
//
// Inputs::ModeledTime from the ground truth's launches[].modeled: summed
// per kernel, the SMs each launch occupies averaged, and listed as an input.
//
//===----------------------------------------------------------------------===//

#include "AdviseInputs.h"
#include "MachineModel.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::advise;

namespace {

/// A directory holding Text as emu-1-0.json.
std::string truthDirectory(const std::string &Text) {
  SmallString<128> Dir;
  EXPECT_FALSE(sys::fs::createUniqueDirectory("wsadvise", Dir));
  std::error_code EC;
  raw_fd_ostream OS((Dir + "/emu-1-0.json").str(), EC);
  EXPECT_FALSE(EC);
  OS << Text;
  return std::string(Dir);
}

const char *TwoLaunches = R"({"schema":"warpscope-emu/1","module":"m",
 "functions":[{"name":"_Z1kv","kernel":true,"instructions":[]},
              {"name":"_Z1jv","kernel":true,"instructions":[]}],
 "launches":[
  {"kernel":"_Z1kv","grid":[16,1,1],"block":[256,1,1],
   "modeled":{"config":"h100-sxm","cycles":1000,"microseconds":0.5,
              "sms_simulated":8,"scaled":true}},
  {"kernel":"_Z1kv","grid":[2,100,1],"block":[64,1,1],
   "modeled":{"config":"h100-sxm","cycles":3000,"microseconds":1.5,
              "sms_simulated":4,"scaled":false}},
  {"kernel":"_Z1jv","grid":[4,1,1],"block":[32,1,1]}]})";

TEST(AdviseInputs, ModeledTimeFromTheLaunches) {
  std::string Dir = truthDirectory(TwoLaunches);
  RunDirectory Run(Dir);
  Expected<std::unique_ptr<LoadedInputs>> L = loadAdviseInputs(Run);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  const Inputs &In = (*L)->In;
  EXPECT_TRUE(In.has(InputKind::ModeledTime));
  ASSERT_EQ(In.ModeledTime.count("_Z1kv"), 1u);
  EXPECT_EQ(In.ModeledTime.count("_Z1jv"), 0u); // no modeled launch
  const KernelModeledTime &K = In.ModeledTime.at("_Z1kv");
  EXPECT_DOUBLE_EQ(K.Cycles, 4000);
  EXPECT_DOUBLE_EQ(K.Microseconds, 2.0);
  EXPECT_EQ(K.Launches, 2u);
  EXPECT_EQ(K.Config, "h100-sxm");
  EXPECT_EQ(K.SmsSimulated, 8u);
  EXPECT_TRUE(K.Scaled);
  // min(SMs, blocks): 16 and 132 (of 200 blocks), averaged.
  EXPECT_DOUBLE_EQ(K.SmsUsed, (16.0 + 132.0) / 2);
  sys::fs::remove_directories(Dir);
}

TruthLaunch modeledLaunch(const char *Kernel, uint64_t Cycles,
                          uint64_t LaunchCycles) {
  TruthLaunch L;
  L.Kernel = Kernel;
  L.Grid[0] = 264;
  L.Modeled.emplace();
  L.Modeled->Config = "h100-sxm";
  L.Modeled->Cycles = Cycles;
  L.Modeled->LaunchCycles = LaunchCycles;
  return L;
}

// The one per-kernel sum the advice's modeled time and a what-if re-run's
// (Resimulate.cpp) both take: the SMs' cycles and the fixed launch cost
// apart, their total the launches' modeled cycles.
TEST(AdviseInputs, ModeledTimesSumEachKernelsLaunches) {
  Truth T;
  T.Launches = {modeledLaunch("_Z1kv", 1000, 200),
                modeledLaunch("_Z1kv", 3000, 200),
                modeledLaunch("_Z1jv", 50, 0)};
  T.Launches.push_back(TruthLaunch{}); // no modeled time: not counted
  T.Launches.back().Kernel = "_Z1iv";
  std::map<std::string, KernelModeledTime> M = modeledTimes(T, nullptr);
  ASSERT_EQ(M.size(), 2u);
  const KernelModeledTime &K = M.at("_Z1kv");
  EXPECT_DOUBLE_EQ(K.Cycles, 3600);
  EXPECT_DOUBLE_EQ(K.LaunchCycles, 400);
  EXPECT_DOUBLE_EQ(K.total(), 4000);
  EXPECT_EQ(K.Launches, 2u);
  EXPECT_DOUBLE_EQ(K.SmsUsed, 132); // 264 blocks on h100-sxm's 132 SMs
  EXPECT_DOUBLE_EQ(M.at("_Z1jv").total(), 50);
}

TEST(AdviseInputs, NoModeledTimeWithoutTheModel) {
  std::string Dir = truthDirectory(R"({"schema":"warpscope-emu/1","module":"m",
 "functions":[{"name":"_Z1kv","kernel":true,"instructions":[]}],
 "launches":[{"kernel":"_Z1kv","grid":[16,1,1],"block":[256,1,1]}]})");
  RunDirectory Run(Dir);
  Expected<std::unique_ptr<LoadedInputs>> L = loadAdviseInputs(Run);
  ASSERT_TRUE(bool(L)) << toString(L.takeError());
  EXPECT_FALSE((*L)->In.has(InputKind::ModeledTime));
  EXPECT_TRUE((*L)->In.ModeledTime.empty());
  sys::fs::remove_directories(Dir);
}

} // namespace
