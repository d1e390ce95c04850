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

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace warpscope {

/// Counts a warp arrival and its active lanes at the record starting at
/// CounterWord. Inserted before InsertBefore.
void emitBlockProbe(llvm::Instruction *InsertBefore, llvm::Value *Counters,
                    uint64_t CounterWord);

/// Counts a branch visit: SuccessorIndex is an i32 in [0, NumSuccessors)
/// naming the successor this lane goes to. Inserted before InsertBefore.
void emitBranchProbe(llvm::Instruction *InsertBefore, llvm::Value *Counters,
                     uint64_t CounterWord, llvm::Value *SuccessorIndex,
                     unsigned NumSuccessors);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROBES_H
