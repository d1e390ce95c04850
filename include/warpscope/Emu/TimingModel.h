//===- TimingModel.h - Trace-driven SM timing model -------------*- C++ -*-===//
//
// Plays the part of the GPU for the emulator (docs/timing-model.md): the
// functional executor records each CTA's warp-instruction trace (a
// per-worker TraceSink in the core, runtime/emu/core/TimingSink.cpp) and
// submits it here; a representative subset of SMs is simulated cycle by
// cycle: four sub-partition schedulers issuing greedy-then-oldest, in-order
// issue per warp with a register scoreboard, per-pipe latency and
// throughput, L1/L2/DRAM latency and bandwidth fed by the exact sector and
// bank-wavefront counts, barriers, and CTAs placed on SMs by occupancy. It
// yields modeled cycles per launch and, optionally, modeled PC samples.
// Knows nothing of PTX: the core describes each static instruction with a
// StaticInst. Memory stays bounded: at most the resident and waiting CTAs'
// traces of the simulated SMs are held.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_TIMING_MODEL_H
#define WARPSCOPE_EMU_TIMING_MODEL_H

#include "warpscope/ABI/PcSampling.h"
#include "warpscope/Emu/TimingConfig.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace warpscope::emu::timing {

enum class Kind : uint8_t {
  Alu,    ///< goes to Pipe, fixed or variable latency by pipe
  Load,   ///< ld (MemOp says where), tex, ldmatrix, wmma.load
  Store,  ///< st, wmma.store
  Atomic, ///< atom, red
  /// cp.async (LDGSTS): a global read written to shared memory. No register
  /// waits for it; its completion joins the warp's open group. (The memory
  /// kinds, Load to AsyncCopy, are consecutive: SmSim::ready tests a range.)
  AsyncCopy,
  Barrier, ///< bar.sync / barrier.sync / bar.red
  Arrive,  ///< bar.arrive
  Branch,  ///< bra, brx, call, ret
  Exit,    ///< exit (and ret of the kernel)
  Fence,   ///< membar / fence
  /// cp.async.commit_group (LDGDEPBAR): closes the warp's open group.
  AsyncCommit,
  /// cp.async.wait_group N (DEPBAR.LE SB0, N) / wait_all: the warp's next
  /// instruction waits until all but its N latest committed groups
  /// (wait_all: every copy it issued) are done.
  AsyncWait,
};

enum class Space : uint8_t { Global, Shared, Local, Const };

