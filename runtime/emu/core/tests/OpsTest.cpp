//===- OpsTest.cpp - instruction bodies on a bare register file -----------===//
//
// The free instruction bodies (FloatOps.h, WarpOps.h) called on a register
// array, with no module, launch or Launcher: they compute on the lanes of
// the execution mask only, and a form one does not implement is reported
// by its result (the lane the launch fails at) with nothing written.
//
//===----------------------------------------------------------------------===//
#include "../FloatOps.h"
#include "../WarpOps.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace warpscope::emu::core;

namespace {

// Slots FirstRegSlot + 0..3, every lane holding Fill.
constexpr uint32_t S0 = FirstRegSlot, S1 = S0 + 1, S2 = S0 + 2, S3 = S0 + 3;
struct Regs {
  std::vector<uint64_t> V = std::vector<uint64_t>((S3 + 1) * 32, Fill);
  static constexpr uint64_t Fill = 0xdeadbeefcafef00dull;
  uint64_t *data() { return V.data(); }
  uint64_t &at(uint32_t Slot, int Lane) { return V[(size_t)Slot * 32 + Lane]; }
};

uint64_t f32(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

} // namespace

// vote.ballot.sync with a negated predicate: the lanes of EM whose
// predicate is false, given to every lane of EM; other lanes keep theirs.
TEST(Ops, VoteBallotCountsOnlyExecutingLanes) {
  Regs R;
  for (int L = 0; L < 32; ++L)
    R.at(S0, L) = L % 3 == 0;
  Inst I;
  I.Op = OpVote;
  I.Sub = VoBallot;
  I.Flags = FNegC;
  I.S[0] = S0;
  I.D[0] = S1;
  I.S[1] = S2; // the membermask: the whole warp
  for (int L = 0; L < 32; ++L)
    R.at(S2, L) = 0xffffffffu;
  const uint32_t EM = 0x00ff00f0u;
  ASSERT_TRUE(warpOps(I, R.data(), EM, 0xffffffffu));
  uint32_t Want = 0;
  for (int L = 0; L < 32; ++L)
    if ((EM >> L) & 1 && L % 3 != 0)
      Want |= 1u << L;
  for (int L = 0; L < 32; ++L)
    EXPECT_EQ(R.at(S1, L), (EM >> L) & 1 ? Want : Regs::Fill) << "lane " << L;
}

// activemask gives the path's lanes, not the guard's; an instruction that
// is no warp collective is refused untouched.
TEST(Ops, ActivemaskAndNonCollective) {
  Regs R;
  Inst I;
  I.Op = OpActivemask;
  I.D[0] = S1;
  ASSERT_TRUE(warpOps(I, R.data(), 0x3u, 0xf0f3u));
  EXPECT_EQ(R.at(S1, 0), 0xf0f3u);
  EXPECT_EQ(R.at(S1, 1), 0xf0f3u);
  EXPECT_EQ(R.at(S1, 2), Regs::Fill);
  I.Op = OpAdd;
  EXPECT_FALSE(warpOps(I, R.data(), 0x3u, 0xf0f3u));
  EXPECT_EQ(R.at(S1, 2), Regs::Fill);
}

// cvt to a packed type is not implemented: the first executing lane is the
// one reported (the launch names it), and nothing is written.
TEST(Ops, CvtUnsupportedTypesFailAtFirstExecutingLane) {
  Regs R;
  Inst I;
  I.Op = OpCvt;
  I.T = Ty::F16x2;
  I.T2 = Ty::F32;
  I.S[0] = S0;
  I.D[0] = S1;
  EXPECT_EQ(cvtOps(I, R.data(), 0xf0u), 4);
  EXPECT_EQ(std::string(cvtUnsupported(I)), "unsupported cvt destination");
  I.T = Ty::F32;
  I.T2 = Ty::BF16x2;
  EXPECT_EQ(cvtOps(I, R.data(), 0x100u), 8);
  EXPECT_EQ(std::string(cvtUnsupported(I)), "unsupported cvt source type");
  for (int L = 0; L < 32; ++L)
    EXPECT_EQ(R.at(S1, L), Regs::Fill) << "lane " << L;
  // A supported one: s32 -> f32 on lanes 4..7 only.
  I.T2 = Ty::S32;
  EXPECT_EQ(cvtUnsupported(I), nullptr);
  for (int L = 0; L < 32; ++L)
    R.at(S0, L) = (uint32_t)(L - 5);
  EXPECT_EQ(cvtOps(I, R.data(), 0xf0u), -1);
  for (int L = 0; L < 32; ++L)
    EXPECT_EQ(R.at(S1, L), L >= 4 && L < 8 ? f32((float)(L - 5)) : Regs::Fill)
        << "lane " << L;
}

// An f32 operation floatOps does not implement (popc has no float form)
// fails at the first executing lane; a plain add computes EM's lanes only.
TEST(Ops, FloatOpsReportsFirstLaneAndWritesOnlyEM) {
  Regs R;
  for (int L = 0; L < 32; ++L) {
    R.at(S0, L) = f32(1.5f * L);
    R.at(S1, L) = f32(0.25f);
  }
  Inst I;
  I.T = Ty::F32;
  I.S[0] = S0;
  I.S[1] = S1;
  I.D[0] = S2;
  I.Op = OpPopc;
  EXPECT_EQ(floatOps(I, R.data(), 0x600u), 9);
  I.Op = OpAdd;
  EXPECT_EQ(floatOps(I, R.data(), 0x600u), -1);
  for (int L = 0; L < 32; ++L)
    EXPECT_EQ(R.at(S2, L),
              L == 9 || L == 10 ? f32(1.5f * L + 0.25f) : Regs::Fill)
        << "lane " << L;
}
