//===- ProgramDatabase.h - Static description of an instrumented module ---===//
//
// What the device pass knows at compile time about every function, block and
// branch it saw, and where their counters live. Serialized as JSON
// (schema warpscope-db/3, docs/database-schema.md); the runtime embeds it,
// reports join counters to source through it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROGRAMDATABASE_H
#define WARPSCOPE_PASSES_PROGRAMDATABASE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warpscope {

struct SourceLocation {
  std::string File; ///< empty when the IR carries no debug location
  unsigned Line = 0;
  unsigned Column = 0;
};

/// One level of where an instruction came from, for sample profiles:
/// Function (linkage name) and the line offset from its first line.
struct InlineFrame {
  std::string Function;
  unsigned LineOffset = 0;
  unsigned Discriminator = 0;
};

struct BlockRecord {
  unsigned Id = 0;
  std::string Name; ///< IR name, empty when values are unnamed
  SourceLocation Loc;
  unsigned LoopDepth = 0;
  bool LoopHeader = false;
  int64_t Counter = -1; ///< first word of the block record, -1 if none
  /// Set when the block has no probe: its counts are those of successor
  /// DerivedSuccessor of branch DerivedBranch (its only way in).
  int DerivedBranch = -1;
  unsigned DerivedSuccessor = 0;
  /// Set (with DerivedBranch) on a loop header whose other way in is block
  /// EnteredFrom, its preheader (whose only successor it is): its counts
  /// are that block's plus successor DerivedSuccessor of its latch's
  /// two-way branch DerivedBranch (threads that took the back edge, visits
  /// sending a lane back); successor 1 only when the latch is another
  /// block.
  int EnteredFrom = -1;
  /// Set when the block has no probe and runs exactly when block
  /// SameCountsAs (a dominator it post-dominates) runs: its counts are that
  /// block's. AssumesReconvergence: only if lanes that split between the two
  /// meet again here (-warpscope-assume-reconvergence).
  int SameCountsAs = -1;
  bool AssumesReconvergence = false;
  /// Counted in registers inside its loop, added at the loop's exits.
  bool Promoted = false;
  /// Distinct successor blocks (the control-flow graph, for deriving the
  /// counts of edges; absent in databases of older plugins).
  std::optional<std::vector<unsigned>> Successors;
  /// The immediate post-dominator of a branch that may diverge: lanes that
  /// split there meet here and run it together, so its warp executions may
  /// be fewer than the warp arrivals over its incoming edges.
  bool Reconverges = false;
  /// The functions the block calls (mangled), one entry per call, "" for an
  /// indirect call; each runs once per execution of the block. Absent in
  /// databases of older plugins.
  std::optional<std::vector<std::string>> Calls;
  /// Every distinct source position of the block's instructions, each as an
  /// inline stack (outermost, this function, first; more than one frame when
  /// the code was inlined); the first is the block's first located one.
  std::vector<std::vector<InlineFrame>> InlineStacks;
  /// Static PTX program instructions that run with this block's counts,
  /// opcode as written -> count (filled by the host pass from the fatbin).
  std::map<std::string, uint64_t> Ptx;
  /// The plain build's PTX instructions that run with this block's counts,
  /// where FunctionRecord::PlainPtxStatus is "mapped".
  std::map<std::string, uint64_t> PlainPtx;
};

enum class BranchKind { Conditional, Switch };

/// "br" or "switch", as the database and the reports spell it.
inline const char *branchKindName(BranchKind K) {
  return K == BranchKind::Switch ? "switch" : "br";
}

struct BranchRecord {
  unsigned Id = 0;
  unsigned Block = 0; ///< id of the block this branch terminates
  BranchKind Kind = BranchKind::Conditional;
  SourceLocation Loc;               ///< of the condition where it has one
  std::vector<unsigned> Successors; ///< distinct targets, probe order
  bool Uniform = false;             ///< proven by UniformityAnalysis
  bool Probed = false;
  /// Counted by its block's probe: visits and active threads are the
  /// block's warp and thread executions, not stored in the branch record.
  bool SharesBlockCounts = false;
  /// Two-way: warp arrivals at successor 0 are counted (always, since
  /// histograms need them for the code generator's edge blocks).
  bool CountsArrivals = false;
  /// Switch: the record ends with each successor's uniform visits.
  bool CountsUniformVisits = false;
  /// Counted in registers inside its loop, added at the loop's exits.
  bool Promoted = false;
  int64_t Counter = -1; ///< first word of the branch record, -1 if none
  /// Two-way: which successor (0 or 1) is the source condition's true side,
  /// where the plugin could tell (passes/SourceSides.h); the optimiser may
  /// have inverted the IR condition. Absent: unknown.
  std::optional<unsigned> SourceTrueSuccessor;
  /// sourceHash of the text of the branch's line, whitespace trimmed, as the
  /// build read it (empty: no readable source): `diff` matches branches
  /// whose line moved by it.
  std::string LineHash;
};