/// One static instruction as the model sees it (filled by the core).
struct StaticInst {
  Kind K = Kind::Alu;
  Pipe P = Pipe::Int;
  Space Sp = Space::Global; ///< memory instructions: the declared space
  /// SASS instructions it stands for (0: vanishes, e.g. ld.param of a
  /// kernel argument, which SASS reads as a constant-bank operand).
  uint8_t Expand = 1;
  /// The expansion is a dependent chain (division, sqrt.rn): its latency is
  /// Expand times the pipe's; otherwise pipe latency + Expand - 1.
  bool Chain = false;
  /// A shared-memory atomic that sm_90 has no instruction for (floating-point
  /// add, min, max): SASS loads the word, then retries a compare-and-swap
  /// until it succeeds, once per lane on the same word.
  bool CasLoop = false;
  /// An integer atomic add, min, max, and, or or xor: when every lane of a
  /// warp updates one address, SASS updates it once for the warp (ptxas
  /// combines the lanes' operands first: VOTE/POPC or REDUX, then one RED).
  bool Aggregable = false;
  /// An atomic whose old value the program reads (SASS ATOM); one whose
  /// result is never read is a RED (ptxas drops the return).
  bool Returns = false;
  /// A shared-memory increment by 1 whose old value is never read: sm_90
  /// has it as ATOMS.POPC.INC, which adds to each word the number of lanes
  /// on it, so lanes on one word are one update (bank conflicts between
  /// words remain), where other shared atomics take a pass per lane.
  bool MergesLanes = false;
  /// A global load in a loop ptxas unrolls and whose unrolled iterations'
  /// loads it issues before their uses (a constant step, no store that may
  /// alias and no barrier in the loop): the model sends the next executions
  /// of this load ahead with it (Config::UnrolledLoads).
  bool Unrolled = false;
  /// Where its SASS starts in the module's code, in bytes (the core lays
  /// the module out: Expand instructions of 16 bytes each, functions
  /// aligned to 128 bytes); the instruction fetch model's address.
  uint32_t Code = 0;
  /// The first instruction of a basic block (a branch target): ptxas
  /// schedules within a block, so no load is issued ahead across it.
  bool Leader = false;
  /// A global or shared load after which its basic block holds another
  /// such load that nothing keeps in place (keepsLoadsAfter,
  /// keepsSharedLoadsAfter): ptxas issues a block's independent loads
  /// before their uses, so the model sends the later ones ahead with it
  /// (Config::BlockLoads).
  bool Hoists = false;
  /// An indirect branch through a jump table (brx.idx): its SASS scales the
  /// index (IMAD.SHL), loads the target from the constant bank (LDC) and
  /// branches (BRX); ptxas issues the LDC as soon as the index is ready, so
  /// the branch waits for the table entry (short scoreboard) until the
  /// index's ready cycle plus an integer op and a constant load.
  bool JumpTable = false;
  /// cp.async.cg: cached in L2 only, its lines bypass the L1.
  bool BypassL1 = false;
  /// AsyncWait: wait_all (the open group too, AsyncKeep 0), and the latest
  /// committed groups it does not wait for (wait_group's N, at most 255:
  /// one byte keeps the struct at 80 bytes, which the cycle loop indexes).
  bool AsyncAll = false;
  uint8_t AsyncKeep = 0;
  uint8_t NDst = 0, NSrc = 0;
  uint32_t Dst[4] = {}, Src[8] = {};          ///< register slots
  uint32_t BarrierId = 0, BarrierThreads = 0; ///< 0 threads: the whole CTA
  /// A global or shared load that issues: the loads ptxas may move ahead
  /// within their basic block (Hoists; SmSim::blockAhead).
  bool movableLoad() const {
    return K == Kind::Load && Expand &&
           (Sp == Space::Global || Sp == Space::Shared);
  }
  /// Whether its SASS ends a basic block: a branch, an exit, or a
  /// compare-and-swap loop (kmeans_accumulate's SASS issues each global
  /// load between two ATOMS.CAST loops after the one before it).
  bool endsBlock() const {
    return K == Kind::Branch || K == Kind::Exit || CasLoop;
  }
  /// Whether ptxas keeps every later load after it: a barrier, a fence, or
  /// a store or atomic to memory other than shared, which may alias them
  /// (cfd_flux's and lu_step's SASS).
  bool keepsLoadsAfter() const {
    return K == Kind::Barrier || K == Kind::Arrive || K == Kind::Fence ||
           ((K == Kind::Store || K == Kind::Atomic) && Sp != Space::Shared);
  }
  /// Whether ptxas keeps every later shared load after it: what keeps any
  /// load, and any store, atomic or asynchronous copy (a shared one may
  /// alias them; nw_tile_diag's SASS issues its step's four independent
  /// LDS first, up to the STS).
  bool keepsSharedLoadsAfter() const {
    return keepsLoadsAfter() || K == Kind::Store || K == Kind::Atomic ||
           K == Kind::AsyncCopy;
  }
};

/// What one execution of a memory instruction touched (from the core's
/// exact counts, runtime/emu/core/MemCount.cpp).
struct MemAccess {
  uint32_t Sectors = 0;    ///< global + local 32-byte sectors
  uint32_t Wavefronts = 0; ///< shared bank wavefronts
  uint32_t Atomics = 0;    ///< distinct atomic addresses
  /// 128-byte lines in WarpTrace::Lines, each with the 32-byte sectors the
  /// lanes touch in it: line | sectors << SectorShift (sectorsOf).
  uint32_t LineBegin = 0, NLines = 0;
  /// An atomic's distinct global addresses, then its distinct shared 32-bit
  /// words, each packed with its lanes as (key << 6) | (lanes - 1), in
  /// WarpTrace::Lines after its lines: NAtoms global from AtomBegin, then
  /// NSharedAtoms shared.
  uint32_t AtomBegin = 0, NAtoms = 0;
  uint16_t NSharedAtoms = 0;
  /// A shared atomic: passes of the shared pipe (the most lanes on one
  /// bank, lanes on one word counted apart) and the most lanes on one word.
  uint16_t SharedPasses = 0, SharedMaxSame = 0;
  bool Global = false, Shared = false; ///< which paths it took
  bool Counted = false; ///< the core counted it (else: estimated)
  bool Off = false;     ///< no lane's guard held
};

