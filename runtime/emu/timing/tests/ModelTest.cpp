//===- ModelTest.cpp - The SM timing model on hand-made traces ------------===//
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace model_test {
namespace {

// Static instructions used below, by index.
enum : uint32_t {
  FmaChain,
  FmaFree,
  SharedLoad,
  Bar,
  UseLoad,
  GlobalLoad,
  NumInsts
};

std::vector<StaticInst> table() {
  std::vector<StaticInst> T(NumInsts);
  T[FmaChain].P = Pipe::Fp32; // r3 = fma(r3, ...): depends on itself
  T[FmaChain].NDst = 1, T[FmaChain].Dst[0] = 3;
  T[FmaChain].NSrc = 1, T[FmaChain].Src[0] = 3;
  T[FmaFree].P = Pipe::Fp32; // r4 = fma(r5, ...): no dependence
  T[FmaFree].NDst = 1, T[FmaFree].Dst[0] = 4;
  T[FmaFree].NSrc = 1, T[FmaFree].Src[0] = 5;
  T[SharedLoad].K = Kind::Load, T[SharedLoad].Sp = Space::Shared;
  T[SharedLoad].NDst = 1, T[SharedLoad].Dst[0] = 6;
  T[Bar].K = Kind::Barrier;
  T[UseLoad].P = Pipe::Fp32; // r7 = r6 + ...
  T[UseLoad].NDst = 1, T[UseLoad].Dst[0] = 7;
  T[UseLoad].NSrc = 1, T[UseLoad].Src[0] = 6;
  T[GlobalLoad].K = Kind::Load, T[GlobalLoad].Sp = Space::Global;
  T[GlobalLoad].NDst = 1, T[GlobalLoad].Dst[0] = 6;
  return T;
}

Config oneSm() {
  Config C; // the struct's defaults are H100-like
  C.Name = "test";
  C.Sms = 1;
  return C;
}

void add(WarpTrace &W, uint32_t Id, unsigned N = 1) {
  for (unsigned K = 0; K < N; ++K)
    W.Ops.push_back({Id, NoMem});
}

void addShared(WarpTrace &W, uint32_t Wavefronts) {
  MemAccess M;
  M.Counted = M.Shared = true;
  M.Wavefronts = Wavefronts;
  W.Ops.push_back({SharedLoad, (uint32_t)W.Mems.size()});
  W.Mems.push_back(M);
}

// One global load of one sector of 128-byte line Line.
void addGlobal(WarpTrace &W, uint64_t Line) {
  MemAccess M;
  M.Counted = M.Global = true;
  M.Sectors = 1;
  M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
  W.Lines.push_back(Line);
  W.Ops.push_back({GlobalLoad, (uint32_t)W.Mems.size()});
  W.Mems.push_back(M);
}

struct Result {
  ModeledTime Time;
  std::vector<StallCounts> Samples;
};

Result model(const Config &C, std::vector<CtaTrace> Ctas, uint32_t Threads,
             unsigned Period = 0) {
  static const std::vector<StaticInst> T = table();
  LaunchShape S;
  S.Ctas = Ctas.size();
  S.ThreadsPerCta = Threads;
  LaunchModel M(C, T, 16, S, Period);
  for (size_t K = Ctas.size(); K-- > 0;) // any order
    if (M.wanted(K)) {
      Ctas[K].Cta = K;
      M.submit(std::move(Ctas[K]));
    }
  Result R;
  R.Time = M.finish();
  R.Samples = M.samples();
  return R;
}

CtaTrace cta(std::vector<WarpTrace> W) {
  CtaTrace T;
  T.Warps = std::move(W);
  return T;
}

uint64_t chainCycles(unsigned N) {
  WarpTrace W;
  add(W, FmaChain, N);
  return model(oneSm(), {cta({W})}, 32).Time.Cycles;
}

} // namespace

TEST(TimingModel, DependentChainTakesLatencyPerInstruction) {
  Config C = oneSm();
  // Each added dependent FMA costs exactly the configured latency.
  EXPECT_EQ(chainCycles(200) - chainCycles(100),
            100 * (uint64_t)C.Pipes[(int)Pipe::Fp32].Latency);
}

TEST(TimingModel, IndependentInstructionsIssueEveryCycle) {
  WarpTrace Dep, Free;
  add(Dep, FmaChain, 100);
  add(Free, FmaFree, 100);
  uint64_t D = model(oneSm(), {cta({Dep})}, 32).Time.Cycles;
  uint64_t F = model(oneSm(), {cta({Free})}, 32).Time.Cycles;
  EXPECT_LT(F + 250, D); // 100 cycles against 400
}

TEST(TimingModel, IndependentWarpsHideLatency) {
  // 8 warps (two per sub-partition) of a 100-long dependent chain take
  // about as long as one; one warp doing all 8 chains takes 8 times as long.
  std::vector<WarpTrace> Eight(8);
  for (WarpTrace &W : Eight)
    add(W, FmaChain, 100);
  WarpTrace One;
  add(One, FmaChain, 800);
  uint64_t Parallel = model(oneSm(), {cta(Eight)}, 256).Time.Cycles;
  uint64_t Serial = model(oneSm(), {cta({One})}, 32).Time.Cycles;
  uint64_t Single = chainCycles(100);
  EXPECT_LE(Parallel, Single + 4);
  EXPECT_GT(Serial, 7 * Parallel);
}

TEST(TimingModel, BankConflictsCostCycles) {
  auto Run = [](uint32_t Wavefronts) {
    std::vector<WarpTrace> Ws(16);
    for (WarpTrace &W : Ws)
      for (int K = 0; K < 50; ++K) {
        addShared(W, Wavefronts);
        add(W, UseLoad);
      }
    return model(oneSm(), {cta(Ws)}, 512).Time.Cycles;
  };
  uint64_t Padded = Run(1), Conflicted = Run(32);
  // 16 warps x 50 loads x 32 wavefronts through one shared pipe.
  EXPECT_GE(Conflicted, 16u * 50 * 32);
  EXPECT_GT(Conflicted, 8 * Padded);
}

TEST(TimingModel, SimulatedSmsShareTheL2) {
  // Two CTAs on two SMs. CTA 0 loads line 7 (a miss in L1 and L2: DRAM).
  // CTA 1 runs a long chain, so that its SM ends last and CTA 0's fetch is
  // back, then loads line 7 or line 9. Line 7 is in the L2 CTA 0 brought
  // it to (the SMs share it), line 9 is not: the launch differs by exactly
  // DRAM less L2 latency. The traces are submitted last CTA first; the L2
  // must still see CTA 0 first.
  Config C = oneSm();
  C.Sms = 2;
  auto Run = [&](uint64_t Line) {
    WarpTrace First, Second;
    addGlobal(First, 7);
    add(First, UseLoad);
    add(Second, FmaChain, 200);
    addGlobal(Second, Line);
    add(Second, UseLoad);
    return model(C, {cta({First}), cta({Second})}, 32).Time.Cycles;
  };
  uint64_t Hit = Run(7), Miss = Run(9);
  EXPECT_EQ(Miss - Hit, (uint64_t)(C.DramLatency - C.L2Latency));
}

TEST(TimingModel, BarrierStallIsSampledAsBarrier) {
  WarpTrace Slow, Fast;
  add(Slow, FmaChain, 400);
  add(Slow, Bar);
  add(Slow, FmaFree);
  add(Fast, Bar);
  add(Fast, FmaFree);
  Result R = model(oneSm(), {cta({Slow, Fast})}, 64, /*Period=*/5);
  // A sample names the instruction the warp issues next: the fast warp
  // waits at the barrier for the slow one's ~1600 cycles with the
  // instruction after the barrier next.
  uint64_t Barrier = 0;
  for (size_t I = 0; I < R.Samples.size(); ++I) {
    uint64_t N = R.Samples[I].All[(unsigned)ModelStall::Barrier];
    if (I != FmaFree) {
      EXPECT_EQ(N, 0u) << I;
    }
    Barrier += N;
  }
  EXPECT_GE(Barrier, 40u);
  // The slow warp stalls on its own chain: wait (fixed latency).
  EXPECT_GT(R.Samples[FmaChain].All[(unsigned)ModelStall::Wait], 0u);
}

TEST(TimingModel, SamplesAreDeterministicAndConsistent) {
  auto Run = [] {
    std::vector<WarpTrace> Ws(12);
    for (size_t K = 0; K < Ws.size(); ++K) {
      add(Ws[K], FmaChain, 20 + 7 * K);
      addShared(Ws[K], 1 + K % 4);
      add(Ws[K], UseLoad);
      add(Ws[K], Bar);
      add(Ws[K], FmaFree, 10);
    }
    std::vector<CtaTrace> Ctas;
    for (int K = 0; K < 5; ++K)
      Ctas.push_back(cta(Ws));
    return model(oneSm(), Ctas, 384, 5);
  };
  Result A = Run(), B = Run();
  EXPECT_EQ(A.Time.Cycles, B.Time.Cycles);
  uint64_t Total = 0;
  for (size_t I = 0; I < A.Samples.size(); ++I)
    for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
      EXPECT_EQ(A.Samples[I].All[J], B.Samples[I].All[J]);
      EXPECT_EQ(A.Samples[I].NotIssued[J], B.Samples[I].NotIssued[J]);
      // The schema's invariants: not-issued is a subset; selected and
      // not_selected mean some warp issued.
      EXPECT_LE(A.Samples[I].NotIssued[J], A.Samples[I].All[J]);
      Total += A.Samples[I].All[J];
    }
  EXPECT_EQ(A.Samples[FmaChain].NotIssued[(unsigned)ModelStall::Selected], 0u);
  EXPECT_EQ(A.Samples[FmaFree].NotIssued[(unsigned)ModelStall::NotSelected],
            0u);
  // About one sample per 32 cycles per busy sub-partition.
  EXPECT_GT(Total, A.Time.Cycles / 32);
  EXPECT_LE(Total, 4 * (A.Time.Cycles / 32 + 1));
}

