// Misaligned accesses: a load, store or atomic at an address that is not a
// multiple of its size (a vector's whole size) fails the launch with
// LaunchFault::MisalignedAddress (cudaErrorMisalignedAddress on a GPU)
// before it touches memory, in every space, checked or not, including a
// lane that misses the region its instruction cached from an aligned lane.
#include "TestUtil.h"

using namespace emutest;

namespace {

const char *MisalignedPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry g32(.param .u64 p, .param .u32 stride, .param .u32 off)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [stride];
  ld.param.u32 %r2, [off];
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r3, %r1, %r2;
  cvt.u64.u32 %rd3, %r4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.s32 %r5, %r5, 1;
  st.global.u32 [%rd4], %r5;
  ret;
}
.visible .entry gvec(.param .u64 p, .param .u32 off)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [off];
  cvt.u64.u32 %rd3, %r1;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];
  st.global.u32 [%rd2], %r5;
  ret;
}
.visible .entry sh(.param .u32 off, .param .u32 generic)
{
  .shared .align 8 .b8 buf[64];
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u32 %r1, [off];
  ld.param.u32 %r2, [generic];
  mov.u32 %r3, buf;
  add.s32 %r3, %r3, %r1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra GEN;
  st.shared.u32 [%r3], %r1;
  ret;
GEN:
  mov.u64 %rd1, buf;
  cvta.shared.u64 %rd2, %rd1;
  cvt.u64.u32 %rd3, %r1;
  add.s64 %rd2, %rd2, %rd3;
  st.u32 [%rd2], %r1;
  ret;
}
.visible .entry loc(.param .u32 off)
{
  .local .align 8 .b8 depot[16];
  .reg .b32 %r<2>;
  .reg .b64 %rd<5>;
  ld.param.u32 %r1, [off];
  mov.u64 %rd1, depot;
  cvt.u64.u32 %rd3, %r1;
  add.s64 %rd4, %rd1, %rd3;
  st.local.u64 [%rd4], %rd3;
  ret;
}
.visible .entry atom(.param .u64 p, .param .u32 off)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [off];
  cvt.u64.u32 %rd3, %r1;
  add.s64 %rd4, %rd2, %rd3;
  atom.global.add.u32 %r2, [%rd4], 1;
  ret;
}
)";

struct Misaligned : ::testing::Test {
  void SetUp() override {
    std::string Err;
    M = loadText(MisalignedPtx, &Err);
    ASSERT_TRUE(M) << Err;
    Buf.assign(64, 0);
    registerAllocation(Buf.data(), Buf.size() * sizeof(uint32_t));
  }
  void TearDown() override { unregisterAllocation(Buf.data()); }
  // Launches K; true when it ran. Sets Err and Fault otherwise.
  bool run(const std::string &K, uint32_t Threads, const Args &A,
           bool Checked = true) {
    Err.clear();
    Fault = LaunchFault::None;
    return launch(*M, K, {1, 1, 1}, {Threads, 1, 1}, A, &Err, 0, Checked,
                  &Fault);
  }
  bool mentions(const std::string &S) const {
    return Err.find(S) != std::string::npos;
  }
  std::unique_ptr<Module> M;
  std::vector<uint32_t> Buf; // 16-byte aligned (the heap's alignment)
  std::string Err;
  LaunchFault Fault = LaunchFault::None;
};

