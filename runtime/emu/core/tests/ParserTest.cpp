// Parser / front-end tests on hand-written PTX and malformed input.
#include "TestUtil.h"

#include <algorithm>
#include <cstring>

using namespace emutest;

namespace {

TEST(Parser, FeaturesKernel) {
  auto M = load("features.ptx");
  ASSERT_TRUE(M);
  ASSERT_EQ(M->kernels().size(), 1u);
  const KernelInfo &K = M->kernels()[0];
  EXPECT_EQ(K.Name, "feat");
  ASSERT_EQ(K.Params.size(), 2u);
  EXPECT_EQ(K.Params[0].Size, 8u);
  EXPECT_EQ(K.Params[1].Size, 16u);
  EXPECT_EQ(K.Params[1].Align, 8u);
  EXPECT_EQ(K.Params[0].Align, 8u); // .ptr .align 1 is the pointee alignment
  EXPECT_EQ(K.MaxThreadsPerBlock, 128u);
  EXPECT_EQ(K.StaticSharedBytes, 32u);
  const GlobalInfo *Arr = M->findGlobal("arr");
  ASSERT_TRUE(Arr);
  EXPECT_EQ(Arr->Size, 16u);
  EXPECT_EQ(((uint32_t *)Arr->Address)[3], 4u);
  const GlobalInfo *Ptrs = M->findGlobal("ptrs");
  ASSERT_TRUE(Ptrs);
  EXPECT_EQ(((uint64_t *)Ptrs->Address)[1],
            (uint64_t)(uintptr_t)Arr->Address + 8);
  EXPECT_TRUE(M->findGlobal("cf"));
  EXPECT_FALSE(M->findGlobal("sh")); // shared is not a global
  EXPECT_FALSE(M->findKernel("twice"));

  const int T = 64;
  std::vector<uint32_t> Out(T * 16, 0xdeadbeef);
  uint32_t *OutP = Out.data();
  unsigned char S[16] = {};
  uint32_t FortyTwo = 42;
  std::memcpy(S + 4, &FortyTwo, 4);
  Args A;
  A.add(OutP);
  A.Blobs.emplace_back(S, S + 16);
  launch(*M, "feat", {1, 1, 1}, {T, 1, 1}, A, nullptr, 256);
  for (int I = 0; I < T; ++I) {
    const uint32_t *O = &Out[I * 16];
    EXPECT_EQ(O[0], 142u + I) << I;
    EXPECT_EQ(O[1], 5u);
    EXPECT_EQ(O[2], (uint32_t)(I + 142 + I));
    EXPECT_EQ(O[3], 7u);
    EXPECT_EQ(O[4], 3u);
    float F;
    std::memcpy(&F, &O[5], 4);
    EXPECT_EQ(F, 3.5f);
    EXPECT_EQ((int32_t)O[6], -7);
    EXPECT_EQ(O[7], 105u);
    EXPECT_EQ(O[8], (uint32_t)((I ^ 1) + 42));
    EXPECT_EQ(O[9], (I & 1) ? 21u : 10u);
    EXPECT_EQ(O[10], 2u * I);
    EXPECT_EQ(O[11], 1000u + (I & 3));
  }
  // Ground truth: marker attaches to the next instruction, brx/bra counters.
  std::string J = M->groundTruthJson();
  auto TI = truthOf(J, "feat");
  ASSERT_FALSE(TI.empty());
  int Markers = 0;
  for (auto &I : TI) {
    if (!I.Marker.empty()) {
      ++Markers;
      EXPECT_EQ(I.Marker, "ws:block 7");
      EXPECT_EQ(I.Opcode, "mov.u32");
      EXPECT_EQ(I.PtxLine, 53u);
    }
    if (I.Opcode == "bra") {
      EXPECT_TRUE(I.HasVisits);
      EXPECT_EQ(I.Visits, 2u);
      EXPECT_EQ(I.Divergent, 2u);
      EXPECT_EQ(I.Thread, 32u);
    }
    if (I.Opcode == "brx.idx") {
      EXPECT_EQ(I.Thread, 64u);
      EXPECT_EQ(I.Visits, 2u);
      EXPECT_EQ(I.Divergent, 2u);
    }
  }
  EXPECT_EQ(Markers, 1);
  EXPECT_NE(J.find("\"schema\":\"warpscope-emu/1\""), std::string::npos);
  EXPECT_NE(J.find("\"module\":\"features.ptx\""), std::string::npos);
  EXPECT_NE(J.find("{\"name\":\"twice\",\"kernel\":false"), std::string::npos);
  EXPECT_NE(J.find("\"shared_bytes\":256"), std::string::npos);
}

TEST(Parser, SourceLinesFromLoc) {
  auto M = load("kernels_O2g.ptx");
  ASSERT_TRUE(M);
  std::string J = M->groundTruthJson();
  EXPECT_NE(J.find("\"file\":\""), std::string::npos);
  EXPECT_NE(J.find("kernels.cu\",\"line\":"), std::string::npos);
  auto M2 = load("kernels_O1gl.ptx");
  ASSERT_TRUE(M2);
  EXPECT_NE(M2->groundTruthJson().find("kernels.cu\",\"line\":"),
            std::string::npos);
}

std::string errorOf(const std::string &Body) {
  std::string Err;
  auto M = loadText(std::string(PtxHeader) + Body, &Err);
  EXPECT_FALSE(M) << Body;
  return Err;
}

TEST(Parser, MalformedInputIsAnError) {
  std::string E;
  E = errorOf(".visible .entry k()\n{\n\tmov.u32 %r1, 1;\n}\n");
  EXPECT_NE(E.find("PTX line 6"), std::string::npos) << E;
  EXPECT_NE(E.find("%r1"), std::string::npos) << E;
  EXPECT_NE(E.find("in function k"), std::string::npos) << E;
  E = errorOf(
      ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %r7;\n}\n");
  EXPECT_NE(E.find("%r7"), std::string::npos) << E;
  E = errorOf(
      ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1\n}\n");
  EXPECT_NE(E.find("PTX line"), std::string::npos) << E;
  E = errorOf(".visible .entry k()\n{\n\tbra.uni $L_nowhere;\n}\n");
  EXPECT_NE(E.find("$L_nowhere"), std::string::npos) << E;
  E = errorOf(".visible .entry k()\n{\n\tret;\n");
  EXPECT_FALSE(E.empty());
  E = errorOf(".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1; # "
              "oops\n}\n");
  EXPECT_NE(E.find("unexpected character"), std::string::npos) << E;
  E = errorOf(".bogus_directive 1;\n");
  EXPECT_NE(E.find("PTX line 4"), std::string::npos) << E;
  E = errorOf(".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tld.global.u32 "
              "%rd1, [%rd1, 4];\n}\n");
  EXPECT_NE(E.find("expected address operand"), std::string::npos) << E;
  // A .pragma cut off by the end of the file, at module scope and as a
  // function directive: an error, not a read past the tokens (the fuzzer
  // found the first).
  E = errorOf(".pragma \"nounroll\"");
  EXPECT_NE(E.find("expected ';'"), std::string::npos) << E;
  E = errorOf(".visible .entry k() .pragma \"nounroll\"");
  EXPECT_NE(E.find("expected ';'"), std::string::npos) << E;
}

TEST(Parser, OversizedVariablesAreAnError) {
  // Static variables are allocated at load: huge or negative sizes, or an
  // absurd alignment, must be refused with the variable named, not tried.
  std::string E;
  E = errorOf(".global .align 4 .b8 big[68719476736];\n");
  EXPECT_NE(E.find("'big' is larger than the emulator's limit of 256 MiB"),
            std::string::npos)
      << E;
  E = errorOf(".global .b32 neg[-4];\n");
  EXPECT_NE(E.find("'neg'"), std::string::npos) << E;
  E = errorOf(".global .b64 wide[65536][65536];\n");
  EXPECT_NE(E.find("'wide'"), std::string::npos) << E;
  E = errorOf(".global .b8 a[200000000];\n.global .b8 b[200000000];\n");
  EXPECT_NE(E.find(".global and .const variables exceed"), std::string::npos)
      << E;
  E = errorOf(".global .align 3000000000 .b8 odd[4];\n");
  EXPECT_NE(E.find(".align 3000000000"), std::string::npos) << E;
  std::string Err;
  EXPECT_TRUE(
      loadText(std::string(PtxHeader) + ".global .b8 fine[1048576];\n", &Err))
      << Err;
}

TEST(Parser, TruncatedAndMutatedInputNeverCrashes) {
  std::string Text = readPtx("features.ptx");
  ASSERT_FALSE(Text.empty());
  int Loaded = 0, Failed = 0;
  for (size_t N = 0; N < Text.size(); N += 7) {
    std::string Err;
    auto M = loadPtx(Text.substr(0, N), "trunc", Err);
    if (M)
      ++Loaded;
    else {
      ++Failed;
      EXPECT_FALSE(Err.empty());
    }
  }
  EXPECT_GT(Failed, 0);
  uint32_t Seed = 1;
  const char Junk[] = "{}[]();,.%@!<>+-=|: \n0x1fabc";
  for (int K = 0; K < 400; ++K) {
    std::string Mut = Text;
    for (int J = 0; J < 3; ++J) {
      Seed = Seed * 1664525u + 1013904223u;
      size_t Pos = (Seed >> 8) % Mut.size();
      Mut[Pos] = Junk[(Seed >> 3) % (sizeof(Junk) - 1)];
    }
    std::string Err;
    auto M = loadPtx(Mut, "mut", Err);
    if (!M) {
      EXPECT_FALSE(Err.empty());
    }
  }
  (void)Loaded;
}

TEST(Parser, AllCheckedInPtxLoads) {
  for (const char *F : {"intops_O0.ptx", "intops_O2.ptx", "intops_O3.ptx",
                        "floatops_O0.ptx", "floatops_O2.ptx", "kernels_O0.ptx",
                        "kernels_O2.ptx", "kernels_O3.ptx", "kernels_O2g.ptx",
                        "kernels_O1gl.ptx", "bench_O3.ptx", "features.ptx"}) {
    auto M = load(F);
    EXPECT_TRUE(M) << F;
  }
}

} // namespace