TEST(TimingModel, OccupancyLimitsResidentBlocks) {
  // 1024-thread CTAs: two fit on an SM (64 warps), so 4 CTAs on one SM run
  // in two waves.
  auto Run = [](size_t N) {
    std::vector<WarpTrace> Ws(32);
    for (WarpTrace &W : Ws)
      add(W, FmaChain, 100);
    std::vector<CtaTrace> Ctas(N, cta(Ws));
    return model(oneSm(), Ctas, 1024).Time.Cycles;
  };
  uint64_t Two = Run(2), Four = Run(4);
  EXPECT_GT(Four, Two + Two / 2);
}

TEST(TimingModel, LargeGridsSimulateASubsetAndSayScaled) {
  Config C = oneSm();
  C.Sms = 132;
  std::vector<CtaTrace> Ctas(1000);
  for (CtaTrace &T : Ctas) {
    WarpTrace W;
    add(W, FmaChain, 10);
    T.Warps.push_back(W);
  }
  Result R = model(C, Ctas, 32);
  EXPECT_TRUE(R.Time.Scaled);
  EXPECT_EQ(R.Time.SmsSimulated, 8u);
  Result Small =
      model(C, std::vector<CtaTrace>(Ctas.begin(), Ctas.begin() + 4), 32);
  EXPECT_FALSE(Small.Time.Scaled);
  EXPECT_EQ(Small.Time.SmsSimulated, 4u);
}

} // namespace model_test
