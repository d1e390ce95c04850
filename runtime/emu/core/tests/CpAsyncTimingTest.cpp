// cp.async in the timing model (docs/timing-model.md, "Asynchronous
// copies"): a copy's lines go through the L1 (.ca) or straight to the L2
// (.cg) and DRAM like a global load's, with their bandwidth; no register
// waits for it; cp.async.commit_group closes the warp's open group and
// cp.async.wait_group N holds the warp until all but the N latest committed
// groups are done (wait_all: every copy). The functional result is the
// copy at issue (SyncAsyncTest).
#include "TestUtil.h"
#include "warpscope/Emu/TimingConfig.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace emutest;

namespace {

// The h100-sxm configuration at the clock a run without
// WARPSCOPE_EMU_MODEL_CLOCK takes.
timing::Config h100() {
  timing::Config C;
  std::string Error;
  EXPECT_TRUE(timing::loadConfig("h100-sxm", C, Error)) << Error;
  EXPECT_TRUE(timing::selectClock(C, "", Error)) << Error;
  return C;
}

struct Modeled {
  uint64_t Cycles = 0, LaunchCycles = 0;
};

// The h100-sxm model's time of kernel "k" of Text with a pointer to Buf.
Modeled modeled(const std::string &Text, void *Buf, Dim3 Grid = {1, 1, 1},
                Dim3 Block = {32, 1, 1}) {
  std::string Err;
  auto M = loadText(Text, &Err);
  EXPECT_TRUE(M) << Err;
  if (!M)
    return {};
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  const bool Ok = launch(*M, "k", Grid, Block, Args().add(Buf), &Err);
  unsetenv("WARPSCOPE_EMU_MODEL");
  EXPECT_TRUE(Ok) << Err;
  if (!Ok)
    return {};
  auto T = nlohmann::json::parse(M->groundTruthJson());
  const auto &L = T["launches"][0]["modeled"];
  return {L["cycles"].get<uint64_t>(), L["launch_cycles"].get<uint64_t>()};
}

// Kernel k(src) with 4 KiB of shared memory (buf): %rd1 is src, %r1 the
// thread's index; Body, then ret.
std::string bufferKernel(const std::string &Body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.shared .align 16 .b8 buf[4096];
.visible .entry k(.param .u64 src)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [src];
  mov.u32 %r1, %tid.x;)" +
         Body + R"(
  ret;
}
)";
}

// One warp: Body between the address set-up and a loop of dependent adds
// long enough (thousands of cycles) to hide a DRAM access that nothing
// waits for. %rd3: this lane's 16 bytes at the buffer's start, %rd4: 64 KiB
// further (another DRAM line), %r3: its 16 bytes of shared memory.
std::string oneWarp(const std::string &Body) {
  return bufferKernel(R"(
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  add.s64 %rd4, %rd3, 65536;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, buf;
  add.u32 %r3, %r3, %r2;
  add.u32 %r4, %r3, 512;)" +
                      Body + R"(
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
L:
  add.u32 %r6, %r6, %r1;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, 400;
  @%p1 bra L;)");
}

// Brings this lane's first line into the L1 (a load whose data is used).
const std::string Warm = R"(
  ld.global.u32 %r7, [%rd3];
  add.u32 %r8, %r7, 1;
  mov.u32 %r9, %r8;)";

uint64_t oneWarpCycles(const std::string &Body) {
  static std::vector<uint8_t> Buf(1 << 20);
  return modeled(oneWarp(Body), Buf.data()).Cycles;
}

// The loop alone outlasts a DRAM access by far: otherwise the comparisons
// below say nothing.
TEST(CpAsyncTiming, TheLoopHidesADramAccess) {
  const timing::Config C = h100();
  EXPECT_GT((double)oneWarpCycles(""), 2 * C.DramLatency);
}

// Issue cycles between a copy and its wait, which the wait need not wait
// for again (a few instructions).
constexpr double Between = 8;

// A copy from DRAM waited for costs the DRAM latency (less the cycles the
// instructions between them issued in); one nothing waits for costs its
// issue: the warp goes on (its copy is no register's producer), only its
// exit waits for the data (drain), long after the loop hid it.
TEST(CpAsyncTiming, WaitingForACopyFromDramCostsItsLatency) {
  const timing::Config C = h100();
  const uint64_t None = oneWarpCycles("");
  const uint64_t NoWait = oneWarpCycles(R"(
  cp.async.cg.shared.global [%r3], [%rd3], 16;
  cp.async.commit_group;)");
  const uint64_t Wait = oneWarpCycles(R"(
  cp.async.cg.shared.global [%r3], [%rd3], 16;
  cp.async.commit_group;
  cp.async.wait_group 0;)");
  const uint64_t WaitAll = oneWarpCycles(R"(
  cp.async.ca.shared.global [%r3], [%rd3], 16;
  cp.async.wait_all;)");
  ASSERT_GT(None, 0u);
  EXPECT_GE((double)Wait, (double)NoWait + C.DramLatency - Between);
  EXPECT_GE((double)WaitAll, (double)NoWait + C.DramLatency - Between);
  EXPECT_LT((double)NoWait, (double)None + C.DramLatency / 8);
}