namespace {

// Well-formed but unimplemented instructions load (other kernels of the
// module stay usable) and fail the launch that executes them.
TEST(Errors, UnsupportedInstructionFailsWhenExecuted) {
  auto M = loadBody(
      ".file 1 \"/src/app.cu\"\n.visible .entry k(.param .u32 p)\n{\n\t.reg "
      ".b64 %rd<2>;\n"
      "\t.reg .b32 %r<2>;\n\t.reg .pred %q;\n\tld.param.u32 %r1, [p];\n"
      "\tsetp.eq.u32 %q, %r1, 0;\n\t@%q bra $Lend;\n"
      "\t.loc 1 17 5\n\ttex.1d.v4.f32.s32 {%r1, %r1, %r1, %r1}, [tref, "
      "{%r1}];\n"
      "\tfrobnicate.b32 %r1;\n\tatom.global.nand.b64 %rd1, [%rd1], "
      "1;\n$Lend:\n\tret;\n}\n"
      ".visible .entry ok()\n{\n\tret;\n}\n");
  ASSERT_TRUE(M);
  std::string Err;
  EXPECT_TRUE(launch(*M, "ok", {1, 1, 1}, {32, 1, 1}, Args(), &Err)) << Err;
  EXPECT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1}, Args().add(0u), &Err))
      << Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {32, 1, 1}, Args().add(1u), &Err));
  EXPECT_NE(Err.find("unsupported instruction"), std::string::npos) << Err;
  EXPECT_EQ(Err.find("unsupported instruction: unsupported"),
            std::string::npos)
      << Err; // said once
  EXPECT_NE(Err.find("tex.1d.v4.f32.s32"), std::string::npos) << Err;
  EXPECT_NE(Err.find("kernel k, block (0,0,0), thread (0,0,0)"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("PTX line 14 (/src/app.cu:17:5)"), std::string::npos)
      << Err;
}

