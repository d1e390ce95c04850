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
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Debug.h"

#include <optional>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::device;

#define DEBUG_TYPE "warpscope-loop-promotion"

STATISTIC(NumLaneLoops, "Promoted loops counting in lane-local registers");
STATISTIC(NumPackedLoops, "Lane-local loops packing two 16-bit counts per "
                          "register");
STATISTIC(NumGuardedLoops,
          "Lane-local loops whose registers a probe guards (no trip count "
          "bound)");

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

/// Whether L's probes can count in lane-local 32-bit registers: its
/// header runs at most 2^32 - 1 times per entry (SCEV's constant bound on
/// the backedge-taken count), and a lane's register grows by at most one
/// per iteration (a probe's block is in L, not in a loop inside it, so it
/// runs once per iteration at most). Split: 32 lanes' sums may reach 2^32.
/// Fits16: a lane's register stays at most 65535 per entry (the header runs
/// at most that often), so two such counts share one register.
bool warpscope::device::boundedForLanes(Loop &L, ScalarEvolution &SE,
                                        bool &Split, bool &Fits16) {
  std::optional<uint64_t> Max;
  if (const auto *C =
          dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(&L));
      C && C->getAPInt().getActiveBits() <= 64)
    Max = C->getAPInt().getZExtValue();
  // The symbolic bound under the conditions that guard the loop (a loop
  // from a to b runs b - a times only where the guard says a < b), which
  // the constant bound above does not use.
  const SCEV *Sym = SE.getSymbolicMaxBackedgeTakenCount(&L);
  if (!isa<SCEVCouldNotCompute>(Sym)) {
    APInt R = SE.getUnsignedRangeMax(SE.applyLoopGuards(Sym, &L));
    if (R.getActiveBits() <= 64)
      Max = std::min(Max.value_or(UINT64_MAX), R.getZExtValue());
  }
  if (!Max || *Max > 0xFFFFFFFEull) {
    LLVM_DEBUG(dbgs() << "warpscope:   64-bit registers: no trip count "
                         "bound below 2^32\n");
    return false;
  }
  Split = *Max + 1 >= (1ull << 27);
  Fits16 = *Max + 1 <= 0xFFFFull;
  LLVM_DEBUG(dbgs() << "warpscope:   lane-local registers: at most " << *Max + 1
                    << " iterations per entry\n");
  return true;
}

/// How many probes would count in L's registers if it were promoted: its
/// two-way branches and (lane-local, lane-block-probes, or
/// promote-block-probes) its blocks with their own probe, whose innermost
/// loop is L. Each keeps one to four registers live through the whole loop
/// (and across its calls), which ptxas must hold on top of the loop's own.
static unsigned promotedProbes(const PlannedFunction &P, const Loop &L,
                               const LoopInfo &LI, bool Blocks) {
  unsigned N = 0;
  for (const PlannedBranch &Br : P.Branches)
    N += Br.Successors.size() == 2 &&
         LI.getLoopFor(Br.Terminator->getParent()) == &L;
  if (Blocks)
    for (const PlannedBlock &B : P.Blocks)
      N += B.How == BlockCounting::OwnProbe && LI.getLoopFor(B.BB) == &L;
  return N;
}

/// 32-bit registers a value takes (a predicate none).
static unsigned registersOf(const Value *V, const DataLayout &DL) {
  Type *T = V->getType();
  if (T->isVoidTy() || T->isLabelTy() || T->isMetadataTy() ||
      T->isIntegerTy(1) || !T->isSized())
    return 0;
  return (DL.getTypeSizeInBits(T).getKnownMinValue() + 31) / 32;
}

namespace {
/// The SSA values (instructions and arguments) live into each block of a
/// function, by backward dataflow over its IR as it reaches the plugin; a
/// phi's operand is live at the end of its incoming block only. Computed
/// once per function for all its loops' pressure (loopPressure).
class Liveness {
public:
  using Set = SmallPtrSet<const Value *, 32>;
  explicit Liveness(Function &F) {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const BasicBlock &BB : reverse(F)) {
        Set Live = liveOut(BB);
        for (const Instruction &I : reverse(BB))
          step(I, Live);
        // Phis are defined at the block's start: live in only through uses.
        for (const PHINode &Phi : BB.phis())
          Live.insert(&Phi);
        // The sets only grow from empty: a change is a change of size.
        if (Live.size() != LiveIn[&BB].size()) {
          LiveIn[&BB] = std::move(Live);
          Changed = true;
        }
      }
    }
  }
  Set liveOut(const BasicBlock &BB) const {
    Set Live;
    for (const BasicBlock *S : successors(&BB)) {
      if (auto It = LiveIn.find(S); It != LiveIn.end())
        for (const Value *V : It->second)
          Live.insert(V);
      for (const PHINode &Phi : S->phis()) {
        Live.erase(&Phi);
        if (const Value *In = Phi.getIncomingValueForBlock(&BB);
            In && tracked(In))
          Live.insert(In);
      }
    }
    return Live;
  }
  /// Live before I, given Live after it.
  static void step(const Instruction &I, Set &Live) {
    Live.erase(&I);
    if (!isa<PHINode>(I))
      for (const Value *Op : I.operands())
        if (tracked(Op))
          Live.insert(Op);
  }

private:
  static bool tracked(const Value *V) {
    return isa<Instruction>(V) || isa<Argument>(V);
  }
  DenseMap<const BasicBlock *, Set> LiveIn;
};
} // namespace

