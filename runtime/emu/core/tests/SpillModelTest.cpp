// The spill model (SpillModel.h, docs/timing-model.md "Register spills"):
// register pressure by liveness, where the spill code goes for a cap, and
// that the timing model charges it (and nothing for kernels without it).
#include "../SpillModel.h"
#include "../Ptx.h"
#include "TestUtil.h"

#include <cstdlib>

using namespace emutest;
using namespace warpscope::emu::core;

namespace {

const char *Straight = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry straight(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.f32 %f1, 0f3F800000;
  setp.gt.f32 %p1, %f1, 0f00000000;
  mov.f32 %f2, 0f40000000;
  add.f32 %f3, %f1, %f2;
  @%p1 st.global.f32 [%rd2], %f3;
  ret;
}
)";

// Twelve floats live around a loop, with the trip count, the counter and a
// 64-bit pointer: 16 words at the loop's top.
std::string loopKernel() {
  std::string S = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry loop(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
)";
  for (int K = 1; K <= 12; ++K)
    S += "  cvt.rn.f32.s32 %f" + std::to_string(K) + ", " + std::to_string(K) +
         ";\n";
  S += "LOOP:\n";
  for (int K = 1; K <= 12; ++K)
    S += "  mul.f32 %f" + std::to_string(K) + ", %f" + std::to_string(K) +
         ", 0f3F000000;\n";
  S += "  add.s32 %r2, %r2, 1;\n  setp.lt.s32 %p1, %r2, %r1;\n"
       "  @%p1 bra LOOP;\n  mov.f32 %f13, 0f00000000;\n";
  for (int K = 1; K <= 12; ++K)
    S += "  add.f32 %f13, %f13, %f" + std::to_string(K) + ";\n";
  S += "  st.global.f32 [%rd2], %f13;\n  ret;\n}\n";
  return S;
}

std::unique_ptr<ParsedModule> parse(const std::string &Text) {
  std::string Err;
  auto PM = parsePtx(Text, "spill.ptx", Err);
  EXPECT_TRUE(PM) << Err;
  return PM;
}

TEST(SpillModel, PressureCountsLiveWordsNotPredicates) {
  auto PM = parse(Straight);
  ASSERT_TRUE(PM);
  const Function &F = *PM->Functions[0];
  // ld.param rd1 | cvta rd2 | mov f1 | setp p1 | mov f2 | add f3 | st | ret:
  // a 64-bit pointer is 2 words, the predicate none; an instruction holds
  // its operands or its results with what stays live, the larger.
  std::vector<uint32_t> Want = {2, 2, 3, 3, 4, 4, 3, 0};
  EXPECT_EQ(registerPressure(F), Want);
}

TEST(SpillModel, NoSpillCodeUnderACapThatFits) {
  auto PM = parse(loopKernel());
  ASSERT_TRUE(PM);
  const Function &F = *PM->Functions[0];
  SpillPlan P = planSpills(F, 32);
  EXPECT_EQ(P.Peak, 16u);
  EXPECT_EQ(P.Need, 16u + SpillReserve);
  EXPECT_FALSE(P.any());
  EXPECT_EQ(P.storeBytes() + P.loadBytes(), 0u);
}

