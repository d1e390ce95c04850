// The shared memory a launch touched (ground truth's launches[].
// shared_touched, warpscope::SharedTouched): one thread of each block
// touches shared memory at a byte offset the test chooses, through every
// kind of access that reaches it, and the launch records the end of the
// highest byte touched, split into the static variables and the dynamic
// array. Also: clearing shared memory between blocks only up to that mark
// still gives each block zeroed memory.
#include "TestUtil.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace emutest;
using Json = nlohmann::json;

namespace {

// 1000 bytes of static variables, the dynamic array at 1008 (16-aligned).
// Each kernel: thread 0 of block b touches byte offset off + b * step of
// the window, one way each.
const char *SharedTouchedPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 st[1000];
.extern .shared .align 16 .b8 dyn[];

.visible .entry store(.param .u32 off, .param .u32 step) {
  .reg .b32 %r<8>;
  .reg .pred %p;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p, %r1, 0;
  @%p ret;
  ld.param.u32 %r2, [off];
  ld.param.u32 %r3, [step];
  mov.u32 %r4, %ctaid.x;
  mad.lo.u32 %r5, %r4, %r3, %r2;
  mov.u32 %r6, st;
  add.u32 %r5, %r5, %r6;
  st.shared.u32 [%r5], 7;
  ret;
}

.visible .entry load(.param .u32 off, .param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u32 %r2, [off];
  ld.param.u64 %rd1, [out];
  mov.u32 %r6, st;
  add.u32 %r5, %r2, %r6;
  ld.shared.u32 %r7, [%r5];
  st.global.u32 [%rd1], %r7;
  ret;
}

.visible .entry generic(.param .u32 off) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u32 %r1, [off];
  mov.u64 %rd1, st;
  cvta.shared.u64 %rd2, %rd1;
  cvt.u64.u32 %rd3, %r1;
  add.s64 %rd4, %rd2, %rd3;
  st.u32 [%rd4], 5;
  ret;
}

.visible .entry dynamic(.param .u32 off) {
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [off];
  mov.u32 %r2, dyn;
  add.u32 %r3, %r1, %r2;
  st.shared.u8 [%r3], 1;
  ret;
}

// The same with a static variable in the window too (its first word).
.visible .entry both(.param .u32 off) {
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [off];
  mov.u32 %r2, dyn;
  add.u32 %r3, %r1, %r2;
  st.shared.u8 [%r3], 1;
  st.shared.u32 [st], 2;
  ret;
}

.visible .entry atomic(.param .u32 off) {
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [off];
  mov.u32 %r2, st;
  add.u32 %r3, %r1, %r2;
  atom.shared.add.u32 %r2, [%r3], 1;
  ret;
}

.visible .entry async(.param .u32 off, .param .u64 src) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u32 %r1, [off];
  ld.param.u64 %rd1, [src];
  mov.u32 %r2, st;
  add.u32 %r3, %r1, %r2;
  cp.async.cg.shared.global [%r3], [%rd1], 16;
  cp.async.wait_all;
  ret;
}

// Block 0 stores 7 at off; every later block reads off into out[b].
.visible .entry leftover(.param .u32 off, .param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p;
  ld.param.u32 %r1, [off];
  ld.param.u64 %rd1, [out];
  mov.u32 %r2, st;
  add.u32 %r3, %r1, %r2;
  mov.u32 %r4, %ctaid.x;
  setp.eq.u32 %p, %r4, 0;
  @%p st.shared.u32 [%r3], 7;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

/// The last launch's shared_touched: {static, dynamic}.
std::pair<uint64_t, uint64_t> touched(const Module &M) {
  Json T = Json::parse(M.groundTruthJson());
  const Json &L = T["launches"].back();
  EXPECT_TRUE(L.contains("shared_touched")) << L.dump();
  return {L["shared_touched"]["static"].get<uint64_t>(),
          L["shared_touched"]["dynamic"].get<uint64_t>()};
}

using StaticDynamic = std::pair<uint64_t, uint64_t>;

class SharedTouched : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Err;
    M = loadText(SharedTouchedPtx, &Err);
    ASSERT_TRUE(M) << Err;
  }
  std::string kernel(const std::string &Plain) {
    for (auto &K : M->kernels())
      if (K.Name == Plain)
        return K.Name;
    ADD_FAILURE() << "no kernel " << Plain;
    return "";
  }
  std::unique_ptr<Module> M;
};

TEST_F(SharedTouched, StoresAndLoadsUpToTheHighestByte) {
  uint32_t Off = 400, Step = 0;
  ASSERT_TRUE(launch(*M, kernel("store"), {1, 1, 1}, {64, 1, 1},
                     Args().add(Off).add(Step)));
  EXPECT_EQ(touched(*M), StaticDynamic(404, 0));
  // Reads count: a load alone at 996 touches up to 1000.
  uint32_t Out = 1;
  Off = 996;
  ASSERT_TRUE(launch(*M, kernel("load"), {1, 1, 1}, {32, 1, 1},
                     Args().add(Off).add(&Out)));
  EXPECT_EQ(touched(*M), StaticDynamic(1000, 0));
  EXPECT_EQ(Out, 0u);
}

TEST_F(SharedTouched, TheMostOverTheBlocks) {
  // Block b stores at 8 + 100 b: the last of 6 blocks at 508, on whichever
  // worker runs it.
  uint32_t Off = 8, Step = 100;
  for (const char *Threads : {"1", "2"}) {
    setenv("WARPSCOPE_EMU_THREADS", Threads, 1);
    ASSERT_TRUE(launch(*M, kernel("store"), {6, 1, 1}, {32, 1, 1},
                       Args().add(Off).add(Step)));
    unsetenv("WARPSCOPE_EMU_THREADS");
    EXPECT_EQ(touched(*M), StaticDynamic(512, 0)) << Threads << " threads";
  }
}