/// An estimate of the registers L's own code holds at once: the most 32-bit
/// units of SSA values live at any point of its blocks (Live: its
/// function's). ptxas schedules and allocates differently; the estimate
/// only tells loops that hold many values through an iteration from those
/// that hold few.
static unsigned loopPressure(const Loop &L, const Liveness &Live,
                             const DataLayout &DL) {
  unsigned Most = 0;
  auto Units = [&](const Liveness::Set &Values) {
    unsigned N = 0;
    for (const Value *V : Values)
      N += registersOf(V, DL);
    return N;
  };
  for (const BasicBlock *BB : L.blocks()) {
    Liveness::Set Values = Live.liveOut(*BB);
    Most = std::max(Most, Units(Values));
    for (const Instruction &I : reverse(*BB)) {
      Liveness::step(I, Values);
      Most = std::max(Most, Units(Values));
    }
  }
  return Most;
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
  // An irreducible cycle inside a loop runs its blocks more than once per
  // iteration: no per-iteration bound on a lane's counts there.
  ReversePostOrderTraversal<Function *> RPOT(P.F);
  bool Lanes = Opts.LaneLoopCounters && targetHasRedux(*P.F) &&
               !containsIrreducibleCFG<const BasicBlock *>(RPOT, LI);
  std::optional<Liveness> Live; // for the first loop whose pressure counts
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
      if (Ok && Opts.PromoteMaxProbes &&
          promotedProbes(P, *L, LI,
                         (Lanes && Opts.LaneBlockProbes) ||
                             Opts.PromoteBlockProbes) > Opts.PromoteMaxProbes) {
        LLVM_DEBUG(dbgs() << "warpscope:   not promoted: more than "
                          << Opts.PromoteMaxProbes << " probes\n");
        Ok = false;
      }
      if (Ok && Opts.PromoteMaxPressure) {
        if (!Live)
          Live.emplace(*P.F);
        unsigned Pressure = loopPressure(*L, *Live, P.F->getDataLayout());
        LLVM_DEBUG(dbgs() << "warpscope:   pressure " << Pressure << "\n");
        if (Pressure > Opts.PromoteMaxPressure) {
          LLVM_DEBUG(dbgs() << "warpscope:   not promoted: pressure over "
                            << Opts.PromoteMaxPressure << "\n");
          Ok = false;
        }
      }
      LLVM_DEBUG(if (Ok) dbgs() << "warpscope:   promotable\n");
      It->second = Ok;
      bool Split = true, Fits16 = false;
      if (Ok && Lanes && boundedForLanes(*L, SE, Split, Fits16)) {
        P.LaneLoops[L].SplitHalves = Split;
        P.LaneLoops[L].Packed = Fits16 && Opts.PackLaneCounters;
        NumPackedLoops += P.LaneLoops[L].Packed;
        ++NumLaneLoops;
      }
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
  if (Lanes && Opts.GuardedLaneCounters)
    guardUnboundedLoops(P, Promotable);
  // In a loop counting in lane-local registers a block's own probe costs
  // two 32-bit adds and two registers instead of a branch around two
  // atomics on every iteration (the 64-bit registers of
  // promote-block-probes cost more than they saved). A block runs at most
  // once per iteration of its innermost loop, so a guarded loop's bound
  // holds for its registers too.
  if (Lanes && Opts.LaneBlockProbes)
    for (PlannedBlock &B : P.Blocks) {
      Loop *L = LI.getLoopFor(B.BB);
      if (B.How != BlockCounting::OwnProbe || B.PromotedIn || !L ||
          !P.LaneLoops.count(L))
        continue;
      LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": block "
                        << B.BB->getName() << " counts in lane registers\n");
      B.PromotedIn = L;
      Rec.Blocks[BlockIds.lookup(B.BB)].Promoted = true;
    }
}

/// Loops promoted without a trip count bound count in lane-local registers
/// too where a promoted probe that counts its block's threads runs in a
/// block that dominates every latch: every iteration but a lane's last
/// passes it, so every register of the loop is at most its thread count
/// plus 1, and a guard after it spills all of them (each lane its own, by
/// atomics) when that count reaches 2^32 - 2. The guard costs a compare
/// and a branch per iteration; 64-bit registers cost more per counter.
void ModuleInstrumenter::guardUnboundedLoops(
    PlannedFunction &P, const DenseMap<const Loop *, bool> &Promotable) {
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(*P.F);
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  auto Guards = [&](const Loop *L, BasicBlock *BB) {
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    return LI.getLoopFor(BB) == L &&
           all_of(Latches, [&](BasicBlock *X) { return DT.dominates(BB, X); });
  };
  auto Choose = [&](Loop *L, BasicBlock *BB) {
    if (!L || P.LaneLoops.count(L) || !Promotable.lookup(L) || !Guards(L, BB))
      return;
    LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": loop at "
                      << L->getHeader()->getName()
                      << ": lane-local registers guarded by " << BB->getName()
                      << "\n");
    // Packed, the guard spills before a count leaves its 16 bits.
    P.LaneLoops[L] = {true, BB, Opts.PackLaneCounters};
    NumPackedLoops += Opts.PackLaneCounters;
    ++NumGuardedLoops;
  };
  for (PlannedBranch &Br : P.Branches)
    if (Br.MergedBlockWord && Br.PromotedIn)
      Choose(Br.PromotedIn, Br.Terminator->getParent());
  for (PlannedBlock &B : P.Blocks)
    if (B.PromotedIn)
      Choose(B.PromotedIn, B.BB);
}

#undef DEBUG_TYPE
