#include "TestUtil.h"
#include "ptx/ops_common.h"

#include <cmath>
#include <cstring>

using namespace emutest;

namespace {

void runIntOps(const char *File) {
  auto M = load(File);
  ASSERT_TRUE(M);
  const int N = 200;
  std::vector<int32_t> A(N), B(N);
  uint32_t Seed = 12345;
  auto Rnd = [&]() {
    Seed = Seed * 1664525u + 1013904223u;
    return Seed;
  };
  for (int I = 0; I < N; ++I) {
    A[I] = (int32_t)Rnd();
    B[I] = (int32_t)Rnd() >> (I % 24);
    if (I % 7 == 0)
      A[I] = -A[I] % 1000;
    if (B[I] == 0 || B[I] == -1)
      B[I] = 3;
  }
  A[0] = INT32_MIN + 1;
  B[0] = 7;
  A[1] = 0;
  B[1] = -5;
  std::vector<uint64_t> Out((size_t)N * NINT, 0xdead), Exp((size_t)N * NINT);
  for (int I = 0; I < N; ++I)
    intOps(A[I], B[I], &Exp[(size_t)I * NINT]);
  launch(*M, firstKernel(*M), {4, 1, 1}, {64, 1, 1},
         Args().add(A.data()).add(B.data()).add(Out.data()).add(N));
  for (int I = 0; I < N; ++I)
    for (int K = 0; K < NINT; ++K)
      ASSERT_EQ(Out[(size_t)I * NINT + K], Exp[(size_t)I * NINT + K])
          << File << " input " << I << " (a=" << A[I] << ", b=" << B[I]
          << ") output " << K;
}

} // namespace

TEST(IntOps, O2) { runIntOps("intops_O2.ptx"); }
TEST(IntOps, O3) { runIntOps("intops_O3.ptx"); }
TEST(IntOps, O0) { runIntOps("intops_O0.ptx"); }

#include "ptx/float_common.h"

namespace {
void runFloatOps(const char *File) {
  auto M = load(File);
  ASSERT_TRUE(M);
  const int N = 150;
  std::vector<float> A(N), B(N);
  std::vector<double> DA(N), DB(N);
  uint32_t Seed = 777;
  auto Rnd = [&]() {
    Seed = Seed * 1664525u + 1013904223u;
    return Seed;
  };
  for (int I = 0; I < N; ++I) {
    // Keep conversions in range: out-of-range float->int is UB on the host.
    A[I] = (float)((int32_t)Rnd() >> 8) / (float)(1u << (8 + Rnd() % 20));
    B[I] =
        (float)((int32_t)Rnd() >> 8) / (float)(1u << (8 + Rnd() % 20)) + 0.1f;
    DA[I] = (double)((int32_t)Rnd() >> 12) / 7000.0 + (double)Rnd() * 1e-12;
    DB[I] = (double)((int32_t)Rnd() >> 12) / 13000.0 - 1.0 / 3.0;
  }
  A[2] = -0.0f;
  B[2] = -0.0f;
  A[3] = 0.5f;
  A[4] = 1e-40f;
  A[5] = 70000.0f / 1024;
  A[6] = 2.5e-3f;
  A[7] = -2.5e-3f;
  A[8] = 1.0005f;
  std::vector<uint64_t> Out((size_t)N * NFLT, 0xdead), Exp((size_t)N * NFLT);
  for (int I = 0; I < N; ++I)
    floatOps(A[I], B[I], DA[I], DB[I], &Exp[(size_t)I * NFLT]);
  launch(*M, firstKernel(*M), {3, 1, 1}, {64, 1, 1},
         Args()
             .add(A.data())
             .add(B.data())
             .add(DA.data())
             .add(DB.data())
             .add(Out.data())
             .add(N));
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    for (int K = 0; K < NFLT; ++K) {
      uint64_t G = Out[(size_t)I * NFLT + K], E = Exp[(size_t)I * NFLT + K];
      if (G != E && Bad++ < 20)
        ADD_FAILURE() << File << " input " << I << " (a=" << A[I]
                      << ", b=" << B[I] << ", da=" << DA[I] << ", db=" << DB[I]
                      << ") output " << K << ": got 0x" << std::hex << G
                      << " expected 0x" << E << std::dec;
    }
}
} // namespace

TEST(FloatOps, O2) { runFloatOps("floatops_O2.ptx"); }
TEST(FloatOps, O0) { runFloatOps("floatops_O0.ptx"); }
