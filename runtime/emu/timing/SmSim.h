//===- SmSim.h - One simulated SM of the timing model -----------*- C++ -*-===//
//
// Private to the timing library: the cycle loop of one SM (SmSim.cpp) and
// its memory side (MemorySide.cpp). See warpscope/Emu/TimingModel.h for what it
// models.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_SMSIM_H
#define WARPSCOPE_EMU_TIMING_SMSIM_H

#include "InstFetch.h"
#include "warpscope/Emu/TimingModel.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

namespace warpscope::emu::timing {

constexpr uint64_t Never = std::numeric_limits<uint64_t>::max();

/// A set-associative cache of 128-byte lines of four 32-byte sectors with
/// LRU replacement (tags only: the model needs hits, not data), sets
/// indexed by a hash of the line (MemorySide.cpp). As NVIDIA's L1 and L2, a
/// miss allocates the line but fills only the sectors asked for: another
/// sector of the line is a miss of its own.
class LineCache {
public:
  void init(uint64_t Bytes, unsigned Ways);
  /// True when every sector of the line entry (lineOf / sectorsOf) is in
  /// the cache; a miss allocates the line (when absent) and marks the
  /// sectors asked for present, when Allocate.
  bool access(uint64_t Entry, bool Allocate);
  /// Lines the cache does not hold take room in it too (SharedL2): a way's
  /// line is gone once its depth, the lines touched after it in its set
  /// plus PerSet lines per tick of *Clock since its last touch, fills the
  /// set's ways. A way whose third word of fill() is set is touched
  /// unseen as well, 1 / Unseen times as often as seen: its depth is
  /// Unseen times that.
  void ageBy(const uint64_t *Clock, double PerSet, double Unseen) {
    this->Clock = Clock;
    this->PerSet = PerSet;
    this->Unseen = Unseen;
  }
  /// The sectors the last access() did not find (0 on a hit).
  unsigned missing() const { return Missing; }
  /// Whether the last access() found the line's tag (live).
  bool found() const { return Found; }
  /// Whether it found the tag of a line aged out (ageBy), then taken as
  /// absent (its way is filled anew, the first word of fill() kept).
  bool aged() const { return Aged; }
  /// Four words of the way the last access() hit or allocated, null when
  /// it did neither: the L1 keeps the cycle each sector has its data (0:
  /// long since), which the caller sets for the sectors it fetches; the
  /// L2 (SharedL2) which simulated SM brought the line in, *Clock at its
  /// last touch (ageBy) and whether it is touched unseen.
  uint64_t *fill() const { return Fill; }

public:
  LineCache() = default;
  LineCache(const LineCache &) = delete;
  LineCache &operator=(const LineCache &) = delete;
  ~LineCache();

private:
  /// Whether way K of the set at T, S is aged out (ageBy).
  bool gone(const uint64_t *T, const uint64_t *S, unsigned K) const;
  // Tags hold line + 1 (0: empty) with the present sectors above
  // SectorShift, in anonymous memory mapped per launch, so that its lazily
  // zeroed pages are an empty cache and a launch pays only for the sets it
  // touches (an L2 slice is megabytes of tags; malloc would clear them
  // all). Fills: four per way.
  uint64_t *Tags = nullptr, *Stamps = nullptr, *Fills = nullptr;
  uint64_t *Fill = nullptr;
  const uint64_t *Clock = nullptr;
  double PerSet = 0, Unseen = 1;
  size_t MapBytes = 0;
  uint64_t Sets = 0, Now = 0;
  unsigned Ways = 1, Missing = 0;
  bool Found = false, Aged = false;
};

/// The L2's tags as the simulated SMs see them (L2.cpp): one cache of the
/// L2's capacity. With K of S SMs simulated, a line only one simulated SM
/// touches stands for S / K alike (one on each unsimulated SM between),
/// whose room it takes as well; a line several touch is one line of the
/// whole grid, fetched from DRAM by a simulated SM K / S of the time.
class SharedL2 {
public:
  void init(uint64_t Bytes, uint64_t SimSms, uint64_t ActiveSms);
  /// LineCache::access with allocation, by simulated SM Sm's CTA Cta: the
  /// sectors its neighbours brought in (near) are not missing.
  bool access(uint64_t Entry, uint32_t Sm, uint64_t Cta);
  /// The sectors the last access() must fetch from DRAM.
  unsigned missing() const { return Missing; }
  /// The cycle the last access()'s line is due from its latest DRAM fetch
  /// (0: long since; with the SMs paced, a fetch of another SM at about the
  /// same modeled time): a load that finds it meanwhile waits for it, as
  /// the L2 holds a request to a line on its way. Null when it has none.
  uint64_t *due() const { return Tags.fill() ? &Tags.fill()[3] : nullptr; }
  /// Adds the lines (entries) a neighbour of simulated SM Sm's CTA Cta
  /// brought in (L2.cpp) to Cta's near lines.
  void setNear(uint32_t Sm, uint64_t Cta, std::vector<uint64_t> &&Entries);
  /// Forgets CTA Cta's near lines (it ended).
  void dropNear(uint32_t Sm, uint64_t Cta) { Near[Sm].erase(Cta); }

private:
  /// Of a grid-wide line's missing sectors, those no unsimulated SM
  /// fetched first.
  unsigned fetchedHere(uint64_t Line, unsigned Sectors) const;
  /// The sectors of Line among CTA Cta's near entries (its neighbours').
  unsigned nearSectors(uint32_t Sm, uint64_t Cta, uint64_t Line) const;
  LineCache Tags;
  /// The unsimulated SMs' own lines allocated so far, in K-ths of a line:
  /// the clock the cache ages by.
  uint64_t Others = 0;
  uint64_t Sim = 1, Active = 1;
  /// Per simulated SM, per CTA of its not yet ended: its neighbours' line
  /// entries, sorted by line.
  std::vector<std::map<uint64_t, std::vector<uint64_t>>> Near;
  unsigned Missing = 0;
};

/// Which CTAs update each global atomic address (a direct-mapped table of
/// the addresses seen last; one that falls out is new again): an address
/// updated by more than one CTA is taken to be updated by every SM of the
/// launch, as the representative-SM method takes every SM to behave like
/// the simulated ones; one updated by a single CTA is that CTA's own.
class AtomicOwners {
public:
  /// Records that CTA Cta updates Addr; true when another CTA did before.
  bool shared(uint64_t Addr, uint64_t Cta);

private:
  struct Entry {
    uint64_t Tag = 0, First = 0;
    bool Shared = false;
  };
  std::vector<Entry> Table; ///< sized on first use
};

/// What the simulated SMs share, used only under the launch's lock: the
/// L2's tags (one cache for the whole GPU) and the atomic addresses' owners.
struct SharedSide {
  SharedL2 L2;
  AtomicOwners Owners;
};

/// The L1, this SM's share of L2 bandwidth and DRAM, its view of the atomic
/// units, and the shared-memory pipe: when each is next free (bandwidth)
/// and what an access costs (latency).
class MemorySide {
public:
  void init(const Config &C, uint64_t ActiveSms, uint64_t SharedCarveout,
            SharedSide &Shared, uint32_t SmIndex = 0);
  /// The cycle the access's data is back (loads, atomics) or written
  /// (stores), issued at T by a warp of CTA Cta.
  uint64_t access(const StaticInst &SI, const MemAccess &M,
                  const uint64_t *Lines, uint64_t T, uint64_t Cta);
  /// Appends the access's global line entries to Out, the sectors a load
  /// brings with their fetch granule: a neighbour CTA's, run on an
  /// unsimulated SM and not timed (L2.cpp).
  void nearLines(const StaticInst &SI, const MemAccess &M,
                 const uint64_t *Lines, std::vector<uint64_t> &Out) const;
  /// Hands them to the L2 as this SM's neighbour's (SharedL2::setNear).
  void setNear(uint64_t Cta, std::vector<uint64_t> &&Entries) {
    Shared->L2.setNear(Sm, Cta, std::move(Entries));
  }
  void dropNear(uint64_t Cta) { Shared->L2.dropNear(Sm, Cta); }
  /// The backlog that throttles issue (lg_throttle / mio_throttle).
  double L1Free = 0, SharedFree = 0;
  /// The cycle the last access's data left the SM (a store's: the warp need
  /// not wait longer to exit), and the latest cycle a store or atomic of
  /// this SM completes in L2 (the launch is not over before).
  uint64_t Accepted = 0, LastWrite = 0;

private:
  /// The sectors of a line the L2 fetches from DRAM for a load missing
  /// Sectors: those with the rest of their fetch granule.
  unsigned fetched(unsigned Sectors) const;
  /// The cycle a global atomic's last update is done (A0: it reaches L2).
  double atomicUnits(const StaticInst &SI, const MemAccess &M,
                     const uint64_t *Lines, double A0, uint64_t Cta);
  /// The cycle a shared-memory access's data is back, issued at Start.
  double sharedAccess(const StaticInst &SI, const MemAccess &M,
                      const uint64_t *Lines, double Start, uint64_t Cta);
  /// The cycle a compare-and-swap loop (a shared atomic sm_90 has no
  /// instruction for) is done, started at S0 with the shared pipe free.
  double casLoop(const MemAccess &M, const uint64_t *Lines, double S0,
                 uint64_t Cta);
  /// Its rounds, each lane's after the last store on its word (WordFree),
  /// and the LDS wavefronts of all its rounds (LdsWavefronts).
  double casRounds(const MemAccess &M, const uint64_t *Lines, double S0,
                   double Round, double Land, uint64_t Cta,
                   double &LdsWavefronts);

