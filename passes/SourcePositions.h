//===- SourcePositions.h - Debug locations as database positions ----------===//
//
// Where the program database says functions, blocks and branches are: file,
// line and column of the outermost inlined-at location, and for sample
// profiles each block's inline stacks (function and line offset per level).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_SOURCEPOSITIONS_H
#define WARPSCOPE_PASSES_SOURCEPOSITIONS_H

#include "SubprogramNames.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class DILocation;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace warpscope {

/// Directory and file name as one path (a file may be named relative to
/// the compile directory): joinSourcePath (warpscope/Support/SourcePath.h).
std::string sourcePath(llvm::StringRef Directory, llvm::StringRef File);

/// F's DISubprogram file and line (nothing without one).
SourceLocation functionLocation(const llvm::Function &F);

/// DL's own file, line and column (nothing for null or line 0); where
/// inlined code is placed is LinePlacement's (InlinedLines.h).
SourceLocation toSourceLocation(const llvm::DILocation *DL);

/// BB's first location with a line, or null.
const llvm::DILocation *firstLocation(const llvm::BasicBlock &BB);

/// Where a branch is: its condition's location, else its terminator's, else
/// its block's first (null if none has a line).
const llvm::DILocation *branchLocation(const llvm::Instruction &Term,
                                       const llvm::Value *Cond);

/// The distinct inline stacks of BB's located instructions, first located
/// one first; the outermost frame is named Symbol, inlined frames by
/// Symbols (what RecordSubprogramNamesPass recorded), else by linkage or
/// debug name.
std::vector<std::vector<InlineFrame>>
inlineStacks(const llvm::BasicBlock &BB, llvm::StringRef Symbol,
             const SubprogramSymbols &Symbols);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_SOURCEPOSITIONS_H
