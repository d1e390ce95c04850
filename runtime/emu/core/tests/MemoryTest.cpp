// Memory-efficiency ground truth (docs/emulator.md, "Memory efficiency"):
// hand-written PTX whose sector, wavefront and atomic-address counts follow
// from the addresses alone. Every expected number is worked out in the
// comment next to it; buffers are 256-byte aligned so sectors start at 0.
#include "TestUtil.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace emutest;
using Json = nlohmann::json;

namespace {

const char *MemoryPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.shared .align 16 .b8 tile[4224];

// p[tid * stride + start], lanes with (tid & msk) != 0 masked by the guard.
.visible .entry gld(.param .u64 p, .param .u32 stride, .param .u32 start,
                    .param .u32 msk) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<2>;
  .reg .pred %q;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [stride];
  ld.param.u32 %r2, [start];
  ld.param.u32 %r3, [msk];
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r4, %r1, %r2;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  and.b32 %r6, %r4, %r3;
  setp.eq.u32 %q, %r6, 0;
  @%q ld.global.f32 %f1, [%rd3];
  ret;
}

// 64- and 128-bit global loads at p + tid * 8 and p + tid * 16; all lanes
// reading p[0].
.visible .entry gvec(.param .u64 p) {
  .reg .b32 %r<2>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.v2.f32 {%f1, %f2}, [%rd3];
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.v4.f32 {%f3, %f4, %f5, %f6}, [%rd5];
  ld.global.f32 %f7, [%rd1];
  ret;
}

// tile[ty][tx] = ..., then read tile[tx][ty]; w is the row pitch in floats.
.visible .entry transpose(.param .u64 out, .param .u32 w) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [w];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %tid.y;
  mad.lo.u32 %r4, %r3, %r1, %r2;
  shl.b32 %r4, %r4, 2;
  mov.u32 %r5, tile;
  add.u32 %r4, %r4, %r5;
  cvt.rn.f32.u32 %f1, %r2;
  st.shared.f32 [%r4], %f1;
  bar.sync 0;
  mad.lo.u32 %r6, %r2, %r1, %r3;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r6, %r5;
  ld.shared.f32 %f1, [%r6];
  shl.b32 %r7, %r3, 5;
  add.u32 %r7, %r7, %r2;
  mul.wide.u32 %rd2, %r7, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}

// Shared: broadcast, 64-bit, 128-bit, 64-bit with a 16-byte stride, and a
// generic load resolving to shared.
.visible .entry svec() {
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  ld.shared.f32 %f1, [%r2];
  shl.b32 %r3, %r1, 3;
  add.u32 %r3, %r3, %r2;
  ld.shared.v2.f32 {%f1, %f2}, [%r3];
  shl.b32 %r4, %r1, 4;
  add.u32 %r4, %r4, %r2;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r4];
  ld.shared.v2.f32 {%f1, %f2}, [%r4];
  mov.u64 %rd1, tile;
  cvta.shared.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.f32 %f5, [%rd3];
  ret;
}

// Wide shared accesses whose lanes pair up: every lane on tile[0] (f64,
// v4, and a v4 store), and lanes 2k, 2k+1 on float4 k.
.visible .entry spair() {
  .reg .b32 %r<4>;
  .reg .f32 %f<5>;
  .reg .f64 %fd<2>;
  mov.u32 %r2, tile;
  ld.shared.f64 %fd1, [%r2];
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r2];
  st.shared.v4.f32 [%r2], {%f1, %f2, %f3, %f4};
  mov.u32 %r1, %tid.x;
  shr.u32 %r1, %r1, 1;
  shl.b32 %r1, %r1, 4;
  add.u32 %r3, %r1, %r2;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r3];
  ret;
}

// Atomics: every lane on p[0], every lane on its own p[tid], shared tile[0].
.visible .entry atom1(.param .u64 p) {
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  atom.global.add.u32 %r1, [%rd1], 1;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u32 [%rd3], 1;
  red.shared.add.u32 [tile], 1;
  ret;
}

