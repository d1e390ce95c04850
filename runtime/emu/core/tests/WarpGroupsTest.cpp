// vote, match and redux span each lane's membermask (WarpOps.cpp): the two
// halves of a cooperative_groups::tiled_partition<16> execute one
// instruction with masks 0x0000ffff and 0xffff0000 and get two results,
// not one over the warp (which gave twice the tile sums before).
#include "TestUtil.h"

using namespace emutest;

namespace {

// PTX by hand (ptxas -arch=sm_90 accepts it). Lane l's mask is its half of
// the warp; out[k * 32 + l] holds the k-th collective's result.
const char *GroupsPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry halves(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .pred %p<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  selp.b32 %r2, 65535, -65536, %p1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  redux.sync.add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd3], %r3;
  and.b32 %r4, %r1, 1;
  setp.eq.u32 %p2, %r4, 1;
  vote.sync.ballot.b32 %r5, %p2, %r2;
  st.global.u32 [%rd3+128], %r5;
  vote.sync.all.pred %p3, %p1, %r2;
  selp.u32 %r6, 1, 0, %p3;
  st.global.u32 [%rd3+256], %r6;
  and.b32 %r7, %r1, 3;
  match.any.sync.b32 %r8, %r7, %r2;
  st.global.u32 [%rd3+384], %r8;
  shr.u32 %r9, %r1, 4;
  match.all.sync.b32 %r10|%p4, %r9, %r2;
  st.global.u32 [%rd3+512], %r10;
  redux.sync.max.u32 %r11, %r1, -1;
  st.global.u32 [%rd3+640], %r11;
  ret;
}
)";

TEST(WarpGroups, CollectivesSpanEachLanesMembermask) {
  std::string Err;
  auto M = loadText(GroupsPtx, &Err);
  ASSERT_TRUE(M) << Err;
  std::vector<uint32_t> Out(6 * 32, 0);
  ASSERT_TRUE(
      launch(*M, "halves", {1, 1, 1}, {32, 1, 1}, Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t L = 0; L < 32; ++L) {
    const bool Low = L < 16;
    const uint32_t Half = Low ? 0x0000ffffu : 0xffff0000u;
    EXPECT_EQ(Out[L], Low ? 120u : 376u) << "redux.add, lane " << L;
    EXPECT_EQ(Out[32 + L], 0xaaaaaaaau & Half) << "ballot, lane " << L;
    EXPECT_EQ(Out[64 + L], Low ? 1u : 0u) << "vote.all, lane " << L;
    EXPECT_EQ(Out[96 + L], (0x11111111u << (L & 3)) & Half)
        << "match.any, lane " << L;
    EXPECT_EQ(Out[128 + L], Half) << "match.all, lane " << L;
    EXPECT_EQ(Out[160 + L], 31u) << "redux.max over the warp, lane " << L;
  }
}

} // namespace