TEST(Errors, ParamAndLocalOutOfRange) {
  auto M = loadBody(".visible .entry k(.param .u32 p)\n{\n\t.reg .b32 "
                    "%r<3>;\n\t.reg .b64 %rd<3>;\n"
                    "\t.local .align 4 .b8 depot[16];\n"
                    "\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r1, %r1, 2;\n"
                    "\tcvt.u64.u32 %rd1, %r1;\n\tmov.u64 %rd2, "
                    "depot;\n\tadd.u64 %rd2, %rd2, %rd1;\n"
                    "\tst.local.u32 [%rd2], %r1;\n"
                    "\tld.param.u32 %r2, [p+8];\n\tret;\n}\n");
  ASSERT_TRUE(M);
  std::string Err;
  uint32_t P = 0;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {4, 1, 1}, Args().add(P), &Err));
  EXPECT_NE(Err.find("param access out of range"), std::string::npos) << Err;
  EXPECT_NE(Err.find("kernel k"), std::string::npos) << Err;
  EXPECT_NE(Err.find("ld.param.u32"), std::string::npos) << Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {8, 1, 1}, Args().add(P), &Err));
  EXPECT_NE(Err.find("local memory access out of range"), std::string::npos)
      << Err;
  EXPECT_NE(Err.find("thread (4,0,0)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("PTX line 14"), std::string::npos) << Err;
}

TEST(Errors, BadLaunchConfiguration) {
  auto M = loadBody(".visible .entry k() .maxntid 64, 1, 1\n{\n\tret;\n}\n");
  ASSERT_TRUE(M);
  std::string Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {128, 1, 1}, Args(), &Err));
  EXPECT_NE(Err.find("maxntid"), std::string::npos) << Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {0, 1, 1}, Args(), &Err));
  EXPECT_FALSE(launch(*M, "nope", {1, 1, 1}, {1, 1, 1}, Args(), &Err));
  EXPECT_NE(Err.find("no kernel named"), std::string::npos) << Err;
  EXPECT_TRUE(launch(*M, "k", {2, 2, 2}, {4, 4, 4}, Args(), &Err)) << Err;
}

} // namespace

