//===- PgoRecord.h - A device function's counts in an LLVM profile --------===//
//
// How `warpscope pgo --format instr` stores one device function in an LLVM
// instrumentation profile (.profdata) and how -warpscope-profile-use reads
// it back: the one writer and the one reader of this layout.
//
// Record name: "<module id>;<mangled name>" (LLVM's spelling for file-local
// functions, so module ids keep same-named functions apart). Function hash:
// the CFG checksum of the function the counts were taken on (recordHash), so
// a stale record is a hash mismatch.
//
// Counters, every one additive, so `llvm-profdata merge` adds runs:
//   - per basic block, in function order: warp executions;
//   - per block with two or more distinct successors, in function order:
//     per distinct successor, by ascending block index, the count of that
//     side (threads for a probed branch, warps for a uniform one), then the
//     branch's divergent visits and its visits (both 0 when not probed).
// The shape (blocks, and which have how many distinct successors) comes from
// the IR the counts are applied to, never from the counters.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_PGORECORD_H
#define WARPSCOPE_ABI_PGORECORD_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::pgo {

/// The profile's name for a function of a module.
inline std::string recordName(const std::string &ModuleId,
                              const std::string &Function) {
  return ModuleId + ";" + Function;
}

/// The record's function hash for a CFG checksum. LLVM keeps the top four
/// bits of a hash for flags (bit 60 marks a context-sensitive record, which
/// llvm-profdata show and merge treat apart), so they are cleared.
inline uint64_t recordHash(uint64_t CfgChecksum) {
  return CfgChecksum & 0x0FFFFFFFFFFFFFFFull;
}

struct BranchCounts {
  /// One per distinct successor, by ascending block index.
  std::vector<uint64_t> Sides;
  uint64_t Divergent = 0, Visits = 0;
};

struct FunctionCounts {
  std::vector<uint64_t> Blocks; ///< warp executions, function order
  /// One per block with two or more distinct successors, function order.
  std::vector<BranchCounts> Branches;
};

inline std::vector<uint64_t> encode(const FunctionCounts &F) {
  std::vector<uint64_t> C(F.Blocks);
  for (const BranchCounts &B : F.Branches) {
    C.insert(C.end(), B.Sides.begin(), B.Sides.end());
    C.push_back(B.Divergent);
    C.push_back(B.Visits);
  }
  return C;
}

/// Decodes Counters for a function of NumBlocks blocks whose branches (as
/// above) have the given numbers of distinct successors. False when the
/// counters do not have exactly that shape (a stale or foreign record).
inline bool decode(const std::vector<uint64_t> &Counters, size_t NumBlocks,
                   const std::vector<size_t> &BranchSides, FunctionCounts &F) {
  size_t Need = NumBlocks;
  for (size_t Sides : BranchSides)
    Need += Sides + 2;
  if (Counters.size() != Need || NumBlocks == 0)
    return false;
  F.Blocks.assign(Counters.begin(), Counters.begin() + NumBlocks);
  F.Branches.clear();
  size_t At = NumBlocks;
  for (size_t Sides : BranchSides) {
    BranchCounts B;
    B.Sides.assign(Counters.begin() + At, Counters.begin() + At + Sides);
    B.Divergent = Counters[At + Sides];
    B.Visits = Counters[At + Sides + 1];
    At += Sides + 2;
    F.Branches.push_back(std::move(B));
  }
  return true;
}

} // namespace warpscope::pgo

#endif // WARPSCOPE_ABI_PGORECORD_H
