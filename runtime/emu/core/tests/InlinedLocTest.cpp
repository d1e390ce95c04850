// nvcc's `.loc ... function_name L, inlined_at F L C` (ParseBody.cpp,
// warpscope/Support/PtxLoc.h): code inlined from a toolkit header is on the
// user's line in fault messages and the ground truth, found through the
// whole inlined-at chain and the .file directives that nvcc writes after
// the code; the header frames stay in the message.
#include "TestUtil.h"

using namespace emutest;

namespace {

// PTX by hand in nvcc 13's layout. /src/app.cu:
//   4  __device__ __forceinline__ void helper(int i, int n) {
//   5    checkPositive(n - i);          // a toolkit header's function
//   ...
//  11    int i = threadIdx.x;           // the header's threadIdx read
//  12    helper(i, n);
//  13    out[i] = i;
// The header's checkPositive (its line 540) calls __trapIf (line 531), which
// traps: header code inlined in header code inlined in the user's helper,
// inlined in the kernel. Lines matter: the messages name them.
const char *InlinedPtx = R"(.version 8.0
.target sm_90
.address_size 64

.visible .entry inlined(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  .loc 1 10 0
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [n];
  .loc 1 11 3
  .loc 2 66 3, function_name $L__info_string0, inlined_at 1 11 3
  mov.u32 %r1, %tid.x;
  .loc 1 12 5
  .loc 1 5 9, function_name $L__info_string1, inlined_at 1 12 5
  sub.s32 %r3, %r2, %r1;
  .loc 2 540 3, function_name $L__info_string2, inlined_at 1 5 9
  .loc 2 531 7, function_name $L__info_string3, inlined_at 2 540 3
  setp.gt.s32 %p1, %r3, 0;
  @%p1 bra $L__BB0_2;
  trap;
$L__BB0_2:
  .loc 1 13 5
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
	.file	1 "/src/app.cu"
	.file	2 "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/checks.hpp"
	.section	.debug_str
	{
$L__info_string0:
.b8 95,95,102,101,116,99,104,0
$L__info_string1:
.b8 95,90,54,104,101,108,112,101,114,105,105,0
$L__info_string2:
.b8 95,90,49,51,99,104,101,99,107,80,111,115,105,116,105,118,101,105,0
$L__info_string3:
.b8 95,95,116,114,97,112,73,102,0
	}
)";

const char *TrapSite =
    "'trap' at PTX line 23 (/src/app.cu:5:9, inlined code: __trapIf at "
    "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/checks.hpp:531:7"
    ", _Z13checkPositivei at /usr/local/cuda/bin/../targets/x86_64-linux/"
    "include/crt/checks.hpp:540:3): trap";

TEST(InlinedLoc, TrapInHeaderCodeIsAtTheUsersLine) {
  std::string Err;
  auto M = loadText(InlinedPtx, &Err);
  ASSERT_TRUE(M) << Err;
  std::vector<uint32_t> Out(64, 0);
  LaunchFault Fault = LaunchFault::None;
  // n = 40: threads 40.. trap in the header's __trapIf.
  EXPECT_FALSE(launch(*M, "inlined", {1, 1, 1}, {64, 1, 1},
                      Args().add(Out.data()).add(uint32_t(40)), &Err, 0, false,
                      &Fault));
  EXPECT_EQ(Fault, LaunchFault::Failure);
  EXPECT_NE(Err.find(TrapSite), std::string::npos) << Err;
}

TEST(InlinedLoc, GroundTruthLinesAreTheUsers) {
  std::string Err;
  auto M = loadText(InlinedPtx, &Err);
  ASSERT_TRUE(M) << Err;
  std::vector<uint32_t> Out(32, 0);
  ASSERT_TRUE(launch(*M, "inlined", {1, 1, 1}, {32, 1, 1},
                     Args().add(Out.data()).add(uint32_t(40)), &Err))
      << Err;
  auto TI = truthOf(M->groundTruthJson(), "inlined");
  std::map<std::string, unsigned> LineOf;
  for (const InstTruth &T : TI)
    LineOf[T.Opcode] = T.Line;
  EXPECT_EQ(LineOf["ld.param.u64"], 10u);
  EXPECT_EQ(LineOf["mov.u32"], 11u) << "the header's threadIdx read";
  EXPECT_EQ(LineOf["sub.s32"], 5u) << "the user's helper keeps its line";
  EXPECT_EQ(LineOf["setp.gt.s32"], 5u) << "header in header in the helper";
  EXPECT_EQ(LineOf["trap"], 5u);
  EXPECT_EQ(LineOf["st.global.u32"], 13u);
  EXPECT_EQ(Out[31], 31u);
}

TEST(InlinedLoc, MalformedLocIsAOneLineError) {
  std::string Bad = InlinedPtx;
  std::string From = "inlined_at 2 540 3";
  Bad.replace(Bad.find(From), From.size(), "inlined_at 2 540");
  std::string Err;
  EXPECT_FALSE(loadText(Bad, &Err));
  EXPECT_NE(Err.find("PTX line 20: bad .loc"), std::string::npos) << Err;
  EXPECT_NE(Err.find("three numbers must follow inlined_at"), std::string::npos)
      << Err;
  EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
}

} // namespace
