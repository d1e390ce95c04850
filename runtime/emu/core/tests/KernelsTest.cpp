// Runs the kernels of ptx/kernels.cu (compiled at several optimization and
// debug levels) and compares with host-computed results.
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

using namespace emutest;

namespace {

class Kernels : public ModuleFixture {};

TEST_P(Kernels, WarpOps) {
  const int N = 64;
  std::vector<int> In(N);
  uint32_t S = 9;
  for (int I = 0; I < N; ++I)
    In[I] = (int)(lcg(S) % 2000);
  std::vector<unsigned> Out(N * 8, 0xdeadbeef);
  launch(*M, mangled("warpops"), {1, 1, 1}, {64, 1, 1},
         Args().add(In.data()).add(Out.data()));
  for (int W = 0; W < 2; ++W) {
    unsigned Ballot = 0, Any = 0, All = 1, B4 = 0, Sum = 0, Max = 0;
    std::map<int, unsigned> Match;
    unsigned Act = 0;
    for (int L = 0; L < 32; ++L) {
      int V = In[W * 32 + L];
      Ballot |= (unsigned)(V & 1) << L;
      Any |= V > 1000;
      All &= V >= 0;
      B4 |= (unsigned)((V & 4) != 0) << L;
      Sum += V;
      Max = std::max(Max, (unsigned)V);
      Match[V & 3] |= 1u << L;
      if (V & 2)
        Act |= 1u << L;
    }
    unsigned Uni = B4 == 0 || B4 == 0xffffffffu;
    for (int L = 0; L < 32; ++L) {
      int T = W * 32 + L;
      int V = In[T];
      const unsigned *O = &Out[T * 8];
      EXPECT_EQ(O[0], (unsigned)In[W * 32 + ((L * 7) & 31)]) << T;
      EXPECT_EQ(O[1], (unsigned)In[W * 32 + (L >= 3 ? L - 3 : L)]) << T;
      int Seg = L & ~15, Src = L + 5;
      EXPECT_EQ(O[2], (unsigned)In[W * 32 + (Src < Seg + 16 ? Src : L)]) << T;
      EXPECT_EQ(O[3], (unsigned)In[W * 32 + (L ^ 6)]) << T;
      EXPECT_EQ(O[4], Ballot) << T;
      EXPECT_EQ(O[5], Any | (All << 1) | (Uni << 2)) << T;
      EXPECT_EQ(O[6], Sum ^ Max) << T;
      EXPECT_EQ(O[7], ((V & 2) ? Act : 0u) ^ Match[V & 3]) << T;
    }
  }
}

TEST_P(Kernels, Atomics) {
  int GI[10] = {0, -1000, 1000, -1, 0, 0, 0, 0, 0, 0};
  unsigned GU[4] = {0, 5, 0, 0};
  float GF = 0;
  double GD = 0;
  unsigned long long GL = 0;
  const int Blocks = 3, Threads = 96, NT = Blocks * Threads;
  // The cas chain gu[3] is exact only with the CTAs in order: one emulator
  // thread (ThreadsTest.cpp checks the other atomics with two).
  setenv("WARPSCOPE_EMU_THREADS", "1", 1);
  launch(*M, mangled("atomics"), {Blocks, 1, 1}, {Threads, 1, 1},
         Args().add(&GI[0]).add(&GU[0]).add(&GF).add(&GD).add(&GL));
  unsetenv("WARPSCOPE_EMU_THREADS");
  int EI[10] = {0, -1000, 1000, -1, 0, 0, 0, 0, 0, 0};
  unsigned EU[4] = {0, 5, 0, 0};
  int SI[Blocks][4] = {};
  unsigned long long EL = 0;
  // Sequential order matches the emulator (threads in order); the results
  // of these operations are order-independent anyway, except inc/dec/cas.
  for (int T = 0; T < NT; ++T) {
    EI[0] += T;
    EI[1] = std::max(EI[1], T * 3 - 100);
    EI[2] = std::min(EI[2], 50 - T);
    EI[3] &= ~(1 << (T % 31));
    EI[4] |= 1 << (T % 29);
    EI[5] ^= (int)((unsigned)T * 0x1234567u);
    EU[0] = EU[0] >= 17u ? 0 : EU[0] + 1;
    EU[1] = (EU[1] == 0 || EU[1] > 9u) ? 9u : EU[1] - 1;
    EU[2] = 7;
    if (EU[3] == (unsigned)T)
      EU[3] = T + 1;
    EL += (unsigned long long)T << 33;
    int B = T / Threads;
    SI[B][T & 3] += 1;
  }
  for (int B = 0; B < Blocks; ++B) {
    for (int T = B * Threads; T < (B + 1) * Threads; ++T)
      SI[B][(T + 1) & 3] = std::max(SI[B][(T + 1) & 3], T);
    for (int K = 0; K < 4; ++K)
      EI[6 + K] += SI[B][K];
  }
  for (int K = 0; K < 10; ++K)
    EXPECT_EQ(GI[K], EI[K]) << "gi[" << K << "]";
  for (int K = 0; K < 4; ++K)
    EXPECT_EQ(GU[K], EU[K]) << "gu[" << K << "]";
  EXPECT_EQ(GF, 0.5f * NT);
  EXPECT_EQ(GD, 0.25 * NT);
  EXPECT_EQ(GL, EL);
}

TEST_P(Kernels, TransposeShared2D) {
  const int W = 37, H = 21;
  std::vector<float> In(W * H), Out(W * H, -1);
  for (int I = 0; I < W * H; ++I)
    In[I] = (float)I * 0.5f;
  launch(*M, mangled("transpose"), {(W + 15) / 16, (H + 15) / 16, 1},
         {16, 16, 1}, Args().add(In.data()).add(Out.data()).add(W).add(H));
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      ASSERT_EQ(Out[X * H + Y], In[Y * W + X]) << X << "," << Y;
}

TEST_P(Kernels, ReduceDynamicShared) {
  const int N = 1000, B = 128, G = (N + B - 1) / B;
  std::vector<int> In(N), Out(G, -1);
  for (int I = 0; I < N; ++I)
    In[I] = I * 3 - 500;
  launch(*M, mangled("reduce"), {G, 1, 1}, {B, 1, 1},
         Args().add(In.data()).add(Out.data()).add(N), nullptr,
         B * sizeof(int));
  for (int K = 0; K < G; ++K) {
    int E = 0;
    for (int I = K * B; I < std::min(N, (K + 1) * B); ++I)
      E += In[I];
    EXPECT_EQ(Out[K], E) << K;
  }
}

TEST_P(Kernels, LocalMemory) {
  const int N = 96;
  std::vector<int> Idx(N), Out(N, -1);
  uint32_t S = 5;
  for (int I = 0; I < N; ++I)
    Idx[I] = (int)(lcg(S) % 1000);
  launch(*M, mangled("localmem"), {3, 1, 1}, {32, 1, 1},
         Args().add(Idx.data()).add(Out.data()));
  for (int T = 0; T < N; ++T) {
    int A[24];
    for (int K = 0; K < 24; ++K)
      A[K] = T * K + 1;
    for (int K = 0; K < 24; ++K)
      A[(K * 7) % 24] += A[K] ^ Idx[T];
    EXPECT_EQ(Out[T], A[Idx[T] % 24] + A[(Idx[T] + 5) % 24]) << T;
  }
}

struct CallsArg {
  int a;
  double b;
};
int fibH(int N) { return N < 2 ? N : fibH(N - 1) + fibH(N - 2); }

TEST_P(Kernels, DeviceCalls) {
  CallsArg P{3, 0.125};
  std::vector<int> OI(64, -1);
  std::vector<double> OD(64, -1);
  launch(*M, mangled("calls"), {1, 1, 1}, {64, 1, 1},
         Args().add(P).add(OI.data()).add(OD.data()));
  for (int T = 0; T < 64; ++T) {
    EXPECT_EQ(OI[T], fibH(T % 12) + 6 * T) << T;
    EXPECT_EQ(OD[T], (double)(P.a * (float)T) + P.b) << T;
  }
}

TEST_P(Kernels, DivergenceGroundTruth) {
  std::vector<int> Out(256, -1);
  std::string K = mangled("diverge");
  launch(*M, K, {1, 1, 1}, {128, 1, 1}, Args().add(Out.data()));
  for (int T = 0; T < 128; ++T)
    EXPECT_EQ(Out[T], (T & 1) ? fibH(T & 7) : T + 100);
  std::string KU = mangled("uniform");
  launch(*M, KU, {4, 1, 1}, {64, 1, 1}, Args().add(Out.data()));
  std::string J = M->groundTruthJson();
  auto TI = truthOf(J, K);
  ASSERT_FALSE(TI.empty());
  int Cond = 0;
  uint64_t TotalThreads = 0;
  for (auto &I : TI) {
    if (I.HasVisits) {
      ++Cond;
      EXPECT_EQ(I.Visits, 4u) << I.Opcode;
      EXPECT_EQ(I.Divergent, 4u) << I.Opcode;
    }
    TotalThreads += I.Thread;
    EXPECT_LE(I.Thread, I.Warp * 32);
  }
  EXPECT_EQ(Cond, 1);
  for (int T = 0; T < 256; ++T)
    EXPECT_EQ(Out[T], ((T / 64) & 1) ? fibH(T & 7) : T + 100);
  auto TU = truthOf(J, KU);
  int CondU = 0;
  for (auto &I : TU)
    if (I.HasVisits) {
      ++CondU;
      EXPECT_EQ(I.Visits, 8u);
      EXPECT_EQ(I.Divergent, 0u);
    }
  EXPECT_EQ(CondU, 1);
  EXPECT_NE(J.find("\"launches\":[\n{\"kernel\":\"" + K +
                   "\",\"grid\":[1,1,1],\"block\":[128,1,1]"),
            std::string::npos);
}

TEST_P(Kernels, NestedDivergence) {
  const int N = 256;
  std::vector<int> In(N), Out(N, -12345);
  uint32_t S = 77;
  for (int I = 0; I < N; ++I)
    In[I] = (int)(lcg(S) % 200) - 20;
  launch(*M, mangled("nested"), {4, 1, 1}, {64, 1, 1},
         Args().add(In.data()).add(Out.data()));
  for (int T = 0; T < N; ++T) {
    int X = In[T], Acc = 0;
    if (X < 0) {
      EXPECT_EQ(Out[T], -12345);
      continue;
    }
    for (int K = 0; K < (X & 15); ++K) {
      if ((K ^ X) & 2)
        Acc += K;
      else if (K > 7)
        break;
      else
        Acc -= 1;
    }
    switch (X % 5) {
    case 0:
      Acc *= 3;
      break;
    case 1:
      Acc += 77;
      break;
    case 2:
      Acc ^= 0x55;
      break;
    case 3:
      Acc -= 9;
      break;
    default:
      break;
    }
    EXPECT_EQ(Out[T], Acc) << T;
  }
}

TEST_P(Kernels, Printf) {
  std::string Got;
  capturePrintf(&Got);
  launch(*M, mangled("hello"), {1, 1, 1}, {3, 1, 1}, Args().add(3));
  setPrintfSink(nullptr);
  EXPECT_EQ(Got, "hello 0 of 3: str  0.00 123456789ab A\n"
                 "hello 1 of 3: str  1.50 123456789ab B\n"
                 "hello 2 of 3: str  3.00 123456789ab C\n");
}

// __syncthreads() reached by the odd lanes only: the even lanes run ahead and
// exit, and exited threads do not hold a barrier (as on Volta+ GPUs).
TEST_P(Kernels, DivergentSyncthreadsCompletes) {
  std::vector<int> Out(64, 0);
  launch(*M, mangled("deadlock"), {1, 1, 1}, {64, 1, 1},
         Args().add(Out.data()));
  for (int T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], 1);
}