// Lane t reads p[(t * mul) % mod] and tile[(t * mul) % mod]: addresses in
// any order, repeated or not.
.visible .entry perm(.param .u64 p, .param .u32 mul, .param .u32 mod) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [mul];
  ld.param.u32 %r2, [mod];
  mov.u32 %r3, %tid.x;
  mul.lo.u32 %r4, %r3, %r1;
  rem.u32 %r4, %r4, %r2;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  shl.b32 %r5, %r4, 2;
  mov.u32 %r6, tile;
  add.u32 %r5, %r5, %r6;
  ld.shared.f32 %f2, [%r5];
  ret;
}

// Every thread reads 4 bytes at p + off (off need not be aligned: the
// emulator does not fault on it, and the bytes may span two sectors).
.visible .entry gbyte(.param .u64 p, .param .u32 off) {
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [off];
  cvt.u64.u32 %rd2, %r1;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  ret;
}

// Local: every lane at offset 0 (32-bit), at offset 8 (64-bit), and a
// generic load resolving to local.
.visible .entry loc() {
  .local .align 8 .b8 __local_depot0[16];
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u64 %rd1, __local_depot0;
  st.local.u32 [%rd1], %r1;
  st.local.v2.u32 [%rd1+8], {%r1, %r1};
  cvta.local.u64 %rd2, %rd1;
  ld.u32 %r2, [%rd2];
  ret;
}
)";

struct MemoryEfficiency : ::testing::Test {
  void SetUp() override {
    setenv("WARPSCOPE_EMU_MEMORY", "1", 1); // off by default
    std::string Err;
    M = loadText(MemoryPtx, &Err);
    ASSERT_TRUE(M) << Err;
    Buf = (float *)std::aligned_alloc(256, 64 * 1024);
    std::fill(Buf, Buf + 16 * 1024, 0.0f);
  }
  void TearDown() override {
    std::free(Buf);
    unsetenv("WARPSCOPE_EMU_MEMORY");
  }
  // The N-th instruction of Kernel whose opcode is Opcode.
  Json inst(const std::string &Kernel, const std::string &Opcode, int N = 0) {
    Json J = Json::parse(M->groundTruthJson());
    for (auto &F : J["functions"])
      if (F["name"] == Kernel)
        for (auto &I : F["instructions"])
          if (I["opcode"] == Opcode && N-- == 0)
            return I;
    ADD_FAILURE() << "no " << Opcode << " in " << Kernel;
    return Json::object();
  }
  void gld(uint32_t Block, uint32_t Stride, uint32_t Start, uint32_t Msk) {
    ASSERT_TRUE(launch(*M, "gld", {1, 1, 1}, {Block, 1, 1},
                       Args().add(Buf).add(Stride).add(Start).add(Msk)));
  }
  std::unique_ptr<Module> M;
  float *Buf = nullptr;
};

// Sectors and requests of the gld load after one launch.
void expectGlobal(const Json &I, uint64_t Requests, uint64_t Sectors,
                  uint64_t Ideal) {
  EXPECT_EQ(I.value("global_requests", ~0ull), Requests) << I;
  EXPECT_EQ(I.value("global_sectors", ~0ull), Sectors) << I;
  EXPECT_EQ(I.value("global_ideal_sectors", ~0ull), Ideal) << I;
}
void expectShared(const Json &I, uint64_t Requests, uint64_t Wavefronts,
                  uint64_t Ideal) {
  EXPECT_EQ(I.value("shared_requests", ~0ull), Requests) << I;
  EXPECT_EQ(I.value("shared_wavefronts", ~0ull), Wavefronts) << I;
  EXPECT_EQ(I.value("shared_ideal_wavefronts", ~0ull), Ideal) << I;
}

// 32 lanes x 4 bytes contiguous: bytes 0..127, 4 sectors, ideal 4.
TEST_F(MemoryEfficiency, Stride1IsFourSectors) {
  gld(32, 1, 0, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 1, 4, 4);
}

// Stride 2: bytes 0..251 in 4-byte pieces, 8 sectors; the 128 bytes need 4.
TEST_F(MemoryEfficiency, Stride2IsEightSectors) {
  gld(32, 2, 0, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 1, 8, 4);
}

// Stride 32 floats = 128 bytes: a sector per lane.
TEST_F(MemoryEfficiency, Stride32IsASectorPerLane) {
  gld(32, 32, 0, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 1, 32, 4);
}

