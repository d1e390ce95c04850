//===- LoopPromotion.cpp - Loop counters in registers ---------------------===//
//
// Loop counter promotion decides which probes inside loops count in the
// leader lanes' registers instead of global memory, flushed at the loop's
// exits: only loops that no lane can leave without passing an exit (no
// call that may not come back, no trap), whose exits lie in no other loop,
// and (by default) that likely run more than a few times per lane.
//
//===----------------------------------------------------------------------===//

#include "DeviceInstrumentationImpl.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace warpscope;
using namespace warpscope::device;

#define DEBUG_TYPE "warpscope"

/// Calls (they may not come back: exit, trap, a callee that never returns)
/// and lane-terminating intrinsics would lose counts held in registers.
static bool mayEndLanes(const BasicBlock &BB,
                        DenseMap<const Function *, bool> &Returns);

/// Whether every call of F comes back: a definition in this module whose
/// code may not end a lane (nor call anything that may), no recursion.
static bool alwaysReturns(const Function *F,
                          DenseMap<const Function *, bool> &Returns) {
  if (!F || F->isDeclaration())
    return false;
  auto [It, Fresh] = Returns.try_emplace(F, false); // false while visiting
  if (!Fresh)
    return It->second;
  bool Ok = true;
  for (const BasicBlock &BB : *F)
    if (isa<UnreachableInst>(BB.getTerminator()) || mayEndLanes(BB, Returns)) {
      Ok = false;
      break;
    }
  Returns[F] = Ok;
  return Ok;
}

/// Whether running BB may end a lane: trap, exit, inline asm (may hold
/// either) or a call that may not come back.
static bool mayEndLanes(const BasicBlock &BB,
                        DenseMap<const Function *, bool> &Returns) {
  for (const Instruction &I : BB)
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      const auto *II = dyn_cast<IntrinsicInst>(CB);
      if (!II) {
        if (!alwaysReturns(CB->getCalledFunction(), Returns))
          return true;
        continue;
      }
      if (endsLanes(*II))
        return true;
    }
  return false;
}

/// A loop whose probes may count in registers: nothing inside may end a
/// lane before it leaves (calls only to functions that always return) (a lane
/// leaving always runs the flush at the start of an exit block), and no exit
/// lies in a loop that does not contain this one (its flush would run on every
/// iteration of that loop). The registers start at zero at the function's entry
/// and go back to zero at every flush, so the loop needs no preheader, and an
/// exit that is also reached from outside the loop flushes zeros for those
/// lanes.
static bool promotableLoop(const Loop &L, const LoopInfo &LI,
                           DenseMap<const Function *, bool> &Returns) {
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  if (Exits.empty()) {
    LLVM_DEBUG(dbgs() << "warpscope:   not promoted: no exit to flush at\n");
    return false;
  }
  for (const BasicBlock *E : Exits)
    if (const Loop *Outer = LI.getLoopFor(E); Outer && !Outer->contains(&L)) {
      LLVM_DEBUG(dbgs() << "warpscope:   not promoted: exit " << E->getName()
                        << " is in another loop\n");
      return false;
    }
  for (const BasicBlock *BB : L.blocks())
    if (mayEndLanes(*BB, Returns)) {
      LLVM_DEBUG(dbgs() << "warpscope:   not promoted: " << BB->getName()
                        << " may end lanes (a trap, an exit or a call that "
                           "may not return)\n");
      return false;
    }
  return true;
}

