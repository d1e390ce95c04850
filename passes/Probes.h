//===- Probes.h - Warp-vote probes as inline PTX
//---------------------------===//
//
// Each probe is one convergent inline-asm call: it reads the active mask,
// elects the highest active lane and lets only that lane update the counters
// with predicated red.global.add.u64, so a probe adds no control flow of its
// own and costs one atomic per counter per warp, not per thread.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROBES_H
#define WARPSCOPE_PASSES_PROBES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class CallInst;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace warpscope {

/// What one probe counts. A block record alone (at the block's start), a
/// branch record alone (before the terminator), or both at once (before the
/// terminator of a block without calls: the branch's visits and active
/// threads are then the block's counts and are not written twice).
struct ProbeSpec {
  std::optional<uint64_t> BlockWord;
  std::optional<uint64_t> BranchWord;
  /// A branch probe without BlockWord whose visits and active threads are
  /// its block's counts all the same, derived from another record: they are
  /// not written either.
  bool VisitsElsewhere = false;
  /// Whether the branch record's visits and active threads words are
  /// written (a branch probe that shares neither its block's probe nor its
  /// block's derived counts).
  bool countsVisits() const {
    return BranchWord && !BlockWord && !VisitsElsewhere;
  }
  /// Two successors: the branch condition (i1, true = successor 0), passed
  /// as a PTX predicate. More: i32 in [0, NumSuccessors), this lane's
  /// successor.
  llvm::Value *SuccessorIndex = nullptr;
  /// Two successors: SuccessorIndex is true for successor 1 instead (the
  /// negated condition, which the branch's code may already compute).
  bool ConditionNegated = false;
  /// A switch on an i32 may hand the probe its condition itself instead of
  /// a successor index: SuccessorIndex is then that value, each case value
  /// maps to its successor here, every other value to DefaultSuccessor.
  bool SwitchValue = false;
  /// A switch on an i32 with few cases may also hand the probe its value,
  /// every lane mapping it to its successor index through the case table
  /// inside the probe (so the mapping is not counted as program code).
  bool SwitchChain = false;
  std::vector<std::pair<uint32_t, unsigned>> Cases;
  /// With SwitchChain: the cases are the values AffineLo .. AffineLo +
  /// AffineCount - 1, the value AffineLo + K going to successor
  /// AffineFirst + K (every other value to DefaultSuccessor), so each lane
  /// maps its value in four instructions however many cases there are.
  uint32_t AffineLo = 0, AffineCount = 0;
  unsigned AffineFirst = 0;
  unsigned DefaultSuccessor = 0;
  unsigned NumSuccessors = 0;
  /// Also count warp arrivals: two successors, at successor 0; a switch, at
  /// every successor (needed only when a successor block takes its counts
  /// from this record).
  bool CountArrivals = false;
  /// Two successors: the probe returns its predicate input (as given, so
  /// negated where ConditionNegated) for the branch to use, so the branch's
  /// condition is computed once, for both (the code generator otherwise
  /// may rewrite the branch's compare and keep the probe's copy).
  bool PassCondition = false;
  /// Elect the leader with elect.sync (sm_90+, PTX 8.0+) instead of
  /// laneid/bfind/setp.
  bool UseElect = false;
  /// A probe in memory (a block, a two-way branch) with no warp-synchronous
  /// instruction: the leader found with bfind (UseElect off), successor 0's
  /// lanes counted from their own active mask instead of a ballot
  /// (-warpscope-sync-free-probes).
  bool SyncFree = false;
  /// The leader's temporaries (popc, its 64-bit copy, a switch's successor
  /// address) computed by every lane, only the atomics predicated
  /// (-warpscope-unpredicated-probe-temps).
  bool UnpredicatedTemps = false;
};

/// Where probes add: the module's counter array and its replicas
/// (warpscope/Abi.h). With more than one, each probe execution adds to the
/// replica the low bits of %clock pick, so warps that reach the same probe
/// together rarely add to the same address.
struct CounterArray {
  std::string Symbol;
  unsigned Replicas = 1;     ///< a power of two
  uint64_t ReplicaBytes = 0; ///< distance between replicas
  /// With replicas: the replica this function's probes add to (from
  /// emitReplicaBase at the function's entry); null: each probe picks its
  /// replica itself.
  llvm::Value *Base = nullptr;
  /// Base is the replica's i32 byte offset in the array, from which each
  /// probe forms the address, instead of the i64 address: one register live
  /// between the probes instead of two (-warpscope-replica-offset).
  bool BaseIsOffset = false;
};