  const Config *C = nullptr;
  LineCache L1;
  SharedSide *Shared = nullptr;
  double L2Free = 0, DramFree = 0, L2Share = 1, DramShare = 1;
  double ActiveSms = 1;
  uint32_t Sm = 0; ///< which simulated SM (SharedL2)
  /// When each atomic address is next free in this SM's share of its atomic
  /// unit (direct-mapped like AtomicOwners; sized on first use).
  std::vector<std::pair<uint64_t, double>> AtomicFree;
  /// When the last compare-and-swap loop's store on each shared word
  /// landed (by CTA and word; direct-mapped, sized on first use).
  std::vector<std::pair<uint64_t, double>> WordFree;
};

struct WarpState {
  const WarpTrace *T = nullptr;
  size_t Pos = 0;
  uint32_t Smsp = 0, Cta = 0, BarId = 0;
  uint64_t Age = 0;
  uint64_t StartAt = 0, BranchUntil = 0, FenceUntil = 0, BarUntil = 0;
  /// Its next instruction waits until then, stalled as HoldWhy: in a
  /// compare-and-swap loop (a shared atomic sm_90 has no instruction for)
  /// its rounds issue (short_scoreboard); after a cp.async wait (DEPBAR)
  /// the copies of its groups hold the scoreboard (long_scoreboard).
  uint64_t HoldUntil = 0;
  /// The code line of its next instruction and the cycle that line is in
  /// its sub-partition's L0 instruction cache (SmSim::fetchNext).
  uint64_t FetchLine = Never, FetchUntil = 0;
  /// Its stores and atomics done in L2 (a fence waits for them); its
  /// stores' data out of the SM (exiting waits for that: drain).
  uint64_t StoresDone = 0, DrainUntil = 0;
  /// No use asking ready() before this cycle: the Until of its last "not
  /// ready" (what holds a warp only ever moves later, except a barrier's
  /// release, which resets it).
  uint64_t Hint = 0;
  bool AtBar = false, Draining = false, Done = false;
  uint8_t HoldWhy = 0; ///< ModelStall, with HoldUntil
  std::vector<uint64_t> RegReady;
  std::vector<uint8_t> RegKind; ///< ModelStall of the pending producer
  /// Loads sent to memory ahead (SmSim::loadAhead, blockAhead): trace
  /// position, the cycle its data is back, and whether a walk of its own
  /// block sent it (a few; any order).
  struct SentLoad {
    size_t Pos;
    uint64_t Done;
    bool InBlock;
  };
  std::vector<SentLoad> Ahead;
  /// SmSim::blockAhead: a walk from before this trace position sent every
  /// global load up to it, the end of its block (0: none did).
  size_t WalkEnd = 0;
  /// The next of T->Resumes still ahead of it.
  size_t NextResume = 0;
  uint32_t currentId() const {
    return T->Ops[Pos < T->Ops.size() ? Pos : T->Ops.size() - 1].Id;
  }
};

/// A warp's cp.async groups (kept beside WarpState, which the cycle loop
/// walks, by the same index): the cycle the copies of its open group are
/// done, and those of each committed group not yet waited for, oldest
/// first.
struct AsyncGroups {
  uint64_t Open = 0;
  std::vector<uint64_t> Committed;
  /// The cycle the groups an AsyncWait waits for are done.
  uint64_t done(const StaticInst &SI) const {
    uint64_t Done = SI.AsyncAll ? Open : 0;
    for (size_t K = 0; K + SI.AsyncKeep < Committed.size(); ++K)
      Done = std::max(Done, Committed[K]);
    return Done;
  }
};

class SmSim {
public:
  SmSim(const Config &C, const std::vector<StaticInst> &Table,
        uint32_t NumSlots, uint64_t ActiveSms, uint32_t BlocksPerSm,
        uint64_t Expected, uint64_t SharedCarveout, unsigned SamplePeriod,
        SharedSide &Shared, uint32_t SmIndex);
  /// Takes the trace of this SM's Seq-th CTA and runs as far as it can
  /// (the caller holds the launch's lock: the L2 is shared).
  void submit(uint64_t Seq, CtaTrace &&T);
  /// Gives the L2 the global lines of T, a neighbour of this SM's CTA For
  /// (on an unsimulated SM), as what it brought in for that CTA.
  void feed(const CtaTrace &T, uint64_t For);
  /// Runs to the end once every CTA was submitted.
  void finish();
  /// Runs no further than cycle Limit (Never: as far as it can) until it is
  /// called again: the launch keeps its SMs near one another in modeled
  /// time (LaunchModel::pace), so that the L2 sees their accesses nearly in
  /// the order the GPU would.
  void runTo(uint64_t Limit, bool Final) {
    this->Limit = Limit;
    run(Final);
  }
  /// The cycle it has reached.
  uint64_t now() const { return Now; }
  /// Whether it waits for a CTA's trace that has not been submitted yet.
  bool starved() const {
    return Resident < BlocksPerSm && Launched < Expected &&
           (Pending.empty() || Pending.begin()->first != NextSeq);
  }
  /// Whether every CTA it expects has run.
  bool done() const { return Resident == 0 && Launched >= Expected; }
  /// Traces submitted and not yet started.
  size_t queued() const { return Pending.size(); }
  /// Whether it has nothing to run now (no resident CTA, no trace).
  bool idle() const { return Resident == 0 && Pending.empty(); }
  /// The cycle its last CTA ended and its last write completed.
  uint64_t endCycle() const { return std::max(End, Mem.LastWrite); }
  std::vector<StallCounts> Samples; ///< by StaticInst index
  std::vector<StallCycles> Exact;   ///< likewise, with ExactStalls
  /// Gives each sub-partition its own sampling sequence from Seed (a
  /// random first sample, then intervals drawn independently) and turns
  /// the exact stall cycles on. Before the first CTA.
  void seedSampling(uint64_t Seed, bool ExactStalls);

private:
  struct Cta {
    CtaTrace T;
    std::vector<uint32_t> Warps; ///< indices into WarpPool
    uint32_t Live = 0;
    uint32_t Arrived[16] = {};
    uint32_t Want[16] = {}; ///< warps a counted barrier waits for (0: all)
    bool InUse = false;
  };
  struct Smsp {
    std::vector<uint32_t> Warps; ///< resident, oldest first
    int Last = -1;               ///< greedy: the warp issued last
    double PipeFree[(int)Pipe::Count] = {};
    uint64_t DispatchFree = 0, NextSample = 0;
    /// Host-time shortcuts, no effect on the result: before DrainAt no
    /// draining warp can retire (the earliest StoresDone among them); before
    /// IdleUntil no warp can issue (the least Hint after a scan that found
    /// none; 0 once a warp arrives or a barrier releases one).
    uint64_t DrainAt = Never, IdleUntil = 0;
    uint64_t Rng = 1; ///< the sampling sequence (intervals, warps)
  };
  /// One warp's state in this step (ExactStalls): where, why, its weight.
  struct ExactEntry {
    uint32_t Id;
    uint8_t Why;
    bool NotIssued;
    double Weight;
  };
  void run(bool Final);
  void launch(CtaTrace &&T);
  void step();
  /// One step of the cycle loop (step() adds the exact stall cycles).
  void advance();
  /// Whether W can issue at T; else why not (Why) and the first cycle it
  /// might (Until, Never when only another warp can release it).
  bool ready(const WarpState &W, uint64_t T, ModelStall &Why,
             uint64_t &Until) const;
  void issue(WarpState &W, Smsp &S, uint64_t T);
  void skipVanishing(WarpState &W, uint64_t T);
  /// W moved on at T: when its next op resumes another divergent path
  /// (WarpTrace::Resumes), it waits Config::DivergenceSwitchCycles more.
  void resumePath(WarpState &W, uint64_t T);
  /// W's next instruction is on a new code line: fetch it (InstFetch).
  void fetchNext(WarpState &W, uint64_t T) {
    if (!Fetch.on() || W.Pos >= W.T->Ops.size())
      return;
    const uint64_t Line = Fetch.lineOf(Table[W.T->Ops[W.Pos].Id].Code);
    if (Line != W.FetchLine) {
      W.FetchLine = Line;
      W.FetchUntil = Fetch.fetch(W.Smsp, Line, T);
    }
  }
  /// The cycle the data of W's load at W.Pos, issued at T, is back: sent
  /// ahead before, or sent now, with the next executions of an unrolled
  /// load.
  /// Trace op P's memory access of warp W, sent to the memory side at At.
  uint64_t access(const WarpState &W, size_t P, uint64_t At);
  uint64_t loadData(WarpState &W, uint64_t T);
  /// Sends the next executions of W's unrolled load at W.Pos to memory.
  void loadAhead(WarpState &W, uint64_t T);
  /// Sends the later global loads of the basic block of W's load at W.Pos
  /// whose addresses are ready to memory.
  void blockAhead(WarpState &W, uint64_t T);
  /// Whether W's trace position P was sent to memory ahead.
  static bool sentAhead(const WarpState &W, size_t P);
  void checkBarrier(Cta &K, uint32_t Id, uint64_t T);
  void retire(uint32_t WarpIndex, uint64_t T);
  void startDraining(WarpState &W);
  /// W's Hint no longer holds (released from a barrier).
  void wake(WarpState &W);
  void sample(Smsp &S, int Picked, bool Issued, uint64_t T);
  /// Cycles until the next sample, 0 included (geometric, mean 2^N - 1).
  uint64_t drawGap(Smsp &S);
  /// ExactStalls: notes every resident warp's state at T into Step and
  /// lowers Next to the first cycle any of them can change.
  void noteStates(const Smsp &S, int Picked, uint64_t T, uint64_t &Next);

