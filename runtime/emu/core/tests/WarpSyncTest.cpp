// bar.warp.sync (Schedule.cpp, warpSync): a path waits for the member lanes
// on the warp's other paths, so values stored before the sync on one side
// of a branch are read after it on the other; when the members cannot come
// (waiting at a CTA barrier, exited), the waiting lanes go on instead of
// deadlocking.
#include "TestUtil.h"

using namespace emutest;

namespace {

// PTX by hand (ptxas -arch=sm_90 accepts it).
const char *WarpSyncPtx = R"(.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 sm[128];
// Even lanes and odd lanes on two paths, each storing tid+base and then
// reading the next lane (on the other path) after its own bar.warp.sync.
.visible .entry exchange(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sm;
  add.u32 %r4, %r3, %r2;
  add.u32 %r5, %r1, 1;
  and.b32 %r5, %r5, 31;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r3, %r5;
  and.b32 %r6, %r1, 1;
  setp.eq.u32 %p1, %r6, 0;
  @%p1 bra $Even;
  add.u32 %r7, %r1, 1000;
  st.shared.u32 [%r4], %r7;
  bar.warp.sync -1;
  ld.shared.u32 %r7, [%r5];
  bra.uni $Join;
$Even:
  add.u32 %r7, %r1, 2000;
  st.shared.u32 [%r4], %r7;
  mov.u32 %r6, -1;
  bar.warp.sync %r6;
  ld.shared.u32 %r7, [%r5];
$Join:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
// Lanes 16..31 skip the bar.warp.sync and wait at barrier.sync; lanes
// 0..15 then cannot meet them and go on to the barrier too.
.visible .entry fallback(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $Skip;
  bar.warp.sync -1;
  st.global.u32 [%rd3], 7;
$Skip:
  barrier.sync 0;
  ld.global.u32 %r2, [%rd3];
  add.u32 %r2, %r2, 1;
  st.global.u32 [%rd3], %r2;
  ret;
}
// Lanes 16..31 exit; lanes 0..15 sync with the whole warp.
.visible .entry exited(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 exit;
  bar.warp.sync -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

std::unique_ptr<Module> loadWarpSync() {
  std::string Err;
  auto M = loadText(WarpSyncPtx, &Err);
  EXPECT_TRUE(M) << Err;
  return M;
}

TEST(WarpSync, DivergentPathsExchangeThroughSharedMemory) {
  auto M = loadWarpSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(32, 0);
  std::string Err;
  ASSERT_TRUE(launch(*M, "exchange", {1, 1, 1}, {32, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t L = 0; L < 32; ++L) {
    uint32_t N = (L + 1) % 32; // stored by the other path
    EXPECT_EQ(Out[L], N + (N & 1 ? 1000 : 2000)) << "lane " << L;
  }
}

TEST(WarpSync, MembersAtABarrierDoNotDeadlock) {
  auto M = loadWarpSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(32, 0);
  std::string Err;
  ASSERT_TRUE(launch(*M, "fallback", {1, 1, 1}, {32, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t L = 0; L < 32; ++L)
    EXPECT_EQ(Out[L], L < 16 ? 8u : 1u) << "lane " << L;
}

TEST(WarpSync, ExitedMembersDoNotHoldIt) {
  auto M = loadWarpSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(32, 0xffu);
  std::string Err;
  ASSERT_TRUE(
      launch(*M, "exited", {1, 1, 1}, {32, 1, 1}, Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t L = 0; L < 32; ++L)
    EXPECT_EQ(Out[L], L < 16 ? L : 0xffu) << "lane " << L;
}

// The h100-sxm model's cycles of a converged loop of ten dependent adds,
// with Extra in its body.
uint64_t modeledLoop(const std::string &Extra) {
  const std::string Text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k() {
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
L:
)" + Extra + R"(
  add.u32 %r1, %r1, 3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 10;
  @%p1 bra L;
  ret;
}
)";
  return modeledCycles(Text, Extra);
}

// The opcode table's free forms (ptxUnitOf: bar.warp.sync) cost a
// converged warp nothing: no issue slot, no code space. The advisor's issue
// floor leaves them out for the same reason. (cp.async's commit and wait
// issue: CpAsyncTimingTest.)
TEST(WarpSync, FreeFormsCostTheModelNothing) {
  const uint64_t Plain = modeledLoop("");
  ASSERT_GT(Plain, 0u);
  EXPECT_EQ(modeledLoop("  bar.warp.sync -1;"), Plain);
  // A form that is not free costs: the test can tell.
  EXPECT_GT(modeledLoop("  add.u32 %r3, %r2, 7;"), Plain);
}

} // namespace
