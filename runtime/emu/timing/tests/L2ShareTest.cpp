//===- L2ShareTest.cpp - The L2 of the representative SMs -----------------===//
//
// With 8 of a launch's SMs simulated, the L2 must behave as the whole
// GPU's (L2.cpp): the result of 8 SMs against the same launch with every
// SM simulated. A small GPU keeps the test fast: 32 SMs, an L2 of 1 or
// 2 MB, one CTA resident per SM (its shared memory).
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace l2_share_test {
namespace {

enum : uint32_t { Load, Use, NumInsts }; // r6 = ld.global; r7 = r6 + ...

Config gpu(double L2Bytes) {
  Config C; // H100-like defaults
  C.Name = "test";
  C.Sms = 32;
  C.L2Bytes = L2Bytes;
  return C;
}

// A load of the whole of line Line, its value used at once when Wait.
void load(WarpTrace &W, uint64_t Line, bool Wait, unsigned Sectors = 0xf) {
  MemAccess M;
  M.Counted = M.Global = true;
  M.Sectors = __builtin_popcount(Sectors);
  M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
  W.Lines.push_back(Line | uint64_t(Sectors) << SectorShift);
  W.Ops.push_back({Load, (uint32_t)W.Mems.size()});
  W.Mems.push_back(M);
  if (Wait)
    W.Ops.push_back({Use, NoMem});
}

uint64_t hashed(uint64_t X) {
  X = (X ^ X >> 31) * 0x9E3779B97F4A7C15ull;
  return X ^ X >> 29;
}

// Load and Use (the trace's instructions).
std::vector<StaticInst> insts() {
  std::vector<StaticInst> T(NumInsts);
  T[Load].K = Kind::Load;
  T[Load].NDst = 1, T[Load].Dst[0] = 6;
  T[Use].P = Pipe::Fp32;
  T[Use].NDst = 1, T[Use].Dst[0] = 7;
  T[Use].NSrc = 1, T[Use].Src[0] = 6;
  return T;
}

// Ctas CTAs of one warp, CTA K's trace made by Make(K); modeled cycles
// with at most MaxSms simulated.
template <typename F>
uint64_t run(unsigned MaxSms, double L2Bytes, uint64_t Ctas, F Make,
             uint64_t GridX = 0, uint64_t SharedPerCta = 150 * 1024) {
  static const std::vector<StaticInst> T = insts();
  LaunchShape S;
  S.Ctas = Ctas;
  S.ThreadsPerCta = 32;
  S.SharedPerCta = SharedPerCta;
  S.GridX = GridX;
  LaunchModel M(gpu(L2Bytes), T, 16, S, 0, MaxSms);
  for (uint64_t K = 0; K < S.Ctas; ++K)
    if (M.wanted(K)) {
      CtaTrace C;
      C.Cta = K;
      C.Warps.push_back(Make(K));
      // A neighbour's CTA as TimingSink traces it: its memory ops only.
      if (M.linesOnly(K)) {
        std::vector<TraceOp> &Ops = C.Warps[0].Ops;
        Ops.erase(
            std::remove_if(Ops.begin(), Ops.end(),
                           [](const TraceOp &Op) { return Op.Mem == NoMem; }),
            Ops.end());
      }
      M.submit(std::move(C));
    }
  return M.finish().Cycles;
}

// The modeled cycles with 8 SMs simulated over those with every SM.
template <typename F>
double eightOverAll(double L2Bytes, uint64_t Ctas, F Make, uint64_t GridX = 0,
                    uint64_t SharedPerCta = 150 * 1024) {
  const double All =
      (double)run(1024, L2Bytes, Ctas, Make, GridX, SharedPerCta);
  return (double)run(8, L2Bytes, Ctas, Make, GridX, SharedPerCta) / All;
}

} // namespace

TEST(TimingL2Share, AVectorEveryCtaReadsKeepsTheWholeL2) {
  // Every CTA reads 256 sectors of one 512 KB vector at random, each
  // waiting for the one before: larger than 8/32 of the L2, smaller than
  // the L2. On the GPU (every SM simulated) it stays in L2, each sector
  // fetched once; in a quarter of the L2 a third of the reads would go to
  // DRAM (37% slower), as would the 8 SMs' first reads of each sector
  // without the unsimulated readers (26%). Left: a line's first touch by a
  // simulated SM is its own until a second one touches it, so the 8 SMs
  // pay DRAM for sectors an unsimulated SM may have fetched (8% here).
  auto Vector = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 256; ++J)
      load(W, (1 << 20) + hashed(Cta << 16 | J) % 4096, true,
           1u << hashed(Cta << 20 | J) % 4);
    return W;
  };
  EXPECT_NEAR(eightOverAll(1 << 20, 256, Vector), 1.0, 0.10);
}

