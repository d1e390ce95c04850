//===- AtomicFileTest.cpp - Files written whole or not at all -------------===//

#include "warpscope/Support/AtomicFile.h"
#include "gtest/gtest.h"
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope::support;

namespace {

std::string scratch(const char *Name) {
  std::string Dir =
      ::testing::TempDir() + "atomic-" + Name + "-" + std::to_string(getpid());
  return Dir;
}

std::string read(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

unsigned entries(const std::string &Dir) {
  unsigned N = 0;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      N += E->d_name[0] != '.';
    closedir(D);
  }
  return N;
}

TEST(AtomicFile, CreatesParentsAndReplacesWhole) {
  std::string Dir = scratch("ok") + "/a/b";
  ASSERT_EQ(makeDirectories(Dir), "");
  EXPECT_EQ(makeDirectories(Dir), ""); // existing: fine
  std::string Path = Dir + "/f.json";
  ASSERT_EQ(writeFileAtomically(Path, std::string("first\0x", 7)), "");
  EXPECT_EQ(read(Path), std::string("first\0x", 7));
  ASSERT_EQ(writeFileAtomically(Path, "second"), "");
  EXPECT_EQ(read(Path), "second");
  EXPECT_EQ(entries(Dir), 1u); // no temporary file left
}

TEST(AtomicFile, WritesIntoADirectoryItCreates) {
  std::string Dir = scratch("into") + "/x/y";
  ASSERT_EQ(writeFileInDirectory(Dir, "f.json", "{}"), "");
  EXPECT_EQ(read(Dir + "/f.json"), "{}");
  EXPECT_EQ(entries(Dir), 1u);
  std::string Blocker = scratch("into") + "/file";
  ASSERT_EQ(writeFileAtomically(Blocker, "x"), "");
  std::string E = writeFileInDirectory(Blocker + "/d", "f", "x");
  EXPECT_NE(E.find("cannot create directory '" + Blocker + "/d'"),
            std::string::npos)
      << E;
}

TEST(AtomicFile, FailuresNameTheFileAndLeaveNothing) {
  std::string Dir = scratch("bad");
  ASSERT_EQ(makeDirectories(Dir), "");
  std::string Blocker = Dir + "/file";
  ASSERT_EQ(writeFileAtomically(Blocker, "x"), "");
  std::string E = makeDirectories(Blocker + "/sub");
  EXPECT_NE(E.find("cannot create directory '" + Blocker + "/sub'"),
            std::string::npos)
      << E;
  E = writeFileAtomically(Dir + "/missing/f", "x");
  EXPECT_NE(E.find("cannot write '" + Dir + "/missing/f.tmp."),
            std::string::npos)
      << E;
  // Renaming over a directory fails: the temporary file is removed.
  ASSERT_EQ(mkdir((Dir + "/d").c_str(), 0777), 0);
  E = writeFileAtomically(Dir + "/d", "x");
  EXPECT_NE(E.find("cannot rename"), std::string::npos) << E;
  EXPECT_EQ(entries(Dir), 2u); // file and d only
}

} // namespace