/// A line entry of WarpTrace::Lines: its line number below SectorShift, the
/// mask of its four 32-byte sectors touched above (0: all four).
constexpr unsigned SectorShift = 60;
inline uint64_t lineOf(uint64_t Entry) {
  return Entry & ((uint64_t(1) << SectorShift) - 1);
}
inline unsigned sectorsOf(uint64_t Entry) {
  const unsigned M = (unsigned)(Entry >> SectorShift);
  return M ? M : 0xfu;
}
/// The sectors of a 4-bit mask (__builtin_popcount is a library call
/// without the popcnt instruction).
inline unsigned sectorCount(unsigned Mask) {
  return (0x4332322132212110ull >> (Mask * 4)) & 15;
}

struct TraceOp {
  uint32_t Id;  ///< index into the launch's StaticInst table
  uint32_t Mem; ///< index into WarpTrace::Mems, or NoMem
};
constexpr uint32_t NoMem = 0xffffffffu;

struct WarpTrace {
  std::vector<TraceOp> Ops;
  /// Positions in Ops, ascending, where the warp resumes another of its
  /// divergent paths: its active lanes neither include nor are included in
  /// those of the op before (Config::DivergenceSwitchCycles).
  std::vector<uint32_t> Resumes;
  std::vector<MemAccess> Mems;
  std::vector<uint64_t> Lines;
};

struct CtaTrace {
  uint64_t Cta = 0;
  std::vector<WarpTrace> Warps;
};

/// The launch's shape, as far as the model needs it.
struct LaunchShape {
  uint64_t Ctas = 1;
  uint32_t ThreadsPerCta = 32;
  uint32_t RegistersPerThread = 0; ///< 0: unknown (not a limit)
  uint64_t SharedPerCta = 0;       ///< static + dynamic bytes
  /// gridDim.x: CTA c - GridX is the one above c (0: not known).
  uint64_t GridX = 0;
};

/// The modeled time of one launch (ground truth `launches[].modeled`).
struct ModeledTime {
  std::string Config;
  std::string Fingerprint; ///< fingerprint() of the configuration
  uint64_t Cycles = 0;
  double Microseconds = 0;
  /// The clock the cycles are converted at and which it is ("boost",
  /// "base" or "set": Config::ClockName).
  double ClockMhz = 0;
  std::string Clock;
  /// Of Cycles, the launch's fixed cost (Config::LaunchOverheadNs at the
  /// clock): launch, first CTAs' dispatch and the completion's signal.
  uint64_t LaunchCycles = 0;
  uint32_t SmsSimulated = 0;
  bool Scaled = false;
  /// The SASS warp instructions the launch's PTX stands for, over every CTA
  /// (each instruction's warp executions times StaticInst::Expand; spill
  /// code not included): ncu's smsp__inst_executed.sum on the GPU. Filled
  /// by the core, which has the exact counts.
  uint64_t Instructions = 0;
};

/// Modeled PC samples per static instruction: per stall reason, all
/// samples and the not-issued ones (ModelStall order).
struct StallCounts {
  std::array<uint64_t, unsigned(ModelStall::Count)> All{}, NotIssued{};
};

/// The exact counterpart of StallCounts (ExactStalls): per stall reason,
/// the sub-partition cycles the instruction held, each cycle of a
/// sub-partition split evenly over its resident warps, what a sampler that
/// sampled every cycle would count. Sampled counts estimate these divided
/// by 2^N.
struct StallCycles {
  std::array<double, unsigned(ModelStall::Count)> All{}, NotIssued{};
};