// Starting at the second float: bytes 4..131 span sectors 0..4.
TEST_F(MemoryEfficiency, MisalignedStartTouchesFiveSectors) {
  gld(32, 1, 1, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 1, 5, 4);
}

// A 20-thread block: 80 bytes, sectors 0..2 (ideal 3); two full warps: two
// requests of 4 sectors each.
TEST_F(MemoryEfficiency, PartialWarpAndTwoWarps) {
  gld(20, 1, 0, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 1, 3, 3);
  gld(64, 1, 0, 0);
  expectGlobal(inst("gld", "ld.global.f32"), 3, 3 + 8, 3 + 8);
}

// Even lanes only (guard): 16 floats at bytes 0, 8, .., 120 still touch 4
// sectors; their 64 bytes need 2. Masked lanes do not count.
TEST_F(MemoryEfficiency, MaskedLanesDoNotCount) {
  gld(32, 1, 0, 1);
  Json I = inst("gld", "ld.global.f32");
  EXPECT_EQ(I["thread_executions"], 16u);
  expectGlobal(I, 1, 4, 2);
}

// 64-bit: 256 bytes, 8 sectors; 128-bit: 512 bytes, 16 sectors; every lane
// on one float: 1 sector (4 bytes need 1).
TEST_F(MemoryEfficiency, VectorLoadsAndBroadcast) {
  ASSERT_TRUE(launch(*M, "gvec", {1, 1, 1}, {32, 1, 1}, Args().add(Buf)));
  expectGlobal(inst("gvec", "ld.global.v2.f32"), 1, 8, 8);
  expectGlobal(inst("gvec", "ld.global.v4.f32"), 1, 16, 16);
  expectGlobal(inst("gvec", "ld.global.f32"), 1, 1, 1);
}

// 32x32 block, one warp per row ty. Storing tile[ty][tx] is a contiguous
// row: 1 wavefront per warp. Reading tile[tx][ty] with pitch 32 puts all 32
// words in bank ty: 32 wavefronts per warp (ideal 1); with pitch 33 lane tx
// hits bank (tx + ty) % 32: no conflict. The global store: 4 sectors/warp.
TEST_F(MemoryEfficiency, TransposeConflictsWithoutPadding) {
  ASSERT_TRUE(launch(*M, "transpose", {1, 1, 1}, {32, 32, 1},
                     Args().add(Buf).add(32u)));
  expectShared(inst("transpose", "st.shared.f32"), 32, 32, 32);
  expectShared(inst("transpose", "ld.shared.f32"), 32, 32 * 32, 32);
  expectGlobal(inst("transpose", "st.global.f32"), 32, 128, 128);
}

TEST_F(MemoryEfficiency, TransposeWithPaddingHasNoConflicts) {
  ASSERT_TRUE(launch(*M, "transpose", {1, 1, 1}, {32, 32, 1},
                     Args().add(Buf).add(33u)));
  expectShared(inst("transpose", "st.shared.f32"), 32, 32, 32);
  expectShared(inst("transpose", "ld.shared.f32"), 32, 32, 32);
}

// Broadcast: one word, 1 wavefront. 64-bit contiguous: two half-warp phases
// of 128 bytes, 1 each. 128-bit: four quarter-warp phases. 64-bit at a
// 16-byte stride: lane t of a half warp reads words 4t and 4t+1, so banks
// 4k and 4k+1 (k < 8) each hold words of lanes k and k+8: 2 wavefronts per
// phase, 4 in all, where its 256 bytes need 2. The generic load resolves to
// shared: 1 wavefront.
TEST_F(MemoryEfficiency, SharedBroadcastAndWideAccesses) {
  ASSERT_TRUE(launch(*M, "svec", {1, 1, 1}, {32, 1, 1}, Args()));
  expectShared(inst("svec", "ld.shared.f32"), 1, 1, 1);
  expectShared(inst("svec", "ld.shared.v2.f32", 0), 1, 2, 2);
  expectShared(inst("svec", "ld.shared.v4.f32"), 1, 4, 4);
  expectShared(inst("svec", "ld.shared.v2.f32", 1), 1, 4, 2);
  Json G = inst("svec", "ld.f32");
  expectShared(G, 1, 1, 1);
  EXPECT_FALSE(G.contains("global_requests")) << G;
}

