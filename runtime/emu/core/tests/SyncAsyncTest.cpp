// Conformance of barrier reductions and arrivals, named barriers with
// thread counts, cp.async and vector f32 atomics, with expectations computed
// on the host from the PTX ISA's definitions.
#include "TestUtil.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <set>

using namespace emutest;

namespace {

// Each thread contributes in[tid] != 0 to bar.red.popc/and/or (in both the
// bar and the barrier{.aligned} spellings) and stores the three results.
const char *RedKernel = R"(
.visible .entry red(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  setp.ne.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p1;
  barrier.red.and.aligned.pred %p2, 3, %p1;
  bar.red.or.pred %p3, 5, !%p1;
  barrier.red.popc.u32 %r4, 1, !%p1;
  selp.u32 %r5, 1, 0, %p2;
  selp.u32 %r6, 1, 0, %p3;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.u32 [%rd6], {%r3, %r5, %r6, %r4};
  ret;
}
)";

struct RedCase {
  const char *Name;
  uint32_t Threads;
  std::vector<uint32_t> In;
};

TEST(BarrierRed, PopcAndOrOverTheBlock) {
  auto M = loadBody(RedKernel);
  ASSERT_TRUE(M);
  uint32_t Seed = 7;
  std::vector<RedCase> Cases;
  for (uint32_t Threads : {32u, 96u, 256u, 70u}) {
    std::vector<uint32_t> Rand(Threads), Ones(Threads, 1), Zeros(Threads, 0);
    for (auto &V : Rand)
      V = lcg(Seed) >> 29 ? 1 : 0;
    Cases.push_back({"random", Threads, Rand});
    Cases.push_back({"all true", Threads, Ones});
    Cases.push_back({"all false", Threads, Zeros});
    std::vector<uint32_t> One(Threads, 0);
    One[Threads - 1] = 1;
    Cases.push_back({"last true", Threads, One});
  }
  for (auto &C : Cases) {
    // The PTX ISA: popc counts the threads whose predicate is true; and/or
    // are the predicate's AND/OR over all threads of the barrier.
    uint32_t Pop = 0;
    bool All = true, Any = false;
    for (uint32_t V : C.In) {
      Pop += V != 0;
      All = All && V != 0;
      Any = Any || V != 0;
    }
    std::vector<uint32_t> Out(C.Threads * 4, 0xdeadbeef);
    ASSERT_TRUE(launch(*M, "red", {2, 1, 1}, {C.Threads, 1, 1},
                       Args().add(C.In.data()).add(Out.data())));
    for (uint32_t T = 0; T < C.Threads; ++T) {
      SCOPED_TRACE(std::string(C.Name) + ", " + std::to_string(C.Threads) +
                   " threads, thread " + std::to_string(T));
      EXPECT_EQ(Out[4 * T], Pop);
      EXPECT_EQ(Out[4 * T + 1], All ? 1u : 0u);
      EXPECT_EQ(Out[4 * T + 2], !All ? 1u : 0u); // OR of the negation
      EXPECT_EQ(Out[4 * T + 3], C.Threads - Pop);
    }
  }
}

// Named barriers with thread counts: warps 0-1 reduce over barrier 1 and
// warps 2-3 over barrier 2, each with 64 threads, so the two groups'
// results differ.
TEST(BarrierRed, NamedBarriersWithThreadCounts) {
  auto M = loadBody(R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  setp.ne.u32 %p1, %r2, 0;
  shr.u32 %r3, %r1, 6;
  add.u32 %r4, %r3, 1;
  barrier.red.popc.u32 %r5, %r4, 64, %p1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r5;
  ret;
}
)");
  ASSERT_TRUE(M);
  std::vector<uint32_t> In(128), Out(128, 0);
  uint32_t Seed = 3;
  for (auto &V : In)
    V = lcg(Seed) >> 30 ? 1 : 0;
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {128, 1, 1},
                     Args().add(In.data()).add(Out.data())));
  for (uint32_t G = 0; G < 2; ++G) {
    uint32_t Pop = 0;
    for (uint32_t T = 64 * G; T < 64 * G + 64; ++T)
      Pop += In[T];
    for (uint32_t T = 64 * G; T < 64 * G + 64; ++T)
      EXPECT_EQ(Out[T], Pop) << "thread " << T;
  }
}

