// CTAs on several host threads (WARPSCOPE_EMU_THREADS): results, ground
// truth, printf output and errors are the same with 1 and 2 threads, and a
// worker's TraceSink sees exactly the instructions the counters count.
#include "../Exec.h"
#include "TestUtil.h"

#include <cstdlib>
#include <functional>
#include <numeric>

using namespace emutest;

namespace {

// Sets WARPSCOPE_EMU_THREADS for the scope (read at each launch).
struct ThreadsEnv {
  explicit ThreadsEnv(int N) {
    setenv("WARPSCOPE_EMU_THREADS", std::to_string(N).c_str(), 1);
  }
  ~ThreadsEnv() { unsetenv("WARPSCOPE_EMU_THREADS"); }
};

// Buffers at the same alignment in every run: the memory-efficiency counts
// (32-byte sectors) depend on the addresses' offsets.
template <class T> struct Aligned {
  using value_type = T;
  Aligned() = default;
  template <class U> Aligned(const Aligned<U> &) {}
  T *allocate(size_t N) {
    return static_cast<T *>(
        ::operator new(N * sizeof(T), std::align_val_t(256)));
  }
  void deallocate(T *P, size_t) { ::operator delete(P, std::align_val_t(256)); }
  template <class U> bool operator==(const Aligned<U> &) const { return true; }
  template <class U> bool operator!=(const Aligned<U> &) const { return false; }
};
template <class T> using AVec = std::vector<T, Aligned<T>>;

// What one run of a scenario left: its output buffers (as bytes), the
// module's ground truth and printf output.
struct Outcome {
  std::vector<std::vector<unsigned char>> Buffers;
  std::string Truth, Printed;
};

// Runs Scenario on a fresh module of File with N threads.
using Scenario = std::function<void(Module &, Outcome &)>;
Outcome runWith(int N, const char *File, const Scenario &S) {
  ThreadsEnv Env(N);
  auto M = load(File);
  Outcome O;
  if (!M) {
    ADD_FAILURE() << "cannot load " << File;
    return O;
  }
  capturePrintf(&O.Printed);
  S(*M, O);
  setPrintfSink(nullptr);
  O.Truth = M->groundTruthJson();
  return O;
}

template <class Vec> std::vector<unsigned char> bytes(const Vec &V) {
  return {(const unsigned char *)V.data(),
          (const unsigned char *)(V.data() + V.size())};
}

void expectSameWith1And2(const char *File, const Scenario &S) {
  Outcome One = runWith(1, File, S), Two = runWith(2, File, S);
  ASSERT_FALSE(One.Truth.empty());
  EXPECT_EQ(One.Buffers, Two.Buffers);
  EXPECT_EQ(One.Printed, Two.Printed);
  // The whole document: every counter of every instruction, the launches.
  EXPECT_EQ(One.Truth, Two.Truth);
}

const char *Levels[] = {"apps_O0.ptx", "apps_O2.ptx", "apps_O3.ptx"};

TEST(Threads, HistogramSameWith1And2Threads) {
  for (const char *File : Levels)
    expectSameWith1And2(File, [](Module &M, Outcome &O) {
      const int N = 40000;
      AVec<unsigned char> In(N);
      uint32_t S = 5;
      for (auto &V : In)
        V = (unsigned char)(lcg(S) >> 17);
      AVec<unsigned> Bins(256, 0), E(256, 0);
      for (auto V : In)
        E[V]++;
      ASSERT_TRUE(launch(M, kernelNamed(M, "histogram"), {24, 1, 1},
                         {128, 1, 1},
                         Args().add(In.data()).add(N).add(Bins.data())));
      EXPECT_EQ(Bins, E);
      O.Buffers.push_back(bytes(Bins));
    });
}

TEST(Threads, SgemmScanWarpsumSameWith1And2Threads) {
  for (const char *File : Levels)
    expectSameWith1And2(File, [](Module &M, Outcome &O) {
      const int Mm = 40, N = 36, K = 20;
      AVec<float> A(Mm * K), B(K * N), C(Mm * N, -1);
      for (int I = 0; I < Mm * K; ++I)
        A[I] = (float)((I * 7) % 13) - 6;
      for (int I = 0; I < K * N; ++I)
        B[I] = (float)((I * 5) % 11) - 5;
      ASSERT_TRUE(launch(
          M, kernelNamed(M, "sgemm"), {3, 3, 1}, {16, 16, 1},
          Args().add(A.data()).add(B.data()).add(C.data()).add(Mm).add(N).add(
              K)));
      O.Buffers.push_back(bytes(C));
      const int NS = 1000;
      AVec<int> In(NS), Out(NS, 0);
      for (int I = 0; I < NS; ++I)
        In[I] = (I % 17) - 4;
      ASSERT_TRUE(launch(M, kernelNamed(M, "scan"), {8, 1, 1}, {128, 1, 1},
                         Args().add(In.data()).add(Out.data()).add(NS), nullptr,
                         128 * sizeof(int)));
      O.Buffers.push_back(bytes(Out));
      AVec<int> SumV(1, 0);
      int &Sum = SumV[0];
      ASSERT_TRUE(launch(M, kernelNamed(M, "warpsum"), {16, 1, 1}, {64, 1, 1},
                         Args().add(In.data()).add(&Sum).add(NS)));
      EXPECT_EQ(Sum, std::accumulate(In.begin(), In.end(), 0));
    });
}

// Global atomics of every kind from many CTAs; only results that do not
// depend on the order of the atomics are compared (not cas chains).
TEST(Threads, AtomicsSameWith1And2Threads) {
  for (const char *File : {"kernels_O0.ptx", "kernels_O2.ptx"})
    expectSameWith1And2(File, [](Module &M, Outcome &O) {
      AVec<int> GI = {0, -1000, 1000, -1, 0, 0, 0, 0, 0, 0};
      AVec<unsigned> GU = {0, 5, 0, 0};
      AVec<float> GFv(1, 0);
      AVec<double> GDv(1, 0);
      AVec<unsigned long long> GLv(1, 0);
      float &GF = GFv[0];
      double &GD = GDv[0];
      unsigned long long &GL = GLv[0];
      const int Blocks = 32, Threads = 64;
      ASSERT_TRUE(
          launch(M, kernelNamed(M, "atomics"), {Blocks, 1, 1}, {Threads, 1, 1},
                 Args().add(&GI[0]).add(&GU[0]).add(&GF).add(&GD).add(&GL)));
      const int NT = Blocks * Threads;
      EXPECT_EQ(GI[0], NT * (NT - 1) / 2);
      EXPECT_EQ(GF, 0.5f * NT);
      EXPECT_EQ(GD, 0.25 * NT);
      EXPECT_EQ(GU[0], (unsigned)(NT % 18)); // atomicInc wraps at 17
      GU[3] = 0;                             // a cas chain: order-dependent
      O.Buffers.push_back(bytes(GI));
      O.Buffers.push_back(bytes(GU));
      O.Buffers.push_back(bytes(std::vector<double>{GF, GD, (double)GL}));
    });
}

// Every thread of 64 CTAs hammers the same words: lost updates would show
// as soon as two workers overlap (fetch-ops and compare-and-swap loops).
const char *ContendPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry contend(.param .u64 p, .param .u32 n) {
  .reg .u64 %rd<3>;
  .reg .u32 %r<5>;
  .reg .f64 %fd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
L:
  atom.global.add.u32 %r3, [%rd1], 1;
  red.global.add.f32 [%rd1+4], 0f3F800000;
  atom.global.inc.u32 %r3, [%rd1+8], 1000000000;
  mov.u32 %r4, %tid.x;
  atom.global.max.s32 %r3, [%rd1+12], %r4;
  atom.global.add.u64 %rd2, [%rd1+16], 3;
  atom.global.add.f64 %fd1, [%rd1+24], 0d3FF0000000000000;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra L;
  ret;
}
)";

