// Conformance of the warp matrix instructions: mma.sync (m16n8k16 f16/bf16,
// m16n8k8 tf32, m8n8k4 f64), wmma m16n16k16 and packed integer m8n32k16,
// ldmatrix, and cvt.rna.tf32 (every wmma form: test/conformance/matrix).
// Fragments are built and read back on the host with the PTX ISA's layout
// tables (written here in the ISA's own terms), and D is computed on the host
// as the emulator documents it: exact products, f32 accumulation in k order
// starting from C (f64: one fma per k).
#include "TestUtil.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

using namespace emutest;

namespace {

uint16_t toHalf(float F) {
  _Float16 H = (_Float16)F;
  uint16_t U;
  std::memcpy(&U, &H, 2);
  return U;
}
float fromHalf(uint16_t U) {
  _Float16 H;
  std::memcpy(&H, &U, 2);
  return (float)H;
}
float fromBf16(uint16_t U) { return bitsToFloat((uint32_t)U << 16); }

// A kernel that loads NIn registers per lane from in[reg][lane], runs Instr
// (with {D}, {A}, {B}, {C} standing for the register lists) and stores the ND
// destination registers to out[reg][lane]. 64-bit registers for f64.
std::string fragKernel(const std::string &Instr, unsigned ND, unsigned NA,
                       unsigned NB, unsigned NC, bool F64) {
  const char *Ty = F64 ? "f64" : "b32";
  unsigned ES = F64 ? 8 : 4, NIn = NA + NB + NC;
  auto List = [](unsigned From, unsigned N) {
    std::string S = "{";
    for (unsigned K = 0; K < N; ++K)
      S += (K ? ", %x" : "%x") + std::to_string(From + K);
    return S + "}";
  };
  std::string S =
      std::string(PtxHeader) +
      ".visible .entry k(.param .u64 in, .param .u64 out) {\n"
      "  .reg .b32 %r<2>;\n  .reg .b64 %rd<6>;\n  .reg ." +
      Ty + " %x<" + std::to_string(NIn + ND) +
      ">;\n"
      "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
      "  mov.u32 %r1, %laneid;\n  mul.wide.u32 %rd3, %r1, " +
      std::to_string(ES) +
      ";\n  add.s64 %rd4, %rd1, %rd3;\n  add.s64 %rd5, %rd2, %rd3;\n";
  for (unsigned K = 0; K < NIn; ++K)
    S += "  ld.global." + std::string(Ty) + " %x" + std::to_string(K) +
         ", [%rd4+" + std::to_string(K * 32 * ES) + "];\n";
  std::string I = Instr;
  auto Rep = [&](const std::string &From, const std::string &To) {
    size_t P = I.find(From);
    if (P != std::string::npos)
      I.replace(P, From.size(), To);
  };
  Rep("{D}", List(NIn, ND));
  Rep("{A}", List(0, NA));
  Rep("{B}", List(NA, NB));
  Rep("{C}", List(NA + NB, NC));
  S += "  " + I + ";\n";
  for (unsigned K = 0; K < ND; ++K)
    S += "  st.global." + std::string(Ty) + " [%rd5+" +
         std::to_string(K * 32 * ES) + "], %x" + std::to_string(NIn + K) +
         ";\n";
  return S + "  ret;\n}\n";
}

// The ISA's fragment tables for mma.m16n8k16 (.f16/.bf16), with groupID =
// %laneid >> 2 and threadID_in_group = %laneid % 4.
struct RC {
  int Row, Col;
};
RC m16n8k16A(int Lane, int I) { // a0..a7: two per .b32 register
  int G = Lane >> 2, T = Lane % 4;
  bool Low = I == 0 || I == 1 || I == 4 || I == 5;
  return {Low ? G : G + 8, T * 2 + (I & 1) + (I >= 4 ? 8 : 0)};
}
RC m16n8k16B(int Lane, int I) { // b0..b3
  int G = Lane >> 2, T = Lane % 4;
  return {T * 2 + (I & 1) + (I >= 2 ? 8 : 0), G};
}
RC m16n8C(int Lane, int I) { // c0..c3 of m16n8k16 and m16n8k8
  int G = Lane >> 2, T = Lane % 4;
  return {I < 2 ? G : G + 8, T * 2 + (I & 1)};
}
RC m16n8k8A(int Lane, int I) { // tf32 a0..a3
  int G = Lane >> 2, T = Lane % 4;
  return {I == 0 || I == 2 ? G : G + 8, I < 2 ? T : T + 4};
}
RC m16n8k8B(int Lane, int I) { // tf32 b0..b1
  int G = Lane >> 2, T = Lane % 4;
  return {I == 0 ? T : T + 4, G};
}

using Mat = std::vector<std::vector<float>>;
Mat mat(int R, int C) { return Mat(R, std::vector<float>(C, 0.0f)); }

// D = C + sum_k A[m][k] * B[k][n] in f32, k ascending.
Mat refMma(const Mat &A, const Mat &B, const Mat &C) {
  Mat D = C;
  for (size_t M = 0; M < C.size(); ++M)
    for (size_t N = 0; N < C[0].size(); ++N) {
      float Acc = C[M][N];
      for (size_t K = 0; K < B.size(); ++K) {
        float P = A[M][K] * B[K][N]; // exact for these inputs
        Acc = Acc + P;
      }
      D[M][N] = Acc;
    }
  return D;
}

float randHalfValue(uint32_t &S) {
  return fromHalf(toHalf(((int)(lcg(S) >> 16) - 32768) / 8192.0f));
}
float randBf16Value(uint32_t &S) {
  uint32_t U = floatBits(((int)(lcg(S) >> 16) - 32768) / 4096.0f);
  return fromBf16((uint16_t)(U >> 16));
}

struct MmaCase {
  const char *Instr;
  bool Bf16, DHalf, CHalf;
};

TEST(Mma, M16N8K16HalfAndBf16) {
  const MmaCase Cases[] = {
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", false, false,
       false},
      {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", true, false,
       false},
      {"mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", false, true, true}};
  uint32_t Seed = 21;
  for (const MmaCase &Cs : Cases) {
    SCOPED_TRACE(Cs.Instr);
    unsigned ND = Cs.DHalf ? 2 : 4, NC = Cs.CHalf ? 2 : 4;
    auto M = loadText(fragKernel(std::string(Cs.Instr) + " {D}, {A}, {B}, {C}",
                                 ND, 4, 2, NC, false));
    ASSERT_TRUE(M);
    Mat A = mat(16, 16), B = mat(16, 8), C = mat(16, 8);
    for (auto *X : {&A, &B})
      for (auto &Row : *X)
        for (float &V : Row)
          V = Cs.Bf16 ? randBf16Value(Seed) : randHalfValue(Seed);
    for (auto &Row : C)
      for (float &V : Row)
        V = Cs.CHalf ? randHalfValue(Seed)
                     : ((int)(lcg(Seed) >> 8) - (1 << 23)) / 65536.0f;
    auto Enc = [&](float V) {
      return Cs.Bf16 ? floatBits(V) >> 16 : (uint32_t)toHalf(V);
    };
    std::vector<uint32_t> In((4 + 2 + NC) * 32, 0), Out(ND * 32, 0);
    for (int L = 0; L < 32; ++L) {
      for (int I = 0; I < 8; ++I) {
        RC P = m16n8k16A(L, I);
        In[(I / 2) * 32 + L] |= Enc(A[P.Row][P.Col]) << (16 * (I % 2));
      }
      for (int I = 0; I < 4; ++I) {
        RC P = m16n8k16B(L, I);
        In[(4 + I / 2) * 32 + L] |= Enc(B[P.Row][P.Col]) << (16 * (I % 2));
      }
      for (int I = 0; I < 4; ++I) {
        RC P = m16n8C(L, I);
        float V = C[P.Row][P.Col];
        if (Cs.CHalf)
          In[(6 + I / 2) * 32 + L] |= (uint32_t)toHalf(V) << (16 * (I % 2));
        else
          In[(6 + I) * 32 + L] = floatBits(V);
      }
    }
    ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                       Args().add(In.data()).add(Out.data())));
    Mat D = refMma(A, B, C);
    for (int L = 0; L < 32; ++L)
      for (int I = 0; I < 4; ++I) {
        RC P = m16n8C(L, I);
        float Want = D[P.Row][P.Col];
        if (Cs.DHalf) {
          uint16_t Got = (uint16_t)(Out[(I / 2) * 32 + L] >> (16 * (I % 2)));
          EXPECT_EQ(Got, toHalf(Want)) << "lane " << L << " d" << I;
        } else {
          EXPECT_EQ(Out[I * 32 + L], floatBits(Want))
              << "lane " << L << " d" << I;
        }
      }
  }
}