/// A loop whose exit test steps an induction variable by the block size (not
/// the grid size) or by 32 or more (work spread over a block's threads: each
/// lane runs it a few times), or that runs at most 4 times: zeroing and
/// flushing its registers would cost more than the probes they replace.
static bool likelyFewIterations(Loop &L, ScalarEvolution &SE) {
  if (unsigned Max = SE.getSmallConstantMaxTripCount(&L); Max && Max <= 4)
    return true;
  auto Reads = [](const SCEV *S, Intrinsic::ID X, Intrinsic::ID Y,
                  Intrinsic::ID Z) {
    auto *U = dyn_cast<SCEVUnknown>(S);
    auto *II = U ? dyn_cast<IntrinsicInst>(U->getValue()) : nullptr;
    return II && (II->getIntrinsicID() == X || II->getIntrinsicID() == Y ||
                  II->getIntrinsicID() == Z);
  };
  auto IsBlockSize = [&](const SCEV *S) {
    return Reads(S, Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                 Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                 Intrinsic::nvvm_read_ptx_sreg_ntid_z);
  };
  auto IsGridSize = [&](const SCEV *S) {
    return Reads(S, Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                 Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                 Intrinsic::nvvm_read_ptx_sreg_nctaid_z);
  };
  auto WideStride = [&](const SCEV *S) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (!AR || AR->getLoop() != &L)
      return false;
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (auto *C = dyn_cast<SCEVConstant>(Step))
      return C->getAPInt().abs().uge(32);
    // Block-strided; grid-strided loops (the grid size too) are where a
    // grid smaller than the data makes each lane iterate.
    return SCEVExprContains(Step, IsBlockSize) &&
           !SCEVExprContains(Step, IsGridSize);
  };
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    auto *Cmp = Br && Br->isConditional()
                    ? dyn_cast<ICmpInst>(Br->getCondition())
                    : nullptr;
    if (!Cmp)
      continue;
    for (Value *Op : Cmp->operands())
      if (SE.isSCEVable(Op->getType()) &&
          SCEVExprContains(SE.getSCEV(Op), WideStride))
        return true;
  }
  return false;
}

/// Loop counter promotion: probes of blocks and two-way branches whose
/// innermost loop is promotable count in per-lane registers; the loop's
/// exits add them to the counters. Exact however lanes are scheduled: the
/// leader of each group adds 1 for the group to its own register, so the
/// lanes' sum is the number of groups.
void ModuleInstrumenter::decidePromotion(PlannedFunction &P,
                                         FunctionRecord &Rec,
                                         const BlockIndex &BlockIds,
                                         const BlockIndex &BranchIdOf) {
  if (!Opts.PromoteLoopCounters)
    return;
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(*P.F);
  DenseMap<const Loop *, bool> Promotable;
  DenseMap<const Function *, bool> Returns;
  auto LoopOf = [&](const BasicBlock *BB) -> Loop * {
    Loop *L = LI.getLoopFor(BB);
    if (!L)
      return nullptr;
    auto [It, Fresh] = Promotable.try_emplace(L, false);
    if (Fresh) {
      LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": loop at "
                        << L->getHeader()->getName() << "\n");
      bool Ok = promotableLoop(*L, LI, Returns);
      if (Ok && Opts.SkipShortLoops && likelyFewIterations(*L, SE)) {
        LLVM_DEBUG(dbgs() << "warpscope:   not promoted: likely few "
                             "iterations per lane\n");
        Ok = false;
      }
      LLVM_DEBUG(if (Ok) dbgs() << "warpscope:   promotable\n");
      It->second = Ok;
    }
    return It->second ? L : nullptr;
  };
  if (Opts.PromoteBlockProbes)
    for (PlannedBlock &B : P.Blocks)
      if (B.How == BlockCounting::OwnProbe && (B.PromotedIn = LoopOf(B.BB)))
        Rec.Blocks[BlockIds.lookup(B.BB)].Promoted = true;
  for (PlannedBranch &Br : P.Branches) {
    BasicBlock *BB = Br.Terminator->getParent();
    if (Br.Successors.size() != 2 || !(Br.PromotedIn = LoopOf(BB)))
      continue;
    Rec.Branches[BranchIdOf.lookup(BB)].Promoted = true;
    if (Br.MergedBlockWord)
      Rec.Blocks[BlockIds.lookup(BB)].Promoted = true;
  }
}