/// PTX instructions that run on one side of a two-way branch rather than
/// with a block (the code generator's blocks on edges; see
/// runtime/ptx/BlockHistograms.h for how their counts follow).
struct PtxEdgeRecord {
  unsigned From = 0, Other = 0; ///< block ids
  bool Toward = false, OtherReconverges = false, SelfReconverges = false;
  std::map<std::string, uint64_t> Ptx;
};

/// PTX inside the lowering of block From's switch, run by the lanes going
/// to the blocks in Reaches.
struct PtxSwitchPartRecord {
  unsigned From = 0;
  std::vector<unsigned> Reaches; ///< block ids
  std::map<std::string, uint64_t> Ptx;
};

struct FunctionRecord {
  std::string Name; ///< mangled
  std::string Demangled;
  bool Kernel = false;
  SourceLocation Loc; ///< DISubprogram file and line
  uint64_t CfgChecksum = 0;
  std::vector<BlockRecord> Blocks;
  std::vector<BranchRecord> Branches;
  /// PTX instructions of the function that no block could be given (their
  /// executions are unknown), and the instrumentation's own instructions.
  std::map<std::string, uint64_t> PtxUnattributed;
  std::vector<PtxEdgeRecord> PtxEdges;
  std::vector<PtxSwitchPartRecord> PtxSwitchParts;
  uint64_t PtxInstrumentation = 0;
  /// The plain build's PTX (compiled without the plugin) on this function's
  /// blocks (docs/design.md): "same" (the instrumented PTX without probes
  /// is the plain PTX: the histograms above are the plain build's), "mapped"
  /// (it differs, its blocks map one to one: BlockRecord::PlainPtx and the
  /// three below), otherwise why the blocks do not map; empty: no plain PTX.
  std::string PlainPtxStatus;
  std::map<std::string, uint64_t> PlainPtxUnattributed;
  std::vector<PtxEdgeRecord> PlainPtxEdges;
  std::vector<PtxSwitchPartRecord> PlainPtxSwitchParts;
  /// Built with -warpscope-kernel-filter, this function may also be called
  /// by a kernel the filter left out: its counts include those calls.
  bool SharedWithLeftOut = false;
  /// The call sites onto whose line and column -warpscope-inlined-lines
  /// moved code inlined from a CUDA math library header
  /// (isMathLibraryHeader): that code is found by them (the advisor's fast
  /// math), its own file no longer being in the line table. Sorted, unique.
  std::vector<SourceLocation> MathCallSites;
};

/// A kernel -warpscope-kernel-filter left uninstrumented.
struct LeftOutKernel {
  std::string Name; ///< mangled
  std::string Demangled;
};

struct ProgramDatabase {
  std::string ModuleId; ///< 16 hex digits
  std::string SourceFile;
  std::string Target; ///< e.g. sm_90
  std::string CountersSymbol;
  uint64_t NumCounters = 0;
  /// The device array holds CounterReplicas copies of the counters,
  /// ReplicaStride words apart (warpscope/Abi.h); 1 and NumCounters when
  /// the database predates replicas.
  uint64_t CounterReplicas = 1;
  uint64_t ReplicaStride = 0;
  std::vector<FunctionRecord> Functions;
  /// Per-block PTX histograms: "ok", or why there are none (empty: never
  /// attempted, e.g. before the host compile ran); PtxArch: sm they are of.
  std::string PtxStatus;
  std::string PtxArch;
  /// The plain build's PTX text, from the device compile to the host
  /// compile, which attributes it and clears it (so it is never embedded);
  /// PlainPtxStatus: "ok", or why there is none (empty: not attempted).
  std::string PlainPtx;
  std::string PlainPtxStatus;
  /// Every source file the locations name, by its contents when built
  /// (sourceHash), so reports show no text of a file edited since.
  std::map<std::string, std::string> SourceHashes;
  /// -warpscope-kernel-filter as given (empty: none), and the kernels it
  /// left out (compiled without counters).
  std::string KernelFilter;
  std::vector<LeftOutKernel> KernelsNotInstrumented;

  /// The files that any function, block or branch location names.
  std::set<std::string> referencedFiles() const;
  /// How SourceHashes names a file's contents: xxh3-64, 16 hex digits.
  static std::string sourceHash(llvm::StringRef Contents);

  llvm::json::Value toJson() const;
  static llvm::Expected<ProgramDatabase> fromJson(const llvm::json::Value &V);
  /// Writes atomically (temp file, then rename).
  llvm::Error writeFile(llvm::StringRef Path) const;
};

/// Why a counter layout (warpscope/Abi.h's ModuleDescriptor) is impossible,
/// e.g. "counter_replicas 0, replica_stride 3 for 9 counters", or "" when
/// it is sound.
std::string counterLayoutError(int64_t Replicas, int64_t Stride,
                               uint64_t NumCounters);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROGRAMDATABASE_H