/// The address of the replica the probes of one function invocation add to
/// (the array + (%clock at the entry mod replicas) * replica size; with
/// Counters.BaseIsOffset its i32 offset from the array), in a scope named
/// %ws_replica at InsertBefore: computed once per warp instead of in every
/// probe. Any choice keeps the counts exact.
llvm::Value *emitReplicaBase(llvm::Instruction *InsertBefore,
                             const CounterArray &Counters);

/// Returns the passed-through predicate with PassCondition, else null.
llvm::Value *emitProbe(llvm::Instruction *InsertBefore,
                       const CounterArray &Counters, const ProbeSpec &Spec);

/// Whether F's target has elect.sync (sm_90 or later, PTX ISA 8.0 or later).
bool targetHasElect(const llvm::Function &F);

/// Loop counter promotion (-warpscope-promote-loop-counters). Inside a loop
/// a probe can count into 64-bit registers instead of global memory: the
/// elected leader of each group of lanes adds the group's counts (1 per
/// arrival, popc of the active mask, of the ballot, ...) to its own
/// registers, so the sum over a warp's lanes is the count however the lanes
/// were grouped on the way. At each loop exit every lane that led somewhere
/// adds its registers to the counters (one atomic per counter per lane that
/// led; one per warp when the warp stayed together) and zeroes them.

/// Whether emitPromotedProbe handles this probe (blocks and two-way
/// branches; switches keep their ordinary probe).
bool canPromote(const ProbeSpec &Spec);

/// The counter words the probe's accumulators stand for, in operand order;
/// the first is its warp executions or visits where it counts them (not
/// with VisitsElsewhere).
llvm::SmallVector<uint64_t, 6> promotedWords(const ProbeSpec &Spec);

/// The probe, counting into Accumulators (one i64 per promotedWords entry);
/// returns their new values (then, with PassCondition, the predicate). Same
/// marker scope as emitProbe.
llvm::SmallVector<llvm::Value *, 6>
emitPromotedProbe(llvm::Instruction *InsertBefore, const ProbeSpec &Spec,
                  llvm::ArrayRef<llvm::Value *> Accumulators);

/// N zero accumulators from a scope named %ws_init_<Id> (at the function's
/// entry).
llvm::SmallVector<llvm::Value *, 16>
emitPromotedInit(llvm::Instruction *InsertBefore, unsigned N, uint64_t Id);

/// Adds the accumulators of each lane that led a group at some probe to
/// counter words Words of the array named CountersSymbol, in a scope named
/// %ws_flush_<Id> (at a loop exit). Leads: accumulators of which one is
/// non-zero in every lane holding counts (each probe's first, its warp
/// executions or visits, non-zero iff the lane led there; every one of a
/// probe that counts neither). Returns the accumulators' new values: zero.
llvm::SmallVector<llvm::Value *, 8> emitPromotedFlush(
    llvm::Instruction *InsertBefore, llvm::StringRef CountersSymbol,
    llvm::ArrayRef<llvm::Value *> Accumulators, llvm::ArrayRef<uint64_t> Words,
    llvm::ArrayRef<unsigned> Leads, uint64_t Id);

/// Lane-local loop counters (-warpscope-lane-loop-counters): in a loop whose
/// trip count per entry is bounded below 2^32, a promoted probe counts in
/// 32-bit registers of every lane instead: each lane adds 1 for itself
/// (thread executions) and for its own side (successor-0 threads), the
/// elected leader 1 for its group (warp executions, divergent visits,
/// successor-0 arrivals), so no popc and no 64-bit add runs in the loop. A
/// lane's register grows by at most 1 per iteration, so it cannot wrap. At
/// each loop exit the lanes there sum each register over the warp
/// (redux.sync, in 16-bit halves where 32 lanes' sums could wrap) and the
/// leader adds the sums to the counters.

/// Whether F's target has redux.sync (sm_80 or later, PTX ISA 7.0 or later).
bool targetHasRedux(const llvm::Function &F);

/// Where a lane-local count lives: Accumulators[Reg], bits Shift ..
/// Shift + 15 of it when its loop packs two 16-bit counts per register
/// (-warpscope-pack-lane-counters: a lane's count there never exceeds
/// 65535, so adding 1 << Shift never carries out of its field), else the
/// whole register (Shift 0).
struct LaneField {
  unsigned Reg = 0;
  unsigned Shift = 0;
};