  const Config &C;
  const std::vector<StaticInst> &Table;
  uint32_t NumSlots, BlocksPerSm;
  uint64_t Expected, Launched = 0, NextSeq = 0;
  unsigned SamplePeriod;
  bool ExactStalls = false;
  std::vector<ExactEntry> Step; ///< this step's states (ExactStalls)
  std::vector<uint32_t> Loaded; ///< loadAhead: registers a load writes
  /// blockAhead: per register slot, the walk that wrote it and whether it
  /// holds a load's data (Walk << 1 | loaded).
  std::vector<uint32_t> Mark;
  uint32_t Walk = 0;
  std::map<uint64_t, CtaTrace> Pending;
  std::vector<Cta> Ctas;
  std::vector<WarpState> WarpPool;
  std::vector<AsyncGroups> Async; ///< by WarpPool index
  AsyncGroups &asyncOf(const WarpState &W) {
    return Async[(size_t)(&W - WarpPool.data())];
  }
  std::vector<uint32_t> FreeWarps;
  std::vector<Smsp> Smsps;
  MemorySide Mem;
  InstFetch Fetch;
  uint32_t Resident = 0;
  uint64_t Now = 0, End = 0, NextAge = 0, NextWarpSlot = 0;
  /// How far run() may go (runTo); 0 until the launch paces it.
  uint64_t Limit = 0;
};

} // namespace warpscope::emu::timing

#endif