// Loads of 8 or 16 bytes whose lanes pair up on one address return two
// lanes per wavefront: one double for all lanes is 1 wavefront (not 2 half
// warps), one float4 for all 2 (the H200's count for nbody_accel), and no
// conflict: ideal 1 and 2. A store of one float4 by all lanes keeps its 4
// quarter-warp phases. Lanes 2k and 2k+1 on float4 k: 16 lanes per phase,
// 128 bytes each, 2 wavefronts for 256 distinct bytes.
TEST_F(MemoryEfficiency, PairedWideSharedLoadsPackTwoLanes) {
  ASSERT_TRUE(launch(*M, "spair", {1, 1, 1}, {32, 1, 1}, Args()));
  expectShared(inst("spair", "ld.shared.f64"), 1, 1, 1);
  expectShared(inst("spair", "ld.shared.v4.f32", 0), 1, 2, 2);
  expectShared(inst("spair", "st.shared.v4.f32"), 1, 4, 1);
  expectShared(inst("spair", "ld.shared.v4.f32", 1), 1, 2, 2);
}

// All lanes on one address: 1 distinct address, 1 sector. Lanes on their
// own words: 32 addresses in 4 sectors. Shared: 1 address, 1 wavefront.
TEST_F(MemoryEfficiency, AtomicsCountDistinctAddresses) {
  ASSERT_TRUE(launch(*M, "atom1", {1, 1, 1}, {32, 1, 1}, Args().add(Buf)));
  Json A = inst("atom1", "atom.global.add.u32");
  expectGlobal(A, 1, 1, 1);
  EXPECT_EQ(A["atomic_addresses"], 1u);
  Json R = inst("atom1", "red.global.add.u32");
  expectGlobal(R, 1, 4, 4);
  EXPECT_EQ(R["atomic_addresses"], 32u);
  Json S = inst("atom1", "red.shared.add.u32");
  expectShared(S, 1, 1, 1);
  EXPECT_EQ(S["atomic_addresses"], 1u);
  // Launching again adds the same counts.
  ASSERT_TRUE(launch(*M, "atom1", {1, 1, 1}, {32, 1, 1}, Args().add(Buf)));
  EXPECT_EQ(inst("atom1", "red.global.add.u32")["atomic_addresses"], 64u);
}

// Local words are interleaved by lane: 32 lanes at offset 0 are 128
// contiguous bytes (4 sectors); 64-bit at offset 8 covers words 2 and 3, two
// 128-byte rows (8 sectors). The generic load counts as local.
TEST_F(MemoryEfficiency, LocalAccessesInterleaveLanes) {
  ASSERT_TRUE(launch(*M, "loc", {1, 1, 1}, {32, 1, 1}, Args()));
  Json S = inst("loc", "st.local.u32");
  EXPECT_EQ(S["local_requests"], 1u);
  EXPECT_EQ(S["local_sectors"], 4u);
  EXPECT_EQ(S["local_ideal_sectors"], 4u);
  Json V = inst("loc", "st.local.v2.u32");
  EXPECT_EQ(V["local_sectors"], 8u);
  EXPECT_EQ(V["local_ideal_sectors"], 8u);
  Json G = inst("loc", "ld.u32");
  EXPECT_EQ(G["local_requests"], 1u);
  EXPECT_EQ(G["local_sectors"], 4u);
  EXPECT_FALSE(G.contains("global_requests")) << G;
}