/// The probe, counting each promotedWords entry K into field Fields[K] of
/// Accumulators (i32 registers); returns their new values (then, with
/// PassCondition, the predicate). Each count still costs one add.
llvm::SmallVector<llvm::Value *, 6>
emitLaneProbe(llvm::Instruction *InsertBefore, const ProbeSpec &Spec,
              llvm::ArrayRef<llvm::Value *> Accumulators,
              llvm::ArrayRef<LaneField> Fields);

/// N zero i32 accumulators from a scope named %ws_init_<Id>.
llvm::SmallVector<llvm::Value *, 16>
emitLaneInit(llvm::Instruction *InsertBefore, unsigned N, uint64_t Id);

/// At a loop exit, in a scope named %ws_flush_<Id>: each count K (field
/// Fields[K] of the accumulators; with Packed, extracted from its 16 bits
/// first) added to counter word Words[K] of CountersSymbol, by every lane
/// holding a count where LeaderOnly[K] (warp-level counts: only lanes that
/// led hold them), else summed over the lanes there and added by their
/// leader. SplitHalves (not with Packed): sum 16-bit halves (a lane may hold
/// 2^27 or more). Returns the accumulators' new values: zero.
llvm::SmallVector<llvm::Value *, 8>
emitLaneFlush(llvm::Instruction *InsertBefore, llvm::StringRef CountersSymbol,
              llvm::ArrayRef<llvm::Value *> Accumulators,
              llvm::ArrayRef<LaneField> Fields, llvm::ArrayRef<uint64_t> Words,
              llvm::ArrayRef<bool> LeaderOnly, uint64_t Id, bool UseElect,
              bool SplitHalves, bool Packed);

/// A loop without a trip count bound: after the probe whose thread count
/// is count Guard (field Fields[Guard]; every other count is at most that
/// plus 1), each lane whose count reached Limit (at most 2^32 - 2, packed
/// at most 65534; a high half is tested without extraction) adds all its
/// counts to
/// counter words Words of CountersSymbol and zeroes its registers, in a
/// scope named %ws_guard_<Id>. Returns the registers' new values.
llvm::SmallVector<llvm::Value *, 16>
emitLaneGuard(llvm::Instruction *InsertBefore, llvm::StringRef CountersSymbol,
              llvm::ArrayRef<llvm::Value *> Accumulators,
              llvm::ArrayRef<LaneField> Fields, llvm::ArrayRef<uint64_t> Words,
              uint64_t Id, unsigned Guard, uint32_t Limit, bool Packed);

/// The probes' inline asm call (ProbeAsm.cpp, used by every probe builder):
/// convergent, with side effects; with NumResults > 0 it returns that many
/// integers of ResultBits bits (a struct when more than one), and with
/// PassCondition one i1 after them, split into Results.
llvm::CallInst *
emitProbeAsm(llvm::Instruction *InsertBefore, llvm::StringRef Text,
             llvm::StringRef Constraints, llvm::ArrayRef<llvm::Value *> Args,
             unsigned NumResults = 0,
             llvm::SmallVectorImpl<llvm::Value *> *Results = nullptr,
             bool PassCondition = false, unsigned ResultBits = 64);

/// The leader election text: %wsp set in the leader (elect.sync, or the
/// highest active lane), from the active mask in %wsm.
std::string electLeader(bool UseElect);

/// What a promoted probe adds to each accumulator.
enum class Accumulate {
  PerArrival, ///< leader: +1 (warp executions, visits)
  PerLane,    ///< every lane: +1 (thread executions, active threads)
  Divergent,  ///< leader: +1 if the lanes disagree
  Successor0, ///< lanes going to successor 0: +1
  Arrivals0   ///< leader: +1 if any lane goes to successor 0
};

/// The counter words a promoted probe counts, with how, in operand order.
llvm::SmallVector<std::pair<uint64_t, Accumulate>, 6>
promotedLayout(const ProbeSpec &Spec);

/// Counts a proven-uniform two-way branch's visits that go to successor 0
/// (Cond true), and their active lanes, into the loop-entry record at Word.
/// No vote: every lane has the leader's condition.
void emitLoopEntryProbe(llvm::Instruction *InsertBefore,
                        const CounterArray &Counters, uint64_t Word,
                        llvm::Value *Cond, bool UseElect);

/// A probe-less scope that only names a block whose counts are derived, so
/// tools reading the PTX still find where it starts: one dead mov, which
/// ptxas deletes.
void emitBlockMarker(llvm::Instruction *InsertBefore, uint64_t BlockWord);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROBES_H
