//===- CubinStoreTest.cpp - Cubins saved once per CRC ---------------------===//

#include "CubinStore.h"
#include "gtest/gtest.h"
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace warpscope::collect;

namespace {

std::vector<std::string> listDir(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.')
        Names.push_back(E->d_name);
    closedir(D);
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

TEST(CubinStore, SameCubinLoadedTwiceIsOneFile) {
  char Tmpl[] = "/tmp/wsstoreXXXXXX";
  ASSERT_NE(mkdtemp(Tmpl), nullptr);
  std::string Dir = std::string(Tmpl) + "/out/nested";
  CubinStore S(Dir);
  const char A[] = "\x7f"
                   "ELF first",
             B[] = "\x7f"
                   "ELF second";
  std::string Error;
  ASSERT_TRUE(S.save(0x1234, A, sizeof A, Error)) << Error;
  ASSERT_TRUE(S.save(0x1234, A, sizeof A, Error)) << Error; // other context
  ASSERT_TRUE(S.save(0xfeed, B, sizeof B, Error)) << Error;
  EXPECT_EQ(listDir(Dir),
            (std::vector<std::string>{"cubin-0000000000001234.cubin",
                                      "cubin-000000000000feed.cubin"}));
  std::ifstream In(S.pathFor(0x1234), std::ios::binary);
  std::stringstream Got;
  Got << In.rdbuf();
  EXPECT_EQ(Got.str(), std::string(A, sizeof A));
  EXPECT_EQ(S.saved().size(), 2u);
}

TEST(CubinStore, UnwritableDirectoryIsOneLineError) {
  CubinStore S("/proc/warpscope-no-such-dir");
  std::string Error;
  EXPECT_FALSE(S.save(1, "x", 1, Error));
  EXPECT_NE(Error.find("cannot create directory '/proc/warpscope-no-such-dir'"),
            std::string::npos)
      << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos);
  EXPECT_FALSE(S.save(2, nullptr, 0, Error));
  EXPECT_NE(Error.find("no cubin image"), std::string::npos);
}

} // namespace