TEST(Threads, ContendedGlobalAtomicsAreExact) {
  for (int N : {1, 2}) {
    ThreadsEnv Env(N);
    std::string Err;
    auto M = loadText(ContendPtx, &Err);
    ASSERT_TRUE(M) << Err;
    struct {
      uint32_t Add;
      float FAdd;
      uint32_t Inc;
      int32_t Max;
      uint64_t Add64;
      double DAdd;
    } W = {0, 0, 0, -1, 0, 0};
    void *P = &W;
    const uint32_t Iters = 40, Total = 64 * 256 * Iters;
    ASSERT_TRUE(launch(*M, "contend", {64, 1, 1}, {256, 1, 1},
                       Args().add(P).add(Iters), &Err))
        << Err;
    EXPECT_EQ(W.Add, Total) << N << " threads";
    EXPECT_EQ(W.FAdd, (float)Total) << N << " threads";
    EXPECT_EQ(W.Inc, Total) << N << " threads";
    EXPECT_EQ(W.Max, 255) << N << " threads";
    EXPECT_EQ(W.Add64, 3ull * Total) << N << " threads";
    EXPECT_EQ(W.DAdd, (double)Total) << N << " threads";
  }
}

TEST(Threads, PrintfInCtaOrder) {
  expectSameWith1And2("kernels_O2.ptx", [](Module &M, Outcome &O) {
    ASSERT_TRUE(launch(M, kernelNamed(M, "hello"), {40, 1, 1}, {3, 1, 1},
                       Args().add(3)));
    // 40 blocks of 3 lines, each block's threads in order.
    EXPECT_EQ(std::count(O.Printed.begin(), O.Printed.end(), '\n'), 120);
    EXPECT_EQ(O.Printed.find("hello 0 of 3"), 0u);
  });
}

