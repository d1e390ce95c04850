//===- PtxLocTest.cpp - .loc directives, inlined-at chains, header files
//---===//
//
// The directives below are as nvcc 13.0 writes them (`nvcc -lineinfo -ptx`
// of two __forceinline__ functions, one calling the other, and a
// cuda_fp16.hpp intrinsic), plus malformed ones: each is a one-line error.

#include "warpscope/Support/PtxLoc.h"
#include "warpscope/Support/MathHeaders.h"
#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::ptxloc;

namespace {

Position pos(uint32_t F, uint32_t L, uint32_t C) { return {F, L, C}; }

TEST(PtxLoc, PlainAndInlinedForms) {
  Directive D;
  ASSERT_EQ(parseDirective("\t1 5 3", D), "");
  EXPECT_EQ(D.At, pos(1, 5, 3));
  EXPECT_FALSE(D.Inlined);
  ASSERT_EQ(parseDirective("\t1 2 73, function_name $L__info_string0, "
                           "inlined_at 1 5 3  // k.cu",
                           D),
            "");
  EXPECT_EQ(D.At, pos(1, 2, 73));
  EXPECT_EQ(D.FunctionLabel, "$L__info_string0");
  EXPECT_EQ(D.FunctionOffset, 0u);
  ASSERT_TRUE(D.Inlined);
  EXPECT_EQ(D.InlinedAt, pos(1, 5, 3));
  ASSERT_EQ(parseDirective("2 2630 1,function_name $L__info_string2+12,"
                           "inlined_at 1 7 3;",
                           D),
            "");
  EXPECT_EQ(D.FunctionLabel, "$L__info_string2");
  EXPECT_EQ(D.FunctionOffset, 12u);
  EXPECT_EQ(D.InlinedAt, pos(1, 7, 3));
}

TEST(PtxLoc, MalformedDirectivesAreOneLineErrors) {
  const char *Bad[] = {
      "",
      "1 5",
      "1 five 3",
      "1 5 3 4",
      "1 5 99999999999",
      "1 5 3, inlined_at 1 5",
      "1 5 3, function_name , inlined_at 1 2 3",
      "1 5 3, function_name $L+x, inlined_at 1 2 3",
      "1 5 3, function_name $L",
      "1 5 3, discriminator 2",
      "1 5 3,",
      "-1 5 3",
      "\t1 5\n\tld.param.u64 %rd1, [out];\n",
  };
  for (const char *Text : Bad) {
    Directive D;
    D.At = pos(9, 9, 9);
    std::string Error = parseDirective(Text, D);
    EXPECT_NE(Error, "") << Text;
    EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
    EXPECT_NE(Error.find("bad .loc"), std::string::npos) << Error;
    EXPECT_EQ(D.At, pos(9, 9, 9)) << "an error leaves the output: " << Text;
  }
  Tracker T;
  ASSERT_EQ(T.apply("1 4 3"), "");
  EXPECT_NE(T.apply("1 4"), "");
  ASSERT_EQ(T.current().size(), 1u);
  EXPECT_EQ(T.current()[0].At, pos(1, 4, 3)) << "an error keeps the location";
}

// nvcc's order: the call site's own .loc, then each inlined level naming the
// one before as its inlined_at; back out through the middle level.
TEST(PtxLoc, ChainsFollowTheNearestEarlierLoc) {
  Tracker T;
  for (const char *L :
       {"1 5 3", "1 2 73, function_name $L__info_string0, inlined_at 1 5 3",
        "1 1 73, function_name $L__info_string1, inlined_at 1 2 73"})
    ASSERT_EQ(T.apply(L), "") << L;
  const Chain &C = T.current();
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[0].At, pos(1, 1, 73));
  EXPECT_EQ(C[0].FunctionLabel, "$L__info_string1");
  EXPECT_EQ(C[1].At, pos(1, 2, 73));
  EXPECT_EQ(C[1].FunctionLabel, "$L__info_string0");
  EXPECT_EQ(C[2].At, pos(1, 5, 3));
  EXPECT_EQ(C[2].FunctionLabel, "");
  // The same header line inlined at a second call site gets that site.
  ASSERT_EQ(T.apply("1 9 3"), "");
  ASSERT_EQ(T.apply("1 2 73, function_name $L__info_string0, inlined_at 1 9 3"),
            "");
  ASSERT_EQ(T.current().size(), 2u);
  EXPECT_EQ(T.current()[1].At, pos(1, 9, 3));
  // An inlined_at with no earlier .loc: just that position.
  ASSERT_EQ(T.apply("2 7 1, function_name $L__info_string2, inlined_at 1 8 4"),
            "");
  ASSERT_EQ(T.current().size(), 2u);
  EXPECT_EQ(T.current()[1].At, pos(1, 8, 4));
  // A new function forgets the earlier ones.
  T.reset();
  EXPECT_TRUE(T.current().empty());
  ASSERT_EQ(
      T.apply("1 1 73, function_name $L__info_string1, inlined_at 1 2 73"), "");
  EXPECT_EQ(T.current().size(), 2u);
}

