//===- ControlTest.cpp - Divergent paths and indirect branches ------------===//
//
// What interp's bytecode loop showed the model left out (issue 34,
// docs/timing-model.md "Divergence, calls and indirect branches"): a warp
// that resumes another of its divergent paths pays a switch beyond the
// branch, and an indexed branch (brx.idx: IMAD.SHL, LDC, SHF, BRX in sm_90
// SASS) waits for its jump-table entry, loaded from the constant bank once
// the index is ready.
//
//===----------------------------------------------------------------------===//
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace control_test {
namespace {

enum : uint32_t {
  Indep, // an integer op reading and writing nothing the others use
  Index, // r20 = ...: a branch's index
  Brx,   // brx.idx r20: through a jump table
  NumInsts
};

std::vector<StaticInst> table(bool JumpTable) {
  std::vector<StaticInst> T(NumInsts);
  T[Index].NDst = 1, T[Index].Dst[0] = 20;
  T[Brx].K = Kind::Branch, T[Brx].P = Pipe::Branch;
  T[Brx].NSrc = 1, T[Brx].Src[0] = 20;
  T[Brx].JumpTable = JumpTable;
  return T;
}

Config config(double SwitchCycles = 0) {
  Config C; // H100-like defaults
  C.Name = "test";
  C.Sms = 1;
  C.DivergenceSwitchCycles = SwitchCycles;
  return C;
}

uint64_t model(const Config &C, const std::vector<StaticInst> &T, WarpTrace W) {
  LaunchShape S;
  S.Ctas = 1;
  LaunchModel M(C, T, 32, S, 0);
  CtaTrace Cta;
  Cta.Warps.push_back(std::move(W));
  M.submit(std::move(Cta));
  return M.finish().Cycles;
}

WarpTrace ops(std::vector<uint32_t> Ids, std::vector<uint32_t> Resumes = {}) {
  WarpTrace W;
  for (uint32_t Id : Ids)
    W.Ops.push_back({Id, NoMem});
  W.Resumes = std::move(Resumes);
  return W;
}

} // namespace

TEST(TimingControl, AWarpResumingAnotherPathWaitsTheSwitch) {
  const auto T = table(false);
  const std::vector<uint32_t> Ids(8, Indep);
  // Without a switch the ops issue back to back; each resumed path waits
  // the switch's cycles after the op before it.
  const uint64_t Straight = model(config(40), T, ops(Ids));
  EXPECT_EQ(model(config(40), T, ops(Ids, {3})), Straight + 40);
  EXPECT_EQ(model(config(40), T, ops(Ids, {3, 6})), Straight + 80);
  // A figure of 0 (a configuration without it) charges nothing.
  EXPECT_EQ(model(config(0), T, ops(Ids, {3, 6})), Straight);
}

TEST(TimingControl, AJumpTableBranchWaitsForItsEntry) {
  const Config C = config();
  // The index is ready an integer latency after its op; a plain branch
  // issues then, a jump table's an integer op and a constant load later.
  const uint64_t Plain = model(C, table(false), ops({Index, Brx, Indep}));
  const uint64_t Table = model(C, table(true), ops({Index, Brx, Indep}));
  EXPECT_EQ(Table, Plain + (uint64_t)C.Pipes[(int)Pipe::Int].Latency +
                       (uint64_t)C.constLatency());
  // An index ready long before: the entry was loaded meanwhile.
  std::vector<uint32_t> Early{Index};
  Early.insert(Early.end(), 60, Indep);
  Early.push_back(Brx);
  EXPECT_EQ(model(C, table(true), ops(Early)),
            model(C, table(false), ops(Early)));
}

} // namespace control_test
