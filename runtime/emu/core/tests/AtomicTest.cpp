// atom/red.add.f32 and subnormals, per the PTX ISA ("atom", "red"): without
// .noftz it flushes subnormal inputs and results to sign-preserving zero on
// global memory and keeps them on shared memory; .noftz (PTX ISA 9.4) keeps
// them everywhere. A generic address counts as the space it points to. (The
// clang-emitted forms are in test/conformance/atomics; .noftz.f32 and the
// vector form are not emitted by clang 22, so they are checked here.)
#include "TestUtil.h"

#include <cstring>

using namespace emutest;

namespace {

const char *AtomicPtx = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sh[2];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  // 1.5 * 2^-126 + -2^-126 = 2^-127, a subnormal.
  atom.global.add.f32 %f1, [%rd2], 0f80800000;
  atom.global.add.noftz.f32 %f2, [%rd2+4], 0f80800000;
  red.global.add.v2.f32 [%rd2+8], {0f80800000, 0f80800000};
  atom.add.f32 %f3, [%rd1+16], 0f80800000;
  // A subnormal input on global memory: 0 + 2^-149 flushes to +0.
  red.global.add.f32 [%rd2+20], 0f00000001;
  mov.b32 %r1, 0x00c00000;
  st.shared.b32 [sh], %r1;
  st.shared.b32 [sh+4], %r1;
  atom.shared.add.f32 %f4, [sh], 0f80800000;
  mov.u64 %rd3, sh;
  cvta.shared.u64 %rd3, %rd3;
  atom.add.f32 %f5, [%rd3+4], 0f80800000;
  ld.shared.b32 %r2, [sh];
  st.global.b32 [%rd2+24], %r2;
  ld.shared.b32 %r3, [sh+4];
  st.global.b32 [%rd2+28], %r3;
  mov.b32 %r1, %f1;
  st.global.b32 [%rd2+32], %r1;
  ret;
}
)";

TEST(Atomics, AddF32FlushesSubnormalsOnGlobalMemoryOnly) {
  std::string Err;
  auto M = loadText(AtomicPtx, &Err);
  ASSERT_TRUE(M) << Err;
  std::vector<uint32_t> Out(9, 0x00c00000u);
  Out[5] = 0;
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {1, 1, 1}, Args().add(Out.data())));
  EXPECT_EQ(Out[0], 0u) << "atom.global.add.f32 flushes the result";
  EXPECT_EQ(Out[1], 0x00400000u) << ".noftz keeps it";
  EXPECT_EQ(Out[2], 0u) << "vector red.global.add flushes";
  EXPECT_EQ(Out[3], 0u);
  EXPECT_EQ(Out[4], 0u) << "generic address of global memory flushes";
  EXPECT_EQ(Out[5], 0u) << "a subnormal input flushes";
  EXPECT_EQ(Out[6], 0x00400000u) << "atom.shared.add.f32 keeps subnormals";
  EXPECT_EQ(Out[7], 0x00400000u) << "so does a generic address of shared";
  EXPECT_EQ(Out[8], 0x00c00000u) << "the old value is returned unflushed";
}

} // namespace

// Which shared atomics the timing model charges as sm_90's compare-and-swap
// loop (ModelCode.cpp, sharedAtomicLoops): 32 lanes on one word, ten
// times. A loop lets one lane of a word store a round (32 rounds of about
// 75 cycles); one ATOMS takes 32 passes of the pipe.

namespace {

uint64_t modeledSharedAtomic(const std::string &Op, const std::string &Val) {
  const std::string Text = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry k() {
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<2>;
  .reg .f64 %fd<2>;
  .reg .pred %p<2>;
  .shared .align 8 .b8 sh[4096];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 0;
  mov.u64 %rd2, sh;
  add.u64 %rd2, %rd2, %rd1;
  mov.u32 %r2, 0;
L:
  atom.shared.)" + Op + ", [%rd2], " +
                           Val + R"(;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 10;
  @%p1 bra L;
  ret;
}
)";
  return modeledCycles(Text, Op);
}

TEST(Atomics, SharedAtomicsWithoutAnAtomsAreCompareAndSwapLoops) {
  const uint64_t Native = modeledSharedAtomic("add.u32 %r3", "2");
  ASSERT_GT(Native, 0u);
  // 31 rounds more than one ATOMS's, each at least 70 cycles, ten times.
  const uint64_t Loop = Native + 10 * 31 * 70;
  const std::pair<const char *, const char *> Loops[] = {
      {"add.f32 %f1", "0f3F800000"},
      {"add.f64 %fd1", "0d3FF0000000000000"},
      {"add.u64 %rd3", "1"},
      {"min.s64 %rd3", "1"},
      {"and.b64 %rd3", "1"}};
  for (auto [Op, Val] : Loops)
    EXPECT_GT(modeledSharedAtomic(Op, Val), Loop) << Op;
  const std::pair<const char *, const char *> Natives[] = {
      {"min.u32 %r3", "1"},
      {"xor.b32 %r3", "1"},
      {"exch.b64 %rd3", "1"},
      {"cas.b32 %r3", "%r1, 1"}};
  for (auto [Op, Val] : Natives)
    EXPECT_LT(modeledSharedAtomic(Op, Val), Native + 1000) << Op;
}

} // namespace