// bar.arrive does not wait: warp 0 arrives at barrier 1 and then waits at
// barrier 2, which warp 1 completes before it waits at barrier 1. Were
// arrive a sync, the two warps would deadlock. Warp 0's shared-memory write
// before its arrive is visible to warp 1 after barrier 1.
TEST(BarrierArrive, ArriveDoesNotWaitAndOrdersMemory) {
  for (const char *Spelling : {"bar.arrive", "barrier.arrive.aligned",
                               "barrier.arrive", "bar.cta.arrive"}) {
    std::string Body = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 sh[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sh;
  add.u32 %r4, %r3, %r2;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra Consumer;
  mad.lo.u32 %r5, %r1, 7, 11;
  st.shared.u32 [%r4], %r5;
  ARRIVE 1, 64;
  bar.sync 2, 64;
  ret;
Consumer:
  barrier.sync 2, 64;
  barrier.sync.aligned 1, 64;
  sub.u32 %r6, %r4, 128;
  ld.shared.u32 %r7, [%r6];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
)";
    Body.replace(Body.find("ARRIVE"), 6, Spelling);
    auto M = loadBody(Body);
    ASSERT_TRUE(M);
    std::vector<uint32_t> Out(64, 0);
    std::string Err;
    ASSERT_TRUE(
        launch(*M, "k", {1, 1, 1}, {64, 1, 1}, Args().add(Out.data()), &Err))
        << Spelling << ": " << Err;
    for (uint32_t T = 32; T < 64; ++T)
      EXPECT_EQ(Out[T], (T - 32) * 7 + 11) << Spelling << ", thread " << T;
  }
}

// cp.async of 4, 8 and 16 bytes with a src-size (the rest zero-filled) or an
// ignore-src predicate, then wait and read shared memory back. Shared memory
// is first filled with 0xa5 so untouched bytes show.
std::string cpAsyncKernel(const char *Cp, unsigned Size, bool Pred, bool Hint) {
  std::string S = R"(
.visible .entry k(.param .u64 src, .param .u64 out, .param .u64 sizes) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 sh[512];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [sizes];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, sh;
  add.u32 %r4, %r3, %r2;
  mov.u32 %r5, 0xa5a5a5a5;
  st.shared.v4.u32 [%r4], {%r5, %r5, %r5, %r5};
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u32 %r6, [%rd5];
  setp.ne.u32 %p1, %r6, 0;
  mul.wide.u32 %rd6, %r1, SIZE;
  add.s64 %rd7, %rd1, %rd6;
  CP [%r4+0], [%rd7], SIZE, OPERAND;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  bar.sync 0;
  ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r4];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd2, %rd8;
  st.global.v4.u32 [%rd9], {%r7, %r8, %r9, %r10};
  ret;
}
)";
  auto Rep = [&](const std::string &From, const std::string &To) {
    for (size_t P; (P = S.find(From)) != std::string::npos;)
      S.replace(P, From.size(), To);
  };
  Rep("SIZE", std::to_string(Size));
  Rep("CP", Cp);
  // With .L2::cache_hint a 64-bit cache policy follows (a hint: ignored).
  Rep("OPERAND", std::string(Pred ? "%p1" : "%r6") + (Hint ? ", %rd3" : ""));
  return S;
}

