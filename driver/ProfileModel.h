//===- ProfileModel.h - A profile directory, joined to its databases ------===//
//
// Loads every profile-*.json in a directory and the db-<module>.json each
// names, checks them, and joins counters to functions, blocks and branches.
// Every problem is one line naming the file and what to do.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PROFILEMODEL_H
#define WARPSCOPE_DRIVER_PROFILEMODEL_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpscope {

struct Location {
  std::string File;
  unsigned Line = 0, Column = 0;
};

struct Frame {
  std::string Function;
  unsigned LineOffset = 0, Discriminator = 0;
};

/// PTX opcode (as written) -> count.
using OpcodeCounts = std::map<std::string, uint64_t>;

struct BlockCounts {
  unsigned Id = 0;
  Location Loc;
  unsigned LoopDepth = 0;
  uint64_t Counter = 0; ///< first word of its record in the module's array
  int DerivedBranch = -1; ///< counts come from this branch's successor...
  unsigned DerivedSuccessor = 0; ///< ...this one
  /// Counts are block SameCountsAs's (it runs exactly when that one runs);
  /// AssumesReconvergence: only if lanes split between the two meet here.
  int SameCountsAs = -1;
  bool AssumesReconvergence = false;
  /// Every source position of the block, as inline stacks, outermost
  /// first (for sample profiles).
  std::vector<std::vector<Frame>> InlineStacks;
  uint64_t WarpExecutions = 0, ThreadExecutions = 0;
  OpcodeCounts Ptx; ///< static PTX instructions run with this block's counts
  /// The control-flow graph, where the database has it (see the database's
  /// `successors` and `reconverges`).
  bool HasSuccessors = false;
  std::vector<unsigned> Successors;
  bool Reconverges = false;
};

/// PTX run on one side of a block's two-way branch (see the database's
/// `ptx_edges`).
struct PtxEdge {
  unsigned From = 0, Other = 0;
  bool Toward = false, OtherReconverges = false, SelfReconverges = false;
  OpcodeCounts Ptx;
};

/// PTX inside the lowering of a block's switch (the database's
/// `ptx_switch_parts`): run by the lanes going to the blocks in Reaches.
struct PtxSwitchPart {
  unsigned From = 0;
  std::vector<unsigned> Reaches;
  OpcodeCounts Ptx;
};

struct BranchCounts {
  unsigned Id = 0, Block = 0;
  std::string Kind; ///< br or switch
  Location Loc;
  bool Uniform = false, Probed = false;
  bool SharesBlockCounts = false; ///< visits, active threads = its block's
  std::vector<unsigned> Successors;
  uint64_t Visits = 0, Divergent = 0, ActiveThreads = 0;
  std::vector<uint64_t> SuccessorThreads; ///< one per successor
  uint64_t Successor0Arrivals = 0; ///< two-way: visits sending a lane to 0
  bool CountsArrivals = false;      ///< ...and Successor0Arrivals is counted
  /// Switch: per successor, visits on which every active lane went there
  /// (empty when the database's record has no such words).
  std::vector<uint64_t> UniformVisits;
  bool CountsUniformVisits = false;
  /// Two-way: visits sending a lane to successor K (each visit sends lanes
  /// to one side, or to both when divergent).
  uint64_t arrivals(unsigned K) const {
    return K == 0 ? Successor0Arrivals
                  : Visits + Divergent - Successor0Arrivals;
  }
  uint64_t Counter = 0; ///< first word of its record, if probed
};

struct LaunchGroup {
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t SharedBytes = 0, Count = 0;
  double TimeMs = 0; ///< summed where measured
  bool Timed = false;
};

struct FunctionProfile {
  std::string ModuleId, Name, Demangled;
  bool Kernel = false;
  Location Loc;
  uint64_t CfgChecksum = 0; ///< of the CFG the counts belong to
  std::vector<BlockCounts> Blocks;
  std::vector<BranchCounts> Branches;
  std::vector<LaunchGroup> Launches;
  uint64_t launches() const;
  /// PTX histograms: "ok", or why the database has none ("" = not built).
  std::string PtxStatus;
  std::string PtxArch;
  OpcodeCounts PtxUnattributed;
  std::vector<PtxEdge> PtxEdges;
  std::vector<PtxSwitchPart> PtxSwitchParts;
};

/// A kernel counted over its launches with one configuration only (runs in
/// per-launch mode: each launch's counter changes, launches-*.jsonl).
struct ConfigurationProfile {
  FunctionProfile Function; ///< Launches holds just that configuration
};

struct ProfileSet {
  std::string Directory;
  std::vector<std::string> ProfileFiles;
  std::string Program, Device, Mode;
  bool Complete = true;              ///< every module's counters were read
  std::vector<std::string> Warnings; ///< e.g. incomplete modules
  std::vector<FunctionProfile> Functions;
  /// Per-launch runs: every launched kernel per configuration (none for a
  /// kernel whose launch records are incomplete; see Warnings).
  std::vector<ConfigurationProfile> Configurations;
};

/// Loads Dir. Errors are one line: "<file>: <what>; <what to do>".
llvm::Expected<ProfileSet> loadProfileDirectory(const std::string &Dir);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PROFILEMODEL_H