// A 4-byte load two bytes into an allocation: the launch fails at that
// thread, with the address, and writes nothing.
TEST_F(Misaligned, GlobalLoadFailsTheLaunch) {
  EXPECT_TRUE(run("g32", 4, Args().add(Buf.data()).add(4u).add(4u))) << Err;
  EXPECT_EQ(Buf[1], 1u);
  EXPECT_FALSE(run("g32", 1, Args().add(Buf.data()).add(4u).add(2u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  char Want[128];
  std::snprintf(Want, sizeof Want,
                "misaligned address: read of 4 bytes at 0x%llx is not a "
                "multiple of 4",
                (unsigned long long)(uintptr_t)Buf.data() + 2);
  EXPECT_TRUE(mentions("kernel g32, block (0,0,0), thread (0,0,0), "
                       "'ld.global.u32' at PTX line 17"))
      << Err;
  EXPECT_TRUE(mentions(Want)) << Err;
  EXPECT_EQ(Buf[0], 0u);
  EXPECT_EQ(Buf[1], 1u);
}

// Thread 0's aligned access caches the region for the instruction; thread
// 1's, 6 bytes further, is inside it but misaligned: the cached fast path
// must still catch it.
TEST_F(Misaligned, CachedRegionStillChecksAlignment) {
  EXPECT_FALSE(run("g32", 4, Args().add(Buf.data()).add(6u).add(0u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("thread (1,0,0)")) << Err;
  EXPECT_EQ(Buf[0], 0u); // the load failed first: no store ran
}

// An allocation starting at an odd address: accesses aligned in absolute
// terms pass (the cached region starts at its first aligned address), and
// the first misaligned one is caught.
TEST_F(Misaligned, UnalignedAllocationStart) {
  unregisterAllocation(Buf.data());
  auto *Odd = reinterpret_cast<uint8_t *>(Buf.data()) + 1;
  registerAllocation(Odd, 63);
  EXPECT_TRUE(run("g32", 15, Args().add(Buf.data() + 1).add(4u).add(0u)))
      << Err;
  EXPECT_EQ(Buf[15], 1u);
  EXPECT_FALSE(run("g32", 2, Args().add(Odd).add(4u).add(0u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress) << Err;
  unregisterAllocation(Odd);
  registerAllocation(Buf.data(), Buf.size() * sizeof(uint32_t));
}

// A 16-byte vector load needs a multiple of 16; 8 is not enough.
TEST_F(Misaligned, VectorNeedsItsWholeSize) {
  Buf[7] = 7;
  EXPECT_TRUE(run("gvec", 1, Args().add(Buf.data()).add(16u))) << Err;
  EXPECT_EQ(Buf[0], 7u);
  EXPECT_FALSE(run("gvec", 1, Args().add(Buf.data()).add(8u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("'ld.global.v4.u32'")) << Err;
  EXPECT_TRUE(mentions("read of 16 bytes at")) << Err;
}

// Shared memory, by shared and by generic address.
TEST_F(Misaligned, Shared) {
  EXPECT_TRUE(run("sh", 1, Args().add(4u).add(0u))) << Err;
  EXPECT_TRUE(run("sh", 1, Args().add(8u).add(1u))) << Err;
  EXPECT_FALSE(run("sh", 1, Args().add(2u).add(0u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("misaligned address: shared memory write of 4 bytes at "
                       "offset 2 is not a multiple of 4"))
      << Err;
  EXPECT_FALSE(run("sh", 1, Args().add(6u).add(1u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("'st.u32'")) << Err;
  EXPECT_TRUE(mentions("misaligned address: write of 4 bytes at 0x")) << Err;
}

TEST_F(Misaligned, Local) {
  EXPECT_TRUE(run("loc", 1, Args().add(8u))) << Err;
  EXPECT_FALSE(run("loc", 1, Args().add(4u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("misaligned address: local memory write of 8 bytes at "
                       "offset 4 is not a multiple of 8"))
      << Err;
}

TEST_F(Misaligned, Atomic) {
  EXPECT_TRUE(run("atom", 32, Args().add(Buf.data()).add(4u))) << Err;
  EXPECT_EQ(Buf[1], 32u);
  EXPECT_FALSE(run("atom", 32, Args().add(Buf.data()).add(5u)));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("atomic access of 4 bytes at")) << Err;
  EXPECT_EQ(Buf[1], 32u);
}

// A core user without an allocation table (CheckAddresses off) gets the
// same failure.
TEST_F(Misaligned, UncheckedLaunches) {
  EXPECT_FALSE(
      run("g32", 1, Args().add(Buf.data()).add(4u).add(1u), /*Checked=*/false));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
  EXPECT_TRUE(mentions("read of 4 bytes at")) << Err;
  EXPECT_FALSE(
      run("gvec", 1, Args().add(Buf.data()).add(4u), /*Checked=*/false));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress);
}

} // namespace
