//===- ModeledDivergenceTest.cpp - Divergent paths, end to end ------------===//
//
// The core tells the timing model where a warp resumes another of its
// divergent paths (TimingSink.cpp: the active lanes neither include nor
// are included in those before): a kernel whose lanes split on a
// parameter pays divergence_switch_cycles once per warp when they split,
// and nothing when every lane takes one path (docs/timing-model.md,
// "Divergence, calls and indirect branches").
//
//===----------------------------------------------------------------------===//
#include "warpscope/Emu/Emulator.h"
#include "llvm/Support/JSON.h"
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

using namespace warpscope;

namespace {

// Lanes with (tid & split) != 0 add 7, the others 9: one warp, two paths
// when split is 1, one when it is 0.
const char *const Kernel = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry diverge(.param .u64 out, .param .u32 split)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [split];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, %r5;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  add.u32 %r3, %r1, 7;
  bra.uni DONE;
EVEN:
  add.u32 %r3, %r1, 9;
DONE:
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

// h100-sxm's configuration with divergence_switch_cycles set, as a file.
std::string configWith(double Cycles) {
  std::ifstream In(std::string(WARPSCOPE_TIMING_CONFIGS) + "/h100-sxm.json");
  std::stringstream SS;
  SS << In.rdbuf();
  llvm::Expected<llvm::json::Value> J = llvm::json::parse(SS.str());
  EXPECT_TRUE((bool)J);
  if (!J) {
    llvm::consumeError(J.takeError());
    return "";
  }
  (*J->getAsObject())["divergence_switch_cycles"] = Cycles;
  const std::string Path = ::testing::TempDir() + "divergence-" +
                           std::to_string((int)Cycles) + ".json";
  std::ofstream Out(Path);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << *J;
  Out << OS.str();
  return Path;
}

uint64_t cycles(double SwitchCycles, unsigned Split) {
  setenv("WARPSCOPE_EMU_MODEL", configWith(SwitchCycles).c_str(), 1);
  std::string Error;
  std::unique_ptr<emu::Module> M = emu::loadPtx(Kernel, "diverge", Error);
  EXPECT_TRUE(M) << Error;
  if (!M)
    return 0;
  struct Free {
    void operator()(void *P) const { std::free(P); }
  };
  std::unique_ptr<unsigned, Free> Out(
      static_cast<unsigned *>(std::aligned_alloc(256, 32 * sizeof(unsigned))));
  unsigned *OP = Out.get();
  void *Args[] = {&OP, &Split};
  emu::LaunchParams P;
  P.Grid = {1, 1, 1};
  P.Block = {32, 1, 1};
  P.Args = Args;
  EXPECT_TRUE(M->launch("diverge", P, Error)) << Error;
  unsetenv("WARPSCOPE_EMU_MODEL");
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(OP[L], L + ((L & Split) ? 7 : 9));
  llvm::Expected<llvm::json::Value> J = llvm::json::parse(M->groundTruthJson());
  if (!J) {
    llvm::consumeError(J.takeError());
    return 0;
  }
  const llvm::json::Object *Mod = J->getAsObject()
                                      ->getArray("launches")
                                      ->front()
                                      .getAsObject()
                                      ->getObject("modeled");
  return Mod ? (uint64_t)Mod->getInteger("cycles").value_or(0) : 0;
}

} // namespace

TEST(ModeledDivergence, ResumingTheOtherPathCostsTheSwitch) {
  const uint64_t Free = cycles(0, 1);
  ASSERT_GT(Free, 0u);
  // The switch starts after the branch ending the first path resolves; the
  // ops after it may have waited a cycle or two for other reasons anyway.
  const uint64_t Paid = cycles(1000, 1);
  EXPECT_GE(Paid, Free + 990);
  EXPECT_LE(Paid, Free + 1000);
}

TEST(ModeledDivergence, AUniformBranchHasNoSwitch) {
  const uint64_t Free = cycles(0, 0);
  ASSERT_GT(Free, 0u);
  EXPECT_EQ(cycles(1000, 0), Free);
}
