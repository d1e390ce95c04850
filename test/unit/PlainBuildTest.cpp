//===- PlainBuildTest.cpp - The plain build's line of the text report -----===//

#include "PlainBuild.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace warpscope;

static std::string render(const PlainComparison &C) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  renderPlainText(C, /*Histogram=*/false, OS);
  return S;
}

// Mapped blocks whose opcodes all ran as often (the PTX differs only in
// names or order): no dangling "most apart:" with nothing after it.
TEST(PlainBuildText, MappedWithoutDifferencesSaysSo) {
  PlainComparison C;
  C.Status = PlainComparison::Mapped;
  std::string S = render(C);
  EXPECT_NE(S.find("; every opcode ran as often in both\n"), std::string::npos)
      << S;
  EXPECT_EQ(S.find("most apart"), std::string::npos) << S;
}

TEST(PlainBuildText, MappedListsTheOpcodesMostApart) {
  PlainComparison C;
  C.Status = PlainComparison::Mapped;
  C.Differences = {{"add.s32", 12, 10}, {"mov.u32", 5, 4}};
  std::string S = render(C);
  EXPECT_NE(S.find("; most apart (plain -> instrumented): add.s32 10 -> 12, "
                   "mov.u32 4 -> 5\n"),
            std::string::npos)
      << S;
}