TEST(Mma, M16N8K8Tf32) {
  auto M = loadText(fragKernel(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {D}, {A}, {B}, {C}",
      4, 4, 2, 4, false));
  ASSERT_TRUE(M);
  uint32_t Seed = 5;
  // Operands carry arbitrary low 13 bits, which a .tf32 operand ignores.
  auto RandTf32 = [&](float &Value) {
    uint32_t U = floatBits(((int)(lcg(Seed) >> 8) - (1 << 23)) / 1048576.0f);
    U = (U & 0xffffe000u) | (lcg(Seed) >> 19);
    Value = bitsToFloat(U & 0xffffe000u);
    return U;
  };
  Mat A = mat(16, 8), B = mat(8, 8), C = mat(16, 8);
  std::vector<uint32_t> In(10 * 32), Out(4 * 32);
  for (int L = 0; L < 32; ++L) {
    for (int I = 0; I < 4; ++I) {
      RC P = m16n8k8A(L, I);
      In[I * 32 + L] = RandTf32(A[P.Row][P.Col]);
    }
    for (int I = 0; I < 2; ++I) {
      RC P = m16n8k8B(L, I);
      In[(4 + I) * 32 + L] = RandTf32(B[P.Row][P.Col]);
    }
    for (int I = 0; I < 4; ++I) {
      RC P = m16n8C(L, I);
      C[P.Row][P.Col] = (float)(lcg(Seed) >> 20) / 64.0f;
      In[(6 + I) * 32 + L] = floatBits(C[P.Row][P.Col]);
    }
  }
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                     Args().add(In.data()).add(Out.data())));
  Mat D = refMma(A, B, C);
  for (int L = 0; L < 32; ++L)
    for (int I = 0; I < 4; ++I) {
      RC P = m16n8C(L, I);
      EXPECT_EQ(Out[I * 32 + L], floatBits(D[P.Row][P.Col]))
          << "lane " << L << " d" << I;
    }
}

