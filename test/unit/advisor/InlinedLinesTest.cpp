//===- InlinedLinesTest.cpp - Inlined header code on the user's line
//-------===//
//
// The advisor's PTX and SASS code (PtxCode.cpp, SassListing.cpp) put code
// inlined from toolkit headers on the nearest call site in the user's files:
// PTX from nvcc's `.loc ... inlined_at` chains, SASS from nvdisasm -gi's
// `//## File ..., line N inlined at ..., line M` lines (one per frame,
// innermost first: the form cuda-gdb users print with `nvdisasm -c -gi`).

#include "AdvisorFixture.h"
#include "GpaCommon.h"

using namespace warpscope;
using namespace warpscope::advise;
using namespace warpscope::advise::test;

namespace {

// nvcc's layout: .file after the code. /t/k.cu line 7 calls a user helper
// (line 3) that calls sqrtf, inlined from the toolkit's math header
// (math_functions.hpp:120 inside __nv_sqrt at a header line 40).
const char *NvccPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_p0)
{
.local .align 4 .b8 __local_depot0[8];
.reg .f32 %f<4>;
.reg .b64 %rd<3>;
.loc 1 6 0
ld.param.u64 %rd1, [k_p0];
cvta.to.global.u64 %rd2, %rd1;
ld.global.f32 %f1, [%rd2];
.loc 1 7 9
.loc 1 3 12, function_name $L__info_string0, inlined_at 1 7 9
add.f32 %f2, %f1, %f1;
.loc 2 40 3, function_name $L__info_string1, inlined_at 1 3 12
.loc 2 120 5, function_name $L__info_string2, inlined_at 2 40 3
sqrt.rn.f32 %f3, %f2;
.loc 1 8 3
st.global.f32 [%rd2], %f3;
ret;
}
.file 1 "/t/k.cu"
.file 2 "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/math_functions.hpp"
.section .debug_str
{
$L__info_string0:
.b8 104,101,108,112,101,114,0
$L__info_string1:
.b8 115,113,114,116,102,0
$L__info_string2:
.b8 95,95,110,118,95,115,113,114,116,0
}
)";

TEST(InlinedLines, PtxChainsPutHeaderCodeOnTheUsersLine) {
  Kernel K(NvccPtx);
  const Function &F = K.fn();
  const Instr &Add = F.Instrs[K.at("add.f32")];
  EXPECT_EQ(Add.File, "/t/k.cu");
  EXPECT_EQ(Add.Line, 3u) << "the user's helper keeps its own line";
  EXPECT_TRUE(Add.Inlined.empty());
  const Instr &Sqrt = F.Instrs[K.at("sqrt.rn.f32")];
  EXPECT_EQ(Sqrt.File, "/t/k.cu");
  EXPECT_EQ(Sqrt.Line, 3u) << "the nearest call site in the user's files";
  EXPECT_EQ(Sqrt.Column, 12u);
  ASSERT_EQ(Sqrt.Inlined.size(), 2u);
  EXPECT_EQ(Sqrt.Inlined[0].Line, 120u);
  EXPECT_EQ(Sqrt.Inlined[0].Function, "__nv_sqrt");
  EXPECT_EQ(Sqrt.Inlined[1].Line, 40u);
  EXPECT_EQ(Sqrt.Inlined[1].Function, "sqrtf");
  EXPECT_NE(Sqrt.Inlined[0].File.find("math_functions.hpp"), std::string::npos);
  // Still CUDA's math library code, for the fast-math matcher.
  EXPECT_TRUE(isMathCode(Inputs(), F, Sqrt));
  EXPECT_FALSE(isMathCode(Inputs(), F, Add));
  EXPECT_EQ(F.Instrs[K.at("st.global.f32")].Line, 8u);
}

TEST(InlinedLines, MalformedPtxLocIsAOneLineError) {
  std::string Bad = NvccPtx;
  std::string From = "inlined_at 2 40 3";
  Bad.replace(Bad.find(From), From.size(), "inlined_at 2 forty 3");
  std::vector<Function> Fns;
  std::string Error;
  EXPECT_FALSE(parsePtxCode(Bad, Fns, Error));
  EXPECT_NE(Error.find("line 17: bad .loc"), std::string::npos) << Error;
  EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
}

const char *SassGi =
    "\t.section\t.text.k,\"ax\",@progbits\n"
    "\t//## File \"/t/k.cu\", line 6\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
    "\t//## File \"/usr/local/cuda/include/crt/math_functions.hpp\", line "
    "120 inlined at \"/usr/local/cuda/include/crt/math_functions.hpp\", line "
    "40\n"
    "\t//## File \"/usr/local/cuda/include/crt/math_functions.hpp\", line 40 "
    "inlined at \"/t/k.cu\", line 3\n"
    "\t//## File \"/t/k.cu\", line 3 inlined at \"/t/k.cu\", line 7\n"
    "\t//## File \"/t/k.cu\", line 7\n"
    "        /*0010*/                   MUFU.RSQ R3, R2 ;\n"
    "\t//## File \"/t/k.cu\", line 3 inlined at \"/t/k.cu\", line 7\n"
    "\t//## File \"/t/k.cu\", line 7\n"
    "        /*0020*/                   FADD R4, R3, R3 ;\n"
    "\t//## File \"/t/k.cu\", line 8\n"
    "\t//## File \"/t/k.cu\", line 9\n"
    "        /*0030*/                   EXIT ;\n";

TEST(InlinedLines, SassChainsPutHeaderCodeOnTheUsersLine) {
  std::vector<Function> Fns;
  std::string Error;
  ASSERT_TRUE(parseSassListing(SassGi, Fns, Error)) << Error;
  ASSERT_EQ(Fns.size(), 1u);
  const Function &F = Fns[0];
  EXPECT_EQ(F.Instrs[F.ByOffset.at(0x0)].Line, 6u);
  const Instr &Mufu = F.Instrs[F.ByOffset.at(0x10)];
  EXPECT_EQ(Mufu.File, "/t/k.cu");
  EXPECT_EQ(Mufu.Line, 3u) << "the nearest call site in the user's files";
  ASSERT_EQ(Mufu.Inlined.size(), 2u);
  EXPECT_EQ(Mufu.Inlined[0].Line, 120u);
  EXPECT_EQ(Mufu.Inlined[1].Line, 40u);
  EXPECT_TRUE(isMathCode(Inputs(), F, Mufu));
  const Instr &Fadd = F.Instrs[F.ByOffset.at(0x20)];
  EXPECT_EQ(Fadd.Line, 3u) << "user code keeps its innermost line";
  EXPECT_TRUE(Fadd.Inlined.empty());
  // nvdisasm -g: one line per location; the last before the code holds.
  EXPECT_EQ(F.Instrs[F.ByOffset.at(0x30)].Line, 9u);
}

} // namespace
