//===- SmSim.h - One simulated SM of the timing model -----------*- C++ -*-===//
//
// Private to the timing library: the cycle loop of one SM (SmSim.cpp) and
// its memory side (MemorySide.cpp). See warpscope/Emu/TimingModel.h for what it
// models.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_SMSIM_H
#define WARPSCOPE_EMU_TIMING_SMSIM_H

#include "warpscope/Emu/TimingModel.h"

#include <deque>
#include <limits>

namespace warpscope::emu::timing {

constexpr uint64_t Never = std::numeric_limits<uint64_t>::max();

/// A set-associative cache of 128-byte lines with LRU replacement (tags
/// only: the model needs hits, not data).
class LineCache {
public:
  void init(uint64_t Bytes, unsigned Ways);
  /// True on a hit; a miss allocates the line when Allocate.
  bool access(uint64_t Line, bool Allocate);

public:
  LineCache() = default;
  LineCache(const LineCache &) = delete;
  LineCache &operator=(const LineCache &) = delete;
  ~LineCache();

private:
  // Tags hold line + 1 (0: empty) in anonymous memory mapped per launch, so
  // that its lazily zeroed pages are an empty cache and a launch pays only
  // for the sets it touches (an L2 slice is megabytes of tags; malloc would
  // clear them all).
  uint64_t *Tags = nullptr, *Stamps = nullptr;
  size_t MapBytes = 0;
  uint64_t Sets = 0, Now = 0;
  unsigned Ways = 1;
};

/// The L1, this SM's share of L2 bandwidth and DRAM, and the shared-memory
/// pipe: when each is next free (bandwidth) and what an access costs
/// (latency). The L2's tags are shared by the simulated SMs (L2 is one cache
/// for the whole GPU): owned by the launch, used only under its lock.
class MemorySide {
public:
  void init(const Config &C, uint64_t ActiveSms, uint64_t SharedInUse,
            LineCache &SharedL2);
  /// The cycle the access's data is back (loads, atomics) or written
  /// (stores), issued at T.
  uint64_t access(const StaticInst &SI, const MemAccess &M,
                  const uint64_t *Lines, uint64_t T);
  /// The backlog that throttles issue (lg_throttle / mio_throttle).
  double L1Free = 0, SharedFree = 0;

private:
  const Config *C = nullptr;
  LineCache L1;
  LineCache *L2 = nullptr;
  double L2Free = 0, DramFree = 0, L2Share = 1, DramShare = 1;
};

struct WarpState {
  const WarpTrace *T = nullptr;
  size_t Pos = 0;
  uint32_t Smsp = 0, Cta = 0, BarId = 0;
  uint64_t Age = 0;
  uint64_t StartAt = 0, BranchUntil = 0, FenceUntil = 0, BarUntil = 0;
  uint64_t StoresDone = 0;
  /// No use asking ready() before this cycle: the Until of its last "not
  /// ready" (what holds a warp only ever moves later, except a barrier's
  /// release, which resets it).
  uint64_t Hint = 0;
  bool AtBar = false, Draining = false, Done = false;
  std::vector<uint64_t> RegReady;
  std::vector<uint8_t> RegKind; ///< ModelStall of the pending producer
  uint32_t currentId() const {
    return T->Ops[Pos < T->Ops.size() ? Pos : T->Ops.size() - 1].Id;
  }
};

class SmSim {
public:
  SmSim(const Config &C, const std::vector<StaticInst> &Table,
        uint32_t NumSlots, uint64_t ActiveSms, uint32_t BlocksPerSm,
        uint64_t Expected, uint64_t SharedPerCta, unsigned SamplePeriod,
        LineCache &SharedL2);
  /// Takes the trace of this SM's Seq-th CTA and runs as far as it can
  /// (the caller holds the launch's lock: the L2 is shared).
  void submit(uint64_t Seq, CtaTrace &&T);
  /// Runs to the end once every CTA was submitted.
  void finish();
  uint64_t endCycle() const { return End; }
  std::vector<StallCounts> Samples; ///< by StaticInst index

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
    size_t RoundRobin = 0;
    uint64_t Rng = 1; ///< the sampling intervals' sequence
  };
  void run(bool Final);
  void launch(CtaTrace &&T);
  void step();
  /// Whether W can issue at T; else why not (Why) and the first cycle it
  /// might (Until, Never when only another warp can release it).
  bool ready(const WarpState &W, uint64_t T, ModelStall &Why,
             uint64_t &Until) const;
  void issue(WarpState &W, Smsp &S, uint64_t T);
  void skipVanishing(WarpState &W, uint64_t T);
  void checkBarrier(Cta &K, uint32_t Id, uint64_t T);
  void retire(uint32_t WarpIndex, uint64_t T);
  void startDraining(WarpState &W);
  /// W's Hint no longer holds (released from a barrier).
  void wake(WarpState &W);
  void sample(Smsp &S, int Picked, bool Issued, uint64_t T);

  const Config &C;
  const std::vector<StaticInst> &Table;
  uint32_t NumSlots, BlocksPerSm;
  uint64_t Expected, Launched = 0, NextSeq = 0;
  unsigned SamplePeriod;
  std::map<uint64_t, CtaTrace> Pending;
  std::vector<Cta> Ctas;
  std::vector<WarpState> WarpPool;
  std::vector<uint32_t> FreeWarps;
  std::vector<Smsp> Smsps;
  MemorySide Mem;
  uint32_t Resident = 0;
  uint64_t Now = 0, End = 0, NextAge = 0, NextWarpSlot = 0;
};

} // namespace warpscope::emu::timing

#endif