TEST(Mma, M8N8K4F64) {
  auto M = loadText(fragKernel(
      "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {D}, {A}, {B}, {C}", 2,
      1, 1, 2, true));
  ASSERT_TRUE(M);
  uint32_t Seed = 9;
  auto Rnd = [&] { return ((int)lcg(Seed)) / 3.0e8 + 1.0 / 3.0; };
  double A[8][4], B[4][8], C[8][8];
  std::vector<double> In(4 * 32), Out(2 * 32);
  for (int L = 0; L < 32; ++L) {
    int G = L >> 2, T = L % 4; // ISA: A row groupID col threadID_in_group ...
    A[G][T] = In[L] = Rnd();
    B[T][G] = In[32 + L] = Rnd(); // ... B row threadID_in_group col groupID
    for (int I = 0; I < 2; ++I)   // C/D: row groupID, col threadID*2 + i
      C[G][T * 2 + I] = In[(2 + I) * 32 + L] = Rnd();
  }
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                     Args().add(In.data()).add(Out.data())));
  for (int L = 0; L < 32; ++L) {
    int G = L >> 2, T = L % 4;
    for (int I = 0; I < 2; ++I) {
      int N = T * 2 + I;
      double Acc = C[G][N];
      for (int K = 0; K < 4; ++K)
        Acc = std::fma(A[G][K], B[K][N], Acc);
      EXPECT_EQ(Out[I * 32 + L], Acc) << "lane " << L << " d" << I;
    }
  }
}

// wmma m16n16k16 as clang emits it for nvcuda::wmma: fragments are opaque,
// so the check goes through memory (load, mma, store), with row- and
// column-major layouts and a padded stride.
struct WmmaCase {
  const char *ALay, *BLay, *CLay, *In, *Acc;
  unsigned Ld;
};

