// Checked global accesses (LaunchParams::CheckAddresses, as the stand-in
// cudart launches): an access outside every registered allocation fails the
// launch with LaunchFault::IllegalAddress before it touches memory, never a
// host crash; the per-instruction region cache follows allocations.
#include "TestUtil.h"

#include <cstdio>

using namespace emutest;

namespace {

// A pointer far from any host mapping: dereferencing it would kill the
// process with SIGSEGV.
TEST(Addresses, UnmappedPointerFailsTheLaunch) {
  auto M = load("kernels_O2g.ptx"); // with source lines
  ASSERT_TRUE(M);
  int *Wild = reinterpret_cast<int *>(uintptr_t(0x7e5a00000000ull));
  std::string Err;
  LaunchFault Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*M, kernelNamed(*M, "bounded"), {1, 1, 1}, {32, 1, 1},
                      Args().add(Wild).add(32), &Err, 0, true, &Fault));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_NE(Err.find("kernel _Z7boundedPii, block (0,0,0), thread (0,0,0), "
                     "'st.global.b32' at PTX line"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("kernels.cu:190:"), std::string::npos) << Err;
  EXPECT_NE(Err.find("illegal address: write of 4 bytes at 0x7e5a00000000 is "
                     "outside every allocation"),
            std::string::npos)
      << Err;
}

// Two adjacent allocations: one store instruction moves from one to the
// other (its cached region changes); after the second is freed, the same
// launch fails at its first thread.
TEST(Addresses, RegionCacheFollowsAllocations) {
  auto M = load("kernels_O2.ptx");
  ASSERT_TRUE(M);
  std::vector<int> Buf(64, -1);
  registerAllocation(Buf.data(), 32 * sizeof(int));
  registerAllocation(Buf.data() + 32, 32 * sizeof(int));
  std::string Err;
  EXPECT_TRUE(launch(*M, kernelNamed(*M, "bounded"), {1, 1, 1}, {64, 1, 1},
                     Args().add(Buf.data()).add(64), &Err, 0, true))
      << Err;
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(Buf[I], I);
  unregisterAllocation(Buf.data() + 32);
  Buf.assign(64, -1);
  LaunchFault Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*M, kernelNamed(*M, "bounded"), {1, 1, 1}, {64, 1, 1},
                      Args().add(Buf.data()).add(64), &Err, 0, true, &Fault));
  unregisterAllocation(Buf.data());
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_NE(Err.find("thread (32,0,0)"), std::string::npos) << Err;
  EXPECT_EQ(Buf[31], 31); // warp 0 ran
  EXPECT_EQ(Buf[32], -1); // nothing written past the allocation
}

const char *GlobalsPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.global .align 4 .b32 gv[4];
.visible .entry gen(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  ld.param.u32 %r2, [n];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd1, gv;
  cvta.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.u32 [%rd4], %r1;
  ret;
}
.visible .entry loc(.param .u32 n)
{
  .local .align 4 .b8 buf[16];
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  ld.param.u32 %r2, [n];
  mov.u64 %rd1, buf;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.local.u32 [%rd4], %r2;
  ret;
}
)";

// Module variables are registered with the module: a generic store into
// one passes the check, one element past it does not.
TEST(Addresses, ModuleVariablesAreMemory) {
  std::string Err;
  auto M = loadText(GlobalsPtx, &Err);
  ASSERT_TRUE(M) << Err;
  EXPECT_TRUE(
      launch(*M, "gen", {1, 1, 1}, {4, 1, 1}, Args().add(0u), &Err, 0, true))
      << Err;
  const GlobalInfo *G = M->findGlobal("gv");
  ASSERT_TRUE(G);
  EXPECT_EQ(static_cast<int *>(G->Address)[3], 3);
  LaunchFault Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*M, "gen", {1, 1, 1}, {5, 1, 1}, Args().add(0u), &Err, 0,
                      true, &Fault));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_NE(Err.find("thread (4,0,0)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("0 bytes after the nearest allocation"), std::string::npos)
      << Err;
}

// Local and shared memory out of range are illegal addresses too.
TEST(Addresses, LocalAndSharedOutOfRange) {
  std::string Err;
  auto M = loadText(GlobalsPtx, &Err);
  ASSERT_TRUE(M) << Err;
  EXPECT_TRUE(
      launch(*M, "loc", {1, 1, 1}, {1, 1, 1}, Args().add(3u), &Err, 0, true))
      << Err;
  LaunchFault Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*M, "loc", {1, 1, 1}, {1, 1, 1}, Args().add(1u << 20),
                      &Err, 0, true, &Fault));
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_NE(Err.find("illegal address: local memory access out of range"),
            std::string::npos)
      << Err;
  auto K = load("kernels_O2.ptx");
  ASSERT_TRUE(K);
  std::vector<int> Out(64, 0);
  registerAllocation(Out.data(), Out.size() * sizeof(int));
  Fault = LaunchFault::None;
  EXPECT_FALSE(launch(*K, kernelNamed(*K, "oob"), {1, 1, 1}, {16, 1, 1},
                      Args().add(Out.data()), &Err, 0, true, &Fault));
  unregisterAllocation(Out.data());
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  EXPECT_NE(Err.find("illegal address: shared memory access out of range"),
            std::string::npos)
      << Err;
}

} // namespace
