//===- SubprogramNames.cpp - Subprogram -> symbol, recorded early ---------===//

#include "SubprogramNames.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include <string>

using namespace llvm;

namespace {
/// One compile per process (cc1), and uniqued metadata keeps its address
/// for the whole pipeline.
DenseMap<const DISubprogram *, std::string> &symbols() {
  static DenseMap<const DISubprogram *, std::string> Map;
  return Map;
}
} // namespace

PreservedAnalyses
warpscope::RecordSubprogramNamesPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (const DISubprogram *SP = F.getSubprogram())
      symbols()[SP] = F.getName().str();
  return PreservedAnalyses::all();
}

StringRef warpscope::recordedSymbol(const DISubprogram *SP) {
  auto It = symbols().find(SP);
  return It == symbols().end() ? StringRef() : StringRef(It->second);
}
