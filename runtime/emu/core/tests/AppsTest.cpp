// Classic kernels (ptx/apps.cu) at -O0/-O2/-O3 against host references.
#include "TestUtil.h"

#include <algorithm>
#include <numeric>

using namespace emutest;

namespace {

class Apps : public ModuleFixture {
protected:
  std::string k(const std::string &Plain) { return mangled(Plain); }
};

TEST_P(Apps, Sgemm) {
  const int Mm = 37, N = 29, K = 45;
  std::vector<float> A(Mm * K), B(K * N), C(Mm * N, -1);
  for (int I = 0; I < Mm * K; ++I)
    A[I] = (float)((I * 7) % 13) - 6;
  for (int I = 0; I < K * N; ++I)
    B[I] = (float)((I * 5) % 11) - 5;
  launch(
      *M, k("sgemm"), {(N + 15) / 16, (Mm + 15) / 16, 1}, {16, 16, 1},
      Args().add(A.data()).add(B.data()).add(C.data()).add(Mm).add(N).add(K));
  for (int R = 0; R < Mm; ++R)
    for (int Cc = 0; Cc < N; ++Cc) {
      float E = 0;
      for (int J = 0; J < K; ++J)
        E += A[R * K + J] * B[J * N + Cc];
      ASSERT_EQ(C[R * N + Cc], E) << R << "," << Cc;
    }
}

TEST_P(Apps, Histogram) {
  const int N = 10000;
  std::vector<unsigned char> In(N);
  uint32_t S = 3;
  for (auto &V : In)
    V = (unsigned char)(lcg(S) >> 13);
  std::vector<unsigned> Bins(256, 0), E(256, 0);
  for (auto V : In)
    E[V]++;
  launch(*M, k("histogram"), {5, 1, 1}, {192, 1, 1},
         Args().add(In.data()).add(N).add(Bins.data()));
  EXPECT_EQ(Bins, E);
}

TEST_P(Apps, WarpReduce) {
  const int N = 1000;
  std::vector<int> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = I * 3 - 700;
  int Out = 0;
  launch(*M, k("warpsum"), {8, 1, 1}, {128, 1, 1},
         Args().add(In.data()).add(&Out).add(N));
  EXPECT_EQ(Out, std::accumulate(In.begin(), In.end(), 0));
}

TEST_P(Apps, BlockScanWithEarlyReturn) {
  const int N = 300, B = 128;
  std::vector<int> In(N), Out(N, 0);
  for (int I = 0; I < N; ++I)
    In[I] = (I % 17) - 4;
  launch(*M, k("scan"), {4, 1, 1}, {B, 1, 1},
         Args().add(In.data()).add(Out.data()).add(N), nullptr,
         B * sizeof(int));
  for (int Blk = 0; Blk * B < N; ++Blk) {
    int Acc = 0;
    for (int I = Blk * B; I < std::min(N, (Blk + 1) * B); ++I) {
      Acc += In[I];
      ASSERT_EQ(Out[I], Acc) << I;
    }
  }
}

TEST_P(Apps, BitonicSort) {
  const int B = 256, G = 3;
  std::vector<int> D(B * G);
  uint32_t S = 11;
  for (auto &V : D)
    V = (int)(lcg(S) % 100000) - 50000;
  std::vector<int> E = D;
  for (int Blk = 0; Blk < G; ++Blk)
    std::sort(E.begin() + Blk * B, E.begin() + (Blk + 1) * B);
  launch(*M, k("bitonic"), {G, 1, 1}, {B, 1, 1}, Args().add(D.data()), nullptr,
         B * sizeof(int));
  EXPECT_EQ(D, E);
}

TEST_P(Apps, StencilEarlyExit) {
  const int N = 300;
  std::vector<float> In(N), Out(N, -1);
  for (int I = 0; I < N; ++I)
    In[I] = (float)(I % 9);
  launch(*M, k("stencil"), {3, 1, 1}, {128, 1, 1},
         Args().add(In.data()).add(Out.data()).add(N));
  for (int I = 0; I < N; ++I) {
    float E = (I > 0 ? In[I - 1] : 0) + In[I] + (I + 1 < N ? In[I + 1] : 0);
    ASSERT_EQ(Out[I], E) << I;
  }
}

INSTANTIATE_TEST_SUITE_P(Ptx, Apps,
                         ::testing::Values("apps_O0.ptx", "apps_O2.ptx",
                                           "apps_O3.ptx"),
                         [](const auto &Info) {
                           std::string S = Info.param;
                           return S.substr(5, S.size() - 9);
                         });

} // namespace

namespace {
// Virtual functions and function pointers: indirect calls, also with
// different targets in one warp.
void runVcall(const char *File) {
  auto M = load(File);
  ASSERT_TRUE(M);
  std::vector<int> Sel(64), Out(64, -12345);
  for (int T = 0; T < 64; ++T)
    Sel[T] = T < 32 ? 1 : (T * 7) % 3; // warp 0 uniform, warp 1 mixed
  launch(*M, M->kernels()[0].Name, {1, 1, 1}, {64, 1, 1},
         Args().add(Sel.data()).add(Out.data()));
  for (int T = 0; T < 64; ++T) {
    int A = Sel[T] == 0 ? T : Sel[T] == 1 ? T * T : 2 * T + 1;
    int B = (Sel[T] & 1) ? -T : T + 1;
    EXPECT_EQ(Out[T], A + B) << T;
  }
}
TEST(IndirectCalls, O0) { runVcall("vcall_O0.ptx"); }
TEST(IndirectCalls, O2) { runVcall("vcall_O2.ptx"); }
} // namespace
