//===- PtxasTest.cpp - Reading ptxas -v, finding and caching ptxas --------===//

#include "Ptxas.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope::emu::cudart;

namespace {

std::string readText(const std::string &Path) {
  std::vector<uint8_t> B = emutest::readFile(Path);
  return std::string(B.begin(), B.end());
}

TEST(Ptxas, ParsesCapturedOutput) {
  PtxasReport R =
      parsePtxasOutput(readText(emutest::dataPath("ptxas-v-sm90.txt")));
  ASSERT_EQ(R.size(), 3u); // entries only: not _Z6helperPfi
  const PtxasKernel &Heavy = R.at("_Z5heavyPfi");
  EXPECT_EQ(Heavy.Registers, 17u);
  EXPECT_EQ(Heavy.StackFrameBytes, 256u);
  EXPECT_EQ(Heavy.SpillStoreBytes, 0u);
  EXPECT_EQ(Heavy.SharedBytes, 4096u);
  const PtxasKernel &Small = R.at("_Z5smallPf");
  EXPECT_EQ(Small.Registers, 8u);
  EXPECT_EQ(Small.SharedBytes, 0u); // no "bytes smem" when there is none
  const PtxasKernel &P = R.at("_Z8pressurePfi");
  EXPECT_EQ(P.Registers, 32u);
  EXPECT_EQ(P.StackFrameBytes, 152u);
  EXPECT_EQ(P.SpillStoreBytes, 212u);
  EXPECT_EQ(P.SpillLoadBytes, 132u);
}

TEST(Ptxas, EmptyOrForeignOutputHasNoKernels) {
  EXPECT_TRUE(parsePtxasOutput("").empty());
  EXPECT_TRUE(parsePtxasOutput("ptxas fatal   : Unresolved extern\n").empty());
}

TEST(Ptxas, HashNamesTheText) {
  EXPECT_EQ(ptxHash("a").size(), 16u);
  EXPECT_NE(ptxHash("a"), ptxHash("b"));
  EXPECT_EQ(ptxHash("abc"), ptxHash("abc"));
}

/// A directory of the test's own under TMPDIR (or /tmp).
std::string scratch(const char *Name) {
  const char *T = getenv("TMPDIR");
  std::string Dir = std::string(T && *T ? T : "/tmp") + "/ws-ptxas-test-" +
                    std::to_string(getpid()) + "-" + Name;
  mkdir(Dir.c_str(), 0700);
  return Dir;
}

/// Removes a scratch directory when the test ends.
struct Cleanup {
  std::string Dir;
  ~Cleanup() { (void)!system(("rm -rf '" + Dir + "'").c_str()); }
};

PtxasSettings settingsIn(const std::string &Dir, const std::string &Ptxas) {
  std::map<std::string, std::string> Env = {{"WARPSCOPE_PTXAS", Ptxas},
                                            {"XDG_CACHE_HOME", Dir + "/cache"},
                                            {"TMPDIR", Dir},
                                            {"PATH", ""}};
  static std::map<std::string, std::string> *Current;
  Current = &Env;
  return readPtxasSettings([](const char *Name) -> const char * {
    auto It = Current->find(Name);
    return It == Current->end() ? nullptr : It->second.c_str();
  });
}

TEST(Ptxas, SettingsPlaceTheCache) {
  PtxasSettings S = settingsIn("/x", "");
  EXPECT_EQ(S.CacheDir, "/x/cache/warpscope/ptxas");
  EXPECT_EQ(S.TempDir, "/x");
}

TEST(Ptxas, MissingPtxasSaysWhatToDo) {
  std::string Dir = scratch("missing");
  Cleanup Done{Dir};
  PtxasReport R;
  std::string Error;
  EXPECT_FALSE(
      ptxasResources("// missing", settingsIn(Dir, Dir + "/nope"), R, Error));
  EXPECT_NE(Error.find("WARPSCOPE_PTXAS=" + Dir + "/nope is not an executable"),
            std::string::npos)
      << Error;
}

TEST(Ptxas, RunsOnceThenReadsTheDiskCache) {
  std::string Dir = scratch("cache");
  Cleanup Done{Dir};
  // A stand-in ptxas that prints the captured report and counts its runs.
  std::string Fake = Dir + "/ptxas";
  {
    std::ofstream F(Fake);
    F << "#!/bin/sh\necho run >> " << Dir << "/runs\ncat "
      << emutest::dataPath("ptxas-v-sm90.txt") << " >&2\n";
  }
  chmod(Fake.c_str(), 0755);
  std::string Ptx = "// cache test " + std::to_string(getpid());
  PtxasReport R;
  std::string Error;
  ASSERT_TRUE(ptxasResources(Ptx, settingsIn(Dir, Fake), R, Error)) << Error;
  EXPECT_EQ(R.at("_Z8pressurePfi").SpillLoadBytes, 132u);
  EXPECT_EQ(readText(Dir + "/runs"), "run\n");
  std::string Cached =
      Dir + "/cache/warpscope/ptxas/" + ptxHash(Ptx) + "-sm_90.txt";
  EXPECT_EQ(readText(Cached), readText(emutest::dataPath("ptxas-v-sm90.txt")));
  // Asked again, the process answers from memory: no second run, even
  // with ptxas gone.
  PtxasReport Again;
  ASSERT_TRUE(
      ptxasResources(Ptx, settingsIn(Dir, Dir + "/gone"), Again, Error));
  EXPECT_EQ(Again.at("_Z5heavyPfi").Registers, 17u);
  EXPECT_EQ(readText(Dir + "/runs"), "run\n");
}

TEST(Ptxas, AnotherProcessReadsTheDiskCache) {
  // What an earlier process left: read without any ptxas at all.
  std::string Dir = scratch("disk");
  Cleanup Done{Dir};
  std::string Ptx = "// disk cache test " + std::to_string(getpid());
  std::string CacheDir = Dir + "/cache/warpscope/ptxas";
  ASSERT_EQ(system(("mkdir -p " + CacheDir).c_str()), 0);
  {
    std::ofstream F(CacheDir + "/" + ptxHash(Ptx) + "-sm_90.txt");
    F << readText(emutest::dataPath("ptxas-v-sm90.txt"));
  }
  PtxasReport R;
  std::string Error;
  ASSERT_TRUE(ptxasResources(Ptx, settingsIn(Dir, Dir + "/gone"), R, Error))
      << Error;
  EXPECT_EQ(R.at("_Z5smallPf").Registers, 8u);
}

TEST(Ptxas, RejectedPtxIsOneLine) {
  std::string Dir = scratch("reject");
  Cleanup Done{Dir};
  std::string Fake = Dir + "/ptxas";
  {
    std::ofstream F(Fake);
    F << "#!/bin/sh\necho \"ptxas x.ptx, line 1; fatal   : Missing .version "
         "directive\" >&2\nexit 255\n";
  }
  chmod(Fake.c_str(), 0755);
  PtxasReport R;
  std::string Error;
  EXPECT_FALSE(ptxasResources("// rejected " + std::to_string(getpid()),
                              settingsIn(Dir, Fake), R, Error));
  EXPECT_EQ(Error, "ptxas rejected the PTX: ptxas x.ptx, line 1; fatal   : "
                   "Missing .version directive");
}

} // namespace
