//===- SubprogramNames.h - IR symbols of functions before inlining --------===//
//
// Sample profiles name inlined callees by the symbol the sample loader sees
// at the call, before inlining (e.g. _Z6digitsj), but line-tables-only debug
// info carries only "digits". A pass at the start of the pipeline records
// each subprogram's symbol in the module, as named metadata, so the device
// pass, after inlining, can name inlined frames the way the loader will look
// them up. The device pass takes the metadata out again, so the module it
// emits is the one it would emit without.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_SUBPROGRAMNAMES_H
#define WARPSCOPE_PASSES_SUBPROGRAMNAMES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include <string>

namespace llvm {
class DISubprogram;
}

namespace warpscope {

/// Records !{<DISubprogram>, !"<symbol>"} for each function of a device
/// module that has a subprogram, in the named metadata SubprogramSymbolsMD.
/// Host modules are left alone: only the device pass reads the records.
class RecordSubprogramNamesPass
    : public llvm::PassInfoMixin<RecordSubprogramNamesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

inline constexpr llvm::StringLiteral SubprogramSymbolsMD =
    "warpscope.subprogram.symbols";

using SubprogramSymbols =
    llvm::DenseMap<const llvm::DISubprogram *, std::string>;

/// The symbols recorded in M (none when the pass did not run), and removes
/// the record from M.
SubprogramSymbols takeSubprogramSymbols(llvm::Module &M);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_SUBPROGRAMNAMES_H
