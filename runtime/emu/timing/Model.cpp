//===- Model.cpp - One launch's timing model ------------------------------===//
//
// Places the launch's CTAs on SMs as the hardware's first wave does (CTA i
// on SM i mod S, S = min(SM count, CTAs)), with as many resident per SM as
// the occupancy rules allow (include/warpscope/Support/Occupancy.h with the
// configuration's limits). Simulates K = min(S, MaxSms) SMs spread evenly
// over the S (SM floor(k S / K) for k < K, so that a grid's first, middle
// and last CTAs are all represented) with every CTA they receive; the
// launch's modeled time is the latest end among them. With K < S the result
// is `scaled`: the other SMs are taken to behave like the simulated ones
// (same share of the work, same share of L2 and DRAM bandwidth);
// docs/timing-model.md gives the method and its error.
//
// The simulated SMs share one L2 (tags only) of its whole capacity, so that
// data many CTAs read misses once, not once per SM; with K < S it accounts
// for the unsimulated SMs' lines as well (L2.cpp), and sees the lines of
// each simulated CTA's neighbours c - 1 and c - gridDim.x (traced for their
// lines, not timed), which it shares.
// Traces are handed to the SMs in CTA index order, whatever order the
// workers finish them in: the L2 sees the SMs' accesses in that order (not
// strictly in modeled time across SMs: docs/timing-model.md), the same in
// every run.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"
#include "warpscope/Emu/TimingModel.h"
#include "warpscope/Support/Occupancy.h"

#include <algorithm>
#include <cmath>