/// Dst += Src, instruction by instruction (Dst sized like Src first): the
/// one way samples and stall cycles are summed over SMs and launches.
template <class Counts>
void addStalls(std::vector<Counts> &Dst, const std::vector<Counts> &Src) {
  if (Dst.size() != Src.size())
    Dst.resize(Src.size());
  for (size_t I = 0; I < Src.size(); ++I)
    for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
      Dst[I].All[J] += Src[I].All[J];
      Dst[I].NotIssued[J] += Src[I].NotIssued[J];
    }
}

class SmSim;
struct SharedSide;

/// One launch's model. submit() may be called from any worker thread in any
/// order; the traces are handed to the simulated SMs in CTA index order, one
/// at a time (each SM runs as far as it can on each), so the result does not
/// depend on the thread count, and the L2 the SMs share sees their accesses
/// in that order.
class LaunchModel {
public:
  /// SamplePeriod: log2 of the mean cycles between samples per
  /// sub-partition (0: no sampling); SampleSeed: this launch's seed (each SM
  /// and sub-partition draws its own sequence from it). MaxSms: at most this
  /// many SMs are simulated. ExactStalls: also count stallCycles().
  LaunchModel(const Config &C, const std::vector<StaticInst> &Table,
              uint32_t NumSlots, const LaunchShape &Shape,
              unsigned SamplePeriod, unsigned MaxSms = DefaultModelSms,
              uint64_t SampleSeed = 0, bool ExactStalls = false);
  ~LaunchModel();
  /// Whether CTA Cta's trace is wanted: it runs on a simulated SM, or on
  /// the SM of a simulated CTA's neighbour (c - 1, c - gridDim.x), whose
  /// lines the L2 sees too (L2.cpp).
  bool wanted(uint64_t Cta) const { return SimIndex[Cta % ActiveSms] != -1; }
  /// Whether only CTA Cta's memory instructions are wanted: it runs on a
  /// neighbour's SM, and only its lines are used (SmSim::feed).
  bool linesOnly(uint64_t Cta) const { return SimIndex[Cta % ActiveSms] < -1; }
  /// Whether the traces need WarpTrace::Resumes (a switch between divergent
  /// paths costs something in this configuration).
  bool wantsResumes() const { return C.DivergenceSwitchCycles > 0; }
  void submit(CtaTrace &&T);
  /// After every wanted CTA was submitted: runs the SMs to the end.
  ModeledTime finish();
  /// Samples by StaticInst index (sized like the table).
  const std::vector<StallCounts> &samples() const { return Samples; }
  /// Exact stall cycles by StaticInst index (empty without ExactStalls).
  const std::vector<StallCycles> &stallCycles() const { return Exact; }
  uint32_t blocksPerSm() const { return BlocksPerSm; }

private:
  /// Hands the waiting traces over in index order, as far as they go.
  void handOver();
  /// Runs the simulated SMs in steps of modeled time: none goes more than
  /// a window past the one furthest behind (the traces they have allow),
  /// so that the shared L2 sees their accesses nearly in modeled-time order.
  void pace(bool Final);
  /// The first wanted CTA after Cta (Ctas when none).
  uint64_t nextWanted(uint64_t Cta) const;

  const Config &C;
  uint64_t ActiveSms = 1, Ctas = 1, NextCta = 0;
  uint64_t GridX = 0; ///< gridDim.x (LaunchShape::GridX)
  uint32_t SimSms = 1, BlocksPerSm = 1;
  std::mutex Mu;
  std::map<uint64_t, CtaTrace> Waiting; ///< arrived before their turn
  std::unique_ptr<SharedSide> Shared;   ///< the L2 and atomic owners
  /// Per SM used: its index K among the simulated ones, -2 - K when it
  /// runs CTA c - 1 of simulated SM K's CTA c, -2 - (K + K-count) when it
  /// runs c - gridDim.x (their lines are fed, L2.cpp), or -1.
  std::vector<int32_t> SimIndex;
  std::vector<std::unique_ptr<SmSim>> Sms;
  std::vector<StallCounts> Samples;
  std::vector<StallCycles> Exact;
};

} // namespace warpscope::emu::timing

#endif