TEST_P(Kernels, Malloc) {
  std::vector<int> Out(40, -1);
  launch(*M, mangled("heap"), {1, 1, 1}, {40, 1, 1}, Args().add(Out.data()));
  for (int T = 0; T < 40; ++T)
    EXPECT_EQ(Out[T], 2 * T + 3);
}

TEST_P(Kernels, SharedOutOfRangeIsAnError) {
  std::vector<int> Out(64, 0);
  std::string Err;
  EXPECT_TRUE(launch(*M, mangled("oob"), {1, 1, 1}, {8, 1, 1},
                     Args().add(Out.data()), &Err))
      << Err;
  EXPECT_FALSE(launch(*M, mangled("oob"), {2, 1, 1}, {16, 1, 1},
                      Args().add(Out.data()), &Err));
  EXPECT_NE(Err.find("shared memory access out of range"), std::string::npos)
      << Err;
  EXPECT_NE(Err.find("thread (8,0,0)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("block (0,0,0)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("PTX line"), std::string::npos) << Err;
}

TEST_P(Kernels, SpecialRegisters3D) {
  Dim3 G{3, 2, 2}, B{8, 4, 3};
  const unsigned NB = B.X * B.Y * B.Z, NT = NB * G.X * G.Y * G.Z;
  std::vector<unsigned> Out(NT * 8, 0xdeadbeef);
  launch(*M, mangled("dims"), G, B, Args().add(Out.data()), nullptr, 48);
  for (unsigned Z = 0; Z < G.Z; ++Z)
    for (unsigned Y = 0; Y < G.Y; ++Y)
      for (unsigned X = 0; X < G.X; ++X)
        for (unsigned TZ = 0; TZ < B.Z; ++TZ)
          for (unsigned TY = 0; TY < B.Y; ++TY)
            for (unsigned TX = 0; TX < B.X; ++TX) {
              unsigned Lin = (TZ * B.Y + TY) * B.X + TX;
              unsigned T = ((Z * G.Y + Y) * G.X + X) * NB + Lin;
              const unsigned *O = &Out[T * 8];
              ASSERT_EQ(O[0], TX | TY << 8 | TZ << 16);
              ASSERT_EQ(O[1], X | Y << 8 | Z << 16);
              ASSERT_EQ(O[2], B.X | B.Y << 8 | B.Z << 16);
              ASSERT_EQ(O[3], G.X | G.Y << 8 | G.Z << 16);
              ASSERT_EQ(O[4], Lin % 32);
              ASSERT_EQ(O[5], Lin / 32);
              ASSERT_EQ(O[6], 1u | ((~0u << (Lin % 32)) << 1));
              ASSERT_EQ(O[7], 48u);
            }
}

TEST_P(Kernels, ExitThenBarrier) {
  std::vector<int> Out(96, 0);
  launch(*M, mangled("early_exit"), {1, 1, 1}, {96, 1, 1},
         Args().add(Out.data()));
  for (int T = 0; T < 96; ++T)
    EXPECT_EQ(Out[T], T % 3 == 0 ? 0 : T + 1) << T;
}

TEST_P(Kernels, TrapIsAnError) {
  std::vector<int> Flag(64, 0), Out(64, 0);
  std::string Err;
  EXPECT_TRUE(launch(*M, mangled("traps"), {1, 1, 1}, {64, 1, 1},
                     Args().add(Flag.data()).add(Out.data()), &Err));
  Flag[37] = 1;
  EXPECT_FALSE(launch(*M, mangled("traps"), {1, 1, 1}, {64, 1, 1},
                      Args().add(Flag.data()).add(Out.data()), &Err));
  EXPECT_NE(Err.find("trap"), std::string::npos) << Err;
  EXPECT_NE(Err.find("thread (37,0,0)"), std::string::npos) << Err;
  EXPECT_NE(Err.find("kernel _Z5traps"), std::string::npos) << Err;
}

TEST_P(Kernels, CheckedGlobalAccess) {
  std::vector<int> Buf(100, -7);
  registerAllocation(Buf.data(), 64 * sizeof(int));
  std::string Err;
  LaunchFault Fault = LaunchFault::None;
  bool Ok1 = launch(*M, mangled("bounded"), {2, 1, 1}, {32, 1, 1},
                    Args().add(Buf.data()).add(64), &Err, 0, true, &Fault);
  EXPECT_TRUE(Ok1) << Err;
  bool Ok2 = launch(*M, mangled("bounded"), {2, 1, 1}, {64, 1, 1},
                    Args().add(Buf.data()).add(65), &Err, 0, true, &Fault);
  unregisterAllocation(Buf.data());
  EXPECT_FALSE(Ok2);
  EXPECT_EQ(Fault, LaunchFault::IllegalAddress);
  char Where[64];
  std::snprintf(Where, sizeof Where, "0x%llx",
                (unsigned long long)(uintptr_t)(Buf.data() + 64));
  char Base[64];
  std::snprintf(Base, sizeof Base, "0x%llx",
                (unsigned long long)(uintptr_t)Buf.data());
  EXPECT_NE(Err.find(std::string("illegal address: write of 4 bytes at ") +
                     Where +
                     " is outside every allocation: 0 bytes after the "
                     "nearest allocation, at " +
                     Base + " of 256 bytes"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("block (1,0,0), thread (0,0,0)"), std::string::npos)
      << Err;
  EXPECT_EQ(Buf[64], -7) << "the store past the end was made";
  // Without checking the same launch just runs (the buffer is big enough).
  EXPECT_TRUE(launch(*M, mangled("bounded"), {2, 1, 1}, {64, 1, 1},
                     Args().add(Buf.data()).add(65), &Err))
      << Err;
  EXPECT_EQ(Buf[64], 64);
}

INSTANTIATE_TEST_SUITE_P(Ptx, Kernels,
                         ::testing::Values("kernels_O0.ptx", "kernels_O2.ptx",
                                           "kernels_O3.ptx", "kernels_O2g.ptx",
                                           "kernels_O1gl.ptx"),
                         [](const auto &Info) {
                           std::string S = Info.param;
                           return S.substr(8, S.size() - 12);
                         });

} // namespace
