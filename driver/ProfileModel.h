//===- ProfileModel.h - A profile directory, joined to its databases ------===//
//
// Loads every profile-*.json in a directory and the db-<module>.json each
// names, checks them, and joins counters to functions, blocks and branches.
// Every problem is one line naming the file and what to do.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PROFILEMODEL_H
#define WARPSCOPE_DRIVER_PROFILEMODEL_H

#include "warpscope/Database/ProgramDatabase.h"
#include "warpscope/Support/Occupancy.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace warpscope {

// The database's records (warpscope/Database), used as they are; the
// structs below add what a run counted.
using Location = SourceLocation;
using Frame = InlineFrame;
/// PTX opcode (as written) -> count.
using OpcodeCounts = std::map<std::string, uint64_t>;
/// PTX run on one side of a block's two-way branch.
using PtxEdge = PtxEdgeRecord;
/// PTX inside the lowering of a block's switch, run by the lanes going to
/// the blocks in Reaches.
using PtxSwitchPart = PtxSwitchPartRecord;

/// A block as the database describes it (a loaded profile's blocks all have
/// a Counter), with its counts.
struct BlockCounts : BlockRecord {
  uint64_t WarpExecutions = 0, ThreadExecutions = 0;
  /// The database holds the control-flow graph (`successors`).
  bool hasSuccessors() const { return Successors.has_value(); }
  /// Distinct successor blocks; empty when the database lacks them.
  const std::vector<unsigned> &successors() const {
    static const std::vector<unsigned> None;
    return Successors ? *Successors : None;
  }
};

/// A branch as the database describes it, with its counts. Counter is -1
/// when the branch has no record of its own.
struct BranchCounts : BranchRecord {
  uint64_t Visits = 0, Divergent = 0, ActiveThreads = 0;
  std::vector<uint64_t> SuccessorThreads; ///< one per successor
  uint64_t Successor0Arrivals = 0; ///< two-way: visits sending a lane to 0
  /// Switch: per successor, visits on which every active lane went there
  /// (empty when the database's record has no such words).
  std::vector<uint64_t> UniformVisits;
  /// Switch: per successor, visits sending a lane there (empty unless the
  /// database's record counts them: CountsArrivals).
  std::vector<uint64_t> SwitchArrivals;
  /// Visits sending a lane to successor K: two-way, from successor 0's
  /// (each visit sends lanes to one side, or to both when divergent); a
  /// switch, as counted (0 where not counted).
  uint64_t arrivals(unsigned K) const {
    if (Successors.size() > 2)
      return K < SwitchArrivals.size() ? SwitchArrivals[K] : 0;
    return K == 0 ? Successor0Arrivals
                  : Visits + Divergent - Successor0Arrivals;
  }
};

struct LaunchGroup {
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t SharedBytes = 0, Count = 0;
  double TimeMs = 0; ///< summed where measured
  bool Timed = false;
  /// The CUDA runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor for
  /// this block size and dynamic shared memory (profile schema 2).
  std::optional<uint32_t> BlocksPerSM;
};

/// What a kernel's machine code uses (profile `kernels[]`).
struct MachineResources {
  std::string Source; ///< "ptxas" (emulator) or "cuda-runtime" (GPU)
  bool Known = false; ///< false: Error says why
  std::string Error;
  uint32_t Registers = 0;
  uint64_t LocalBytes = 0, StaticSharedBytes = 0;
  std::optional<uint64_t> SpillStoreBytes, SpillLoadBytes; ///< ptxas only
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
  /// Kernels launched under a schema-2 runtime.
  std::optional<MachineResources> Resources;
  /// PTX histograms: "ok", or why the database has none ("" = not built).
  std::string PtxStatus;
  std::string PtxArch;
  OpcodeCounts PtxUnattributed;
  std::vector<PtxEdge> PtxEdges;
  std::vector<PtxSwitchPart> PtxSwitchParts;
  /// The plain build's PTX on these blocks (FunctionRecord::PlainPtxStatus;
  /// with "mapped", the blocks' PlainPtx and the three below); when empty,
  /// NoPlainPtx says why there is none.
  std::string PlainPtxStatus, NoPlainPtx;
  OpcodeCounts PlainPtxUnattributed;
  std::vector<PtxEdge> PlainPtxEdges;
  std::vector<PtxSwitchPart> PlainPtxSwitchParts;
  /// FunctionRecord::MathCallSites: where math library code now sits.
  std::vector<SourceLocation> MathCallSites;
};

/// A kernel counted over its launches with one configuration only (runs in
/// per-launch mode: each launch's counter changes, launches-*.jsonl).
struct ConfigurationProfile {
  FunctionProfile Function; ///< Launches holds just that configuration
};

