// WARPSCOPE_EMU_PROGRESS inside one long block: the block reports itself
// (where a warp is) while it runs, not only when blocks finish.
#include "TestUtil.h"

#include <cstdlib>

using namespace emutest;

namespace {

const char *SpinPtx = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/spin.cu"
.visible .entry spin(.param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
$Lloop:
  .loc 1 4 5
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $Lloop;
  ret;
}
)";

TEST(Progress, OneLongBlockReportsItself) {
  std::string Err;
  auto M = loadText(SpinPtx, &Err);
  ASSERT_TRUE(M) << Err;
  // 2^21 branches: the clock is read every 2^16, so about 32 looks.
  const uint32_t N = 1u << 21;
  setenv("WARPSCOPE_EMU_PROGRESS", "0.000001", 1);
  testing::internal::CaptureStderr();
  bool Ok = launch(*M, "spin", {1, 1, 1}, {32, 1, 1}, Args().add(N), &Err);
  std::string Out = testing::internal::GetCapturedStderr();
  unsetenv("WARPSCOPE_EMU_PROGRESS");
  ASSERT_TRUE(Ok) << Err;
  EXPECT_NE(Out.find("warpscope-emu: spin: block (0,0,0) running for 0 s, "),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find(" warp instructions so far on this worker; warp 0 at "
                     "'bra', PTX line 15 (/src/spin.cu:4:5)\n"),
            std::string::npos)
      << Out;
  // Off: nothing.
  testing::internal::CaptureStderr();
  EXPECT_TRUE(launch(*M, "spin", {1, 1, 1}, {32, 1, 1}, Args().add(N), &Err))
      << Err;
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

} // namespace