TEST(SpillModel, SpillsTheLoopValuesUnderATightCap) {
  auto PM = parse(loopKernel());
  ASSERT_TRUE(PM);
  const Function &F = *PM->Functions[0];
  const uint32_t Cap = 12; // 10 registers for values: 6 words must go
  SpillPlan P = planSpills(F, Cap);
  ASSERT_TRUE(P.any());
  // Pressure over the kept values fits everywhere.
  std::vector<bool> Spilled(F.NumSlots, false);
  for (const SpillOp &O : P.Stores)
    Spilled[O.Slot] = true;
  uint32_t Words = 0;
  for (uint32_t S = 0; S < F.NumSlots; ++S)
    Words += Spilled[S] ? (F.SlotBits[S] > 32 ? 2 : 1) : 0;
  EXPECT_EQ(Words, P.AreaWords);
  // Every definition of a spilled register is followed by a store, every
  // use preceded by a load, each once per instruction.
  for (uint32_t K = 0; K < F.Code.size(); ++K) {
    const Inst &I = F.Code[K];
    for (unsigned D = 0; D < I.ND; ++D)
      if (I.D[D] < Spilled.size() && Spilled[I.D[D]]) {
        bool Found = false;
        for (uint32_t J = P.StoreBegin[K]; J < P.StoreBegin[K + 1]; ++J)
          Found |= P.Stores[J].Slot == I.D[D];
        EXPECT_TRUE(Found) << "no spill store after instruction " << K;
      }
    for (unsigned U = 0; U < I.NS; ++U)
      if (I.S[U] < Spilled.size() && Spilled[I.S[U]]) {
        bool Found = false;
        for (uint32_t J = P.LoadBegin[K]; J < P.LoadBegin[K + 1]; ++J)
          Found |= P.Loads[J].Slot == I.S[U];
        EXPECT_TRUE(Found) << "no spill load before instruction " << K;
      }
  }
  // The pointer and the trip count are kernel parameters, read again from
  // the constant bank: they give up their 3 words first and are never
  // stored. Then the 3 cheapest floats (f1..f3, live the longest), each
  // defined before the loop and in it, used in it and after it: 2 stores
  // and 2 loads of 4 bytes each.
  EXPECT_EQ(Words, 3u);
  EXPECT_EQ(P.storeBytes(), 24u);
  EXPECT_EQ(P.loadBytes(), 24u);
}

// Launches loop() under the timing model with the spill code for Cap (0:
// none); returns the ground truth.
std::string runLoop(uint32_t Cap, bool Changed = false) {
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  auto M = loadText(loopKernel());
  unsetenv("WARPSCOPE_EMU_MODEL");
  EXPECT_TRUE(M);
  if (!M)
    return "";
  float *Out = new float[1]();
  uint64_t OutP = (uint64_t)Out;
  uint32_t N = 64;
  void *Args[] = {&OutP, &N};
  LaunchParams LP;
  LP.Grid = {1, 1, 1};
  LP.Block = {256, 1, 1};
  LP.Args = Args;
  LP.RegistersPerThread = 12;
  LP.SpillCap = Cap;
  LP.SpillCapChanged = Changed;
  LP.PtxasSpillStoreBytes = LP.PtxasSpillLoadBytes = Cap ? 48 : 0;
  std::string Err;
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  EXPECT_TRUE(M->launch("loop", LP, Err)) << Err;
  unsetenv("WARPSCOPE_EMU_MODEL");
  delete[] Out;
  return M->groundTruthJson();
}

uint64_t cyclesOf(const std::string &Truth) {
  size_t At = Truth.find("\"cycles\":");
  EXPECT_NE(At, std::string::npos);
  return At == std::string::npos ? 0 : std::strtoull(&Truth[At + 9], 0, 10);
}

TEST(SpillModel, TheModelChargesThePlacedSpillCode) {
  const std::string None = runLoop(0), Capped = runLoop(12);
  EXPECT_EQ(None.find("\"spills\""), std::string::npos);
  ASSERT_NE(Capped.find("\"spills\""), std::string::npos);
  EXPECT_NE(Capped.find("\"register_cap\":12"), std::string::npos);
  // 64 iterations of reloads before the multiplies and stores after them.
  EXPECT_GT(cyclesOf(Capped), cyclesOf(None) * 11 / 10);
  // A what-if without the cap places none: the time of the uncapped run.
  const std::string Uncapped = runLoop(255, true);
  EXPECT_NE(Uncapped.find("\"store_bytes\":0"), std::string::npos);
  EXPECT_EQ(cyclesOf(Uncapped), cyclesOf(None));
}

} // namespace