std::string wmmaKernel(const WmmaCase &W) {
  bool Bf = std::string(W.In) == "bf16", AccF32 = std::string(W.Acc) == "f32";
  unsigned NAB = Bf ? 4 : 8, NC = AccF32 ? 8 : 4;
  auto List = [](unsigned From, unsigned N) {
    std::string S = "{";
    for (unsigned K = 0; K < N; ++K)
      S += (K ? ", %r" : "%r") + std::to_string(From + K);
    return S + "}";
  };
  unsigned A0 = 10, B0 = A0 + NAB, C0 = B0 + NAB, D0 = C0 + NC;
  std::string Sfx = std::string(".m16n16k16.");
  std::string S = std::string(PtxHeader) +
                  ".visible .entry k(.param .u64 a, .param .u64 b, .param "
                  ".u64 c, .param .u64 d, .param .u32 ld) {\n"
                  "  .reg .b32 %r<50>;\n  .reg .b64 %rd<5>;\n"
                  "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
                  "  ld.param.u64 %rd3, [c];\n  ld.param.u64 %rd4, [d];\n"
                  "  ld.param.u32 %r1, [ld];\n";
  S += "  wmma.load.a.sync.aligned." + std::string(W.ALay) + Sfx + W.In + " " +
       List(A0, NAB) + ", [%rd1], %r1;\n";
  S += "  wmma.load.b.sync.aligned." + std::string(W.BLay) + Sfx + W.In + " " +
       List(B0, NAB) + ", [%rd2], %r1;\n";
  S += "  wmma.load.c.sync.aligned." + std::string(W.CLay) + Sfx + W.Acc + " " +
       List(C0, NC) + ", [%rd3], %r1;\n";
  std::string Types =
      Bf ? "f32.bf16.bf16.f32" : std::string(W.Acc) + "." + W.Acc;
  S += "  wmma.mma.sync.aligned." + std::string(W.ALay) + "." + W.BLay + Sfx +
       Types + " " + List(D0, NC) + ", " + List(A0, NAB) + ", " +
       List(B0, NAB) + ", " + List(C0, NC) + ";\n";
  S += "  wmma.store.d.sync.aligned." + std::string(W.CLay) + Sfx + W.Acc +
       " [%rd4], " + List(D0, NC) + ", %r1;\n  ret;\n}\n";
  return S;
}

TEST(Wmma, M16N16K16LoadMmaStore) {
  const WmmaCase Cases[] = {{"row", "col", "row", "f16", "f32", 16},
                            {"col", "row", "col", "f16", "f16", 24},
                            {"row", "row", "col", "f16", "f32", 20},
                            {"row", "col", "row", "bf16", "f32", 16},
                            {"col", "col", "row", "bf16", "f32", 32}};
  uint32_t Seed = 77;
  for (const WmmaCase &W : Cases) {
    std::string Text = wmmaKernel(W);
    SCOPED_TRACE(Text);
    std::string Err;
    auto M = loadText(Text, &Err);
    ASSERT_TRUE(M) << Err;
    bool Bf = std::string(W.In) == "bf16", AccF32 = std::string(W.Acc) == "f32";
    unsigned Ld = W.Ld;
    Mat A = mat(16, 16), B = mat(16, 16), C = mat(16, 16);
    std::vector<uint16_t> AM(16 * Ld, 0xffff), BM(16 * Ld, 0xffff);
    std::vector<uint32_t> CM(16 * Ld, 0xffffffffu), DM(16 * Ld, 0xeeeeeeeeu);
    auto At = [&](const char *Lay, int R, int Cl) {
      return std::string(Lay) == "row" ? R * Ld + Cl : Cl * Ld + R;
    };
    for (int R = 0; R < 16; ++R)
      for (int Cl = 0; Cl < 16; ++Cl) {
        A[R][Cl] = Bf ? randBf16Value(Seed) : randHalfValue(Seed);
        B[R][Cl] = Bf ? randBf16Value(Seed) : randHalfValue(Seed);
        C[R][Cl] = randHalfValue(Seed);
        AM[At(W.ALay, R, Cl)] =
            Bf ? (uint16_t)(floatBits(A[R][Cl]) >> 16) : toHalf(A[R][Cl]);
        BM[At(W.BLay, R, Cl)] =
            Bf ? (uint16_t)(floatBits(B[R][Cl]) >> 16) : toHalf(B[R][Cl]);
        CM[At(W.CLay, R, Cl)] = AccF32 ? floatBits(C[R][Cl]) : toHalf(C[R][Cl]);
      }
    // An f16 C/D matrix is 16-bit elements: repack.
    std::vector<uint16_t> CH(16 * Ld), DH(16 * Ld, 0xeeee);
    for (size_t K = 0; K < CH.size(); ++K)
      CH[K] = (uint16_t)CM[K];
    void *CP = AccF32 ? (void *)CM.data() : (void *)CH.data();
    void *DP = AccF32 ? (void *)DM.data() : (void *)DH.data();
    ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                       Args()
                           .add((void *)AM.data())
                           .add((void *)BM.data())
                           .add(CP)
                           .add(DP)
                           .add(Ld)));
    Mat D = refMma(A, B, C);
    for (int R = 0; R < 16; ++R)
      for (int Cl = 0; Cl < 16; ++Cl) {
        unsigned K = At(W.CLay, R, Cl);
        if (AccF32)
          EXPECT_EQ(DM[K], floatBits(D[R][Cl])) << R << "," << Cl;
        else
          EXPECT_EQ(DH[K], toHalf(D[R][Cl])) << R << "," << Cl;
      }
    // Padding between rows/columns is not written.
    for (unsigned K = 0; K < 16 * Ld; ++K)
      if (K % Ld >= 16) {
        if (AccF32)
          EXPECT_EQ(DM[K], 0xeeeeeeeeu) << K;
        else
          EXPECT_EQ(DH[K], 0xeeee) << K;
      }
  }
}

