//===- MechanismTest.cpp - The timing model's calibrated mechanisms -------===//
//
// One test per mechanism of issue 34: the launch's fixed cost and the
// clocks, DRAM bandwidth per cycle under either clock, same-address global
// atomics (within a warp and across SMs; ATOM against RED), shared atomics
// (lanes on one word, the compare-and-swap loop, merged increments), hashed
// cache sets, stores that drain without holding the warp, and issue 34's
// third pass: unrolled loops' loads in flight and hits on a line in flight;
// the fifth: caches that fill 32-byte sectors, the L2's fetch granule.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"
#include "warpscope/Emu/TimingModel.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::emu::timing;

// This file's instructions and helpers, apart from the other timing
// tests' of the same names: the files are compiled together (a unity
// build, cmake/WarpScopeUnity.cmake).
namespace mechanism_test {
namespace {

enum : uint32_t {
  Fma,        // r3 = fma(r3): a dependent chain
  GlobalLoad, // r6 = ld.global
  Load10,     // r10..r13 = ld.global: four independent loads
  Load11,
  Load12,
  Load13,
  UseLoads,    // reads r10..r13
  UseLoad,     // r7 = r6 + ...
  GlobalRed,   // red.global.add.u32 (aggregable, no result)
  GlobalExch,  // r8 = atom.global.exch (not aggregable)
  GlobalAtom,  // r8 = atom.global.add.u32 (aggregable, result read: ATOM)
  UseExch,     // r9 = r8 + ...
  SharedAtom,  // r8 = atom.shared.add.u32
  SharedFAdd,  // r8 = atom.shared.add.f32: a CAS loop on sm_90
  GlobalStore, // st.global
  Unrolled,    // r6 = ld.global [r14], in a loop ptxas unrolls
  Chase,       // r14 = ld.global [r14], likewise: a pointer chase
  StoreShared, // st.shared of r6
  Step,        // r14 = r14 + 4
  SharedInc,   // atom.shared.add.u32 by 1, result unused: ATOMS.POPC.INC
  BlockLoad,   // r4 = ld.global [r14], later loads of its block may go ahead
  BlockUse,    // r5 = r4 + ...
  BlockChase,  // r14 = ld.global [r14]: its block's next address
  BlockHead,   // r15 = r15 + 1, a branch target (a new basic block)
  UnrolledToo, // r6 = ld.global [r14], unrolled, after a load of its block
  NumInsts
};

std::vector<StaticInst> table() {
  std::vector<StaticInst> T(NumInsts);
  T[Fma].P = Pipe::Fp32;
  T[Fma].NDst = 1, T[Fma].Dst[0] = 3;
  T[Fma].NSrc = 1, T[Fma].Src[0] = 3;
  T[GlobalLoad].K = Kind::Load;
  T[GlobalLoad].NDst = 1, T[GlobalLoad].Dst[0] = 6;
  for (uint32_t K = 0; K < 4; ++K) {
    T[Load10 + K].K = Kind::Load;
    T[Load10 + K].NDst = 1, T[Load10 + K].Dst[0] = 10 + K;
    T[UseLoads].Src[T[UseLoads].NSrc++] = 10 + K;
  }
  T[UseLoad].P = Pipe::Fp32;
  T[UseLoad].NDst = 1, T[UseLoad].Dst[0] = 7;
  T[UseLoad].NSrc = 1, T[UseLoad].Src[0] = 6;
  T[GlobalRed].K = Kind::Atomic, T[GlobalRed].Aggregable = true;
  T[GlobalExch].K = Kind::Atomic, T[GlobalExch].Returns = true;
  T[GlobalExch].NDst = 1, T[GlobalExch].Dst[0] = 8;
  T[GlobalAtom] = T[GlobalExch], T[GlobalAtom].Aggregable = true;
  T[UseExch].P = Pipe::Int;
  T[UseExch].NDst = 1, T[UseExch].Dst[0] = 9;
  T[UseExch].NSrc = 1, T[UseExch].Src[0] = 8;
  for (uint32_t S : {SharedAtom, SharedFAdd}) {
    T[S].K = Kind::Atomic, T[S].Sp = Space::Shared;
    T[S].NDst = 1, T[S].Dst[0] = 8;
  }
  T[SharedFAdd].CasLoop = true;
  T[GlobalStore].K = Kind::Store;
  for (uint32_t L : {Unrolled, Chase}) {
    T[L].K = Kind::Load, T[L].Unrolled = true;
    T[L].NSrc = 1, T[L].Src[0] = 14;
    T[L].NDst = 1, T[L].Dst[0] = L == Chase ? 14 : 6;
  }
  T[StoreShared].K = Kind::Store, T[StoreShared].Sp = Space::Shared;
  T[StoreShared].NSrc = 1, T[StoreShared].Src[0] = 6;
  T[Step].NDst = 1, T[Step].Dst[0] = 14;
  T[Step].NSrc = 1, T[Step].Src[0] = 14;
  T[SharedInc].K = Kind::Atomic, T[SharedInc].Sp = Space::Shared;
  T[SharedInc].MergesLanes = true;
  for (uint32_t L : {BlockLoad, BlockChase}) {
    T[L].K = Kind::Load, T[L].Hoists = true;
    T[L].NSrc = 1, T[L].Src[0] = 14;
    T[L].NDst = 1, T[L].Dst[0] = L == BlockChase ? 14 : 4;
  }
  T[BlockUse].P = Pipe::Fp32;
  T[BlockUse].NDst = 1, T[BlockUse].Dst[0] = 5;
  T[BlockUse].NSrc = 1, T[BlockUse].Src[0] = 4;
  T[UnrolledToo] = T[Unrolled];
  T[UnrolledToo].Hoists = true;
  T[BlockHead].Leader = true;
  T[BlockHead].NDst = 1, T[BlockHead].Dst[0] = 15;
  T[BlockHead].NSrc = 1, T[BlockHead].Src[0] = 15;
  return T;
}

Config config(double Sms = 1) {
  Config C; // H100-like defaults
  C.Name = "test";
  C.Sms = Sms;
  return C;
}

void add(WarpTrace &W, uint32_t Id, unsigned N = 1) {
  for (unsigned K = 0; K < N; ++K)
    W.Ops.push_back({Id, NoMem});
}

void addMem(WarpTrace &W, uint32_t Id, MemAccess M) {
  W.Ops.push_back({Id, (uint32_t)W.Mems.size()});
  W.Mems.push_back(M);
}

// A global atomic: Addresses[k] updated by Lanes[k] lanes (one line).
void addGlobalAtomic(WarpTrace &W, uint32_t Id,
                     std::vector<std::pair<uint64_t, unsigned>> On) {
  MemAccess M;
  M.Counted = M.Global = true;
  M.Sectors = 1, M.Atomics = (uint32_t)On.size();
  M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
  W.Lines.push_back(On[0].first >> 7);
  M.AtomBegin = (uint32_t)W.Lines.size(), M.NAtoms = (uint32_t)On.size();
  for (auto [Addr, Lanes] : On)
    W.Lines.push_back(Addr << 6 | (Lanes - 1));
  addMem(W, Id, M);
}

// A shared atomic on word 5 by Lanes lanes, the rest on distinct banks.
void addSharedAtomic(WarpTrace &W, uint32_t Id, unsigned Lanes) {
  MemAccess M;
  M.Counted = M.Shared = true;
  M.Wavefronts = 1;
  M.SharedPasses = M.SharedMaxSame = (uint16_t)Lanes;
  M.AtomBegin = (uint32_t)W.Lines.size(), M.NSharedAtoms = 1;
  W.Lines.push_back(5ull << 6 | (Lanes - 1));
  addMem(W, Id, M);
}

// A shared atomic whose lanes are on the given words: Words[k] by Lanes[k]
// lanes, with the counts the core gives (MemCount.cpp: passes = the most
// lanes on one bank, wavefronts = the most distinct words on one bank).
void addSharedAtomicOn(WarpTrace &W, uint32_t Id,
                       std::vector<std::pair<uint64_t, unsigned>> On) {
  MemAccess M;
  M.Counted = M.Shared = true;
  unsigned Lanes[32] = {}, Words[32] = {};
  M.AtomBegin = (uint32_t)W.Lines.size();
  for (auto [Word, N] : On) {
    Lanes[Word & 31] += N, ++Words[Word & 31];
    M.SharedMaxSame = std::max<uint16_t>(M.SharedMaxSame, (uint16_t)N);
    W.Lines.push_back(Word << 6 | (N - 1));
  }
  M.NSharedAtoms = (uint16_t)On.size();
  M.SharedPasses = (uint16_t)*std::max_element(Lanes, Lanes + 32);
  M.Wavefronts = *std::max_element(Words, Words + 32);
  addMem(W, Id, M);
}

// A global load or store of one sector of line Line.
void addGlobal(WarpTrace &W, uint32_t Id, uint64_t Line, uint32_t Sectors = 1) {
  MemAccess M;
  M.Counted = M.Global = true;
  M.Sectors = Sectors;
  M.LineBegin = (uint32_t)W.Lines.size(), M.NLines = 1;
  W.Lines.push_back(Line);
  addMem(W, Id, M);
}

// A shared access of one wavefront.
MemAccess sharedAccess() {
  MemAccess M;
  M.Counted = M.Shared = true;
  M.Wavefronts = 1;
  return M;
}

CtaTrace cta(std::vector<WarpTrace> W) {
  CtaTrace T;
  T.Warps = std::move(W);
  return T;
}

ModeledTime model(const Config &C, std::vector<CtaTrace> Ctas,
                  uint32_t Threads = 32, unsigned MaxSms = 8) {
  static const std::vector<StaticInst> T = table();
  LaunchShape S;
  S.Ctas = Ctas.size();
  S.ThreadsPerCta = Threads;
  LaunchModel M(C, T, 16, S, 0, MaxSms);
  for (size_t K = 0; K < Ctas.size(); ++K)
    if (M.wanted(K)) {
      Ctas[K].Cta = K;
      M.submit(std::move(Ctas[K]));
    }
  return M.finish();
}

uint64_t chain(const Config &C, unsigned N) {
  WarpTrace W;
  add(W, Fma, N);
  return model(C, {cta({W})}).Cycles;
}

// Two SMs, a warp each, 30 requests of atomic Id with Lanes lanes on one
// address: the same for both SMs (Same) or each SM's own.
uint64_t twoSms(const Config &C, uint32_t Id, unsigned Lanes, bool Same) {
  std::vector<CtaTrace> Ctas;
  for (uint64_t K = 0; K < 2; ++K) {
    WarpTrace W;
    for (int J = 0; J < 30; ++J)
      addGlobalAtomic(W, Id, {{Same ? 64 : 64 + 1024 * K, Lanes}});
    Ctas.push_back(cta({W}));
  }
  return model(C, Ctas).Cycles;
}

} // namespace

TEST(TimingMechanism, LaunchOverheadIsTimeAtTheChosenClock) {
  Config C = config();
  const uint64_t Core = chain(C, 100);
  C.LaunchOverheadNs = 2000;
  C.BoostClockMhz = 2000, C.BaseClockMhz = 1600;
  std::string Error;
  ASSERT_TRUE(selectClock(C, "base", Error)) << Error;
  WarpTrace W;
  add(W, Fma, 100);
  ModeledTime Base = model(C, {cta({W})});
  EXPECT_EQ(Base.LaunchCycles, 3200u); // 2 us at 1600 MHz
  EXPECT_EQ(Base.Cycles, Core + 3200);
  EXPECT_EQ(Base.Clock, "base");
  EXPECT_DOUBLE_EQ(Base.ClockMhz, 1600);
  EXPECT_DOUBLE_EQ(Base.Microseconds, (double)Base.Cycles / 1600);
  ASSERT_TRUE(selectClock(C, "boost", Error)) << Error;
  ModeledTime Boost = model(C, {cta({W})});
  EXPECT_EQ(Boost.Cycles, Core + 4000);
  EXPECT_DOUBLE_EQ(Boost.Microseconds, (double)Boost.Cycles / 2000);
  // Cycles at another clock are other figures: the fingerprint says so.
  EXPECT_NE(Base.Fingerprint, Boost.Fingerprint);
  ASSERT_TRUE(selectClock(C, "1500", Error)) << Error;
  EXPECT_EQ(C.ClockName, "set");
  EXPECT_FALSE(selectClock(C, "fast", Error));
  EXPECT_EQ(Error,
            "model clock 'fast' is not boost, base or a clock in MHz (1 to "
            "100000)");
}

TEST(TimingMechanism, DramBandwidthPerCycleFollowsTheClock) {
  // Every SM streams DRAM lines (its 1/132 share of the sustained DRAM
  // bandwidth is the bottleneck): the time in microseconds is about the
  // same at either clock, the cycles follow the clock.
  Config C = config(132);
  C.DramGBps = 3350, C.DramSustainedGBps = 2000;
  C.BoostClockMhz = 2000, C.BaseClockMhz = 1000;
  std::vector<CtaTrace> Ctas;
  for (uint64_t K = 0; K < 132; ++K) {
    std::vector<WarpTrace> Ws(32);
    for (size_t W = 0; W < Ws.size(); ++W)
      for (uint64_t L = 0; L < 32; ++L)
        addGlobal(Ws[W], Load10 + L % 4, ((K * 32 + W) * 32 + L) * 3, 4);
    for (WarpTrace &W : Ws)
      add(W, UseLoads);
    Ctas.push_back(cta(Ws));
  }
  std::string Error;
  ASSERT_TRUE(selectClock(C, "base", Error));
  EXPECT_DOUBLE_EQ(C.dramBytesPerCycle(), 2000.0); // sustained, not peak
  ModeledTime Base = model(C, Ctas, 1024);
  ASSERT_TRUE(selectClock(C, "boost", Error));
  ModeledTime Boost = model(C, Ctas, 1024);
  // 132 x 32 x 32 lines of 128 bytes at 2 TB/s: 8.7 us.
  EXPECT_GT(Base.Microseconds, 8.5);
  EXPECT_NEAR(Base.Microseconds / Boost.Microseconds, 1.0, 0.05);
  EXPECT_GT(Boost.Cycles, Base.Cycles * 19 / 10);
}

TEST(TimingMechanism, SameAddressGlobalAtomicsSerializeWithinAWarp) {
  Config C = config();
  C.AtomicSameAddressNs = 10; // 19.8 cycles at 1980 MHz
  auto Run = [&](std::vector<std::pair<uint64_t, unsigned>> On, uint32_t Id) {
    WarpTrace W;
    for (int K = 0; K < 10; ++K) {
      addGlobalAtomic(W, Id, On);
      add(W, UseExch);
    }
    return model(C, {cta({W})}).Cycles;
  };
  std::vector<std::pair<uint64_t, unsigned>> Spread;
  for (uint64_t A = 0; A < 32; ++A)
    Spread.push_back({4096 + 4 * A, 1});
  const uint64_t Apart = Run(Spread, GlobalExch);
  const uint64_t One = Run({{4096, 32}}, GlobalExch);
  // Each of the 31 further lanes waits for the one before (19.8 cycles),
  // 10 times, where the 32 addresses apart cost a cycle each.
  EXPECT_GE(One, Apart + 10 * 31 * 18);
  // All lanes on one address of an integer add: one update for the warp.
  EXPECT_LT(Run({{4096, 32}}, GlobalRed), Apart);
}

TEST(TimingMechanism, AnAddressManyCtasUpdateIsSharedByEverySm) {
  // Two SMs, a warp each, 30 requests with 4 lanes on one address. On its
  // own address each SM has the atomic unit to itself; on one address both
  // SMs (and, so the model assumes, every SM of the launch) share it.
  Config C = config(2);
  C.AtomicSameAddressNs = 10;
  const uint64_t Own = twoSms(C, GlobalExch, 4, false),
                 Shared = twoSms(C, GlobalExch, 4, true);
  // 30 requests x 4 updates (an exchange returns: each lane holds the
  // address) x 19.8 cycles; at least as long again shared.
  EXPECT_GE(Own, 30u * 3 * 19);
  EXPECT_GE(Shared, Own + 30 * 3 * 19 * 9 / 10);
}

TEST(TimingMechanism, ReturningAtomicsQueueAcrossWarpsAndSms) {
  // Two SMs, a warp each, 30 whole-warp integer adds: one update per
  // request, on one address for both SMs or on each SM's own. An ATOM (its
  // old value read) holds the address for each update, so on one address
  // the two SMs' requests queue: each SM's share is half the unit, 19.8
  // more cycles per update than on its own address. A RED's requests are
  // pipelined: one address costs no more than two.
  Config C = config(2);
  C.AtomicSameAddressNs = 10; // 19.8 cycles at 1980 MHz
  EXPECT_GE(twoSms(C, GlobalAtom, 32, true),
            twoSms(C, GlobalAtom, 32, false) + 30 * 19);
  EXPECT_LE(twoSms(C, GlobalRed, 32, true),
            twoSms(C, GlobalRed, 32, false) + 30);
}

TEST(TimingMechanism, SharedAtomicLanesOnOneWordArePasses) {
  Config C = config();
  C.SharedAtomicCycles = 3;
  auto Run = [&](unsigned Lanes) {
    WarpTrace W;
    for (int K = 0; K < 20; ++K) {
      addSharedAtomic(W, SharedAtom, Lanes);
      add(W, UseExch);
    }
    return model(C, {cta({W})}).Cycles;
  };
  // 20 dependent atomics, each 31 more passes of 3 cycles.
  EXPECT_GE(Run(32), Run(1) + 20 * 31 * 3);
}

TEST(TimingMechanism, SharedIncrementsMergeTheLanesOfAWord) {
  // ATOMS.POPC.INC: 32 lanes on one word are one update, as one lane is.
  Config C = config();
  C.SharedAtomicCycles = 3;
  auto Run = [&](uint32_t Id, unsigned Lanes) {
    WarpTrace W;
    for (int K = 0; K < 200; ++K)
      addSharedAtomic(W, Id, Lanes);
    return model(C, {cta({W})}).Cycles;
  };
  EXPECT_EQ(Run(SharedInc, 32), Run(SharedInc, 1));
  EXPECT_GE(Run(SharedAtom, 32), Run(SharedInc, 32) + 200 * 31 * 3);
}

TEST(TimingMechanism, UnrolledLoopsHaveTheirLoadsInFlight) {
  // 16 iterations of `r6 = ld.global [r14]; st.shared r6; r14 += 4`, each
  // load on its own line from DRAM. In the PTX's order each iteration
  // waits for its load; with ptxas's unrolling by 4, four loads are in
  // flight: about 4 DRAM latencies instead of 16.
  Config C = config();
  auto Run = [&](unsigned Factor, uint32_t Load, bool StoreGlobal) {
    C.UnrolledLoads = Factor;
    WarpTrace W;
    for (uint64_t K = 0; K < 16; ++K) {
      addGlobal(W, Load, 1000 + 7 * K);
      addMem(W, StoreShared, sharedAccess());
      if (StoreGlobal) // may alias the next load: it stays in place
        addGlobal(W, GlobalStore, 5000 + K);
      add(W, Step);
    }
    return model(C, {cta({W})}).Cycles;
  };
  const double Dram = C.DramLatency;
  const uint64_t InOrder = Run(1, Unrolled, false);
  EXPECT_GE(InOrder, 16 * Dram);
  EXPECT_LE(Run(4, Unrolled, false), 4 * Dram + 300);
  EXPECT_GE(Run(4, Unrolled, false), 4 * Dram);
  // A pointer chase (the next address is this load's data) and a loop
  // with a global store between its loads gain nothing.
  EXPECT_EQ(Run(4, Chase, false), Run(1, Chase, false));
  EXPECT_EQ(Run(4, Unrolled, true), Run(1, Unrolled, true));
}

TEST(TimingMechanism, ABlocksLoadsGoAheadOfTheirUses) {
  // One basic block of 8 `r4 = ld.global [r14]; r5 = r4 + ...; r14 += 4`, each
  // load on its own line from DRAM. In the PTX's order each use waits before
  // the next load issues; ptxas issues the block's loads first: about one DRAM
  // latency instead of 8.
  Config C = config();
  enum Between { Nothing, GlobalStoreOf, SharedStoreOf, NewBlock, CasLoop };
  auto Run = [&](unsigned Window, uint32_t Load, Between What) {
    C.BlockLoads = Window;
    WarpTrace W;
    for (uint64_t K = 0; K < 8; ++K) {
      addGlobal(W, Load, 1000 + 7 * K);
      add(W, BlockUse);
      if (K == 3 && What == GlobalStoreOf) // may alias: later loads wait
        addGlobal(W, GlobalStore, 5000);
      if (K == 3 && What == SharedStoreOf) // cannot alias a global load
        addMem(W, StoreShared, sharedAccess());
      if (K == 3 && What == NewBlock) // ptxas schedules within a block
        add(W, BlockHead);
      if (K == 3 && What == CasLoop) // a loop in SASS: a block's end
        addSharedAtomic(W, SharedFAdd, 1);
      add(W, Step);
    }
    return model(C, {cta({W})}).Cycles;
  };
  const double Dram = C.DramLatency;
  const uint64_t InOrder = Run(1, BlockLoad, Nothing);
  EXPECT_GE(InOrder, 8 * Dram);
  EXPECT_LE(Run(8, BlockLoad, Nothing), Dram + 300);
  // A window of 4: two groups of four loads.
  EXPECT_GE(Run(4, BlockLoad, Nothing), 2 * Dram);
  EXPECT_LE(Run(4, BlockLoad, Nothing), 2 * Dram + 300);
  EXPECT_LE(Run(8, BlockLoad, SharedStoreOf), Dram + 300);
  // A global store, a new block or a compare-and-swap loop in the middle:
  // two groups of four.
  for (Between What : {GlobalStoreOf, NewBlock, CasLoop}) {
    EXPECT_GE(Run(8, BlockLoad, What), 2 * Dram) << What;
    EXPECT_LE(Run(8, BlockLoad, What), 2 * Dram + 400) << What;
  }
  // A pointer chase (each address is the previous load's data) gains
  // nothing.
  EXPECT_EQ(Run(8, BlockChase, Nothing), Run(1, BlockChase, Nothing));
}

TEST(TimingMechanism, AnUnrolledLoadSentWithItsBlockStillGoesAhead) {
  // 16 iterations, each its own block: `r4 = ld.global (one line, an L1
  // hit but the first time); r6 = ld.global (unrolled, its own line from
  // DRAM); st.shared r6; r14 += 4`. The block's walk sends the second load
  // with the first; its next 3 executions must still go ahead with it
  // (spmv_warp's loop): about 4 DRAM latencies, not 16.
  Config C = config();
  C.UnrolledLoads = 4;
  C.BlockLoads = 8;
  WarpTrace W;
  for (uint64_t K = 0; K < 16; ++K) {
    add(W, BlockHead);
    addGlobal(W, BlockLoad, 3000);
    addGlobal(W, UnrolledToo, 1000 + 7 * K);
    addMem(W, StoreShared, sharedAccess());
    add(W, Step);
  }
  const uint64_t Cycles = model(C, {cta({W})}).Cycles;
  EXPECT_GE(Cycles, 4 * C.DramLatency);
  EXPECT_LE(Cycles, 4 * C.DramLatency + 16 * C.L1Latency + 400);
}

TEST(TimingMechanism, AHitOnALineInFlightWaitsForItsFill) {
  // Warp 0 misses line 77 (DRAM); warp 1 reads it 80 cycles later, then
  // runs 100 dependent FMAs: its data comes with the fill, not an L1
  // latency after its load.
  Config C = config();
  WarpTrace A, B;
  addGlobal(A, GlobalLoad, 77);
  add(A, UseLoad);
  add(B, Fma, 20);
  addGlobal(B, GlobalLoad, 77);
  add(B, UseLoad);
  add(B, Fma, 100);
  const uint64_t Cycles = model(C, {cta({A, B})}, 64).Cycles;
  EXPECT_GE(Cycles, C.DramLatency + 100 * C.Pipes[(int)Pipe::Fp32].Latency);
}

TEST(TimingMechanism, CachesFillSectorsNotLines) {
  // A load of sector 0 of line 77, its use, then a load of sector S of the
  // same line and its use. The L1 and the L2 fill the sectors asked for, so
  // another sector of the line goes to DRAM again (the L2 fetched 32 bytes)
  // or finds the L2's fetch granule (64 bytes: sector 1, not sector 2).
  auto Run = [](double Fetch, unsigned Second) {
    Config C = config();
    C.L2FetchBytes = Fetch;
    WarpTrace W;
    addGlobal(W, GlobalLoad, 77 | uint64_t(1) << SectorShift);
    add(W, UseLoad);
    addGlobal(W, GlobalLoad, 77 | uint64_t(Second) << SectorShift);
    add(W, UseLoad);
    return (double)model(C, {cta({W})}).Cycles;
  };
  const Config C = config();
  const double Dram = C.DramLatency, L2 = C.L2Latency, L1 = C.L1Latency;
  // The same sector again: an L1 hit.
  EXPECT_LT(Run(32, 1), Dram + L2);
  EXPECT_GE(Run(32, 1), Dram + L1);
  // Sector 2 (mask 4): a miss in both caches, whatever the granule.
  EXPECT_GE(Run(32, 4), 2 * Dram);
  EXPECT_GE(Run(64, 4), 2 * Dram);
  // Sector 1 (mask 2): DRAM again with 32-byte fetches, an L2 hit with 64.
  EXPECT_GE(Run(32, 2), 2 * Dram);
  EXPECT_LT(Run(64, 2), 2 * Dram);
  EXPECT_GE(Run(64, 2), Dram + L2);
  // The whole line (0xf) after sector 0: its three missing sectors are
  // one more fill, no dearer than one other sector's.
  EXPECT_LT(Run(32, 0xf), Run(32, 4) + 1);
}

TEST(TimingMechanism, AStoreLeavesTheFillsOfEarlierLoadsAlone) {
  // A load of line 77, its use, a store to line 99, the load of line 77
  // again, its use and 200 FMAs: the reload hits in L1 at once. (A store
  // touches no L1 line: it must not set the fill of the line an earlier
  // load left, which would hold the reload until the store is in L2.)
  Config C = config();
  WarpTrace W;
  addGlobal(W, GlobalLoad, 77);
  add(W, UseLoad);
  addGlobal(W, GlobalStore, 99);
  addGlobal(W, GlobalLoad, 77);
  add(W, UseLoad);
  add(W, Fma, 200);
  const double Fma4 = 200 * C.Pipes[(int)Pipe::Fp32].Latency;
  const double Cycles = (double)model(C, {cta({W})}).Cycles;
  EXPECT_GE(Cycles, C.DramLatency + Fma4);
  EXPECT_LT(Cycles, C.DramLatency + Fma4 + C.L2Latency / 2);
}

// sm_90's loop (kmeans_accumulate's SASS): LDS, FADD, ATOMS.CAST.SPIN,
// ISETP, BRA, each waiting for the one before.
double casRound(const Config &C) {
  return 2 * C.SharedLatency + C.SharedAtomicCycles +
         C.Pipes[(int)Pipe::Fp32].Latency + C.Pipes[(int)Pipe::Int].Latency +
         C.Pipes[(int)Pipe::Branch].Latency;
}

// One lane on each of N words of one bank (5, 37, 69, ...).
std::vector<std::pair<uint64_t, unsigned>> oneBank(unsigned N) {
  std::vector<std::pair<uint64_t, unsigned>> On;
  for (uint64_t K = 0; K < N; ++K)
    On.push_back({5 + 32 * K, 1});
  return On;
}

TEST(TimingMechanism, FloatSharedAddIsACompareAndSwapLoop) {
  Config C = config();
  C.SharedAtomicCycles = 3;
  const double Round = casRound(C);
  auto Run = [&](uint32_t Id, std::vector<std::pair<uint64_t, unsigned>> On) {
    WarpTrace W;
    for (int K = 0; K < 10; ++K) {
      addSharedAtomicOn(W, Id, On);
      add(W, UseExch);
    }
    return (double)model(C, {cta({W})}).Cycles;
  };
  // Of the lanes on one word one stores a round: 8 lanes on one word take
  // 8 rounds; on 8 words of one bank one round whose LDS and ATOMS each
  // take 8 wavefronts; on 8 banks one round of one wavefront.
  const double OneBank = Run(SharedFAdd, oneBank(8));
  const double EightBanks =
      Run(SharedFAdd,
          {{5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 1}, {11, 1}, {12, 1}});
  EXPECT_NEAR(OneBank - EightBanks, 10 * 7 * (1 + C.SharedAtomicCycles), 20);
  EXPECT_NEAR(Run(SharedFAdd, {{5, 8}}) - EightBanks, 10 * 7 * Round,
              10 * 7 * 2);
  // A native ATOMS (integer add) is no loop: its passes, one latency.
  EXPECT_GT(Run(SharedFAdd, {{5, 8}}), 2 * Run(SharedAtom, {{5, 8}}));
}

TEST(TimingMechanism, ACompareAndSwapLoopHoldsItsWarpAndThePipe) {
  Config C = config();
  C.SharedAtomicCycles = 3;
  const double Round = casRound(C);
  // The loop is control flow: the FMAs after it wait for its 8 rounds,
  // though they do not read its result (each loop on its own words); the
  // next loop issues after the last FMA issued.
  WarpTrace W;
  for (uint64_t K = 0; K < 10; ++K) {
    addSharedAtomicOn(W, SharedFAdd, {{64 * K + 5, 8}});
    add(W, Fma, 20);
  }
  const double Fp32 = C.Pipes[(int)Pipe::Fp32].Latency;
  EXPECT_GE((double)model(C, {cta({W})}).Cycles, 10 * (8 * Round + 19 * Fp32));
  // A round's LDS and ATOMS touch the words with a lane still to store (8
  // words of one bank: 8 wavefronts each, in one round), serialized.
  SharedSide Side;
  MemorySide Mem;
  Mem.init(C, 1, 0, Side);
  WarpTrace V;
  addSharedAtomicOn(V, SharedFAdd, oneBank(8));
  static const std::vector<StaticInst> T = table();
  const uint64_t Done =
      Mem.access(T[SharedFAdd], V.Mems[0], V.Lines.data(), 1000, 0);
  EXPECT_EQ(Done, 1000 + (uint64_t)(Round + 7 * (1 + 3)));
  EXPECT_DOUBLE_EQ(Mem.SharedFree, 1000 + 8 * (1 + 3));
}

TEST(TimingMechanism, AnotherWarpsStoreOnTheWordFailsTheLane) {
  // Four warps of a CTA, one lane each on one word: a lane whose LDS read
  // the word before another warp's store landed fails and retries a round
  // later, so the warps' stores take a round each; on four words, none
  // waits.
  Config C = config();
  C.SharedAtomicCycles = 3;
  const double Round = casRound(C);
  auto Run = [&](bool SameWord) {
    std::vector<WarpTrace> Ws(4);
    for (uint64_t K = 0; K < 4; ++K)
      for (int J = 0; J < 10; ++J) {
        addSharedAtomicOn(Ws[K], SharedFAdd, {{SameWord ? 5 : 5 + K, 1}});
        add(Ws[K], UseExch);
      }
    return (double)model(C, {cta(Ws)}, 128).Cycles;
  };
  EXPECT_LE(Run(false), 10 * (Round + 20) + 100);
  EXPECT_GE(Run(true), Run(false) + 10 * 3 * Round - 100);
}

TEST(TimingMechanism, CacheSetsAreHashed) {
  // 16 lines a power-of-two set count apart: by low bits all in one
  // 4-way set (3 of 4 evicted on each pass); hashed, spread over the sets.
  // And the hash keeps consecutive lines apart: a cache's worth of them
  // (the L1's 4 ways x 192 sets, not a power of two) all stay.
  for (uint64_t Sets : {64u, 192u}) {
    LineCache L;
    L.init(Sets * 4 * 128, 4);
    unsigned Strided = 0, Consecutive = 0;
    for (int Pass = 0; Pass < 2; ++Pass)
      for (uint64_t K = 0; K < 16; ++K)
        Strided += L.access(K * 64 * 1024, true) && Pass == 1;
    LineCache M;
    M.init(Sets * 4 * 128, 4);
    for (int Pass = 0; Pass < 2; ++Pass)
      for (uint64_t K = 0; K < Sets * 4; ++K)
        Consecutive += M.access(1000 * Sets + K, true) && Pass == 1;
    EXPECT_GE(Strided, 14u) << Sets;
    EXPECT_GE(Consecutive, Sets * 4 * 9 / 10) << Sets;
  }
}

TEST(TimingMechanism, StoresDrainWithoutHoldingTheWarpButEndTheLaunch) {
  // A warp whose last instruction is a store may exit once the data left
  // the SM; the launch ends when the store is done in L2.
  Config C = config();
  WarpTrace W;
  addGlobal(W, GlobalStore, 3);
  ModeledTime T = model(C, {cta({W})});
  EXPECT_GE(T.Cycles, (uint64_t)C.L2Latency);
  // Sampled: the warp spends almost no time draining.
  static const std::vector<StaticInst> Tab = table();
  LaunchShape S;
  LaunchModel M(C, Tab, 16, S, /*SamplePeriod=*/5);
  CtaTrace K = cta({W});
  M.submit(std::move(K));
  M.finish();
  uint64_t Drain = 0, All = 0;
  for (const StallCounts &SC : M.samples())
    for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
      All += SC.All[J];
      Drain += J == unsigned(ModelStall::Drain) ? SC.All[J] : 0;
    }
  EXPECT_LE(Drain, 1u) << All;
}

