//===- SamplingTest.cpp - Modeled PC samples against exact stall cycles ---===//
//
// The sampler must be a fair draw from the model's own states: on a
// periodic kernel launched many times, each instruction's (and each stall
// reason's) share of the samples lies within its binomial error of its
// share of the exact stall cycles the model counts (ExactStalls). A sampler
// that starts every launch at the same phase, or steps in lockstep with the
// kernel's period, fails this.
//
//===----------------------------------------------------------------------===//
#include "warpscope/Emu/TimingModel.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace sampling_test {
namespace {

enum : uint32_t { Chain, Free, LoadShared, UseShared, Barrier, Count };

std::vector<StaticInst> table() {
  std::vector<StaticInst> T(Count);
  T[Chain].P = Pipe::Fp32; // r3 = fma(r3, ...)
  T[Chain].NDst = 1, T[Chain].Dst[0] = 3;
  T[Chain].NSrc = 1, T[Chain].Src[0] = 3;
  T[Free].P = Pipe::Fp32;
  T[Free].NDst = 1, T[Free].Dst[0] = 4;
  T[Free].NSrc = 1, T[Free].Src[0] = 5;
  T[LoadShared].K = Kind::Load, T[LoadShared].Sp = Space::Shared;
  T[LoadShared].NDst = 1, T[LoadShared].Dst[0] = 6;
  T[UseShared].P = Pipe::Fp32; // r7 = r6 + ...
  T[UseShared].NDst = 1, T[UseShared].Dst[0] = 7;
  T[UseShared].NSrc = 1, T[UseShared].Src[0] = 6;
  T[Barrier].K = Kind::Barrier;
  return T;
}

// A loop of a fixed shape: a dependent chain, a bank-conflicted shared
// load and its use, independent work, a barrier; warps differ in their
// chain's length, so the barrier holds the short ones. Every launch is the
// same: a sampler tied to the launch start or the loop's period sees the
// same cycles every time.
CtaTrace periodicCta() {
  CtaTrace T;
  T.Warps.resize(8);
  for (size_t W = 0; W < T.Warps.size(); ++W)
    for (int Trip = 0; Trip < 6; ++Trip) {
      WarpTrace &Tr = T.Warps[W];
      for (size_t K = 0; K < 3 + 2 * W; ++K)
        Tr.Ops.push_back({Chain, NoMem});
      MemAccess M;
      M.Counted = M.Shared = true;
      M.Wavefronts = 8;
      Tr.Ops.push_back({LoadShared, (uint32_t)Tr.Mems.size()});
      Tr.Mems.push_back(M);
      Tr.Ops.push_back({UseShared, NoMem});
      for (int K = 0; K < 4; ++K)
        Tr.Ops.push_back({Free, NoMem});
      Tr.Ops.push_back({Barrier, NoMem});
    }
  return T;
}

struct Totals {
  std::vector<StallCounts> Samples;
  std::vector<StallCycles> Exact;
  uint64_t Cycles = 0;
};

// Launches the kernel N times (seed = launch index, as the emulator does).
Totals launch(unsigned N, unsigned Period, bool Exact) {
  static const std::vector<StaticInst> T = table();
  Config C; // H100-like defaults, one SM
  C.Name = "test";
  C.Sms = 1;
  LaunchShape S;
  S.ThreadsPerCta = 256;
  Totals R;
  R.Samples.resize(Count);
  R.Exact.resize(Count);
  for (unsigned L = 0; L < N; ++L) {
    LaunchModel M(C, T, 16, S, Period, 8, L, Exact);
    M.submit(periodicCta());
    R.Cycles += M.finish().Cycles;
    if (Period)
      addStalls(R.Samples, M.samples());
    if (Exact)
      addStalls(R.Exact, M.stallCycles());
  }
  return R;
}

// Whether a sampled count is within 4 binomial standard deviations (and one
// sample) of N times the exact share Q.
::testing::AssertionResult within(uint64_t Count, uint64_t N, double Q) {
  double Sigma = std::sqrt(Q * (1 - Q) / (double)N);
  double Share = (double)Count / (double)N;
  if (std::fabs(Share - Q) <= 4 * Sigma + 1.0 / (double)N)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "sampled share " << Share << " of " << N << " samples, exact " << Q
         << " (binomial sigma " << Sigma << ")";
}

} // namespace

TEST(TimingSampling, ExactStallCyclesChangeNothingModeled) {
  Totals Plain = launch(3, 0, false), Both = launch(3, 5, true);
  EXPECT_EQ(Plain.Cycles, Both.Cycles);
  // Every sub-partition cycle with a resident warp is counted once.
  double Sum = 0;
  for (const StallCycles &E : Both.Exact)
    for (double V : E.All)
      Sum += V;
  EXPECT_GT(Sum, 0);
  EXPECT_LE(Sum, 4.0 * (double)Both.Cycles);
}

TEST(TimingSampling, SampledSharesMatchExactStallCycles) {
  Totals R = launch(150, 5, true);
  uint64_t N = 0;
  double Cycles = 0;
  for (size_t I = 0; I < Count; ++I)
    for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
      N += R.Samples[I].All[J];
      Cycles += R.Exact[I].All[J];
    }
  ASSERT_GT(N, 10000u);
  // Per instruction, per (instruction, reason) and per reason's not-issued
  // twin: the sampled share against the exact one.
  unsigned Checked = 0;
  for (size_t I = 0; I < Count; ++I) {
    uint64_t PcSamples = 0;
    double PcCycles = 0;
    for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
      PcSamples += R.Samples[I].All[J];
      PcCycles += R.Exact[I].All[J];
      EXPECT_TRUE(within(R.Samples[I].All[J], N, R.Exact[I].All[J] / Cycles))
          << "instruction " << I << ", " << ModelStallNames[J];
      EXPECT_TRUE(within(R.Samples[I].NotIssued[J], N,
                         R.Exact[I].NotIssued[J] / Cycles))
          << "instruction " << I << ", " << ModelStallNames[J]
          << " (not issued)";
      Checked += R.Exact[I].All[J] / Cycles > 0.01;
    }
    EXPECT_TRUE(within(PcSamples, N, PcCycles / Cycles)) << "instruction " << I;
  }
  // The kernel's mix is varied enough to mean something.
  EXPECT_GE(Checked, 5u);
}

} // namespace sampling_test
