//===- L2ShareTest.cpp - The L2 of the representative SMs -----------------===//
//
// With 8 of a launch's SMs simulated, the L2 must behave as the whole
// GPU's (L2.cpp): the result of 8 SMs against the same launch with every
// SM simulated. A small GPU keeps the test fast: 32 SMs, an L2 of 1 MB or
// 256 KB, one CTA resident per SM (its shared memory).
//
//===----------------------------------------------------------------------===//
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

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
void load(WarpTrace &W, uint64_t Line, bool Wait) {
  MemAccess M;
  M.Counted = M.Global = true;
  M.Sectors = 4;
  M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
  W.Lines.push_back(Line | uint64_t(0xf) << SectorShift);
  W.Ops.push_back({Load, (uint32_t)W.Mems.size()});
  W.Mems.push_back(M);
  if (Wait)
    W.Ops.push_back({Use, NoMem});
}

uint64_t hashed(uint64_t X) {
  X = (X ^ X >> 31) * 0x9E3779B97F4A7C15ull;
  return X ^ X >> 29;
}

// Ctas CTAs of one warp, CTA K's trace made by Make(K); modeled cycles
// with at most MaxSms simulated.
template <typename F>
uint64_t run(unsigned MaxSms, double L2Bytes, uint64_t Ctas, F Make) {
  static const std::vector<StaticInst> T = [] {
    std::vector<StaticInst> T(NumInsts);
    T[Load].K = Kind::Load;
    T[Load].NDst = 1, T[Load].Dst[0] = 6;
    T[Use].P = Pipe::Fp32;
    T[Use].NDst = 1, T[Use].Dst[0] = 7;
    T[Use].NSrc = 1, T[Use].Src[0] = 6;
    return T;
  }();
  LaunchShape S;
  S.Ctas = Ctas;
  S.ThreadsPerCta = 32;
  S.SharedPerCta = 150 * 1024;
  LaunchModel M(gpu(L2Bytes), T, 16, S, 0, MaxSms);
  for (uint64_t K = 0; K < S.Ctas; ++K)
    if (M.wanted(K)) {
      CtaTrace C;
      C.Cta = K;
      C.Warps.push_back(Make(K));
      M.submit(std::move(C));
    }
  return M.finish().Cycles;
}

} // namespace

TEST(TimingL2Share, AVectorEveryCtaReadsKeepsTheWholeL2) {
  // Every CTA reads 256 lines of one 512 KB vector at random, each
  // waiting for the one before: larger than 8/32 of the L2, smaller than
  // the L2. On the GPU (every SM simulated) it stays in L2 after the first
  // wave; in a quarter of the L2 a third of the reads would go to DRAM
  // (36% slower). Left: a line's first touch by a simulated SM is its own
  // until a second one touches it, so the 8 SMs pay DRAM for lines an
  // unsimulated SM may have brought in before (12% slower here).
  auto Vector = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 256; ++J)
      load(W, (1 << 20) + hashed(Cta << 16 | J) % 4096, true);
    return W;
  };
  const double All = (double)run(1024, 1 << 20, 256, Vector);
  const double Eight = (double)run(8, 1 << 20, 256, Vector);
  EXPECT_NEAR(Eight / All, 1.0, 0.15) << Eight << " " << All;
}

TEST(TimingL2Share, EverySmsOwnLinesTakeTheirRoom) {
  // Every CTA streams 4096 lines of its own (512 KB), then reads a 32 KB
  // table every CTA reads, line by line; 64 CTAs, a 256 KB L2. With every
  // SM simulated (CTAs one after another) a CTA's stream comes between two
  // reads of a table line and the L2 has lost it. 8 SMs see a quarter of
  // the streams; the other SMs' own lines must age the L2 as well.
  auto Stream = [](uint64_t Cta) {
    WarpTrace W;
    for (uint64_t J = 0; J < 4096; ++J)
      load(W, (4 << 20) + Cta * 4096 + J, false);
    for (uint64_t J = 0; J < 256; ++J)
      load(W, (2 << 20) + J, true);
    return W;
  };
  const double All = (double)run(1024, 256 << 10, 64, Stream);
  const double Eight = (double)run(8, 256 << 10, 64, Stream);
  EXPECT_NEAR(Eight / All, 1.0, 0.05) << Eight << " " << All;
}