// wmma without a stride operand reads and writes packed matrices: a row
// (.row) or column (.col) after another, so the stride is the matrix's
// width or height, not 16 (m8n32k16 .s8: B row-major 32, C column-major 8).
// Integer products are exact; .satfinite clamps the s32 sum.
TEST(Wmma, PackedStrideAndIntegers) {
  auto List = [](unsigned From, unsigned N) {
    std::string S = "{";
    for (unsigned K = 0; K < N; ++K)
      S += (K ? ", %r" : "%r") + std::to_string(From + K);
    return S + "}";
  };
  std::string T = ".m8n32k16.s8";
  std::string S =
      std::string(PtxHeader) +
      ".visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, "
      ".param .u64 d) {\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<5>;\n"
      "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n"
      "  ld.param.u64 %rd3, [c];\n  ld.param.u64 %rd4, [d];\n"
      "  wmma.load.a.sync.aligned.row" +
      T + " " + List(1, 1) + ", [%rd1];\n  wmma.load.b.sync.aligned.row" + T +
      " " + List(2, 4) +
      ", [%rd2];\n  wmma.load.c.sync.aligned.col.m8n32k16.s32 " + List(6, 8) +
      ", [%rd3];\n  wmma.mma.sync.aligned.row.row.m8n32k16.s32.s8.s8.s32"
      ".satfinite " +
      List(14, 8) + ", " + List(1, 1) + ", " + List(2, 4) + ", " + List(6, 8) +
      ";\n  wmma.store.d.sync.aligned.row.m8n32k16.s32 [%rd4], " + List(14, 8) +
      ";\n  ret;\n}\n";
  SCOPED_TRACE(S);
  std::string Err;
  auto M = loadText(S, &Err);
  ASSERT_TRUE(M) << Err;
  std::vector<int8_t> A(8 * 16), B(16 * 32);
  std::vector<int32_t> C(8 * 32), D(8 * 32, 0);
  uint32_t Seed = 5;
  for (auto &X : A)
    X = (int8_t)(lcg(Seed) >> 24);
  for (auto &X : B)
    X = (int8_t)(lcg(Seed) >> 24);
  for (int I = 0; I < 8 * 32; ++I) // column-major; some near INT32_MAX
    C[I] = I % 5 == 0 ? INT32_MAX - 7 : (int32_t)(lcg(Seed) >> 12) - (1 << 19);
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                     Args()
                         .add((void *)A.data())
                         .add((void *)B.data())
                         .add((void *)C.data())
                         .add((void *)D.data())));
  for (int R = 0; R < 8; ++R)
    for (int Cl = 0; Cl < 32; ++Cl) {
      int64_t Acc = C[Cl * 8 + R];
      for (int K = 0; K < 16; ++K)
        Acc += (int64_t)A[R * 16 + K] * B[K * 32 + Cl];
      Acc = std::min<int64_t>(std::max<int64_t>(Acc, INT32_MIN), INT32_MAX);
      EXPECT_EQ(D[R * 32 + Cl], (int32_t)Acc) << R << "," << Cl;
    }
}

