//===- warpscope/Abi.h - Contract between passes, runtime and tools -------===//
//
// Everything the device instrumentation, the host runtime, the emulator and
// the driver must agree on lives here: symbol names, counter layout and the
// markers the probes leave in PTX. Plain C++17, no LLVM: the runtime libraries
// include it too.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_H
#define WARPSCOPE_ABI_H

#include <cstdint>

namespace warpscope {

/// Bumped whenever the counter layout or a symbol name changes.
constexpr uint32_t AbiVersion = 1;

/// Each instrumented device module owns one array of 64-bit counters in
/// global memory, named CountersSymbolPrefix + <module id as 16 hex digits>.
constexpr const char *CountersSymbolPrefix = "__warpscope_counters_";

/// Schema tag of the static program database (docs/database-schema.md).
constexpr const char *DatabaseSchema = "warpscope-db/1";

/// Block record: two counters.
enum BlockCounter : uint32_t {
  BlockWarpExecutions = 0,   ///< +1 per warp (group of lanes) arriving
  BlockThreadExecutions = 1, ///< + number of active lanes
  BlockRecordWords = 2
};

/// Branch record: three counters, then one per successor except the last
/// (its threads are ActiveThreads minus the others).
enum BranchCounter : uint32_t {
  BranchVisits = 0,        ///< warp visits
  BranchDivergent = 1,     ///< visits where active lanes disagree
  BranchActiveThreads = 2, ///< sum of active lanes over visits
  BranchFirstSuccessor = 3 ///< threads taking successor 0, 1, ...
};

constexpr uint32_t branchRecordWords(uint32_t NumSuccessors) {
  return NumSuccessors == 0 ? BranchFirstSuccessor
                            : BranchFirstSuccessor + NumSuccessors - 1;
}

/// Each probe's inline PTX begins with a comment line
///   "// ws:block <counter index>"  or  "// ws:branch <counter index>"
/// so tools that read the PTX (emulator ground truth, histograms) can tell
/// our instructions from the program's and tie them to counters. The
/// probe's instructions run from that comment to the closing brace of its
/// inline-asm scope.
constexpr const char *BlockMarker = "ws:block";
constexpr const char *BranchMarker = "ws:branch";

} // namespace warpscope

#endif // WARPSCOPE_ABI_H