namespace {
TEST(Parser, ParamLayout) {
  auto M = loadBody(
      ".visible .entry k(.param .u32 a, .param .u64 .ptr .global .align 1 p, "
      ".param .align 4 .b8 s[12], .param .u16 h, .param .f64 d)\n{\n\t.reg "
      ".b64 %rd<2>;\n"
      "\t.reg .b32 %r<2>;\n\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, "
      "[a];\n"
      "\tst.u32 [%rd1], %r1;\n\tld.param.u32 %r1, [s+8];\n\tst.u32 [%rd1+4], "
      "%r1;\n"
      "\tld.param.f64 %rd1, [d];\n\tret;\n}\n");
  ASSERT_TRUE(M);
  const KernelInfo &K = M->kernels()[0];
  ASSERT_EQ(K.Params.size(), 5u);
  uint32_t Sizes[] = {4, 8, 12, 2, 8}, Aligns[] = {4, 8, 4, 2, 8};
  for (int I = 0; I < 5; ++I) {
    EXPECT_EQ(K.Params[I].Size, Sizes[I]) << I;
    EXPECT_EQ(K.Params[I].Align, Aligns[I]) << I;
  }
  uint32_t Out[2] = {0, 0};
  uint32_t A = 77;
  uint32_t *OutP = Out;
  unsigned char S[12] = {};
  S[8] = 9;
  Args Ar;
  Ar.add(A).add(OutP);
  Ar.Blobs.emplace_back(S, S + 12);
  Ar.add((uint16_t)3).add(1.5);
  launch(*M, "k", {1, 1, 1}, {1, 1, 1}, Ar);
  EXPECT_EQ(Out[0], 77u);
  EXPECT_EQ(Out[1], 9u);
}
} // namespace

namespace {
TEST(Barriers, DeadlocksAreErrors) {
  auto M = load("deadlock.ptx");
  ASSERT_TRUE(M);
  std::string Err;
  EXPECT_FALSE(launch(*M, "inwarp", {1, 1, 1}, {32, 1, 1}, Args(), &Err));
  EXPECT_NE(Err.find("deadlock"), std::string::npos) << Err;
  EXPECT_NE(Err.find("barrier 1 ('barrier.sync' at PTX line 19)"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("16 of 32 threads arrived"), std::string::npos) << Err;
  EXPECT_NE(Err.find("kernel inwarp, block (0,0,0)"), std::string::npos) << Err;
  EXPECT_FALSE(launch(*M, "somewarps", {1, 1, 1}, {64, 1, 1}, Args(), &Err));
  EXPECT_NE(Err.find("deadlock"), std::string::npos) << Err;
  EXPECT_NE(Err.find("barrier 3"), std::string::npos) << Err;
  std::vector<uint32_t> Out(128, 0);
  EXPECT_TRUE(
      launch(*M, "named", {2, 1, 1}, {128, 1, 1}, Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t T = 0; T < 128; ++T)
    EXPECT_EQ(Out[T], T);
  std::fill(Out.begin(), Out.end(), 0);
  EXPECT_TRUE(launch(*M, "guarded", {1, 1, 1}, {64, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  for (uint32_t T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], T);
}

// The CUDA headers' inline asm declares registers with the type attached
// (`.reg.b32 f;` in cuda_fp16.hpp's hsqrt and kin): that must load and run
// like `.reg .b32 f;`.
TEST(Parser, RegDirectiveWithAttachedType) {
  const char *Ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<2>;
  .reg .b16 %rs<2>;
  ld.param.u64 %rd1, [p];
  mov.b16 %rs1, 0x4400;
  {.reg.b32 f;
   .reg.b16 r;
   .reg.pred q;
   mov.b16 r, %rs1;
   cvt.f32.f16 f, r;
   sqrt.rn.f32 f, f;
   cvt.rn.f16.f32 r, f;
   mov.b16 %rs1, r;
  }
  st.global.u16 [%rd1], %rs1;
  ret;
}
)";
  std::string Err;
  auto M = loadText(Ptx, &Err);
  ASSERT_TRUE(M) << Err;
  uint16_t Out = 0;
  uint16_t *OutP = &Out;
  Args A;
  A.add(OutP);
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {1, 1, 1}, A, &Err)) << Err;
  EXPECT_EQ(Out, 0x4000u); // sqrt(4) = 2 in f16
}

} // namespace
