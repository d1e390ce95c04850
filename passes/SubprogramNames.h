//===- SubprogramNames.h - IR symbols of functions before inlining --------===//
//
// Sample profiles name inlined callees by the symbol the sample loader sees
// at the call, before inlining (e.g. _Z6digitsj), but line-tables-only debug
// info carries only "digits". A pass at the start of the pipeline records
// each subprogram's symbol so the device pass, after inlining, can name
// inlined frames the way the loader will look them up.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_SUBPROGRAMNAMES_H
#define WARPSCOPE_PASSES_SUBPROGRAMNAMES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class DISubprogram;
}

namespace warpscope {

class RecordSubprogramNamesPass
    : public llvm::PassInfoMixin<RecordSubprogramNamesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// The symbol recorded for SP in this compile, or an empty string.
llvm::StringRef recordedSymbol(const llvm::DISubprogram *SP);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_SUBPROGRAMNAMES_H