TEST(TimingL2Share, EverySmsOwnLinesTakeTheirRoom) {
  // Two waves on 32 SMs, a 2 MB L2. CTA K reads 1024 lines (128 KB, more
  // than the L1) of its own, each waiting for the one before; CTA K + 32,
  // on the same SM, reads them again. Between the two, the other 31 SMs
  // read theirs (4 MB): the L2 has lost them, on the GPU as with every SM
  // simulated. The 8 simulated SMs' lines alone (1 MB) would leave them
  // there: the unsimulated SMs' own lines must age the L2 as well.
  auto Own = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 1024; ++J)
      load(W, (4 << 20) + Cta % 32 * 1024 + J, true);
    return W;
  };
  EXPECT_NEAR(eightOverAll(2 << 20, 64, Own), 1.0, 0.05);
}

TEST(TimingL2Share, NeighbouringCtasShareTheirHalo) {
  // A stencil: CTA K reads its 16 lines and 4 on each side, its
  // neighbours' (a halo), each waiting for the one before. On the GPU
  // (every SM simulated, the L2 seeing CTAs in index order) CTA K finds
  // its left halo and first 4 lines, read by CTA K - 1, and misses 16 of
  // its 24. CTA K - 1 runs on an unsimulated SM: unless its lines are fed
  // to the L2 (L2.cpp), the 8 SMs miss all 24 (45% slower here).
  auto Stencil = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 24; ++J)
      load(W, (4 << 20) + Cta * 16 + J - 4, true);
    return W;
  };
  EXPECT_NEAR(eightOverAll(2 << 20, 128, Stencil), 1.0, 0.05);
}

TEST(TimingL2Share, EachCtaFindsItsOwnNeighboursLinesNear) {
  // An SM runs several CTAs at once (a stencil at a large size), each
  // with its own neighbour on the SM before it: a CTA's near lines are
  // its own neighbour's while it runs, not the SM's latest CTA's. The L2
  // alone: 32 SMs, 8 simulated; simulated SM 0 runs CTAs 0 and 32
  // together, fed the lines of CTAs 31 and 63 (on SM 31).
  SharedL2 L2;
  L2.init(2 << 20, 8, 32);
  const uint64_t All = uint64_t(0xf) << SectorShift, L = 1 << 20;
  L2.setNear(0, 32, {L | All, (L + 3) | All, (L + 4) | All});
  L2.setNear(0, 0, {(L + 1) | All});
  EXPECT_FALSE(L2.access(L | All, 0, 0)); // CTA 63's line, not 31's
  EXPECT_EQ(L2.missing(), 0xfu);
  EXPECT_TRUE(L2.access((L + 1) | All, 0, 0)); // its own neighbour's
  EXPECT_TRUE(L2.access((L + 3) | All, 0, 32));
  L2.dropNear(0, 32); // CTA 32 ended
  EXPECT_FALSE(L2.access((L + 4) | All, 0, 32));
}

TEST(TimingL2Share, NeighbouringRowsOfA2dGridShareTheirHalo) {
  // A 2D grid 6 CTAs wide: CTA K reads its 16 lines and the last 4 of the
  // CTA above it, K - 6 (a halo row), each waiting for the one before. On
  // the GPU CTA K - 6 fetched them; it runs on an unsimulated SM (neither
  // simulated nor K - 1's): unless its lines are near, the 8 SMs miss 20
  // lines where the GPU misses 16.
  auto Rows = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 4; ++J)
      load(W, (4 << 20) + (Cta + 100 - 6) * 16 + 12 + J, true);
    for (uint64_t J = 0; J < 16; ++J)
      load(W, (4 << 20) + (Cta + 100) * 16 + J, true);
    return W;
  };
  EXPECT_NEAR(eightOverAll(2 << 20, 128, Rows, 6), 1.0, 0.05);
}