TEST(TimingMechanism, TheSharedMemoryCarveoutComesOutOfTheL1) {
  // One warp reads 300 lines twice, each load's value used before the next
  // load issues: the second pass hits where the L1 holds 300 lines. The L1
  // is the unified 256 KB less the carveout holding the shared memory of
  // the CTAs that fit on the SM (each with its reserved 1 KB).
  const Config C = config();
  auto Run = [&](uint64_t Shared) {
    WarpTrace W;
    for (int Pass = 0; Pass < 2; ++Pass)
      for (uint64_t K = 0; K < 300; ++K) {
        addGlobal(W, GlobalLoad, 5000 + K);
        add(W, UseLoad);
      }
    static const std::vector<StaticInst> T = table();
    LaunchShape S;
    S.Ctas = 1;
    S.ThreadsPerCta = 32;
    S.SharedPerCta = Shared;
    LaunchModel M(C, T, 16, S, 0, 8);
    CtaTrace Cta = cta({W});
    Cta.Cta = 0;
    M.submit(std::move(Cta));
    return M.finish().Cycles;
  };
  const uint64_t None = Run(0);
  // 190 KB: one CTA fits, 191 KB -> the 196 KB carveout, 60 KB of L1
  // (480 lines): the second pass hits as with no shared memory.
  EXPECT_EQ(Run(190 * 1024), None);
  // 33 KB: 6 CTAs fit, 6 x 34 KB = 204 KB -> the 228 KB carveout, 28 KB of
  // L1 (224 lines): the second pass misses, each load L2's latency instead
  // of L1's (taking only the 6 x 33 KB from the L1 would leave 464 lines).
  EXPECT_GE(Run(33 * 1024), None + 300 * uint64_t(C.L2Latency - C.L1Latency));
}

} // namespace mechanism_test