// wait_group 1 waits for the older of two committed groups, not the newer.
// The fast group reads a line a load brought into the L1 before.
TEST(CpAsyncTiming, WaitGroupOneWaitsForTheOlderGroupOnly) {
  const timing::Config C = h100();
  const std::string Fast = R"(
  cp.async.ca.shared.global [%r3], [%rd3], 16;
  cp.async.commit_group;)";
  const std::string Slow = R"(
  cp.async.cg.shared.global [%r4], [%rd4], 16;
  cp.async.commit_group;)";
  const std::string WaitOne = "\n  cp.async.wait_group 1;";
  const uint64_t SlowFast = oneWarpCycles(Warm + Slow + Fast);
  const uint64_t SlowFastWait = oneWarpCycles(Warm + Slow + Fast + WaitOne);
  const uint64_t FastSlow = oneWarpCycles(Warm + Fast + Slow);
  const uint64_t FastSlowWait = oneWarpCycles(Warm + Fast + Slow + WaitOne);
  ASSERT_GT(SlowFast, 0u);
  // The older group is the slow one: the warp waits for DRAM.
  EXPECT_GE((double)SlowFastWait, (double)SlowFast + C.DramLatency - Between);
  // The older group is the fast one: the slow one stays in flight.
  EXPECT_LT((double)FastSlowWait, (double)FastSlow + C.DramLatency / 2);
}

// .ca copies through the L1, .cg past it: of a line a load just brought
// into the L1, a .ca copy hits there, a .cg copy reads the L2.
TEST(CpAsyncTiming, ACgCopyBypassesTheL1) {
  const timing::Config C = h100();
  const uint64_t Ca = oneWarpCycles(Warm + R"(
  cp.async.ca.shared.global [%r3], [%rd3], 16;
  cp.async.wait_all;)");
  const uint64_t Cg = oneWarpCycles(Warm + R"(
  cp.async.cg.shared.global [%r3], [%rd3], 16;
  cp.async.wait_all;)");
  ASSERT_GT(Ca, 0u);
  EXPECT_GE((double)Cg, (double)Ca + (C.L2Latency - C.L1Latency) / 2);
  EXPECT_LT((double)Cg, (double)Ca + C.DramLatency); // no DRAM access
}

// Copies use DRAM bandwidth: a grid that copies far more than the L2 holds,
// 16 bytes a lane at a time, takes about its bytes over the DRAM bandwidth.
TEST(CpAsyncTiming, CopiesAreBoundByDramBandwidth) {
  const timing::Config C = h100();
  const std::string Text = bufferKernel(R"(
  mov.u32 %r2, %ctaid.x;
  // This block's 64 KiB: 16 rounds of 256 lanes x 16 bytes.
  mul.wide.u32 %rd2, %r2, 65536;
  add.s64 %rd1, %rd1, %rd2;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  shl.b32 %r3, %r1, 4;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  mov.u32 %r5, 0;
L:
  cp.async.cg.shared.global [%r4], [%rd3], 16;
  add.s64 %rd3, %rd3, 4096;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, 16;
  @%p1 bra L;
  cp.async.wait_all;)");
  const uint32_t Blocks = 1056; // 8 per SM of the 132
  std::vector<uint8_t> Buf((size_t)Blocks * 65536);
  const Modeled T = modeled(Text, Buf.data(), {Blocks, 1, 1}, {256, 1, 1});
  ASSERT_GT(T.Cycles, T.LaunchCycles);
  const double Bound = (double)Buf.size() / C.dramBytesPerCycle();
  const double Kernel = (double)(T.Cycles - T.LaunchCycles);
  EXPECT_GE(Kernel, 0.9 * Bound) << "bytes over bandwidth: " << Bound;
  EXPECT_LE(Kernel, 1.5 * Bound + 4 * C.DramLatency)
      << "bytes over bandwidth: " << Bound;
}

// cp.async's commit and wait forms are one SASS instruction each
// (LDGDEPBAR, DEPBAR): with no copy pending they cost their issue only.
TEST(CpAsyncTiming, CommitAndWaitWithNothingPendingCostTheirIssue) {
  const uint64_t None = oneWarpCycles("");
  const uint64_t Forms = oneWarpCycles(R"(
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;)");
  EXPECT_GE(Forms, None);
  EXPECT_LE(Forms, None + 8);
}

} // namespace
