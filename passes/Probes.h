//===- Probes.h - Warp-vote probes as inline PTX ---------------------------===//
//
// Each probe is one convergent inline-asm call: it reads the active mask,
// elects the highest active lane and lets only that lane update the counters
// with predicated red.global.add.u64, so a probe adds no control flow of its
// own and costs one atomic per counter per warp, not per thread.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROBES_H
#define WARPSCOPE_PASSES_PROBES_H

#include <cstdint>
#include <optional>

namespace llvm {
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
  /// Two successors: the branch condition (i1, true = successor 0), passed
  /// as a PTX predicate. More: i32 in [0, NumSuccessors), this lane's
  /// successor.
  llvm::Value *SuccessorIndex = nullptr;
  unsigned NumSuccessors = 0;
  /// Two successors: also count warp arrivals at successor 0 (needed only
  /// when a successor block takes its counts from this record).
  bool CountArrivals = false;
  /// Elect the leader with elect.sync (sm_90+, PTX 8.0+) instead of
  /// laneid/bfind/setp.
  bool UseElect = false;
};

void emitProbe(llvm::Instruction *InsertBefore, llvm::Value *Counters,
               const ProbeSpec &Spec);

/// Whether F's target has elect.sync (sm_90 or later, PTX ISA 8.0 or later).
bool targetHasElect(const llvm::Function &F);

/// A probe-less scope that only names a block whose counts are derived, so
/// tools reading the PTX still find where it starts: one dead mov, which
/// ptxas deletes.
void emitBlockMarker(llvm::Instruction *InsertBefore, uint64_t BlockWord);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROBES_H
