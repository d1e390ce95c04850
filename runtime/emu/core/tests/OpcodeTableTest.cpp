// The PTX opcode table (warpscope/ABI/PtxOpcodes.def) against itself and
// against the emulator's decoder: every opcode the emulator decodes has a
// row, every decoded operation is seen by some test line, and a row's unit
// agrees with the decoded operation where the timing model's describe()
// relies on it (a memory unit for exactly the memory operations).
#include "../Ptx.h"
#include "warpscope/ABI/PtxOpcodes.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>

using namespace warpscope;
using namespace warpscope::emu::core;

namespace {

TEST(OpcodeTable, RowsAreConsistent) {
  std::set<std::string_view> Seen;
  for (size_t K = 0; K < size_t(PtxOpcode::Unknown); ++K) {
    const PtxOpcodeInfo &R = PtxOpcodeTable[K];
    EXPECT_FALSE(R.Spelling.empty()) << K;
    EXPECT_EQ(R.Spelling.find('.'), std::string_view::npos) << R.Spelling;
    EXPECT_TRUE(Seen.insert(R.Spelling).second)
        << "two rows spell '" << R.Spelling << "'";
    EXPECT_EQ(lookupPtxOpcode(R.Spelling), PtxOpcode(K)) << R.Spelling;
    // Floating-point operations only for arithmetic.
    if (R.Flops) {
      EXPECT_TRUE(R.Mix == PtxMix::Arith || R.Mix == PtxMix::Special ||
                  R.Mix == PtxMix::Divide)
          << R.Spelling;
    }
    if (R.Mix == PtxMix::Divide) {
      EXPECT_EQ(R.Unit, PtxUnit::Divide) << R.Spelling;
    }
  }
  EXPECT_EQ(lookupPtxOpcode("nosuch"), PtxOpcode::Unknown);
  EXPECT_EQ(lookupPtxOpcode(""), PtxOpcode::Unknown);
  EXPECT_EQ(ptxOpcodeOf("ld.global.v4.f32").Unit, PtxUnit::Load);
  EXPECT_EQ(ptxOpcodeOf("nosuch.b32").Mix, PtxMix::Other);
  EXPECT_EQ(ptxOpcodeOf("nosuch.b32").Unit, PtxUnit::Alu);
}

// A form (PtxOpcodes.def) refines a row by one of its modifiers to another
// unit; ptxUnitOf() gives exactly those forms their unit.
TEST(OpcodeTable, FormsRefineRowsByAModifier) {
  for (const PtxForm &F : PtxForms) {
    PtxOpcode Row = lookupPtxOpcode(F.Spelling);
    ASSERT_NE(Row, PtxOpcode::Unknown) << F.Spelling << " has no row";
    EXPECT_NE(ptxOpcodeInfo(Row).Unit, F.Unit)
        << F.Spelling << "." << F.Modifier << " is its row's unit already";
    EXPECT_EQ(F.Modifier.find('.'), std::string_view::npos) << F.Modifier;
  }
  EXPECT_EQ(ptxUnitOf("bar.warp.sync"), PtxUnit::Free);
  EXPECT_EQ(ptxUnitOf("cp.async.commit_group"), PtxUnit::AsyncGroup);
  EXPECT_EQ(ptxUnitOf("cp.async.wait_group"), PtxUnit::AsyncGroup);
  EXPECT_EQ(ptxUnitOf("cp.async.wait_all"), PtxUnit::AsyncGroup);
  EXPECT_EQ(ptxUnitOf("prefetch.global.L2"), PtxUnit::Free);
  // The rows' other forms keep their unit; a modifier is a whole part.
  EXPECT_EQ(ptxUnitOf("bar.sync"), PtxUnit::Barrier);
  EXPECT_EQ(ptxUnitOf("barrier.cta.sync.aligned"), PtxUnit::Barrier);
  EXPECT_EQ(ptxUnitOf("cp.async.ca.shared.global"), PtxUnit::AsyncCopy);
  EXPECT_EQ(ptxUnitOf("bar.warpx.sync"), PtxUnit::Barrier);
  EXPECT_EQ(ptxUnitOf("warp.sync"), PtxUnit::Alu);
  EXPECT_EQ(ptxUnitOf("add.f32"), PtxUnit::Alu);
  EXPECT_FALSE(ptxHasModifier("bar", "bar"));
  EXPECT_TRUE(ptxHasModifier("bar.warp", "warp"));
}

// Decoded operations the timing model treats as memory accesses.
bool memoryOp(uint16_t Op) {
  switch (Op) {
  case OpLd:
  case OpSt:
  case OpAtom:
  case OpRed:
  case OpCpAsync:
  case OpTex:
  case OpSuld:
  case OpSust:
  case OpTxq:
  case OpLdmatrix:
  case OpWmmaLoad:
  case OpWmmaStore:
    return true;
  default:
    return false;
  }
}

bool memoryUnit(PtxUnit U) {
  return U == PtxUnit::Load || U == PtxUnit::Store || U == PtxUnit::Atomic ||
         U == PtxUnit::AsyncCopy || U == PtxUnit::Texture ||
         U == PtxUnit::Matrix;
}

// Forms the checked-in PTX does not have: parsed, never run.
const char *Supplement = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry supplement(.param .u64 p)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .f32 %f<20>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %clock;
  mov.u64 %rd1, %clock64;
  mov.u64 %rd2, %globaltimer;
  mov.b64 %rd3, {%r1, %r2};
  mov.b64 {%r3, %r4}, %rd3;
  ex2.approx.f32 %f1, %f2;
  lg2.approx.f32 %f1, %f2;
  tanh.approx.f32 %f1, %f2;
  cos.approx.f32 %f1, %f2;
  lop3.b32 %r5, %r1, %r2, %r3, 150;
  bfi.b32 %r5, %r1, %r2, %r3, %r4;
  cnot.b32 %r5, %r1;
  sad.u32 %r5, %r1, %r2, %r3;
  dp4a.u32.u32 %r5, %r1, %r2, %r3;
  dp2a.lo.u32.u32 %r5, %r1, %r2, %r3;
  slct.u32.s32 %r5, %r1, %r2, %r3;
  set.lt.u32.s32 %r5, %r1, %r2;
  vadd2.u32.u32.u32 %r5, %r1, %r2, %r3;
  elect.sync %r5|%p1, -1;
  bar.warp.sync -1;
  membar.gl;
  nanosleep.u32 %r1;
  cvt.rn.f16x2.f32 %r5, %f1, %f2;
  cvt.rna.tf32.f32 %r5, %f1;
  cp.async.ca.shared.global [%r6], [%rd1], 4;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  prefetch.global.L2 [%rd1];
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r9}, [%r8];
  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%r10], 16;
  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 16;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};
  txq.width.b32 %r1, [%rd1];
  ret;
}
)";