namespace warpscope::emu::timing {

LaunchModel::LaunchModel(const Config &C, const std::vector<StaticInst> &Table,
                         uint32_t NumSlots, const LaunchShape &Shape,
                         unsigned SamplePeriod, unsigned MaxSms,
                         uint64_t SampleSeed, bool ExactStalls)
    : C(C), Ctas(Shape.Ctas), GridX(Shape.GridX) {
  ActiveSms =
      std::max<uint64_t>(1, std::min<uint64_t>((uint64_t)C.Sms, Shape.Ctas));
  SimSms = (uint32_t)std::min<uint64_t>(ActiveSms, std::max(1u, MaxSms));
  SmLimits L;
  L.RegistersPerSM = (uint32_t)C.RegistersPerSm;
  L.MaxThreadsPerSM = (uint32_t)C.MaxWarpsPerSm * 32;
  L.MaxBlocksPerSM = (uint32_t)C.MaxBlocksPerSm;
  L.SharedPerSM = (uint64_t)C.SharedPerSm;
  L.SharedPerBlockOptin = (uint64_t)C.SharedPerBlock;
  KernelFootprint K;
  K.ThreadsPerBlock = Shape.ThreadsPerCta;
  K.RegistersPerThread = Shape.RegistersPerThread;
  K.DynamicSharedBytes = Shape.SharedPerCta;
  // A footprint the configuration cannot hold still runs, one CTA at a time.
  BlocksPerSm = std::max(1u, theoreticalOccupancy(L, K).BlocksPerSM);
  // The unified L1/shared memory is split at a supported carveout that
  // holds the resident CTAs' shared memory (the system's reserved 1 KB per
  // CTA included); the L1 is the rest.
  const uint64_t Carveout =
      sharedCarveout(L, uint64_t(BlocksPerSm) * sharedPerBlock(L, K));
  SimIndex.assign(ActiveSms, -1);
  Shared = std::make_unique<SharedSide>();
  Shared->L2.init((uint64_t)C.L2Bytes, SimSms, ActiveSms);
  for (uint32_t K = 0; K < SimSms; ++K) {
    uint64_t S = (uint64_t)K * ActiveSms / SimSms;
    SimIndex[S] = (int32_t)K;
    uint64_t Expected =
        Shape.Ctas / ActiveSms + (S < Shape.Ctas % ActiveSms ? 1 : 0);
    Sms.push_back(std::make_unique<SmSim>(C, Table, NumSlots, ActiveSms,
                                          BlocksPerSm, Expected, Carveout,
                                          SamplePeriod, *Shared, K));
    Sms.back()->seedSampling(SampleSeed * SimSms + K, ExactStalls);
  }
  // The SMs of each simulated CTA's index neighbour c - 1 and, in a 2D
  // grid, of the CTA above it, c - gridDim.x, where no other role has them:
  // their CTAs' lines are the simulated SM's near lines (L2.cpp).
  auto Role = [&](uint64_t S, uint64_t Back) {
    const uint64_t N = (S + ActiveSms - Back % ActiveSms) % ActiveSms;
    return SimIndex[N] == -1 ? &SimIndex[N] : nullptr;
  };
  for (uint32_t K = 0; K < SimSms; ++K) {
    const uint64_t S = (uint64_t)K * ActiveSms / SimSms;
    if (int32_t *Left = Role(S, 1))
      *Left = -2 - (int32_t)K;
    if (Shape.GridX > 1 && Shape.GridX < Shape.Ctas)
      if (int32_t *Up = Role(S, Shape.GridX))
        *Up = -2 - (int32_t)(SimSms + K);
  }
  NextCta = wanted(0) ? 0 : nextWanted(0);
  if (SamplePeriod)
    Samples.resize(Table.size());
  if (ExactStalls)
    Exact.resize(Table.size());
}

LaunchModel::~LaunchModel() = default;

uint64_t LaunchModel::nextWanted(uint64_t Cta) const {
  for (uint64_t Next = Cta + 1; Next < Ctas; ++Next)
    if (wanted(Next))
      return Next;
  return Ctas;
}

void LaunchModel::submit(CtaTrace &&T) {
  if (!wanted(T.Cta))
    return;
  std::lock_guard<std::mutex> L(Mu);
  Waiting.emplace(T.Cta, std::move(T));
  handOver();
}

void LaunchModel::handOver() {
  while (!Waiting.empty() && Waiting.begin()->first == NextCta) {
    CtaTrace T = std::move(Waiting.begin()->second);
    Waiting.erase(Waiting.begin());
    uint64_t Cta = T.Cta;
    const int32_t K = SimIndex[Cta % ActiveSms];
    if (K >= 0) {
      Sms[K]->submit(Cta / ActiveSms, std::move(T));
    } else { // a neighbour: c - 1 or c - gridDim.x of the CTA c it feeds
      const uint32_t N = (uint32_t)(-2 - K);
      const uint64_t For = Cta + (N < SimSms ? 1 : GridX);
      if (For < Ctas)
        Sms[N % SimSms]->feed(T, For);
    }
    NextCta = nextWanted(Cta);
    // After each CTA, whatever order the workers delivered them in: the
    // pacing, and so the L2's order, is the same in every run.
    pace(false);
  }
}

namespace {
// The pacing window: accesses of two SMs reach the L2 out of modeled-time
// order by at most this many cycles (well under an L2 hit's latency).
constexpr uint64_t PaceWindow = 64;
// Traces an SM may hold before it runs ahead of the window (an SM behind
// the others in CTAs on an uneven grid): memory stays bounded.
constexpr size_t MaxQueued = 8;
} // namespace

void LaunchModel::pace(bool Final) {
  for (;;) {
    uint64_t Least = Never;
    for (auto &S : Sms)
      if (!S->done() && !(Final && S->idle()))
        Least = std::min(Least, S->now());
    if (Least == Never)
      return;
    const uint64_t Limit = Least + PaceWindow;
    bool Moved = false;
    for (auto &S : Sms) {
      if (S->done() || (Final && S->idle()) || (!Final && S->starved()))
        continue;
      const uint64_t To = !Final && S->queued() > MaxQueued ? Never : Limit;
      if (S->now() >= To)
        continue;
      const uint64_t Was = S->now();
      const size_t Queued = S->queued();
      S->runTo(To, Final);
      Moved |= S->now() != Was || S->queued() != Queued;
    }
    if (!Moved)
      return;
  }
}

ModeledTime LaunchModel::finish() {
  std::lock_guard<std::mutex> L(Mu);
  // A CTA that never came (a failed launch): the rest go in order anyway.
  while (!Waiting.empty()) {
    NextCta = Waiting.begin()->first;
    handOver();
  }
  pace(true);
  ModeledTime R;
  R.Config = C.Name;
  R.Fingerprint = fingerprint(C);
  for (auto &S : Sms) {
    S->finish();
    R.Cycles = std::max(R.Cycles, S->endCycle());
    if (!S->Samples.empty())
      addStalls(Samples, S->Samples);
    if (!S->Exact.empty())
      addStalls(Exact, S->Exact);
  }
  // The launch's fixed cost (launch, first dispatch, completion signal) is
  // in time: cycles of the chosen clock.
  R.LaunchCycles = (uint64_t)std::llround(C.cycles(C.LaunchOverheadNs));
  R.Cycles += R.LaunchCycles;
  R.ClockMhz = C.ClockMhz;
  R.Clock = C.ClockName;
  R.Microseconds = (double)R.Cycles / C.ClockMhz;
  R.SmsSimulated = SimSms;
  R.Scaled = SimSms < ActiveSms;
  return R;
}

} // namespace warpscope::emu::timing