// ldmatrix: rows come from shared memory at the addresses lanes 8j..8j+7
// give for matrix j (here a permutation of the rows); thread L receives row
// L / 4, columns 2 (L % 4) and 2 (L % 4) + 1 (of the transpose with .trans).
TEST(Ldmatrix, X1X2X4AndTrans) {
  uint32_t Seed = 31;
  std::vector<uint16_t> Src(32 * 8);
  for (auto &V : Src)
    V = (uint16_t)(lcg(Seed) >> 16);
  std::vector<uint32_t> Perm(32);
  for (uint32_t K = 0; K < 32; ++K)
    Perm[K] = (K * 13 + 5) % 32;
  for (int N : {1, 2, 4})
    for (bool Trans : {false, true}) {
      std::string Regs = "{";
      for (int J = 0; J < N; ++J)
        Regs += (J ? ", %r" : "%r") + std::to_string(10 + J);
      Regs += "}";
      std::string Text =
          std::string(PtxHeader) +
          ".visible .entry k(.param .u64 src, .param .u64 perm, .param .u64 "
          "out) {\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<10>;\n"
          "  .shared .align 16 .b8 sh[512];\n"
          "  ld.param.u64 %rd1, [src];\n  ld.param.u64 %rd2, [perm];\n"
          "  ld.param.u64 %rd3, [out];\n  mov.u32 %r1, %tid.x;\n"
          "  mul.wide.u32 %rd4, %r1, 16;\n  add.s64 %rd5, %rd1, %rd4;\n"
          "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd5];\n"
          "  mov.u32 %r6, sh;\n  shl.b32 %r7, %r1, 4;\n"
          "  add.u32 %r8, %r6, %r7;\n"
          "  st.shared.v4.u32 [%r8], {%r2, %r3, %r4, %r5};\n  bar.sync 0;\n"
          "  mul.wide.u32 %rd6, %r1, 4;\n  add.s64 %rd7, %rd2, %rd6;\n"
          "  ld.global.u32 %r9, [%rd7];\n  shl.b32 %r9, %r9, 4;\n"
          "  add.u32 %r9, %r9, %r6;\n"
          "  ldmatrix.sync.aligned.m8n8.x" +
          std::to_string(N) + (Trans ? ".trans" : "") + ".shared.b16 " + Regs +
          ", [%r9];\n";
      for (int J = 0; J < N; ++J)
        Text += "  add.s64 %rd8, %rd3, " + std::to_string(J * 128) +
                ";\n  add.s64 %rd9, %rd8, %rd6;\n  st.global.u32 [%rd9], %r" +
                std::to_string(10 + J) + ";\n";
      Text += "  ret;\n}\n";
      SCOPED_TRACE(Text);
      std::string Err;
      auto M = loadText(Text, &Err);
      ASSERT_TRUE(M) << Err;
      std::vector<uint32_t> Out(4 * 32, 0);
      ASSERT_TRUE(
          launch(*M, "k", {1, 1, 1}, {32, 1, 1},
                 Args().add(Src.data()).add(Perm.data()).add(Out.data())));
      for (int J = 0; J < N; ++J) {
        // Matrix J's row R: the 8 elements at the address lane 8J+R gave.
        auto Elem = [&](int R, int C) { return Src[Perm[8 * J + R] * 8 + C]; };
        for (int L = 0; L < 32; ++L) {
          int R = L / 4, C = 2 * (L % 4);
          uint32_t Lo = Trans ? Elem(C, R) : Elem(R, C);
          uint32_t Hi = Trans ? Elem(C + 1, R) : Elem(R, C + 1);
          EXPECT_EQ(Out[J * 32 + L], Lo | (Hi << 16))
              << "matrix " << J << " lane " << L;
        }
      }
    }
}

// cvt.rna.tf32.f32: round to a 10-bit mantissa, ties away from zero
// (reference: scaled arithmetic in double, not bit manipulation).
float refTf32(float X) {
  if (std::isnan(X) || std::isinf(X) || X == 0)
    return X;
  double M = std::fabs((double)X);
  int E = std::ilogb(M);
  double Ulp = std::ldexp(1.0, std::max(E, -126) - 10);
  double Q = std::floor(M / Ulp + 0.5) * Ulp; // ties away for magnitudes
  return (float)std::copysign(Q, (double)X);
}

