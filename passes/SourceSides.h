//===- SourceSides.h - Which successor is the source condition's true side ===//
//
// A branch's successor 0 is the true side of its LLVM IR condition, which
// the optimiser may have inverted (at -O2 `if (i >= n) return;` often ends as
// `br (i < n), body, exit`). At the start of the pipeline clang's IR still
// has the source's polarity: `if`, `for`, `while` and `?:` branch to the
// source condition's true side first. A pass there records, for each
// two-way branch, the source positions of the code each side runs before
// the two sides meet again (at the branch's immediate post-dominator), under
// the position of the branch's condition. After optimisation the device pass
// compares the code on each side of a branch at that position with the two
// records: when only one polarity agrees with the source positions, that
// successor is the source's true side; when neither or both do, it stays
// unknown.
// The record is named metadata, taken out again by the device pass, so the
// module it emits is the one it would emit without.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_SOURCESIDES_H
#define WARPSCOPE_PASSES_SOURCESIDES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace llvm {
class BranchInst;
class PostDominatorTree;
} // namespace llvm

namespace warpscope {

/// Records the source positions each side of every two-way branch of a
/// device module reaches, in the named metadata SourceSidesMD.
class RecordSourceSidesPass
    : public llvm::PassInfoMixin<RecordSourceSidesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

inline constexpr llvm::StringLiteral SourceSidesMD = "warpscope.source.sides";

/// Innermost file, line and column of a branch's condition (else of the
/// branch itself).
using BranchPosition = std::tuple<std::string, unsigned, unsigned>;

/// Source positions (file hash, line, column packed) the true and the false
/// side of the source branches at one position reach.
struct SourceSideRecord {
  std::set<uint64_t> True, False;
};

using SourceSides = std::map<BranchPosition, SourceSideRecord>;

/// The records in M (none when the pass did not run), and removes them.
SourceSides takeSourceSides(llvm::Module &M);

/// Which successor of Br (0 or 1) is its source condition's true side, when
/// the records tell it unambiguously.
std::optional<unsigned> sourceTrueSuccessor(const SourceSides &Sides,
                                            const llvm::BranchInst &Br,
                                            const llvm::PostDominatorTree &PDT);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_SOURCESIDES_H
