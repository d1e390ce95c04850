//===- SourcePathTest.cpp - joinSourcePath --------------------------------===//

#include "warpscope/Support/SourcePath.h"
#include <gtest/gtest.h>

using warpscope::joinSourcePath;

TEST(SourcePath, JoinsDirectoryAndName) {
  EXPECT_EQ(joinSourcePath("/src/app", "k.cu"), "/src/app/k.cu");
  EXPECT_EQ(joinSourcePath("/src/app", "/abs/k.cu"), "/abs/k.cu");
  EXPECT_EQ(joinSourcePath("", "k.cu"), "k.cu");
  EXPECT_EQ(joinSourcePath("/src/app/k.cu", ""), "/src/app/k.cu");
  EXPECT_EQ(joinSourcePath("", ""), "");
}

// A file #included as "./k.cuh" has one name; ".." stays (through a
// symbolic link it need not cancel the component before it).
TEST(SourcePath, RemovesDotComponents) {
  EXPECT_EQ(joinSourcePath("/src/app", "./k.cuh"), "/src/app/k.cuh");
  EXPECT_EQ(joinSourcePath("/src/app/./kernel", "./k.cuh"),
            "/src/app/kernel/k.cuh");
  EXPECT_EQ(joinSourcePath("", "/src/app/./k.cu"), "/src/app/k.cu");
  EXPECT_EQ(joinSourcePath("/src//app/", "k.cu"), "/src/app/k.cu");
  EXPECT_EQ(joinSourcePath("", "./k.cu"), "k.cu");
  EXPECT_EQ(joinSourcePath("/src/app/kernel", "../common/k.cuh"),
            "/src/app/kernel/../common/k.cuh");
  EXPECT_EQ(joinSourcePath("/usr/local/cuda/bin/../targets", "crt/checks.hpp"),
            "/usr/local/cuda/bin/../targets/crt/checks.hpp");
  EXPECT_EQ(joinSourcePath("", "/"), "/");
  EXPECT_EQ(joinSourcePath("", "."), ".");
}
