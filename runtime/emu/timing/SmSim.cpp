//===- SmSim.cpp - The cycle loop of one simulated SM --------------------===//
//
// Each cycle, each sub-partition's scheduler issues at most one warp
// instruction: the warp it issued last if that one can go on (greedy), else
// the oldest warp that can (then-oldest). A warp can issue when its next
// instruction's registers are not pending (scoreboard), its pipe has
// throughput left, the memory queues are not backed up and it is not held by
// a branch, a fence or a barrier. Cycles in which nothing can issue are
// skipped to the next event (a register becoming ready, a pipe freeing, a
// sample), so long memory stalls cost no host time.
//
// Modeled PC sampling (docs/timing-model.md): each sub-partition samples
// each cycle with probability 2^-N, independently (geometric intervals from
// a random start, its own seeded sequence per launch, SM and sub-partition,
// so that no kernel period, launch start or neighbour aliases with it), one
// of its resident warps drawn at random, and records the warp's next
// instruction and state: selected (it issued), not_selected (it could
// have), or its stall reason; a sample taken in a cycle in which the
// sub-partition issued nothing also counts as the reason's not-issued twin,
// as GH100 reports it. With ExactStalls every sub-partition cycle is
// counted instead, split over its resident warps (StallCycles): the
// samples are a multinomial draw from these shares.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"

#include <algorithm>
#include <cmath>

