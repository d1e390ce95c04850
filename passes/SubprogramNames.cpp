//===- SubprogramNames.cpp - Subprogram -> symbol, recorded early ---------===//

#include "SubprogramNames.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace warpscope;

PreservedAnalyses RecordSubprogramNamesPass::run(Module &M,
                                                 ModuleAnalysisManager &) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  NamedMDNode *Records = M.getOrInsertNamedMetadata(SubprogramSymbolsMD);
  Records->clearOperands();
  LLVMContext &Ctx = M.getContext();
  for (Function &F : M)
    if (DISubprogram *SP = F.getSubprogram())
      Records->addOperand(
          MDTuple::get(Ctx, {SP, MDString::get(Ctx, F.getName())}));
  // Named metadata feeds no analysis.
  return PreservedAnalyses::all();
}

SubprogramSymbols warpscope::takeSubprogramSymbols(Module &M) {
  SubprogramSymbols Symbols;
  NamedMDNode *Records = M.getNamedMetadata(SubprogramSymbolsMD);
  if (!Records)
    return Symbols;
  for (const MDNode *R : Records->operands())
    if (R->getNumOperands() == 2)
      if (auto *SP = dyn_cast_or_null<DISubprogram>(R->getOperand(0)))
        if (auto *Name = dyn_cast_or_null<MDString>(R->getOperand(1)))
          Symbols[SP] = Name->getString().str();
  M.eraseNamedMetadata(Records);
  return Symbols;
}