TEST(TimingL2Share, OnlyTheNeighboursSmsAreTracedForTheirLines) {
  // 32 SMs, 8 simulated (SMs 0, 4, ..., 28): the SMs before them (31, 3,
  // ...) and, 6 CTAs wide, those 6 before them run neighbours whose lines
  // alone are wanted; the simulated SMs' CTAs are traced in full.
  const std::vector<StaticInst> T = insts();
  LaunchShape S;
  S.Ctas = 128;
  S.ThreadsPerCta = 32;
  S.SharedPerCta = 150 * 1024;
  auto Count = [&](unsigned MaxSms, uint64_t GridX) {
    S.GridX = GridX;
    LaunchModel M(gpu(2 << 20), T, 16, S, 0, MaxSms);
    std::pair<unsigned, unsigned> Full{0, 0}; // full traces, lines only
    for (uint64_t K = 0; K < 32; ++K) {
      Full.first += M.wanted(K) && !M.linesOnly(K);
      Full.second += M.linesOnly(K);
      EXPECT_TRUE(!M.linesOnly(K) || M.wanted(K)) << K;
    }
    return Full;
  };
  EXPECT_EQ(Count(8, 0), std::make_pair(8u, 8u));
  EXPECT_EQ(Count(8, 6), std::make_pair(8u, 16u));
  EXPECT_EQ(Count(1024, 6), std::make_pair(32u, 0u));
}

TEST(TimingL2Share, AGridWideLineIsReadByTheSmsBetween) {
  // The L2 alone, fed the accesses of the simulated SMs' CTAs in CTA
  // order as the launch feeds it: 32 SMs, a 2 MB L2 (16384 lines), two
  // waves. Every CTA reads a 32 KB table (256 lines), then streams 6000
  // lines of its own. With every SM simulated, one CTA's stream comes
  // between two reads of a table line: it stays. Between two of 8 SMs'
  // reads come four SMs' streams (3 MB, the unsimulated ones' included),
  // but the SMs between read the table too: it must stay as well.
  auto TableHits = [](uint64_t Sims) {
    SharedL2 L2;
    L2.init(2 << 20, Sims, 32);
    double Hits = 0, Reads = 0;
    for (uint64_t Cta = 0; Cta < 64; ++Cta) {
      const uint64_t Sm = Cta % 32;
      if (Sm % (32 / Sims))
        continue; // not simulated
      for (uint64_t J = 0; J < 256; ++J, Reads += Cta >= 32)
        Hits += L2.access(((2 << 20) + J) | uint64_t(0xf) << SectorShift,
                          Sm / (32 / Sims), Cta) &&
                Cta >= 32;
      for (uint64_t J = 0; J < 6000; ++J)
        L2.access(((4 << 20) + Cta * 6000 + J) | uint64_t(0xf) << SectorShift,
                  Sm / (32 / Sims), Cta);
    }
    return Hits / Reads;
  };
  EXPECT_GE(TableHits(32), 0.99);
  EXPECT_NEAR(TableHits(8), TableHits(32), 0.05);
}

TEST(TimingL2Share, AnSmFindsALineAnotherFetchedEarlierInModeledTime) {
  // CTA 0 reads four lines of its own, each waited for, then line X; CTA 1
  // reads X at once. On the GPU CTA 1's SM fetches X long before CTA 0
  // wants it, and CTA 0 finds it in L2. The SMs are simulated in steps of
  // modeled time (LaunchModel::pace): simulated one after another, SM 0
  // would find X cold and pay the DRAM latency a fifth time.
  const uint64_t X = 1 << 20;
  auto Late = [&](uint64_t Cta) {
    WarpTrace W;
    if (Cta == 0)
      for (uint64_t J = 1; J <= 4; ++J)
        load(W, (2 << 20) + J, true);
    load(W, X, true);
    return W;
  };
  const Config C = gpu(1 << 20);
  const uint64_t Cycles = run(1024, 1 << 20, 2, Late);
  EXPECT_GE(Cycles, 4 * C.DramLatency + C.L2Latency);
  EXPECT_LT(Cycles, 4 * C.DramLatency + C.L2Latency + 100);
}

TEST(TimingL2Share, ALoadOfALineOnItsWayFromDramWaitsForIt) {
  // Both CTAs read line X at once; CTA 1 then reads three lines of its
  // own, each waited for. On the GPU the L2 holds CTA 1's request for X
  // until the other SM's fetch of it is back: four DRAM latencies in a
  // row, not an L2 hit and three.
  const uint64_t X = 1 << 20;
  auto Merge = [&](uint64_t Cta) {
    WarpTrace W;
    load(W, X, true);
    if (Cta == 1)
      for (uint64_t J = 1; J <= 3; ++J)
        load(W, (2 << 20) + J, true);
    return W;
  };
  const Config C = gpu(1 << 20);
  const uint64_t Cycles = run(1024, 1 << 20, 2, Merge);
  EXPECT_GE(Cycles, 4 * C.DramLatency);
  EXPECT_LT(Cycles, 4 * C.DramLatency + 100);
}

} // namespace l2_share_test