TEST(PtxLoc, SelfReferenceIsCapped) {
  Tracker T;
  for (int K = 0; K < 200; ++K)
    ASSERT_EQ(T.apply("1 5 3, function_name $L, inlined_at 1 5 3"), "");
  EXPECT_EQ(T.current().size(), MaxChainDepth);
}

TEST(PtxLoc, UserFrameSkipsHeaderFrames) {
  // File 2 is a header, 1 the user's file.
  auto IsHeader = [](uint32_t F) { return F == 2; };
  Chain C = {{pos(2, 531, 3), "$L1", 0},
             {pos(2, 40, 1), "$L0", 0},
             {pos(1, 0, 0), "", 0},
             {pos(1, 7, 3), "", 0}};
  EXPECT_EQ(userFrame(C, IsHeader), 3u) << "line 0 is no user's line";
  C[2].At.Line = 12;
  EXPECT_EQ(userFrame(C, IsHeader), 2u) << "the nearest user frame";
  C[0].At.File = 1;
  EXPECT_EQ(userFrame(C, IsHeader), 0u) << "user code keeps its own line";
  EXPECT_EQ(userFrame({{pos(2, 531, 3), "", 0}}, IsHeader), 0u);
  EXPECT_EQ(userFrame({}, IsHeader), 0u);
  Chain AllHeaders = {{pos(2, 1, 1), "$L", 0}, {pos(2, 2, 2), "", 0}};
  EXPECT_EQ(userFrame(AllHeaders, IsHeader), 0u);
}

TEST(PtxLoc, DebugStringsName) {
  const char *Ptx = ".visible .entry k()\n{\n\tret;\n}\n"
                    "\t.file\t1 \"/tmp/k.cu\"\n"
                    "\t.section\t.debug_str\n\t{\n$L__info_string0:\n"
                    ".b8 95,90,53,111,117,116,101,114,102,0\n"
                    "$L__info_string1:\n.b8 95,90,53,105,110,110,101,114,102,0"
                    "\n\n\t}\n";
  DebugStrings S = readDebugStrings(Ptx);
  EXPECT_EQ(functionName(S, "$L__info_string0", 0), "_Z5outerf");
  EXPECT_EQ(functionName(S, "$L__info_string1", 0), "_Z5innerf");
  EXPECT_EQ(functionName(S, "$L__info_string0", 3), "outerf");
  EXPECT_EQ(functionName(S, "$L__info_string0", 10), "_Z5innerf")
      << "an offset past a string's NUL reads the next";
  EXPECT_EQ(functionName(S, "$L__info_string1", 10), "");
  EXPECT_EQ(functionName(S, "$L__info_string1", UINT64_MAX), "");
  EXPECT_EQ(functionName(S, "$L__nope", 0), "");
  // Malformed sections read what they can and never run past the text.
  for (const char *Bad :
       {".section .debug_str {", ".section .debug_str { $L: .b8 300, 1 }",
        ".section .debug_str { $L: .b8 65, , 66", ".section", ".section .x {"})
    EXPECT_EQ(functionName(readDebugStrings(Bad), "$L", 0), "") << Bad;
  EXPECT_TRUE(readDebugStrings("no sections").Labels.empty());
}

TEST(ToolkitHeaders, ClangCudaAndSystemHeaders) {
  EXPECT_TRUE(isToolkitHeader(
      "/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_builtin_vars.h"));
  EXPECT_TRUE(isToolkitHeader(
      "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_fp16.hpp"));
  EXPECT_TRUE(isToolkitHeader("/usr/local/cuda-13.0/include/crt/math.hpp"));
  EXPECT_TRUE(isToolkitHeader("/usr/include/c++/13/cmath"));
  EXPECT_TRUE(isToolkitHeader("/usr/lib/gcc/x86_64-linux-gnu/13/x.h"));
  EXPECT_FALSE(isToolkitHeader("/tmp/k.cu"));
  EXPECT_FALSE(isToolkitHeader("/home/me/cuda/kernels.cu"));
  EXPECT_FALSE(isToolkitHeader("/home/me/include/mine.h"));
  EXPECT_FALSE(isToolkitHeader("/usr/local/cuda/include/../../src/k.cu"));
  EXPECT_FALSE(isToolkitHeader("/usr/include"));
  EXPECT_FALSE(isToolkitHeader(""));
}

} // namespace