TEST(CvtTf32, RoundsToNearestTiesAway) {
  auto M = loadText(std::string(PtxHeader) + R"(
.visible .entry k(.param .u64 in, .param .u64 out) {
  .reg .b32 %r<3>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  cvt.rna.tf32.f32 %r2, %f1;
  st.global.b32 [%rd5], %r2;
  ret;
}
)");
  ASSERT_TRUE(M);
  std::vector<uint32_t> In = {
      floatBits(1.0f),     0x3f801000u,      // exactly half an ulp: away
      0xbf801000u,         0x3f800fffu,      // just below half: down
      0x3f803000u,         0x3f802000u,      // tie on an odd/even mantissa
      0x7f7fffffu,         floatBits(-0.0f), // max float rounds to inf
      0x00001234u,         0x80fff000u,      // subnormals
      floatBits(INFINITY), floatBits(3.14159265f)};
  uint32_t Seed = 1;
  while (In.size() < 64)
    In.push_back(lcg(Seed) & 0xff7fffffu); // finite values of all kinds
  std::vector<uint32_t> Out(In.size(), 0);
  ASSERT_TRUE(launch(*M, "k", {1, 1, 1}, {(uint32_t)In.size(), 1, 1},
                     Args().add(In.data()).add(Out.data())));
  for (size_t K = 0; K < In.size(); ++K)
    EXPECT_EQ(Out[K], floatBits(refTf32(bitsToFloat(In[K]))))
        << std::hex << In[K];
}

// What the emulator leaves out fails the launch with the instruction named.
TEST(MatrixErrors, UnsupportedFormsFailWithTheirName) {
  const char *Forms[] = {
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, "
      "{%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4}",
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, "
      "{%r5, %r6}, {%r7}, {%r1, %r2, %r3, %r4}",
      // ptxas rejects an .f32 D with an .f16 C for this shape.
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%r1, %r2, %r3, "
      "%r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2}",
      "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, "
      "%r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12}, {%r1, %r2, %r3, "
      "%r4}, %r13, 0",
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r1, %r2, %r3, "
      "%r4}, %rd1, %rd1, 1, 1, 1, 0, 0",
      "wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r1}, [%rd1], %r5",
      "wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, "
      "{%r3}, {%r4}, {%r1, %r2}",
      "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%r1, %r2, "
      "%r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, "
      "%r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, "
      "%r5, %r6, %r7, %r8}",
      "wmma.load.a.sync.aligned.row.m16n16k16.tf32 {%r1, %r2, %r3, %r4}, "
      "[%rd1], %r5",
      "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%r5]",
      "cvt.rn.satfinite.tf32.f32 %r1, %r2"};
  for (const char *F : Forms) {
    std::string Text = std::string(PtxHeader) +
                       ".visible .entry k() {\n  .reg .b32 %r<20>;\n  .reg "
                       ".b64 %rd<2>;\n  " +
                       F + ";\n  ret;\n}\n";
    std::string Err;
    auto M = loadText(Text, &Err);
    ASSERT_TRUE(M) << F << ": " << Err;
    EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {32, 1, 1}, Args(), &Err)) << F;
    std::string Opc(F, std::strchr(F, ' '));
    EXPECT_NE(Err.find("unsupported instruction"), std::string::npos) << Err;
    EXPECT_NE(Err.find(Opc), std::string::npos) << Err;
    EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
  }
}

// A warp matrix instruction needs the whole warp: fewer lanes fail.
TEST(MatrixErrors, PartialWarpFails) {
  auto M = loadText(fragKernel(
      "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {D}, {A}, {B}, {C}", 2,
      1, 1, 2, true));
  ASSERT_TRUE(M);
  std::vector<double> In(4 * 32, 1.0), Out(2 * 32);
  std::string Err;
  EXPECT_FALSE(launch(*M, "k", {1, 1, 1}, {16, 1, 1},
                      Args().add(In.data()).add(Out.data()), &Err));
  EXPECT_NE(Err.find("16 of 32 lanes"), std::string::npos) << Err;
}

} // namespace
