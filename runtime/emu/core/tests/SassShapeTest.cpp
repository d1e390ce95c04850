// What ptxas makes of several PTX instructions together (SassShape.cpp),
// seen through a launch's modeled SASS instruction count: one warp runs
// each kernel once, so the count is the sum of what its instructions are
// charged as (docs/timing-model.md, "PTX is not SASS").
#include "TestUtil.h"
#include "warpscope/Emu/TimingConfig.h"

using namespace emutest;

namespace {

// Kernel k: the lane's index in %r1, a global array's address in %rd2 and
// a shared one's in %rd7, then Body. Charged alone: mov %tid (1) plus the
// kernel's entry (LDC R1, ULDC.64: 2), two movs of an address (2), the
// cvta.to.global (0) and ret (1): 6.
std::string shapeKernel(const std::string &Body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.global .align 8 .b8 g[4096];
.shared .align 8 .b8 s[1024];
.visible .entry k()
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mov.u64 %rd5, g;
  cvta.to.global.u64 %rd2, %rd5;
  mov.u64 %rd7, s;
)" + Body +
         R"(  ret;
}
)";
}

constexpr uint64_t Frame = 6;

uint64_t count(const std::string &Body) {
  return modeledInstructions(shapeKernel(Body), Body);
}

TEST(SassShape, AKernelsEntryIsTwoInstructions) { EXPECT_EQ(count(""), Frame); }

TEST(SassShape, AWideMultiplyFusesIntoTheAddThatReadsIt) {
  const std::string Index = "  mul.wide.u32 %rd1, %r1, 4;\n"
                            "  add.s64 %rd3, %rd2, %rd1;\n"
                            "  ld.global.u32 %r2, [%rd3];\n";
  // IMAD.WIDE: the pair is one instruction, then the load.
  EXPECT_EQ(count(Index), Frame + 2);
  // The product read twice (stored before the add) stays a multiply (1)
  // and a 64-bit add (2).
  EXPECT_EQ(count("  mul.wide.u32 %rd1, %r1, 4;\n"
                  "  st.global.u64 [%rd2+2048], %rd1;\n"
                  "  add.s64 %rd3, %rd2, %rd1;\n"
                  "  ld.global.u32 %r2, [%rd3];\n"),
            Frame + 5);
}

TEST(SassShape, AShiftFusesIntoTheAddAsLeaPair) {
  // Zero extension is a register name (0), the shift and add LEA and
  // LEA.HI.X (2); a sign extension is one SHF.
  EXPECT_EQ(
      count("  cvt.u64.u32 %rd6, %r1;\n  shl.b64 %rd1, %rd6, 2;\n"
            "  add.s64 %rd3, %rd2, %rd1;\n  ld.global.u32 %r2, [%rd3];\n"),
      Frame + 3);
  EXPECT_EQ(
      count("  cvt.s64.s32 %rd6, %r1;\n  shl.b64 %rd1, %rd6, 2;\n"
            "  add.s64 %rd3, %rd2, %rd1;\n  ld.global.u32 %r2, [%rd3];\n"),
      Frame + 4);
}

TEST(SassShape, SharedAddressesAreComputedIn32Bits) {
  const std::string Shared = "  mul.wide.u32 %rd1, %r1, 4;\n"
                             "  add.s64 %rd3, %rd7, %rd1;\n"
                             "  add.s64 %rd8, %rd3, 128;\n"
                             "  ld.shared.u32 %r2, [%rd8];\n"
                             "  add.s64 %rd9, %rd8, 128;\n"
                             "  ld.shared.u32 %r3, [%rd9];\n";
  // IMAD (1), IADD3 (1), LDS, IADD3 (1), LDS.
  EXPECT_EQ(count(Shared), Frame + 5);
  // An address that is also stored as a value is a 64-bit one, and so is
  // the one it is computed from: their adds are two instructions again.
  EXPECT_EQ(count(Shared + "  st.global.u64 [%rd2], %rd9;\n"), Frame + 8);
}

TEST(SassShape, ABranchWhosePathsJoinHasAConvergenceBarrier) {
  // BSSY before the branch, BSYNC where its paths join: the branch counts
  // 3. The warp runs both paths (lanes 0-15 and 16-31).
  EXPECT_EQ(count("  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra A;\n"
                  "  add.s32 %r2, %r1, 1;\n  bra.uni J;\nA:\n"
                  "  add.s32 %r2, %r1, 2;\nJ:\n  st.global.u32 [%rd2], %r2;\n"),
            Frame + 8);
  // A branch to the exit is a predicated EXIT: none.
  EXPECT_EQ(count("  setp.ge.u32 %p1, %r1, 16;\n  @%p1 bra X;\n"
                  "  st.global.u32 [%rd2], %r1;\nX:\n"),
            Frame + 3);
  // A loop's branch: none (4 iterations of add, setp, bra).
  EXPECT_EQ(count("  mov.u32 %r3, 0;\nL:\n  add.s32 %r3, %r3, 1;\n"
                  "  setp.lt.u32 %p1, %r3, 4;\n  @%p1 bra L;\n"
                  "  st.global.u32 [%rd2], %r3;\n"),
            Frame + 14);
}

TEST(SassShape, AFusedMultiplyStillWaitsForItsOperand) {
  timing::Config C;
  std::string Error;
  ASSERT_TRUE(timing::loadConfig("h100-sxm", C, Error)) << Error;
  // The same instructions; only where the index comes from differs: a
  // load (the address waits for it through the vanished multiply) or the
  // lane.
  auto Chain = [](const char *Index) {
    return shapeKernel(std::string("  ld.global.u32 %r4, [%rd2+512];\n") +
                       "  mul.wide.u32 %rd1, " + Index + ", 0;\n" +
                       "  add.s64 %rd3, %rd2, %rd1;\n"
                       "  ld.global.u32 %r2, [%rd3];\n"
                       "  add.s32 %r5, %r2, %r4;\n"
                       "  st.global.u32 [%rd2+1024], %r5;\n");
  };
  const double Loaded = (double)modeledCycles(Chain("%r4"), "loaded");
  const double Lane = (double)modeledCycles(Chain("%r1"), "lane");
  EXPECT_GE(Loaded - Lane, 0.5 * C.L2Latency) << Lane << " " << Loaded;
}

} // namespace