TEST_F(SharedTouched, GenericAddressesCheckedAndNot) {
  uint32_t Off = 640;
  for (bool Checked : {true, false}) {
    ASSERT_TRUE(launch(*M, kernel("generic"), {2, 1, 1}, {32, 1, 1},
                       Args().add(Off), nullptr, 0, Checked));
    EXPECT_EQ(touched(*M), StaticDynamic(644, 0)) << "checked " << Checked;
  }
}

TEST_F(SharedTouched, DynamicArrayCountsTheStaticWhole) {
  // A kernel without static variables: its window is the dynamic array,
  // byte 99 the highest touched.
  uint32_t Off = 99;
  ASSERT_TRUE(launch(*M, kernel("dynamic"), {1, 1, 1}, {32, 1, 1},
                     Args().add(Off), nullptr, /*Dyn=*/4096));
  EXPECT_EQ(touched(*M), StaticDynamic(0, 100));
  // With st's 1000 bytes before it, the array is at 1008 (16-aligned): only
  // st's first word is touched, but st counts whole (one mark per launch).
  ASSERT_TRUE(launch(*M, kernel("both"), {1, 1, 1}, {32, 1, 1}, Args().add(Off),
                     nullptr, /*Dyn=*/4096));
  EXPECT_EQ(touched(*M), StaticDynamic(1000, 100));
  // Nothing of the array touched: the static part up to the highest byte.
  Off = 100;
  ASSERT_TRUE(launch(*M, kernel("generic"), {1, 1, 1}, {32, 1, 1},
                     Args().add(Off), nullptr, /*Dyn=*/4096));
  EXPECT_EQ(touched(*M), StaticDynamic(104, 0));
}

TEST_F(SharedTouched, AtomicsAndCpAsync) {
  uint32_t Off = 200;
  ASSERT_TRUE(
      launch(*M, kernel("atomic"), {1, 1, 1}, {32, 1, 1}, Args().add(Off)));
  EXPECT_EQ(touched(*M), StaticDynamic(204, 0));
  alignas(16) uint32_t Src[4] = {1, 2, 3, 4};
  Off = 304;
  ASSERT_TRUE(launch(*M, kernel("async"), {1, 1, 1}, {1, 1, 1},
                     Args().add(Off).add(&Src[0])));
  EXPECT_EQ(touched(*M), StaticDynamic(320, 0));
}

TEST_F(SharedTouched, LaterBlocksStillSeeZeroedMemory) {
  // One worker runs the blocks one after another in one buffer: block 0's
  // 7 at 900 must be gone for blocks 1 and 2 (the clear between blocks
  // reaches the touched mark).
  uint32_t Off = 900, Out[3] = {9, 9, 9};
  setenv("WARPSCOPE_EMU_THREADS", "1", 1);
  ASSERT_TRUE(launch(*M, kernel("leftover"), {3, 1, 1}, {1, 1, 1},
                     Args().add(Off).add(&Out[0])));
  unsetenv("WARPSCOPE_EMU_THREADS");
  EXPECT_EQ(Out[0], 7u);
  EXPECT_EQ(Out[1], 0u);
  EXPECT_EQ(Out[2], 0u);
  EXPECT_EQ(touched(*M), StaticDynamic(904, 0));
}

TEST_F(SharedTouched, OutOfRangeStillFails) {
  // The fast path's bound is the mark, the slow path's the window: an
  // access past the window fails as before.
  uint32_t Off = 1000, Step = 0;
  std::string Err;
  EXPECT_FALSE(launch(*M, kernel("store"), {1, 1, 1}, {32, 1, 1},
                      Args().add(Off).add(Step), &Err));
  EXPECT_NE(Err.find("shared memory access out of range"), std::string::npos)
      << Err;
}

} // namespace

namespace {

/// The modeled cycles of `store` (1000 static bytes and 100 KB of dynamic
/// shared memory per block: 2 blocks/SM) over 1056 blocks of 256 threads,
/// with the timing model placing blocks by ModelShared bytes (-1: the
/// kernel's own; WhatIf.h's shared=).
uint64_t modeledStore(int64_t ModelShared) {
  std::string Err;
  std::unique_ptr<Module> M = loadText(SharedTouchedPtx, &Err);
  EXPECT_TRUE(M) << Err;
  if (!M)
    return 0;
  uint32_t Off = 0, Step = 0;
  void *Ptrs[] = {&Off, &Step};
  LaunchParams P;
  P.Grid = {1056, 1, 1};
  P.Block = {256, 1, 1};
  P.DynamicSharedBytes = 100 * 1024;
  P.Args = Ptrs;
  P.ModelSharedBytes = ModelShared;
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  const bool Ok = M->launch("store", P, Err);
  unsetenv("WARPSCOPE_EMU_MODEL");
  EXPECT_TRUE(Ok) << Err;
  Json T = Json::parse(M->groundTruthJson());
  return T["launches"][0]["modeled"]["cycles"].get<uint64_t>();
}

TEST(WhatIfShared, PlacesBlocksByTheGivenBytes) {
  // The what-if's bytes, not the kernel's, decide how many blocks the
  // model puts on an SM: 8 blocks/SM (by threads) with 1 KB each run the
  // 8 blocks per SM in one round instead of four; the kernel's own bytes
  // given as the what-if change nothing.
  const uint64_t Own = modeledStore(-1);
  const uint64_t Same = modeledStore(1000 + 100 * 1024);
  const uint64_t Small = modeledStore(1024);
  ASSERT_GT(Own, 0u);
  EXPECT_EQ(Same, Own);
  EXPECT_LT(Small, Own);
}

} // namespace
