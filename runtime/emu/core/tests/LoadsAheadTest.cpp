// A basic block's shared loads ahead of their uses, from PTX through
// describe()'s marks (ModelCode.cpp markBlockLoads, StaticInst::Hoists) to
// the simulated SM (LoadsAhead.cpp): ptxas issues a block's independent
// LDS before the uses of the earlier ones (nw_tile_diag's and
// pathfinder_rows's sm_90 SASS), but not past a store that may alias them
// or a barrier (docs/timing-model.md, "A block's loads ahead of their
// uses").
#include "TestUtil.h"
#include "warpscope/Emu/TimingConfig.h"

using namespace emutest;

namespace {

// One warp, four shared loads each used at once (r2, r4, r6, r8 at byte
// offsets 0, 128, 256, 384 from the lane's word), Between after the second
// use; Chase makes each load's address depend on the load before.
std::string fourLoads(const std::string &Between, bool Chase) {
  auto Next = [&](const char *Prev) {
    return Chase ? std::string("  and.b32 %r10, ") + Prev +
                       ", 0;\n  cvt.u64.u32 %rd4, %r10;\n  add.s64 %rd3, "
                       "%rd3, %rd4;\n"
                 : std::string();
  };
  return R"(.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 s[1024];
.visible .entry k()
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  mov.u64 %rd2, s;
  add.s64 %rd3, %rd2, %rd1;
  ld.shared.u32 %r2, [%rd3];
  add.s32 %r3, %r2, 1;
)" + Next("%r2") +
         R"(  ld.shared.u32 %r4, [%rd3+128];
  add.s32 %r5, %r4, %r3;
)" + Between +
         Next("%r4") + R"(  ld.shared.u32 %r6, [%rd3+256];
  add.s32 %r7, %r6, %r5;
)" + Next("%r6") +
         R"(  ld.shared.u32 %r8, [%rd3+384];
  add.s32 %r9, %r8, %r7;
  st.shared.u32 [%rd3+640], %r9;
  ret;
}
)";
}

TEST(LoadsAhead, ABlocksSharedLoadsGoAheadOfTheirUses) {
  timing::Config C;
  std::string Error;
  ASSERT_TRUE(timing::loadConfig("h100-sxm", C, Error)) << Error;
  const double Latency = C.SharedLatency;
  const double Plain = (double)modeledCycles(fourLoads("", false), "plain");
  // A chase waits for each load: four latencies where the plain block
  // waits about one.
  const double Chased = (double)modeledCycles(fourLoads("", true), "chase");
  EXPECT_GE(Chased - Plain, 2.5 * Latency) << Plain << " " << Chased;
  // A shared store, an atomic or a barrier between: two groups of two.
  for (const char *Between :
       {"  st.shared.u32 [%rd3+512], %r5;\n",
        "  atom.shared.add.u32 %r11, [%rd3+512], 1;\n", "  bar.sync 0;\n"}) {
    const double Split =
        (double)modeledCycles(fourLoads(Between, false), Between);
    EXPECT_GE(Split - Plain, 0.7 * Latency) << Between;
    EXPECT_LE(Split - Plain, 1.6 * Latency + 8) << Between;
  }
}

} // namespace
