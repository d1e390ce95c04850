//===- InlinedLines.h - Inlined header code on the user's line ------------===//
//
// LLVM 22's NVPTX code generator writes a `.loc` without `inlined_at`, so an
// inlined `threadIdx.x` read or `__trap()` is located in clang's CUDA
// headers, and so are the emulator's stall view and fault messages and a
// GPU's line table. The device pass therefore gives such code the location
// of the call site it was inlined at: in the IR, so every reader of the PTX
// agrees with no new format, and per instruction, so one header line
// inlined at several places gets each place's line.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_INLINEDLINES_H
#define WARPSCOPE_PASSES_INLINEDLINES_H

#include "PluginChoices.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/DenseMap.h"
#include <string>
#include <vector>

namespace llvm {
class DIFile;
class DILocation;
class Function;
} // namespace llvm

namespace warpscope {

/// Where Rule places F's code: an instruction's own location, or for code
/// in a file Rule picks (Toolkit: isToolkitHeader,
/// warpscope/Support/MathHeaders.h) the nearest call site, outward through
/// its inlined-at chain, that is in a file Rule does not pick and has a
/// line. The database's positions and the PTX's .loc both come from it, so
/// a branch in an inlined helper of the user's is on the helper's line in
/// every view.
class LinePlacement {
public:
  LinePlacement(const llvm::Function &F, InlinedLines Rule);
  /// DL's place: DL itself unless Rule picks its file and a call site
  /// outside picked files exists (null stays null).
  const llvm::DILocation *place(const llvm::DILocation *DL);
  /// Whether Rule picks DL's file.
  bool picks(const llvm::DILocation *DL);

private:
  InlinedLines Rule;
  std::string Main;
  llvm::DenseMap<const llvm::DIFile *, bool> Picked;
};

/// Gives each instruction of F its LinePlacement. Returns how many
/// instructions changed. With
/// MathSites, the call sites that received code of a CUDA math library
/// header (isMathLibraryHeader) are added to it, sorted and unique.
unsigned
attributeInlinedLines(llvm::Function &F, InlinedLines Rule,
                      std::vector<SourceLocation> *MathSites = nullptr);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_INLINEDLINES_H