TEST(CpAsync, CopiesZeroFillsAndIgnoresSource) {
  struct Case {
    const char *Cp;
    unsigned Size;
    bool Hint;
  } Cases[] = {{"cp.async.ca.shared.global", 4, false},
               {"cp.async.ca.shared.global", 8, false},
               {"cp.async.ca.shared.global", 16, false},
               {"cp.async.cg.shared.global", 16, false},
               {"cp.async.ca.shared::cta.global", 8, false},
               {"cp.async.cg.shared.global.L2::cache_hint.L2::128B", 16, true}};
  std::vector<uint8_t> Src(32 * 16);
  uint32_t Seed = 11;
  for (auto &B : Src)
    B = (uint8_t)(lcg(Seed) >> 24);
  for (auto &C : Cases)
    for (bool Pred : {false, true}) {
      SCOPED_TRACE(std::string(C.Cp) + " " + std::to_string(C.Size) +
                   (Pred ? ", ignore-src" : ", src-size"));
      auto M = loadBody(cpAsyncKernel(C.Cp, C.Size, Pred, C.Hint));
      ASSERT_TRUE(M);
      std::vector<uint32_t> Sizes(32);
      for (uint32_t T = 0; T < 32; ++T)
        Sizes[T] = Pred ? T % 3 == 0 : T % (C.Size + 1);
      std::vector<uint8_t> Out(32 * 16, 0);
      ASSERT_TRUE(
          launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                 Args().add(Src.data()).add(Out.data()).add(Sizes.data())));
      for (uint32_t T = 0; T < 32; ++T) {
        // Bytes copied: src-size of them, or none when ignore-src is true.
        unsigned N = Pred ? (Sizes[T] ? 0 : C.Size) : Sizes[T];
        for (unsigned B = 0; B < 16; ++B) {
          uint8_t Want = B >= C.Size ? 0xa5 : B < N ? Src[T * C.Size + B] : 0;
          EXPECT_EQ(Out[T * 16 + B], Want) << "thread " << T << " byte " << B;
        }
      }
    }
}

TEST(CpAsync, UnsupportedFormsFailWithTheirName) {
  auto M = loadBody(R"(
.visible .entry k(.param .u64 p) {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  .shared .align 16 .b8 sh[64];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, sh;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r1];
  ret;
}
)");
  ASSERT_TRUE(M);
  uint64_t P = 0;
  std::string Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {32, 1, 1}, Args().add(P), &Err));
  EXPECT_NE(Err.find("unsupported instruction"), std::string::npos) << Err;
  EXPECT_NE(Err.find("cp.async.bulk"), std::string::npos) << Err;
}

// WARPSCOPE_EMU_RACECHECK sees the shared-memory accesses of cp.async
// (a write at issue), ldmatrix and wmma.load (reads): warp 0 reads and
// writes a shared buffer that warp 1 then writes with cp.async and reads
// with ldmatrix and wmma, with or without a barrier in between.
TEST(RacecheckMatrixAsync, SeesCpAsyncLdmatrixAndWmma) {
  std::string Body = R"(
.visible .entry k(.param .u64 src, .param .u32 sync) {
  .reg .b32 %r<30>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  .shared .align 16 .b8 sh[1024];
  ld.param.u64 %rd1, [src];
  ld.param.u32 %r1, [sync];
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 31;
  mov.u32 %r4, sh;
  shl.b32 %r5, %r3, 4;
  add.u32 %r6, %r4, %r5;
  setp.lt.u32 %p1, %r2, 32;
  setp.ne.u32 %p2, %r1, 0;
  @!%p1 bra Second;
  ld.shared.u32 %r7, [%r6];
  st.shared.u32 [%r6+512], %r7;
Second:
  @%p2 bar.sync 0;
  @%p1 bra Done;
  cp.async.ca.shared.global [%r6], [%rd1], 4;
  cp.async.wait_all;
  add.u32 %r8, %r6, 512;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r9}, [%r8];
  add.u32 %r10, %r4, 512;
  wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18}, [%r10], 16;