namespace warpscope::emu::timing {

// The cycle loop indexes the table per warp and step: a new field goes in
// the padding (host time; docs/results/*timing-model-speed*).
static_assert(sizeof(StaticInst) == 80, "StaticInst grew");

namespace {
uint64_t ceilCycle(double D) { return (uint64_t)std::ceil(D); }
} // namespace

SmSim::SmSim(const Config &C, const std::vector<StaticInst> &Table,
             uint32_t NumSlots, uint64_t ActiveSms, uint32_t BlocksPerSm,
             uint64_t Expected, uint64_t SharedCarveout, unsigned SamplePeriod,
             SharedSide &Shared, uint32_t SmIndex)
    : C(C), Table(Table), NumSlots(NumSlots), BlocksPerSm(BlocksPerSm),
      Expected(Expected), SamplePeriod(SamplePeriod) {
  Ctas.resize(BlocksPerSm);
  Mark.assign(NumSlots, 0);
  Smsps.resize((size_t)C.SubPartitions);
  Mem.init(C, ActiveSms, SharedCarveout, Shared, SmIndex);
  Fetch.init(C);
  if (SamplePeriod)
    Samples.resize(Table.size());
}

void SmSim::submit(uint64_t Seq, CtaTrace &&T) {
  Pending.emplace(Seq, std::move(T));
  run(false);
}

void SmSim::feed(const CtaTrace &T, uint64_t For) {
  std::vector<uint64_t> Entries;
  for (const WarpTrace &W : T.Warps)
    for (const TraceOp &Op : W.Ops)
      if (Op.Mem != NoMem)
        Mem.nearLines(Table[Op.Id], W.Mems[Op.Mem], W.Lines.data(), Entries);
  Mem.setNear(For, std::move(Entries));
}

void SmSim::finish() {
  Limit = Never;
  run(true);
}

void SmSim::run(bool Final) {
  for (;;) {
    while (Resident < BlocksPerSm && !Pending.empty() &&
           Pending.begin()->first == NextSeq) {
      launch(std::move(Pending.begin()->second));
      Pending.erase(Pending.begin());
      ++NextSeq;
    }
    if (Resident == 0 && (Final || Pending.empty()))
      return;
    // A free slot whose next CTA has not been traced yet: wait for it (it
    // would start now), unless no more will come.
    if (!Final && Resident < BlocksPerSm && Launched < Expected)
      return;
    if (Resident == 0)
      return; // Final, and a gap in the sequence: nothing more to run
    if (Now >= Limit)
      return; // the launch holds it back for the other SMs (pace)
    step();
  }
}

void SmSim::launch(CtaTrace &&T) {
  ++Launched;
  size_t Slot = 0;
  while (Ctas[Slot].InUse)
    ++Slot;
  Cta &K = Ctas[Slot];
  K = Cta();
  K.T = std::move(T);
  K.InUse = true;
  for (const WarpTrace &WT : K.T.Warps) {
    if (WT.Ops.empty())
      continue;
    uint32_t Index;
    if (!FreeWarps.empty()) {
      Index = FreeWarps.back();
      FreeWarps.pop_back();
    } else {
      Index = (uint32_t)WarpPool.size();
      WarpPool.emplace_back();
      Async.emplace_back();
    }
    WarpState &W = WarpPool[Index];
    W.T = &WT;
    W.Pos = 0;
    W.Cta = (uint32_t)Slot;
    W.Smsp = (uint32_t)(NextWarpSlot++ % Smsps.size());
    W.Age = NextAge++;
    W.StartAt = Now + (uint64_t)C.WarpStartCycles;
    W.BranchUntil = W.FenceUntil = W.BarUntil = W.StoresDone = W.Hint = 0;
    W.HoldUntil = 0;
    W.DrainUntil = 0;
    W.AtBar = W.Draining = W.Done = false;
    W.RegReady.assign(NumSlots, 0);
    W.RegKind.assign(NumSlots, (uint8_t)ModelStall::Wait);
    W.Ahead.clear();
    W.WalkEnd = 0;
    W.NextResume = 0;
    Async[Index].Open = 0;
    Async[Index].Committed.clear();
    skipVanishing(W, Now);
    if (W.Pos == WT.Ops.size()) { // nothing that issues
      FreeWarps.push_back(Index);
      continue;
    }
    W.FetchLine = Never;
    W.FetchUntil = 0;
    if (Fetch.on() && !Fetch.warmed())
      Fetch.warm(Fetch.lineOf(Table[WT.Ops[W.Pos].Id].Code));
    fetchNext(W, W.StartAt);
    K.Warps.push_back(Index);
    Smsps[W.Smsp].Warps.push_back(Index); // ages grow: stays oldest first
    Smsps[W.Smsp].IdleUntil = 0;
    ++K.Live;
  }
  ++Resident;
  if (K.Live == 0) {
    K.InUse = false;
    --Resident;
    End = std::max(End, Now);
  }
}

bool SmSim::ready(const WarpState &W, uint64_t T, ModelStall &Why,
                  uint64_t &Until) const {
  Until = Never;
  if (W.Draining) {
    Why = ModelStall::Drain;
    Until = std::max(W.DrainUntil, T + 1);
    return false;
  }
  if (T < W.StartAt) {
    Why = ModelStall::NoInstructions;
    Until = W.StartAt;
    return false;
  }
  if (W.AtBar || T < W.BarUntil) {
    Why = ModelStall::Barrier;
    Until = W.AtBar ? Never : W.BarUntil;
    return false;
  }
  if (T < W.BranchUntil) {
    Why = ModelStall::BranchResolving;
    Until = W.BranchUntil;
    return false;
  }
  if (T < W.HoldUntil) { // a compare-and-swap loop, a cp.async wait
    Why = (ModelStall)W.HoldWhy;
    Until = W.HoldUntil;
    return false;
  }
  if (T < W.FenceUntil) {
    Why = ModelStall::Membar;
    Until = W.FenceUntil;
    return false;
  }
  if (T < W.FetchUntil) { // an instruction cache miss
    Why = ModelStall::NoInstructions;
    Until = W.FetchUntil;
    return false;
  }
  const StaticInst &SI = Table[W.T->Ops[W.Pos].Id];
  uint64_t Reg = 0;
  uint8_t RegWhy = 0;
  for (unsigned K = 0; K < SI.NSrc; ++K)
    if (W.RegReady[SI.Src[K]] > Reg) {
      Reg = W.RegReady[SI.Src[K]];
      RegWhy = W.RegKind[SI.Src[K]];
    }
  // A jump table's entry (LDC, issued once the index is ready): a
  // variable-latency MIO result (interp's measured short_scoreboard, where
  // its loop has no other MIO operation).
  if (SI.JumpTable && SI.NSrc) {
    const uint64_t Entry = W.RegReady[SI.Src[0]] +
                           (uint64_t)C.Pipes[(int)Pipe::Int].Latency +
                           (uint64_t)C.constLatency();
    if (Entry > Reg) {
      Reg = Entry;
      RegWhy = (uint8_t)ModelStall::ShortScoreboard;
    }
  }
  // Write after write: fixed-latency results retire in order; only a
  // pending variable-latency result (scoreboarded) holds a new writer.
  for (unsigned K = 0; K < SI.NDst; ++K)
    if (W.RegReady[SI.Dst[K]] > Reg &&
        W.RegKind[SI.Dst[K]] != (uint8_t)ModelStall::Wait) {
      Reg = W.RegReady[SI.Dst[K]];
      RegWhy = W.RegKind[SI.Dst[K]];
    }
  if (Reg > T) {
    Why = (ModelStall)RegWhy;
    Until = Reg;
    return false;
  }
  const Smsp &S = Smsps[W.Smsp];
  const bool IsMem = SI.K >= Kind::Load && SI.K <= Kind::AsyncCopy;
  const bool Shared = IsMem && SI.Sp == Space::Shared;
  const Pipe P = IsMem ? Pipe::Mem : SI.P;
  if (S.PipeFree[(int)P] > (double)T) {
    Why = !IsMem   ? ModelStall::MathPipeThrottle
          : Shared ? ModelStall::MioThrottle
                   : ModelStall::LgThrottle;
    Until = ceilCycle(S.PipeFree[(int)P]);
    return false;
  }
  if (IsMem) {
    double Backlog = Shared ? Mem.SharedFree - C.MioQueueCycles
                            : Mem.L1Free - C.LsuQueueCycles;
    if (Backlog > (double)T) {
      Why = Shared ? ModelStall::MioThrottle : ModelStall::LgThrottle;
      Until = ceilCycle(Backlog);
      return false;
    }
  }
  return true;
}

void SmSim::resumePath(WarpState &W, uint64_t T) {
  const std::vector<uint32_t> &R = W.T->Resumes;
  if (C.DivergenceSwitchCycles <= 0 || W.NextResume >= R.size() ||
      R[W.NextResume] > W.Pos)
    return;
  while (W.NextResume < R.size() && R[W.NextResume] <= W.Pos)
    ++W.NextResume;
  W.BranchUntil =
      std::max(W.BranchUntil, T + (uint64_t)C.DivergenceSwitchCycles);
}

void SmSim::skipVanishing(WarpState &W, uint64_t T) {
  const std::vector<TraceOp> &Ops = W.T->Ops;
  while (W.Pos < Ops.size() && Table[Ops[W.Pos].Id].Expand == 0) {
    const StaticInst &SI = Table[Ops[W.Pos].Id];
    // Its results are its operands under another name (a kernel
    // parameter's constant-bank word, a multiply fused into the add that
    // reads it): ready when they are, for the reason they wait.
    uint64_t Ready = T;
    uint8_t Why = (uint8_t)ModelStall::Wait;
    for (unsigned K = 0; K < SI.NSrc; ++K)
      if (W.RegReady[SI.Src[K]] > Ready) {
        Ready = W.RegReady[SI.Src[K]];
        Why = W.RegKind[SI.Src[K]];
      }
    for (unsigned K = 0; K < SI.NDst; ++K) {
      W.RegReady[SI.Dst[K]] = Ready;
      W.RegKind[SI.Dst[K]] = Why;
    }
    ++W.Pos;
  }
}

void SmSim::issue(WarpState &W, Smsp &S, uint64_t T) {
  const TraceOp &Op = W.T->Ops[W.Pos];
  const StaticInst &SI = Table[Op.Id];
  const double E = SI.Expand;
  S.DispatchFree = T + SI.Expand;
  auto Define = [&](uint64_t At, ModelStall Why) {
    for (unsigned K = 0; K < SI.NDst; ++K) {
      W.RegReady[SI.Dst[K]] = At;
      W.RegKind[SI.Dst[K]] = (uint8_t)Why;
    }
  };
  auto Occupy = [&](Pipe P) {
    double &F = S.PipeFree[(int)P];
    F = std::max(F, (double)T) + E * 32.0 / C.Pipes[(int)P].Lanes;
  };
  switch (SI.K) {
  case Kind::Alu: {
    const PipeTiming &PT = C.Pipes[(int)SI.P];
    double Lat = SI.Chain ? PT.Latency * E : PT.Latency + E - 1;
    Occupy(SI.P);
    // MUFU and conversions are variable-latency: the short scoreboard.
    bool Short = SI.P == Pipe::Sfu || SI.P == Pipe::Conv;
    Define(T + ceilCycle(Lat),
           Short ? ModelStall::ShortScoreboard : ModelStall::Wait);
    break;
  }
  case Kind::Branch:
  case Kind::Exit:
    Occupy(Pipe::Branch);
    W.BranchUntil = T + (uint64_t)C.Pipes[(int)Pipe::Branch].Latency;
    Define(T + (uint64_t)C.Pipes[(int)Pipe::Branch].Latency, ModelStall::Wait);
    break;
  case Kind::Load:
  case Kind::Store:
  case Kind::Atomic: {
    Occupy(Pipe::Mem);
    uint64_t Done = SI.K == Kind::Load ? loadData(W, T) : access(W, W.Pos, T);
    // A store writes no register (sust lists the values it reads as D);
    // the warp may exit once its data left the SM, a fence waits for L2.
    if (SI.K == Kind::Store) {
      W.StoresDone = std::max(W.StoresDone, Done);
      W.DrainUntil = std::max(W.DrainUntil, Mem.Accepted);
      break;
    }
    if (SI.K == Kind::Atomic)
      W.StoresDone = std::max(W.StoresDone, Done);
    // A compare-and-swap loop is a loop in SASS: the warp goes on after it.
    if (SI.CasLoop) {
      W.HoldUntil = Done;
      W.HoldWhy = (uint8_t)ModelStall::ShortScoreboard;
    }
    bool Short = SI.Sp == Space::Shared || SI.Sp == Space::Const;
    Define(Done,
           Short ? ModelStall::ShortScoreboard : ModelStall::LongScoreboard);
    break;
  }
  case Kind::Barrier:
  case Kind::Arrive: {
    Cta &K = Ctas[W.Cta];
    uint32_t Id = SI.BarrierId & 15;
    ++K.Arrived[Id];
    K.Want[Id] = (SI.BarrierThreads + 31) / 32;
    if (SI.K == Kind::Barrier) {
      W.AtBar = true;
      W.BarId = Id;
    }
    ++W.Pos;
    skipVanishing(W, T);
    resumePath(W, T + 1);
    fetchNext(W, T + 1);
    if (W.Pos == W.T->Ops.size())
      startDraining(W);
    checkBarrier(K, Id, T);
    return;
  }
  case Kind::Fence:
    W.FenceUntil = std::max(T + (uint64_t)C.FenceLatency, W.StoresDone);
    break;
  case Kind::AsyncCopy: {
    // The warp goes on; its open group is done when the copy is, and it
    // exits only once the copy landed (drain), as after a store.
    Occupy(Pipe::Mem);
    const uint64_t Done = access(W, W.Pos, T);
    AsyncGroups &G = asyncOf(W);
    G.Open = std::max(G.Open, Done);
    W.DrainUntil = std::max(W.DrainUntil, Done);
    break;
  }
  case Kind::AsyncCommit: {
    AsyncGroups &G = asyncOf(W);
    G.Committed.push_back(G.Open);
    G.Open = 0;
    break;
  }
  case Kind::AsyncWait: { // DEPBAR: its groups' copies hold the scoreboard
    AsyncGroups &G = asyncOf(W);
    W.HoldUntil = std::max(W.HoldUntil, G.done(SI));
    W.HoldWhy = (uint8_t)ModelStall::LongScoreboard;
    if (SI.AsyncAll) {
      G.Committed.clear();
      G.Open = 0;
    } else if (G.Committed.size() > SI.AsyncKeep) {
      G.Committed.erase(G.Committed.begin(), G.Committed.end() - SI.AsyncKeep);
    }
    break;
  }
  }
  ++W.Pos;
  skipVanishing(W, T + 1);
  resumePath(W, std::max(T + 1, W.BranchUntil));
  fetchNext(W, T + 1);
  if (W.Pos == W.T->Ops.size())
    startDraining(W);
}

void SmSim::startDraining(WarpState &W) {
  W.Draining = true;
  uint64_t &D = Smsps[W.Smsp].DrainAt;
  D = std::min(D, W.DrainUntil);
}

void SmSim::wake(WarpState &W) {
  W.Hint = 0;
  Smsps[W.Smsp].IdleUntil = 0;
}

void SmSim::checkBarrier(Cta &K, uint32_t Id, uint64_t T) {
  // Expected: the CTA's warps still running, or the count the barrier
  // names (in warps) when it names one.
  uint32_t Want = K.Want[Id] ? K.Want[Id] : K.Live;
  uint32_t Running = 0;
  for (uint32_t WI : K.Warps)
    Running += !WarpPool[WI].Draining && !WarpPool[WI].Done;
  Want = std::min(Want, Running);
  if (K.Arrived[Id] < Want || K.Arrived[Id] == 0)
    return;
  K.Arrived[Id] = 0;
  for (uint32_t WI : K.Warps) {
    WarpState &W = WarpPool[WI];
    if (W.AtBar && W.BarId == Id) {
      W.AtBar = false;
      W.BarUntil = T + (uint64_t)C.BarrierLatency;
      wake(W);
    }
  }
}

void SmSim::retire(uint32_t WI, uint64_t T) {
  WarpState &W = WarpPool[WI];
  W.Done = true;
  Smsp &S = Smsps[W.Smsp];
  S.Warps.erase(std::find(S.Warps.begin(), S.Warps.end(), WI));
  if (S.Last == (int)WI)
    S.Last = -1;
  Cta &K = Ctas[W.Cta];
  FreeWarps.push_back(WI);
  if (--K.Live == 0) {
    Mem.dropNear(K.T.Cta);
    K.InUse = false;
    K.T = CtaTrace(); // its trace is no longer needed
    --Resident;
    End = std::max(End, T);
    return;
  }
  for (uint32_t Id = 0; Id < 16; ++Id)
    if (K.Arrived[Id])
      checkBarrier(K, Id, T);
}

namespace {
// splitmix64: a seed's well-mixed successor.
uint64_t mix(uint64_t &X) {
  uint64_t Z = (X += 0x9E3779B97F4A7C15ull);
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ull;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBull;
  return Z ^ (Z >> 31);
}
} // namespace

void SmSim::seedSampling(uint64_t Seed, bool Exact) {
  ExactStalls = Exact;
  if (Exact)
    this->Exact.resize(Table.size());
  for (size_t K = 0; K < Smsps.size(); ++K) {
    uint64_t X = Seed * Smsps.size() + K;
    Smsps[K].Rng = mix(X);
    if (SamplePeriod)
      Smsps[K].NextSample = drawGap(Smsps[K]);
  }
}

uint64_t SmSim::drawGap(Smsp &S) {
  // Failures before the first success of a 2^-N coin: floor(ln U /
  // ln(1 - 2^-N)), U uniform in (0, 1).
  const double U = (double)((mix(S.Rng) >> 11) + 1) * 0x1p-53;
  const double Q = std::log1p(-std::ldexp(1.0, -(int)SamplePeriod));
  const double G = std::floor(std::log(U) / Q);
  return G < 1e18 ? (uint64_t)G : (uint64_t)1e18;
}

void SmSim::sample(Smsp &S, int Picked, bool Issued, uint64_t T) {
  // A sample the cycle loop did not reach (no CTA was resident) sampled
  // nothing: the sequence goes on from T, memoryless.
  if (S.NextSample < T && (S.NextSample = T + drawGap(S)) > T)
    return;
  S.NextSample = T + 1 + drawGap(S);
  if (S.Warps.empty())
    return;
  uint32_t WI = S.Warps[mix(S.Rng) % S.Warps.size()];
  const WarpState &W = WarpPool[WI];
  ModelStall Why;
  uint64_t Until;
  if ((int)WI == Picked)
    Why = ModelStall::Selected;
  else if (ready(W, T, Why, Until))
    Why = ModelStall::NotSelected;
  StallCounts &SC = Samples[W.currentId()];
  ++SC.All[(unsigned)Why];
  if (!Issued)
    ++SC.NotIssued[(unsigned)Why];
}

void SmSim::noteStates(const Smsp &S, int Picked, uint64_t T, uint64_t &Next) {
  if (S.Warps.empty())
    return;
  const double Weight = 1.0 / (double)S.Warps.size();
  for (uint32_t WI : S.Warps) {
    const WarpState &W = WarpPool[WI];
    ModelStall Why;
    uint64_t Until = Never;
    if ((int)WI == Picked)
      Why = ModelStall::Selected;
    else if (ready(W, T, Why, Until))
      Why = ModelStall::NotSelected;
    // What holds a warp changes only at its Until (every hold is "T <
    // some cycle"); stepping there keeps each step's states exact.
    Next = std::min(Next, std::max(Until, T + 1));
    Step.push_back({W.currentId(), (uint8_t)Why, Picked < 0, Weight});
  }
}

void SmSim::step() {
  if (!ExactStalls)
    return advance();
  const uint64_t T = Now;
  Step.clear();
  advance();
  // Every state noted at T held until the next step (noteStates).
  const double Span = (double)(Now - T);
  for (const ExactEntry &E : Step) {
    Exact[E.Id].All[E.Why] += Span * E.Weight;
    if (E.NotIssued)
      Exact[E.Id].NotIssued[E.Why] += Span * E.Weight;
  }
}

void SmSim::advance() {
  const uint64_t T = Now;
  bool Any = false;
  uint64_t Next = Never;
  for (Smsp &S : Smsps) {
    // Warps whose stores drained leave first.
    if (S.DrainAt <= T) {
      S.DrainAt = Never;
      for (size_t K = 0; K < S.Warps.size();) {
        WarpState &W = WarpPool[S.Warps[K]];
        if (W.Draining && W.DrainUntil <= T) {
          retire(S.Warps[K], T);
          continue;
        }
        if (W.Draining)
          S.DrainAt = std::min(S.DrainAt, W.DrainUntil);
        ++K;
      }
    }
    int Pick = -1;
    if (S.DispatchFree > T) {
      Next = std::min(Next, S.DispatchFree);
    } else if (S.IdleUntil > T) {
      Next = std::min(Next, S.IdleUntil); // every warp's Hint is later
    } else {
      ModelStall Why;
      uint64_t Until, Least = Never;
      auto Ready = [&](uint32_t WI) {
        WarpState &W = WarpPool[WI];
        if (T < W.Hint) {
          Least = std::min(Least, W.Hint);
          return false;
        }
        if (ready(W, T, Why, Until))
          return true;
        W.Hint = Until;
        Least = std::min(Least, Until);
        return false;
      };
      if (S.Last >= 0 && Ready((uint32_t)S.Last))
        Pick = S.Last;
      else
        for (uint32_t WI : S.Warps)
          if ((int)WI != S.Last && Ready(WI)) {
            Pick = (int)WI;
            break;
          }
      Next = std::min(Next, Least);
      if (Pick < 0)
        S.IdleUntil = Least;
    }
    if (SamplePeriod && S.NextSample <= T)
      sample(S, Pick, Pick >= 0, T);
    if (SamplePeriod)
      Next = std::min(Next, S.NextSample);
    if (ExactStalls)
      noteStates(S, Pick, T, Next);
    if (Pick >= 0) {
      WarpPool[Pick].Hint = 0;
      issue(WarpPool[Pick], S, T);
      S.Last = Pick;
      Any = true;
    }
  }
  if (Any || Resident == 0) {
    Now = T + 1;
    return;
  }
  // Nothing could issue: skip to the next event. Only warps at barriers
  // that can never be released: release them (a model gap, never a hang).
  bool Blocked = true;
  for (const Smsp &S : Smsps)
    for (uint32_t WI : S.Warps) {
      const WarpState &W = WarpPool[WI];
      if (!W.AtBar || W.Draining) {
        Blocked = false;
        break;
      }
    }
  if (Blocked) {
    for (Cta &K : Ctas)
      if (K.InUse) {
        for (uint32_t WI : K.Warps)
          if (WarpPool[WI].AtBar) {
            WarpPool[WI].AtBar = false;
            WarpPool[WI].BarUntil = T + 1;
            wake(WarpPool[WI]);
          }
        std::fill(std::begin(K.Arrived), std::end(K.Arrived), 0);
      }
    Now = T + 1;
    return;
  }
  Now = std::max(T + 1, Next == Never ? T + 1 : Next);
}

} // namespace warpscope::emu::timing
