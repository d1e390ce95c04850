//===- ReduceLoops.cpp - The code generator's loop strength reduction, early //

#include "ReduceLoops.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"
#include "llvm/Transforms/Scalar/NaryReassociate.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"
#include "llvm/Transforms/Scalar/SpeculativeExecution.h"
#include "llvm/Transforms/Scalar/StraightLineStrengthReduce.h"
#include "llvm/Transforms/Utils/CanonicalizeFreezeInLoops.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

static cl::opt<bool> ReduceLoopsFirst(
    "warpscope-reduce-loops-first", cl::Hidden,
    cl::desc("Run the code generator's straight-line scalar optimizations "
             "and loop strength reduction on each function before placing "
             "probes, and turn its own loop strength reduction off, so the "
             "code around the probes is the plain program's (default on)"),
    cl::init(true));

bool warpscope::reduceLoopsFirst(bool Default) {
  return ReduceLoopsFirst.getNumOccurrences() ? bool(ReduceLoopsFirst)
                                              : Default;
}

void warpscope::disableCodeGeneratorLoopReduction() {
  // LLVM's own switch (-disable-lsr), read when the code generator builds
  // its pipeline, after this pass: it holds for this compilation only.
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("disable-lsr");
  if (It != Options.end() && !It->second->getNumOccurrences())
    It->second->addOccurrence(0, "disable-lsr", "true");
}

void warpscope::reduceLoops(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.hasOptNone() ||
      FAM.getResult<LoopAnalysis>(F).empty())
    return;
  // The NVPTX code generator's IR passes before LSR, in its order: the
  // straight-line scalar optimizations (speculative execution hoists from
  // blocks a probe would make too long to hoist from), then LSR.
  FunctionPassManager FPM;
  FPM.addPass(SeparateConstOffsetFromGEPPass());
  FPM.addPass(SpeculativeExecutionPass());
  FPM.addPass(StraightLineStrengthReducePass());
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(NaryReassociatePass());
  FPM.addPass(EarlyCSEPass());
  LoopPassManager LPM;
  LPM.addPass(CanonicalizeFreezeInLoopsPass());
  LPM.addPass(LoopStrengthReducePass());
  FPM.addPass(createFunctionToLoopPassAdaptor(std::move(LPM)));
  SmallPtrSet<BasicBlock *, 32> Before;
  for (BasicBlock &BB : F)
    Before.insert(&BB);
  FAM.invalidate(F, FPM.run(F, FAM));
  // Loop canonicalization gave loops dedicated exits and preheaders; the
  // code generator folds the empty ones away again, but not once a probe is
  // in them. Fold them now.
  SmallVector<BasicBlock *, 8> Added;
  for (BasicBlock &BB : F)
    if (!Before.count(&BB))
      Added.push_back(&BB);
  bool Changed = false;
  for (BasicBlock *BB : Added) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (Br && Br->isUnconditional() && &*BB->getFirstNonPHIOrDbg() == Br &&
        !BB->isEntryBlock())
      Changed |= TryToSimplifyUncondBranchFromEmptyBlock(BB);
  }
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
}
