//===- ProgramDatabase.h - Static description of an instrumented module ---===//
//
// What the device pass knows at compile time about every function, block and
// branch it saw, and where their counters live. Serialized as JSON
// (schema warpscope-db/1, docs/database-schema.md); the runtime embeds it,
// reports join counters to source through it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PROGRAMDATABASE_H
#define WARPSCOPE_PASSES_PROGRAMDATABASE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
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
  /// Counted in registers inside its loop, added at the loop's exits.
  bool Promoted = false;
  /// Every distinct source position of the block's instructions, each as an
  /// inline stack (outermost, this function, first; more than one frame when
  /// the code was inlined); the first is the block's first located one.
  std::vector<std::vector<InlineFrame>> InlineStacks;
};

enum class BranchKind { Conditional, Switch };

struct BranchRecord {
  unsigned Id = 0;
  unsigned Block = 0; ///< id of the block this branch terminates
  BranchKind Kind = BranchKind::Conditional;
  SourceLocation Loc; ///< of the condition where it has one
  std::vector<unsigned> Successors; ///< distinct targets, probe order
  bool Uniform = false;             ///< proven by UniformityAnalysis
  bool Probed = false;
  /// Counted by its block's probe: visits and active threads are the
  /// block's warp and thread executions, not stored in the branch record.
  bool SharesBlockCounts = false;
  /// Counted in registers inside its loop, added at the loop's exits.
  bool Promoted = false;
  int64_t Counter = -1; ///< first word of the branch record, -1 if none
};

struct FunctionRecord {
  std::string Name; ///< mangled
  std::string Demangled;
  bool Kernel = false;
  SourceLocation Loc;     ///< DISubprogram file and line
  uint64_t CfgChecksum = 0;
  std::vector<BlockRecord> Blocks;
  std::vector<BranchRecord> Branches;
};

struct ProgramDatabase {
  std::string ModuleId; ///< 16 hex digits
  std::string SourceFile;
  std::string Target; ///< e.g. sm_90
  std::string CountersSymbol;
  uint64_t NumCounters = 0;
  std::vector<FunctionRecord> Functions;

  llvm::json::Value toJson() const;
  static llvm::Expected<ProgramDatabase> fromJson(const llvm::json::Value &V);
  /// Writes atomically (temp file, then rename).
  llvm::Error writeFile(llvm::StringRef Path) const;
};

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PROGRAMDATABASE_H
