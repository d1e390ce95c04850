// Barrier divergence (SyncCheck.cpp): what compute-sanitizer's synccheck
// reports fails the launch with the barrier, its source line and which
// threads arrived; legal uses (exited threads, non-aligned barriers,
// thread counts) still complete.
#include "TestUtil.h"

using namespace emutest;

namespace {

// PTX by hand (ptxas -arch=sm_90 accepts it). Lines matter: the messages
// name them.
const char *SyncPtx = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "/src/sync.cu"
.visible .entry warpparts(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra $L1;
  .loc 1 7 5
  bar.sync 0;
$L1:
  .loc 1 9 3
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
.visible .entry unaligned(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra $L2;
  barrier.sync 0;
  bra.uni $L3;
$L2:
  barrier.sync 0;
$L3:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
.visible .entry blockparts(.param .u32 count)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L4;
  .loc 1 30 7
  bar.sync 0;
  bra.uni $L5;
$L4:
  .loc 1 32 7
  bar.sync 0;
$L5:
  ret;
}
.visible .entry counted()
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L6;
  bar.sync 0, 64;
  bra.uni $L7;
$L6:
  bar.sync 0, 64;
$L7:
  ret;
}
.visible .entry exitcounted(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 35;
  setp.eq.u32 %p1, %r2, 1;
  @%p1 exit;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 bra $L8;
  bar.sync 1, 64;
  bra.uni $L9;
$L8:
  bar.sync 2, 32;
$L9:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

std::unique_ptr<Module> loadSync() {
  std::string Err;
  auto M = loadText(SyncPtx, &Err);
  EXPECT_TRUE(M) << Err;
  return M;
}

// The odd lanes of each warp reach one __syncthreads(), the even lanes skip
// it and reach the next: without the check the two matched each other and
// the launch "worked".
TEST(SyncCheck, WarpArrivingInPartsIsDivergence) {
  auto M = loadSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(64, 0);
  std::string Err;
  LaunchFault Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*M, "warpparts", {1, 1, 1}, {64, 1, 1},
                      Args().add(Out.data()), &Err, 0, false, &Fault));
  EXPECT_EQ(Fault, LaunchFault::Failure);
  EXPECT_NE(Err.find("kernel warpparts, block (0,0,0), thread (0,0,0), "
                     "'bar.sync' at PTX line 19 (/src/sync.cu:9:3): barrier "
                     "divergence (as compute-sanitizer synccheck reports it): "
                     "barrier 0: divergent threads in warp 0: 16 threads "
                     "(lanes 0xaaaaaaaa) arrived at 'bar.sync' at PTX line 16 "
                     "(/src/sync.cu:7:5), then 16 threads (lanes 0x55555555) "
                     "here"),
            std::string::npos)
      << Err;
  EXPECT_EQ(Out[1], 0u); // nothing after the barrier ran
}

// The same shape with barrier.sync (not .aligned): threads may reach it
// separately, and both instructions are one barrier.
TEST(SyncCheck, NonAlignedBarrierMayBeReachedInParts) {
  auto M = loadSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(64, 0);
  std::string Err;
  EXPECT_TRUE(launch(*M, "unaligned", {1, 1, 1}, {64, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], T);
}

// Warp 0 and warp 1 at different __syncthreads().
TEST(SyncCheck, WarpsAtDifferentBarriersIsDivergence) {
  auto M = loadSync();
  ASSERT_TRUE(M);
  std::string Err;
  EXPECT_FALSE(
      launch(*M, "blockparts", {1, 1, 1}, {64, 1, 1}, Args().add(0u), &Err));
  EXPECT_NE(Err.find("barrier 0: divergent threads in block: warp 1 arrived "
                     "here, warp 0 at 'bar.sync' at PTX line 57 "
                     "(/src/sync.cu:32:7); all threads of a block must reach "
                     "the same __syncthreads()"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("'bar.sync' at PTX line 53 (/src/sync.cu:30:7)"),
            std::string::npos)
      << Err;
  // With a thread count, warps may meet from different instructions.
  EXPECT_TRUE(launch(*M, "counted", {1, 1, 1}, {64, 1, 1}, Args(), &Err))
      << Err;
}

// Lanes 1, 5, 9, ... of warp 0 exit before `bar.sync 1, 64`: warp 0's
// arrival is marked once its other lanes arrive (PTX ISA: the barrier "marks
// warps' arrival"), so warps 0 and 1 complete the count of 64 (warp 2, at
// barrier 2, keeps more than 64 threads alive).
TEST(SyncCheck, CountedBarrierCountsWarpsWithExitedLanes) {
  auto M = loadSync();
  ASSERT_TRUE(M);
  std::vector<uint32_t> Out(96, 0xffu);
  std::string Err;
  ASSERT_TRUE(launch(*M, "exitcounted", {1, 1, 1}, {96, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t T = 0; T < 96; ++T)
    EXPECT_EQ(Out[T], (T & 35) == 1 ? 0xffu : T) << "thread " << T;
}

// A deadlock names which warps and lanes arrived.
TEST(SyncCheck, DeadlockNamesTheArrivals) {
  auto M = load("deadlock.ptx");
  ASSERT_TRUE(M);
  std::string Err;
  EXPECT_FALSE(launch(*M, "somewarps", {1, 1, 1}, {64, 1, 1}, Args(), &Err));
  EXPECT_NE(Err.find("32 of 64 threads arrived (warp 0: 32 threads (lanes "
                     "0xffffffff))"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("(warp 1: 32 threads (lanes 0xffffffff))"),
            std::string::npos)
      << Err;
}

} // namespace