std::vector<std::string> corpus() {
  std::vector<std::string> Texts{Supplement};
  const std::string Dir = EMU_TEST_PTX_DIR;
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return Texts;
  while (dirent *E = readdir(D)) {
    std::string N = E->d_name;
    if (N.size() < 4 || N.compare(N.size() - 4, 4, ".ptx") != 0)
      continue;
    std::ifstream In(Dir + "/" + N);
    std::stringstream S;
    S << In.rdbuf();
    Texts.push_back(S.str());
  }
  closedir(D);
  return Texts;
}

TEST(OpcodeTable, EveryDecodedOpcodeHasARow) {
  std::vector<bool> Decoded(OpUnsupported, false);
  size_t Modules = 0;
  const std::vector<std::string> Texts = corpus();
  for (const std::string &Text : Texts) {
    std::string Error;
    auto PM = parsePtx(Text, "corpus", Error);
    if (&Text == &Texts[0]) {
      ASSERT_TRUE(PM) << "Supplement: " << Error;
    }
    if (!PM) // a file meant to fail (a deadlock, bad input) may not parse
      continue;
    ++Modules;
    for (const auto &F : PM->Functions)
      for (size_t K = 0; K < F->Code.size(); ++K) {
        const Inst &I = F->Code[K];
        if (I.Op >= OpUnsupported)
          continue;
        Decoded[I.Op] = true;
        const std::string &Opc = F->Opcodes[K];
        PtxOpcode Row = lookupPtxOpcode(ptxBaseName(Opc));
        ASSERT_NE(Row, PtxOpcode::Unknown)
            << "'" << Opc << "' decodes but has no row in PtxOpcodes.def";
        // The decoder runs nothing for exactly the forms the timing model
        // charges nothing for (ptxUnitOf's Free: the free rows and forms).
        EXPECT_EQ(I.Op == OpNop || I.Op == OpWarpSync,
                  ptxUnitOf(Opc) == PtxUnit::Free)
            << "'" << Opc << "': the decoder and the free forms disagree";
        // The timing model sees cp.async's groups exactly where the table
        // says they are.
        EXPECT_EQ(I.Op == OpCpAsyncGroup, ptxUnitOf(Opc) == PtxUnit::AsyncGroup)
            << "'" << Opc << "': the decoder and the forms disagree";
        // wmma's multiply decodes to OpMma; otherwise the unit names memory
        // exactly when the operation accesses it.
        if (I.Op == OpNop || I.Op == OpMma)
          continue;
        EXPECT_EQ(memoryUnit(ptxUnitOf(Opc)), memoryOp(I.Op))
            << "'" << Opc << "': its row's unit and the decoded operation "
            << "disagree on memory";
      }
  }
  EXPECT_GT(Modules, 10u);
  for (uint16_t Op = 0; Op < OpUnsupported; ++Op)
    EXPECT_TRUE(Decoded[Op]) << "operation " << Op
                             << " is decoded from no test line; add one to "
                                "Supplement";
}

} // namespace