/// A process's first kernel fault (profile field kernel_fault).
struct KernelFault {
  std::string Kernel;      ///< mangled; empty when not known (a GPU)
  std::string SurfacedAt;  ///< where a GPU reported it, when not known
  std::string Error;       ///< the CUDA error string
  bool CountsKept = false; ///< read after the fault (the emulator)
};

/// What a run left out on purpose: kernels -warpscope-kernel-filter did
/// not instrument, and launches the launch selection (warpscope run
/// --launch-skip/--launch-count) did not profile.
struct LeftOut {
  std::set<std::string> KernelFilters; ///< as the modules were built
  /// Demangled kernel -> its launches, of kernels built without counters.
  std::map<std::string, uint64_t> NotInstrumented;
  /// Demangled instrumented functions a left-out kernel may call too.
  std::set<std::string> SharedWithLeftOut;
  std::string Selection; ///< e.g. "skip 2, count 3, per kernel"; "": none
  /// Demangled kernel -> launches the selection left out.
  std::map<std::string, uint64_t> LaunchesLeftOut;
  bool empty() const { return KernelFilters.empty() && Selection.empty(); }
};

/// One kernel's numbers in one rank's profile (ClusterReport.h compares them
/// over ranks).
struct RankKernel {
  uint64_t Launches = 0;
  double TimeMs = 0; ///< summed where measured
  bool Timed = false;
  /// Thread-level dynamic PTX instructions of the kernel's own code (the
  /// report's instruction mix) where the database has histograms, else its
  /// blocks' thread executions (InstructionsArePtx false).
  uint64_t Instructions = 0;
  bool InstructionsArePtx = false;
  uint64_t Visits = 0, Divergent = 0; ///< its probed branches
};

/// The profile of one MPI/Slurm rank (a profile-<pid>-rank<r>.json).
struct RankProfile {
  int Rank = 0;
  std::string File; ///< its name in the directory
  int EndedBySignal = 0;
  /// (module id, mangled kernel) -> its numbers; kernels it launched or ran
  std::map<std::pair<std::string, std::string>, RankKernel> Kernels;
};

struct ProfileSet {
  std::string Directory;
  std::vector<std::string> ProfileFiles;
  std::string Program, Device, Mode;
  /// The device's per-SM limits (schema 2, after a launch); occupancy uses
  /// them, with sm_90's allocation units.
  std::optional<SmLimits> Limits;
  uint32_t SmCount = 0;              ///< device_limits.sm_count; 0 when unknown
  bool Complete = true;              ///< every module's counters were read
  std::vector<std::string> Warnings; ///< e.g. incomplete modules
  std::vector<KernelFault> Faults;   ///< one per process whose kernel faulted
  int EndedBySignal = 0; ///< of a profile written by a signal's handler
  /// Launches of instrumented kernels over all profiles.
  uint64_t launches() const;
  /// Source file -> hash of its contents when built (source_hashes of the
  /// databases); the report shows no text of a file that changed since.
  std::map<std::string, std::string> SourceHashes;
  std::vector<FunctionProfile> Functions;
  /// Per-launch runs: every launched kernel per configuration (none for a
  /// kernel whose launch records are incomplete; see Warnings).
  std::vector<ConfigurationProfile> Configurations;
  /// Per-launch runs, when loaded with KeepLaunches: every launch of an
  /// instrumented kernel on its own, in the order of the launch records
  /// (none for a kernel whose launch records are incomplete).
  std::vector<ConfigurationProfile> Launches;
  LeftOut Left;
  /// Profiles that name a rank, by rank (a rank run twice with --append is
  /// one entry); empty when none does.
  std::vector<RankProfile> Ranks;
  /// The job's number of ranks, as the profiles' launcher said (the largest
  /// any says); none when none did.
  std::optional<int> WorldSize;
};

/// The one reader of a directory's profiles: Files are its profile-*.json
/// (RunDirectory lists them; ListError: why Dir could not be listed), read
/// with the databases and launch records they name. MergedNote gives the
/// run log's note (read only when there are profiles). Errors are one line:
/// "<file>: <what>; <what to do>". KeepLaunches: also each launch's own
/// counts (ProfileSet::Launches). Commands use RunDirectory::profiles().
llvm::Expected<ProfileSet>
readProfiles(const std::string &Dir, const std::vector<std::string> &Files,
             std::error_code ListError, bool KeepLaunches,
             llvm::function_ref<std::optional<std::string>()> MergedNote);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PROFILEMODEL_H
