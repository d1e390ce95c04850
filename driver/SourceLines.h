//===- SourceLines.h - Counts per source line -----------------------------===//
//
// A basic block's instructions come from one or more source lines (the
// database's inline stacks, outermost frame = this function). Each line
// gets the counts of the blocks that cover it, each block once: a line's
// executions are those of its most executed block, i.e. how often threads
// ran that line's code however many blocks the compiler split it into.
// Summing blocks instead would count a line split over two blocks twice.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_SOURCELINES_H
#define WARPSCOPE_DRIVER_SOURCELINES_H

#include "ProfileModel.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct LineCounts {
  /// Of the most executed block covering the line (most thread executions).
  uint64_t WarpExecutions = 0, ThreadExecutions = 0;
  std::vector<unsigned> Blocks; ///< ids of the blocks covering the line
  /// Probed branches whose condition is on the line, summed.
  uint64_t Visits = 0, Divergent = 0;
  /// PTX instructions, thread-level, of the blocks whose first located
  /// instruction is on this line (a block's PTX is not split by line, so
  /// it is counted where the block starts, and the lines sum to the
  /// blocks' total). None on lines where no block starts, or without PTX
  /// histograms.
  std::optional<uint64_t> ThreadInstructions;
};

/// File -> line -> counts.
using LineMap = std::map<std::string, std::map<unsigned, LineCounts>>;

/// The lines F's blocks cover in F's own source (inlined code counts on
/// its call line), as (file, line) pairs, each once.
std::vector<std::pair<std::string, unsigned>>
blockLines(const FunctionProfile &F, const BlockCounts &B);

LineMap lineCounts(const FunctionProfile &F);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_SOURCELINES_H
