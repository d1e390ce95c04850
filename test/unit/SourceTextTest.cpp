//===- SourceTextTest.cpp - Sources read through --path-equivalence -------===//
//
// A program built elsewhere records its sources under the build's
// directory; --path-equivalence reads them from here, whole directories
// only, and only a file that still hashes as built.
//
//===----------------------------------------------------------------------===//

#include "SourceText.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace warpscope;

namespace {

class PathEquivalenceTest : public ::testing::Test {
protected:
  void SetUp() override {
    SmallString<128> Dir;
    ASSERT_FALSE(sys::fs::createUniqueDirectory("ws-srctext", Dir));
    Root = Dir.str().str();
    ASSERT_FALSE(sys::fs::create_directories(Root + "/here/sub"));
    write(Root + "/here/sub/k.cu", "int a;\n  int b;\n");
    // What a plain string prefix would map /ci/build/appx to.
    ASSERT_FALSE(sys::fs::create_directories(Root + "/herex/sub"));
    write(Root + "/herex/sub/k.cu", "int x;\n");
  }
  void TearDown() override {
    setPathEquivalences({});
    sys::fs::remove_directories(Root);
  }
  static void write(const std::string &Path, StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string Root;
};

TEST_F(PathEquivalenceTest, MapsWholeDirectoriesWhereTheFileExists) {
  std::string Built = "/ci/build/app";
  setPathEquivalences(
      {{"/nowhere", Root + "/none"}, {Built + "/", Root + "/here"}});
  EXPECT_EQ(localSourcePath(Built + "/sub/k.cu"), Root + "/here/sub/k.cu");
  // /ci/build/app does not hold /ci/build/appx.
  EXPECT_EQ(localSourcePath(Built + "x/sub/k.cu"), Built + "x/sub/k.cu");
  // Not under the new directory either: as recorded.
  EXPECT_EQ(localSourcePath(Built + "/sub/gone.cu"), Built + "/sub/gone.cu");
}

TEST_F(PathEquivalenceTest, ReadsTheMappedTextOnlyWhenItHashesAsBuilt) {
  std::string Recorded = "/ci/build/app/sub/k.cu";
  SourceHashes Hashes{
      {Recorded, ProgramDatabase::sourceHash("int a;\n  int b;\n")}};
  SourceText Without(Hashes);
  EXPECT_TRUE(Without.lines(Recorded).empty());
  setPathEquivalences({{"/ci/build/app", Root + "/here"}});
  SourceText With(Hashes);
  EXPECT_EQ(With.line(Recorded, 2), "int b;");
  // Edited since the build: stale, no text.
  write(Root + "/here/sub/k.cu", "int c;\n");
  SourceText Edited(Hashes);
  EXPECT_TRUE(Edited.lines(Recorded).empty());
  EXPECT_EQ(staleSourceFiles(Hashes), std::vector<std::string>{Recorded});
}

} // namespace