// Every CTA traps (traps() reads flag[threadIdx.x]): the error names the
// lowest one, whatever the thread count and however often it runs.
TEST(Threads, FaultReportsLowestCta) {
  for (int N : {1, 2}) {
    ThreadsEnv Env(N);
    auto M = load("kernels_O2.ptx");
    ASSERT_TRUE(M);
    std::vector<int> Flag(64, 0), Out(64, 0);
    Flag[5] = 1;
    for (int Rep = 0; Rep < 5; ++Rep) {
      std::string Err;
      EXPECT_FALSE(launch(*M, kernelNamed(*M, "traps"), {64, 1, 1}, {64, 1, 1},
                          Args().add(Flag.data()).add(Out.data()), &Err));
      EXPECT_NE(Err.find("block (0,0,0), thread (5,0,0)"), std::string::npos)
          << N << " threads: " << Err;
    }
  }
}

// bounded() with the allocation table: blocks 2.. go out of bounds; the
// report names block 2 with 1 and 2 threads.
TEST(Threads, CheckedAccessReportsLowestCta) {
  for (int N : {1, 2}) {
    ThreadsEnv Env(N);
    auto M = load("kernels_O2.ptx");
    ASSERT_TRUE(M);
    std::vector<int> Buf(64 * 32, 0);
    registerAllocation(Buf.data(), 64 * sizeof(int));
    for (int Rep = 0; Rep < 5; ++Rep) {
      std::string Err;
      EXPECT_FALSE(launch(*M, kernelNamed(*M, "bounded"), {32, 1, 1},
                          {32, 1, 1}, Args().add(Buf.data()).add(64 * 32), &Err,
                          0, true));
      EXPECT_NE(Err.find("block (2,0,0), thread (0,0,0)"), std::string::npos)
          << N << " threads: " << Err;
    }
    unregisterAllocation(Buf.data());
  }
}

// Device malloc/free from CTAs on both workers, every access checked
// against the allocation table they register in.
TEST(Threads, DeviceHeapWithCheckedAccesses) {
  ThreadsEnv Env(2);
  auto M = load("kernels_O2.ptx");
  ASSERT_TRUE(M);
  std::vector<int> Out(64, 0);
  registerAllocation(Out.data(), Out.size() * sizeof(int));
  std::string Err;
  bool Ok = launch(*M, kernelNamed(*M, "heap"), {48, 1, 1}, {64, 1, 1},
                   Args().add(Out.data()), &Err, 0, true);
  unregisterAllocation(Out.data());
  ASSERT_TRUE(Ok) << Err;
  for (int T = 0; T < 64; ++T)
    EXPECT_EQ(Out[T], 2 * T + 3) << T;
}

// Counts the instructions a worker issues.
class CountingSink : public core::TraceSink {
public:
  bool beginCta(uint64_t) override {
    ++Ctas;
    return true;
  }
  void instruction(uint32_t, const core::Function &, uint32_t, uint32_t Active,
                   uint32_t Exec) override {
    ++Warps;
    Threads += __builtin_popcount(Exec);
    (void)Active;
  }
  uint64_t Ctas = 0, Warps = 0, Threads = 0;
};

uint64_t sumField(const std::string &J, const std::string &Key) {
  uint64_t S = 0;
  std::string K = "\"" + Key + "\":";
  for (size_t P = J.find(K); P != std::string::npos; P = J.find(K, P + 1))
    S += std::strtoull(J.c_str() + P + K.size(), nullptr, 10);
  return S;
}

TEST(Threads, TraceSinkSeesEveryInstructionOfItsWorker) {
  ThreadsEnv Env(2);
  auto M = load("apps_O2.ptx");
  ASSERT_TRUE(M);
  auto *MI = dynamic_cast<core::ModuleImpl *>(M.get());
  ASSERT_TRUE(MI);
  CountingSink S0, S1;
  MI->TraceSinks = {&S0, &S1};
  const int N = 20000;
  std::vector<unsigned char> In(N, 7);
  std::vector<unsigned> Bins(256, 0);
  ASSERT_TRUE(launch(*M, kernelNamed(*M, "histogram"), {12, 1, 1}, {64, 1, 1},
                     Args().add(In.data()).add(N).add(Bins.data())));
  EXPECT_EQ(Bins[7], (unsigned)N);
  std::string J = M->groundTruthJson();
  EXPECT_EQ(S0.Ctas + S1.Ctas, 12u);
  EXPECT_EQ(S0.Warps + S1.Warps, sumField(J, "warp_executions"));
  EXPECT_EQ(S0.Threads + S1.Threads, sumField(J, "thread_executions"));
}

} // namespace