// Addresses out of lane order take the sorting path: a permutation of 32
// consecutive floats is 4 sectors and 1 wavefront like stride 1. Lanes on
// (t * 33) % 2048: 132 bytes apart, a sector each; word 33t is in bank t,
// no conflict though the words span 1024. (t * 16) % 64 repeats words 0,
// 16, 32, 48 (lanes 0, 1, 2, 3, 0, ...): 4 sectors (bytes 0, 64, 128, 192)
// whose 16 distinct bytes need 1; banks 0 and 16 hold two words each: 2
// wavefronts, ideal 1. t % 8: 8 floats in one sector.
TEST_F(MemoryEfficiency, LanesOutOfOrderAndRepeated) {
  struct Case {
    uint32_t Mul, Mod;
    uint64_t Sectors, IdealSectors, Wavefronts;
  } Cases[] = {{7, 32, 4, 4, 1},
               {31, 32, 4, 4, 1},
               {33, 2048, 32, 4, 1},
               {16, 64, 4, 1, 2},
               {1, 8, 1, 1, 1}};
  uint64_t Sectors = 0, Ideal = 0, Wavefronts = 0, Requests = 0;
  for (const Case &C : Cases) {
    ASSERT_TRUE(launch(*M, "perm", {1, 1, 1}, {32, 1, 1},
                       Args().add(Buf).add(C.Mul).add(C.Mod)));
    Sectors += C.Sectors;
    Ideal += C.IdealSectors;
    Wavefronts += C.Wavefronts;
    ++Requests;
    SCOPED_TRACE(testing::Message() << "mul " << C.Mul << " mod " << C.Mod);
    expectGlobal(inst("perm", "ld.global.f32"), Requests, Sectors, Ideal);
    expectShared(inst("perm", "ld.shared.f32"), Requests, Wavefronts, Requests);
  }
}

// 4 bytes at offset 28 are in sector 0; two threads on the same 4 bytes:
// the same sector, 1 distinct address. At offset 30 they would span
// sectors 0 and 1, which no aligned access does: a GPU faults on it
// (misaligned address), and so does the emulator (MisalignedTest.cpp).
TEST_F(MemoryEfficiency, AccessAcrossASectorBoundary) {
  ASSERT_TRUE(
      launch(*M, "gbyte", {1, 1, 1}, {1, 1, 1}, Args().add(Buf).add(28u)));
  expectGlobal(inst("gbyte", "ld.global.u32"), 1, 1, 1);
  ASSERT_TRUE(
      launch(*M, "gbyte", {1, 1, 1}, {2, 1, 1}, Args().add(Buf).add(28u)));
  expectGlobal(inst("gbyte", "ld.global.u32"), 2, 2, 2);
  LaunchFault Fault = LaunchFault::None;
  std::string Err;
  EXPECT_FALSE(launch(*M, "gbyte", {1, 1, 1}, {1, 1, 1},
                      Args().add(Buf).add(30u), &Err, 0, false, &Fault));
  EXPECT_EQ(Fault, LaunchFault::MisalignedAddress) << Err;
}

// Only memory instructions outside .param carry the counts.
TEST_F(MemoryEfficiency, OnlyMemoryInstructionsCarryCounts) {
  gld(32, 1, 0, 0);
  EXPECT_FALSE(inst("gld", "ld.param.u64").contains("global_requests"));
  EXPECT_FALSE(inst("gld", "mad.lo.u32").contains("global_requests"));
}

// WARPSCOPE_EMU_TRUTH=0 turns the counting off; counts some launch missed
// are not ground truth, so the module's JSON leaves them out from then on.
TEST_F(MemoryEfficiency, TruthOffLeavesCountsOut) {
  gld(32, 1, 0, 0);
  EXPECT_TRUE(inst("gld", "ld.global.f32").contains("global_sectors"));
  setenv("WARPSCOPE_EMU_TRUTH", "0", 1);
  gld(32, 1, 0, 0);
  unsetenv("WARPSCOPE_EMU_TRUTH");
  gld(32, 1, 0, 0);
  Json I = inst("gld", "ld.global.f32");
  EXPECT_EQ(I["warp_executions"], 3u);
  EXPECT_FALSE(I.contains("global_sectors")) << I;
}

// Without WARPSCOPE_EMU_MEMORY (a plain emulated run) nothing is counted:
// the counts cost time on memory-bound kernels.
TEST_F(MemoryEfficiency, OffByDefault) {
  unsetenv("WARPSCOPE_EMU_MEMORY");
  gld(32, 1, 0, 0);
  Json I = inst("gld", "ld.global.f32");
  EXPECT_EQ(I["warp_executions"], 1u);
  EXPECT_FALSE(I.contains("global_sectors")) << I;
}

} // namespace
