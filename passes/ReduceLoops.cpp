//===- ReduceLoops.cpp - The code generator's loop strength reduction, early //

#include "ReduceLoops.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"
#include "llvm/Transforms/Scalar/NaryReassociate.h"
#include "llvm/Transforms/Scalar/SeparateConstOffsetFromGEP.h"
#include "llvm/Transforms/Scalar/SpeculativeExecution.h"
#include "llvm/Transforms/Scalar/StraightLineStrengthReduce.h"
#include "llvm/Transforms/Utils/CanonicalizeFreezeInLoops.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

void warpscope::disableCodeGeneratorLoopReduction() {
  // LLVM's own switch (-disable-lsr), read when the code generator builds
  // its pipeline, after this pass: it holds for this compilation only.
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("disable-lsr");
  if (It != Options.end() && !It->second->getNumOccurrences())
    It->second->addOccurrence(0, "disable-lsr", "true");
}

/// What the code generator's NVPTXLowerArgs does to a kernel's pointer
/// parameters (a plugin cannot run it): in CUDA they point to global memory,
/// so their uses go through a cast to the global space and back, for address
/// space inference to carry into the addresses formed from them. Byval
/// parameters are left to the code generator.
static bool castKernelPointersToGlobal(Function &F) {
  if (F.getCallingConv() != CallingConv::PTX_Kernel)
    return false;
  constexpr unsigned GlobalSpace = 1;
  bool Changed = false;
  for (Argument &Arg : F.args()) {
    auto *Ty = dyn_cast<PointerType>(Arg.getType());
    if (!Ty || Ty->getAddressSpace() != 0 || Arg.hasByValAttr() ||
        Arg.use_empty())
      continue;
    BasicBlock::iterator At = F.getEntryBlock().getFirstInsertionPt();
    auto *Global = new AddrSpaceCastInst(
        &Arg, PointerType::get(F.getContext(), GlobalSpace), Arg.getName(), At);
    auto *Generic = new AddrSpaceCastInst(Global, Ty, Arg.getName(), At);
    Arg.replaceAllUsesWith(Generic);
    Global->setOperand(0, &Arg);
    Changed = true;
  }
  return Changed;
}

/// The code generator infers address spaces again after its LSR would have
/// run. A generic pointer induction variable LSR made from a global or shared
/// pointer (for an intrinsic or asm that takes generic pointers) would then
/// become a global one, cast back inside the loop at every use; in the plain
/// build it stays generic, cast once before the loop. A freeze of its start
/// value (no instruction) is opaque to that inference. (A generic header phi
/// that was there before LSR has an incoming value the inference cannot see
/// through, or the inference run first would have changed it: the freeze
/// changes nothing for it.)
/// V is formed by GEPs and casts from a pointer into a specific space, or
/// from a kernel's pointer parameter (NVPTXLowerArgs makes those global).
static bool fromSpecificSpace(const Value *V) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    if (V->getType()->getPointerAddressSpace() != 0)
      return true;
    if (auto *Arg = dyn_cast<Argument>(V))
      return Arg->getParent()->getCallingConv() == CallingConv::PTX_Kernel &&
             !Arg->hasByValAttr();
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      V = GEP->getPointerOperand();
    else if (Operator::getOpcode(V) == Instruction::AddrSpaceCast)
      V = cast<Operator>(V)->getOperand(0);
    else
      return false;
  }
  return false;
}

static bool keepInductionPointersGeneric(LoopInfo &LI) {
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    for (PHINode &Phi : L->getHeader()->phis()) {
      auto *Ty = dyn_cast<PointerType>(Phi.getType());
      if (!Ty || Ty->getAddressSpace() != 0)
        continue;
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
        Value *Start = Phi.getIncomingValue(I);
        BasicBlock *From = Phi.getIncomingBlock(I);
        if (L->contains(From) || !fromSpecificSpace(Start))
          continue;
        Phi.setIncomingValue(
            I, new FreezeInst(Start, "", From->getTerminator()->getIterator()));
        Changed = true;
      }
    }
  return Changed;
}

void warpscope::reduceLoops(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.hasOptNone())
    return;
  if (castKernelPointersToGlobal(F))
    FAM.invalidate(F, PreservedAnalyses::none());
  // The NVPTX code generator's IR passes before LSR, in its order: address
  // space inference, the straight-line scalar optimizations (speculative
  // execution hoists from blocks a probe would make too long to hoist
  // from), then LSR. They run on functions without loops too: a probe in a
  // guarded block keeps speculative execution from hoisting out of it.
  FunctionPassManager FPM;
  FPM.addPass(InferAddressSpacesPass());
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
  // The code generator's later CSE: on an exit edge LSR split, the exit
  // branch's condition is known, so the exit value LSR computed there folds
  // away and the block is empty again (folded below, as the code generator
  // would, before a probe or a counter flush can keep it).
  FPM.addPass(EarlyCSEPass());
  SmallPtrSet<BasicBlock *, 32> Before;
  for (BasicBlock &BB : F)
    Before.insert(&BB);
  FAM.invalidate(F, FPM.run(F, FAM));
  bool Changed = keepInductionPointersGeneric(FAM.getResult<LoopAnalysis>(F));
  // Loop canonicalization gave loops dedicated exits and preheaders; the
  // code generator folds the empty ones away again, but not once a probe is
  // in them. Fold them now.
  SmallVector<BasicBlock *, 8> Added;
  for (BasicBlock &BB : F)
    if (!Before.count(&BB))
      Added.push_back(&BB);
  for (BasicBlock *BB : Added) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (Br && Br->isUnconditional() && &*BB->getFirstNonPHIOrDbg() == Br &&
        !BB->isEntryBlock())
      Changed |= TryToSimplifyUncondBranchFromEmptyBlock(BB);
  }
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
}