Done:
  ret;
}
)";
  setenv("WARPSCOPE_EMU_RACECHECK", "1", 1);
  for (uint32_t Sync : {0u, 1u}) {
    auto M = loadBody(Body);
    ASSERT_TRUE(M);
    std::vector<uint32_t> Src(4, 7);
    testing::internal::CaptureStderr();
    bool Ok = launch(*M, "k", {1, 1, 1}, {64, 1, 1},
                     Args().add(Src.data()).add(Sync));
    testing::internal::GetCapturedStderr();
    ASSERT_TRUE(Ok);
    auto Doc = nlohmann::json::parse(M->groundTruthJson());
    std::set<std::string> Seen;
    for (auto &H : Doc["hazards"])
      Seen.insert(H["kind"].get<std::string>() + " " +
                  H["second"]["opcode"].get<std::string>());
    if (Sync) {
      EXPECT_TRUE(Seen.empty()) << Doc["hazards"].dump();
      continue;
    }
    EXPECT_TRUE(Seen.count("write-after-read cp.async.ca.shared.global"))
        << Doc["hazards"].dump();
    EXPECT_TRUE(
        Seen.count("read-after-write ldmatrix.sync.aligned.m8n8.x1.shared.b16"))
        << Doc["hazards"].dump();
    EXPECT_TRUE(Seen.count("read-after-write "
                           "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16"))
        << Doc["hazards"].dump();
  }
  unsetenv("WARPSCOPE_EMU_RACECHECK");
}

// atom.global.add.v4.f32 / red.global.add.v2.f32: per element an atomic f32
// add; the values are small integers, so every order gives the same sums.
TEST(AtomVector, AddV4AndV2F32) {
  auto M = loadBody(R"(
.visible .entry k(.param .u64 acc, .param .u64 old) {
  .reg .b32 %r<4>;
  .reg .f32 %f<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [acc];
  ld.param.u64 %rd2, [old];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, %f1;
  mov.f32 %f3, 0f3F000000;
  neg.f32 %f4, %f1;
  atom.global.add.v4.f32 {%f5, %f6, %f7, %f8}, [%rd1], {%f1, %f2, %f3, %f4};
  red.global.add.v2.f32 [%rd1+16], {%f3, %f1};
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v4.f32 [%rd4], {%f5, %f6, %f7, %f8};
  ret;
}
)");
  ASSERT_TRUE(M);
  alignas(32) float Acc[8] = {1, 2, 3, 4, 5, 6};
  std::vector<float> Old(32 * 4, -1);
  setenv("WARPSCOPE_EMU_MEMORY", "1", 1);
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                     Args().add(&Acc[0]).add(Old.data())));
  unsetenv("WARPSCOPE_EMU_MEMORY");
  // Memory counts take the whole vector: 32 lanes on one 16-byte address
  // are one request, one sector, one distinct address.
  auto Doc = nlohmann::json::parse(M->groundTruthJson());
  for (auto &I : Doc["functions"][0]["instructions"])
    if (I["opcode"] == "atom.global.add.v4.f32" ||
        I["opcode"] == "red.global.add.v2.f32") {
      EXPECT_EQ(I.value("global_requests", 0u), 1u) << I;
      EXPECT_EQ(I.value("global_sectors", 0u), 1u) << I;
      EXPECT_EQ(I.value("atomic_addresses", 0u), 1u) << I;
    }
  float Sum = 0; // 0 + 1 + ... + 31
  for (int T = 0; T < 32; ++T)
    Sum += (float)T;
  EXPECT_EQ(Acc[0], 1 + Sum);
  EXPECT_EQ(Acc[1], 2 + 2 * Sum);
  EXPECT_EQ(Acc[2], 3 + 16.0f);
  EXPECT_EQ(Acc[3], 4 - Sum);
  EXPECT_EQ(Acc[4], 5 + 16.0f);
  EXPECT_EQ(Acc[5], 6 + Sum);
  // Each thread saw the values of some order of the others' adds: element 2
  // (every thread adds 0.5) takes 32 distinct old values 3, 3.5, ..., 18.5.
  std::set<float> Seen;
  for (int T = 0; T < 32; ++T)
    Seen.insert(Old[4 * T + 2]);
  EXPECT_EQ(Seen.size(), 32u);
  EXPECT_EQ(*Seen.begin(), 3.0f);
  EXPECT_EQ(*Seen.rbegin(), 18.5f);
}

} // namespace
