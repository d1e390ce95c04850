//===- CountingPlan.cpp - Which blocks and branches get probes ------------===//
//
// The counting plan of one function: every block gets a counter record and
// every two-way branch or switch a branch record; a branch is probed unless
// UniformityAnalysis proves it uniform (then it is pruned, or gets only a
// loop-entry record), and a block is counted by its own probe, by its
// branch's probe, or derived from a branch record or from an equivalent
// block. The function's database record is filled in alongside.
//
//===----------------------------------------------------------------------===//

#include "CfgChecksum.h"
#include "DeviceInstrumentationImpl.h"
#include "DivergenceModel.h"
#include "InlinedLines.h"
#include "SourcePositions.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace warpscope;
using namespace warpscope::device;

#define DEBUG_TYPE "warpscope-counting-plan"

STATISTIC(NumUniformPruned, "Branches not probed: proven uniform");
STATISTIC(NumLoopEntryRecords,
          "Proven-uniform branches that count loop entries");
STATISTIC(NumMergedBlocks, "Blocks counted by their branch's probe");
STATISTIC(NumDerivedBlocks, "Blocks derived from a branch record");
STATISTIC(NumBranchesOfDerivedBlocks,
          "Branches whose visits are their derived block's counts");
STATISTIC(NumDerivedHeaders,
          "Loop headers derived from their preheader and latch branch");
STATISTIC(NumEquivalentBlocks,
          "Blocks taking the counts of a block that runs exactly when they do");

/// Whether a two-way branch of BB enters a loop from outside over a critical
/// edge while its other edge is critical too: then no block count tells how
/// many visits took which edge, yet the code generator may put code there
/// (MachineLICM creates a preheader on such an edge and hoists into it).
static bool entersLoopOverCriticalEdges(const BasicBlock &BB,
                                        ArrayRef<BasicBlock *> Succ,
                                        const LoopInfo &LI) {
  if (Succ.size() != 2 || any_of(Succ, [&](const BasicBlock *S) {
        return S->getUniquePredecessor() == &BB;
      }))
    return false;
  return any_of(Succ, [&](const BasicBlock *S) {
    const Loop *L = LI.getLoopFor(S);
    return L && L->getHeader() == S && !L->contains(&BB);
  });
}

bool warpscope::device::endsLanes(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::trap:
  case Intrinsic::ubsantrap:
  case Intrinsic::debugtrap:
  case Intrinsic::nvvm_exit:
    return true;
  default:
    return false;
  }
}

/// Calls may exit lanes or come back with another mask, so a block that
/// makes one keeps its block probe at its start (so does one that may end
/// lanes itself).
static bool hasCalls(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      const auto *II = dyn_cast<IntrinsicInst>(CB);
      if (!II || endsLanes(*II))
        return true;
    }
  return false;
}

/// Distinct successors in the order the probe numbers them: a conditional
/// branch's true target first; a switch's default first, then its cases.
static SmallVector<BasicBlock *, 4> distinctSuccessors(Instruction &Term) {
  SmallVector<BasicBlock *, 4> Out;
  SmallPtrSet<BasicBlock *, 4> Seen;
  for (BasicBlock *S : successors(&Term))
    if (Seen.insert(S).second)
      Out.push_back(S);
  return Out;
}

void ModuleInstrumenter::plan(Function &F) {
  UniformityResult Uniformity = computeUniformity(F, FAM);
  UniformityInfo &UI = *Uniformity.Info;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);

  FunctionRecord Rec;
  Rec.Name = F.getName().str();
  Rec.Demangled = demangle(Rec.Name);
  Rec.Kernel = F.getCallingConv() == CallingConv::PTX_Kernel;
  Rec.Loc = functionLocation(F);

  BlockIndex BlockIds, BranchIdOf;
  for (BasicBlock &BB : F)
    BlockIds[&BB] = BlockIds.size();

  PlannedFunction P;
  P.F = &F;
  // The places attributeInlinedLines gives the PTX's .loc afterwards.
  LinePlacement Lines(F, Opts.InlinedLinesRule);
  unsigned Probed = 0, Uniform = 0;
  for (BasicBlock &BB : F) {
    BlockRecord B;
    B.Id = BlockIds[&BB];
    B.Name = BB.getName().str();
    B.Loc = toSourceLocation(Lines.place(firstLocation(BB)));
    B.InlineStacks = inlineStacks(BB, Rec.Name, Symbols);
    B.LoopDepth = LI.getLoopDepth(&BB);
    B.LoopHeader = LI.isLoopHeader(&BB);
    B.Counter = NextCounter;
    P.Blocks.push_back({&BB, NextCounter, BlockCounting::OwnProbe});
    NextCounter += BlockRecordWords;
    Rec.Blocks.push_back(std::move(B));

    Instruction *Term = BB.getTerminator();
    if (!Term)
      continue;
    if (isa<IndirectBrInst>(Term) || isa<CallBrInst>(Term)) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "UnsupportedBranch", Term)
               << "not probed: " << Term->getOpcodeName()
               << " (indirect or inline-asm control flow) is not supported";
      });
      continue;
    }
    bool IsSwitch = isa<SwitchInst>(Term);
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!IsSwitch && !(Br && Br->isConditional()))
      continue;
    SmallVector<BasicBlock *, 4> Succ = distinctSuccessors(*Term);
    if (Succ.size() < 2)
      continue;

    BranchRecord R;
    R.Id = Rec.Branches.size();
    R.Block = BlockIds[&BB];
    R.Kind = IsSwitch ? BranchKind::Switch : BranchKind::Conditional;
    Value *Cond =
        IsSwitch ? cast<SwitchInst>(Term)->getCondition() : Br->getCondition();
    R.Loc = toSourceLocation(Lines.place(branchLocation(*Term, Cond)));
    if (Br)
      R.SourceTrueSuccessor = sourceTrueSuccessor(Sides, *Br, PDT);
    for (BasicBlock *S : Succ)
      R.Successors.push_back(BlockIds[S]);
    R.Uniform = !UI.hasDivergentTerminator(BB);
    R.Probed = !R.Uniform || Opts.ProbeAll;
    Uniform += R.Uniform;
    LLVM_DEBUG(dbgs() << "warpscope: " << F.getName() << ": branch in "
                      << BB.getName() << ": "
                      << (!R.Uniform ? "probed: may diverge"
                          : R.Probed ? "probed: proven uniform, probe-all"
                                     : "pruned: proven uniform")
                      << "\n");
    NumUniformPruned += !R.Probed;
    if (R.Probed) {
      ++Probed;
      R.Counter = NextCounter;
      R.CountsUniformVisits = Succ.size() > 2;
      P.Branches.push_back({Term, Succ, NextCounter, std::nullopt});
      BranchIdOf[&BB] = R.Id;
      NextCounter += branchRecordWords(Succ.size());
    } else if (Opts.CountLoopEntries && Br &&
               entersLoopOverCriticalEdges(BB, Succ, LI)) {
      LLVM_DEBUG(dbgs() << "warpscope:   but counts its loop entries: "
                           "enters a loop over critical edges\n");
      ++NumLoopEntryRecords;
      R.CountsArrivals = true;
      R.Counter = NextCounter;
      P.LoopEntries.push_back({Br, NextCounter});
      NextCounter += LoopEntryRecordWords;
    }
    Rec.Branches.push_back(std::move(R));
  }
  recordControlFlow(F, Rec, BlockIds);
  Rec.CfgChecksum = cfgChecksum(F);
  decideCounting(P, Rec, BlockIds, BranchIdOf);
  // A switch counts its arrivals only for a case block derived from it:
  // that costs one more atomic per successor group on every visit.
  for (PlannedBranch &Br : P.Branches) {
    Br.CountArrivals = Br.FeedsDerivedBlock ||
                       (Br.Successors.size() == 2 && Opts.EdgeArrivals);
    Rec.Branches[BranchIdOf.lookup(Br.Terminator->getParent())].CountsArrivals =
        Br.CountArrivals;
  }
  decidePromotion(P, Rec, BlockIds, BranchIdOf);
  unsigned NumBranches = Rec.Branches.size();
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Instrumented", &F)
           << "instrumented " << ore::NV("Blocks", unsigned(F.size()))
           << " blocks; probed " << ore::NV("Probed", Probed) << " of "
           << ore::NV("Branches", NumBranches) << " branches ("
           << ore::NV("Uniform", Uniform) << " proven uniform)";
  });
  DB.Functions.push_back(std::move(Rec));
  Plans.push_back(std::move(P));
}

/// Each block's successors, and where the lanes of branches that may
/// diverge meet again (their immediate post-dominators): the driver derives
/// counts of edges the code generator puts code on from these.
void ModuleInstrumenter::recordControlFlow(Function &F, FunctionRecord &Rec,
                                           const BlockIndex &BlockIds) {
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  std::vector<BasicBlock *> ById(Rec.Blocks.size());
  for (BasicBlock &BB : F) {
    unsigned Id = BlockIds.lookup(&BB);
    ById[Id] = &BB;
    BlockRecord &B = Rec.Blocks[Id];
    B.Successors.emplace();
    if (Instruction *Term = BB.getTerminator())
      for (BasicBlock *S : distinctSuccessors(*Term))
        B.Successors->push_back(BlockIds.lookup(S));
    // Calls, for the report's calling context: each runs once per execution
    // of the block ("" = indirect: the callee is unknown).
    B.Calls.emplace();
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && !isa<IntrinsicInst>(CB) && !CB->isInlineAsm()) {
        const Function *Callee = CB->getCalledFunction();
        B.Calls->push_back(Callee ? Callee->getName().str() : std::string());
      }
  }
  for (const BranchRecord &R : Rec.Branches) {
    if (R.Uniform)
      continue;
    const DomTreeNode *N = PDT.getNode(ById[R.Block]);
    if (N && N->getIDom() && N->getIDom()->getBlock())
      Rec.Blocks[BlockIds.lookup(N->getIDom()->getBlock())].Reconverges = true;
  }
}

/// The block R runs exactly when (on the same lanes, as many times as), so
/// whose counts R takes: its nearest dominator that it post-dominates, in
/// the same loop, when nothing between them (that block included) calls,
/// and -- unless -warpscope-assume-reconvergence -- no branch between them
/// may diverge, so the lanes that run one run the other together. Null when
/// there is none. Crossed: whether a branch between them may diverge.
static BasicBlock *
equivalentSource(BasicBlock &R, DominatorTree &DT, PostDominatorTree &PDT,
                 LoopInfo &LI,
                 function_ref<bool(const BasicBlock *)> MayDiverge,
                 bool AssumeReconvergence, bool &Crossed) {
  Crossed = false;
  const Loop *L = LI.getLoopFor(&R);
  const DomTreeNode *N = DT.getNode(&R);
  BasicBlock *From = nullptr;
  for (N = N ? N->getIDom() : nullptr; N; N = N->getIDom()) {
    // Inside a loop that R is not in: runs more often; skip. Outside R's
    // loop: R runs more often than anything from here up.
    if (L && !L->contains(N->getBlock()))
      return nullptr;
    if (LI.getLoopFor(N->getBlock()) != L)
      continue;
    if (PDT.dominates(&R, N->getBlock())) {
      From = N->getBlock();
      break;
    }
  }
  if (!From)
    return nullptr;
  SmallVector<BasicBlock *, 8> Work = {From};
  SmallPtrSet<BasicBlock *, 8> Seen = {From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (hasCalls(*BB))
      return nullptr;
    if (MayDiverge(BB)) {
      if (!AssumeReconvergence)
        return nullptr;
      Crossed = true;
    }
    for (BasicBlock *S : successors(BB)) {
      if (S == &R)
        continue;
      if (S == From)
        return nullptr; // a cycle around From that misses R
      if (Seen.insert(S).second)
        Work.push_back(S);
    }
  }
  return From;
}

/// Whether exactly one case value of SI, and not its default, leads to S.
/// The switch's lowering (compare chains, bit tests, jump tables with a
/// range check) may reach a block over several edges when several values
/// (or the default's) lead there; the lanes of one visit then arrive there
/// as several groups, more warp executions than the visit's one arrival.
static bool onlyCaseOf(SwitchInst &SI, const BasicBlock *S) {
  return SI.getDefaultDest() != S &&
         count_if(SI.cases(), [&](const auto &Case) {
           return Case.getCaseSuccessor() == S;
         }) == 1;
}

/// The preheader of loop header H for counting H from it and its latch's
/// branch: H's only ways in are the edge from its preheader (whose only
/// successor H is, outside the loop) and successor Back of its latch's
/// two-way branch, whose other side leaves the loop. Then every group of
/// lanes that runs the preheader runs H next, as one group, and so does
/// every group the latch sends back; H post-dominates no branch in between
/// (the latch may leave, and the preheader post-dominates whatever comes
/// before), so no two such groups run H together. Null when H is not such
/// a header.
static BasicBlock *preheaderOf(BasicBlock &H, const LoopInfo &LI,
                               BasicBlock *&Latch, unsigned &Back) {
  const Loop *L = LI.getLoopFor(&H);
  if (!L || L->getHeader() != &H || pred_size(&H) != 2)
    return nullptr;
  BasicBlock *Pre = L->getLoopPreheader();
  Latch = L->getLoopLatch();
  if (!Pre || !Latch || Pre->getTerminator()->getNumSuccessors() != 1)
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  Back = Br->getSuccessor(0) == &H ? 0 : 1;
  if (Br->getSuccessor(Back) != &H || L->contains(Br->getSuccessor(1 - Back)))
    return nullptr;
  return Pre;
}

/// Loop headers counted from their preheader and their latch's branch
/// (preheaderOf), where the latch calls nothing and has its own counts. A
/// latch of its own (the back edge either of its branch's sides) then has its
/// branch's probe count the latch block too: that probe guards a loop counting
/// in lane-local registers without a trip count bound as the header's did, and
/// one probe per iteration counts both blocks. A header that is its own latch
/// has its branch's probe count neither its visits nor its threads (only its
/// divergent visits and the back edge's threads and arrivals): only with the
/// back edge its successor 0 (whose counts do not need the visits) and in loops
/// with a trip count bound, which need no guard (its probe would have been the
/// only one).
static void deriveLoopHeaders(PlannedFunction &P, FunctionRecord &Rec,
                              const BlockIndex &BlockIds,
                              const BlockIndex &BranchIdOf, LoopInfo &LI,
                              ScalarEvolution &SE) {
  DenseMap<const Instruction *, PlannedBranch *> ByTerm;
  for (PlannedBranch &Br : P.Branches)
    ByTerm[Br.Terminator] = &Br;
  for (PlannedBlock &Blk : P.Blocks) {
    BasicBlock *Latch = nullptr;
    unsigned Back = 0;
    BasicBlock *Pre = Blk.How == BlockCounting::OwnProbe
                          ? preheaderOf(*Blk.BB, LI, Latch, Back)
                          : nullptr;
    if (!Pre || hasCalls(*Latch) ||
        P.Blocks[BlockIds.lookup(Latch)].How != BlockCounting::OwnProbe)
      continue;
    // Successor 1's threads and arrivals come from the branch's visits and
    // active threads: not from a header that takes them from the branch.
    bool Split, Fits16;
    if (Latch == Blk.BB && (Back != 0 || !boundedForLanes(*LI.getLoopFor(Latch),
                                                          SE, Split, Fits16)))
      continue;
    PlannedBranch *Br = ByTerm.lookup(Latch->getTerminator());
    if (!Br)
      continue;
    LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": loop header "
                      << Blk.BB->getName() << " derived: entered from "
                      << Pre->getName() << ", back from " << Latch->getName()
                      << "\n");
    ++NumDerivedHeaders;
    unsigned Id = BlockIds.lookup(Blk.BB);
    Blk.How = BlockCounting::Derived;
    Br->FeedsDerivedBlock = true;
    Rec.Blocks[Id].DerivedBranch = BranchIdOf.lookup(Latch);
    Rec.Blocks[Id].DerivedSuccessor = Back;
    Rec.Blocks[Id].EnteredFrom = int(BlockIds.lookup(Pre));
  }
}

/// Cheaper counting where it stays exact: a block whose only way in is one
/// side of a probed two-way branch, or one case value of a probed switch,
/// takes its counts from that branch's record (threads to that side, warp
/// arrivals at it) -- unless it post-dominates the branch: then it is where
/// the branch's lanes reconverge (a loop exit), lanes that took it on
/// different visits run it together, and arrivals overcount. A block ending
/// in a probed branch, with no call before it, is counted by the branch's
/// probe; if it is derived, that probe counts neither its visits nor its
/// active threads (the block's derived counts), so the driver derives in
/// chains: branch record, block, the block's branch, its successors...
/// Deriving such a case block costs the switch's probe one atomic per
/// successor group (its arrivals) where no other case block already does,
/// and saves the case block's branch probe two counters.
void ModuleInstrumenter::decideCounting(PlannedFunction &P, FunctionRecord &Rec,
                                        const BlockIndex &BlockIds,
                                        const BlockIndex &BranchIdOf) {
  if (!Opts.CheaperCounting)
    return;
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(*P.F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(*P.F);
  for (PlannedBranch &Br : P.Branches) {
    bool Switch = Br.Successors.size() > 2;
    BasicBlock *From = Br.Terminator->getParent();
    // Unreachable code may hold a cycle of blocks each the only way into
    // the next: derived from each other, they would have no counts.
    if (!DT.isReachableFromEntry(From))
      continue;
    for (unsigned K = 0; K < Br.Successors.size(); ++K) {
      BasicBlock *S = Br.Successors[K];
      if (S == From || S->getUniquePredecessor() != From ||
          PDT.dominates(S, From))
        continue;
      if (Switch && !onlyCaseOf(*cast<SwitchInst>(Br.Terminator), S))
        continue;
      unsigned Id = BlockIds.lookup(S);
      LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": block "
                        << S->getName() << " derived: only way in is "
                        << (Switch ? "successor " : "side ") << K
                        << " of the probed branch in " << From->getName()
                        << "\n");
      ++NumDerivedBlocks;
      P.Blocks[Id].How = BlockCounting::Derived;
      Br.FeedsDerivedBlock = true;
      Rec.Blocks[Id].DerivedBranch = BranchIdOf.lookup(From);
      Rec.Blocks[Id].DerivedSuccessor = K;
    }
  }
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  if (Opts.DeriveLoopHeaders)
    deriveLoopHeaders(P, Rec, BlockIds, BranchIdOf, LI,
                      FAM.getResult<ScalarEvolutionAnalysis>(*P.F));
  // A branch's visits and active threads are its block's warp and thread
  // executions when no call in the block may end lanes or come back with
  // another mask: its probe counts the block too, or, when the block is
  // derived, neither.
  for (PlannedBranch &Br : P.Branches) {
    BasicBlock *BB = Br.Terminator->getParent();
    PlannedBlock &Blk = P.Blocks[BlockIds.lookup(BB)];
    if (hasCalls(*BB) || (Blk.How != BlockCounting::OwnProbe &&
                          Blk.How != BlockCounting::Derived))
      continue;
    Rec.Branches[BranchIdOf.lookup(BB)].SharesBlockCounts = true;
    if (Blk.How == BlockCounting::Derived) {
      LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": branch in "
                        << BB->getName()
                        << " takes its visits from its derived block\n");
      ++NumBranchesOfDerivedBlocks;
      Br.VisitsFromDerivedBlock = true;
      continue;
    }
    LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": block "
                      << BB->getName()
                      << " counted by its branch's probe: no call in it\n");
    ++NumMergedBlocks;
    Blk.How = BlockCounting::ByTerminatorProbe;
    Br.MergedBlockWord = Blk.Word;
  }
  if (!Opts.DeriveEquivalentBlocks)
    return;
  auto MayDiverge = [&](const BasicBlock *BB) {
    auto It = BranchIdOf.find(BB);
    return It != BranchIdOf.end() && !Rec.Branches[It->second].Uniform;
  };
  // Loops LoopInfo does not see (irreducible cycles) would break the
  // equal-counts argument: leave such functions alone.
  ReversePostOrderTraversal<Function *> RPOT(P.F);
  if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI)) {
    LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName()
                      << ": irreducible CFG, no equivalent blocks\n");
    return;
  }
  // Dominators come first, so a source is final before its blocks use it.
  for (BasicBlock *BB : RPOT) {
    unsigned Id = BlockIds.lookup(BB);
    if (P.Blocks[Id].How != BlockCounting::OwnProbe)
      continue;
    bool Crossed;
    BasicBlock *From = equivalentSource(*BB, DT, PDT, LI, MayDiverge,
                                        Opts.AssumeReconvergence, Crossed);
    if (!From)
      continue;
    LLVM_DEBUG(dbgs() << "warpscope: " << P.F->getName() << ": block "
                      << BB->getName() << " equivalent to " << From->getName()
                      << ": runs exactly when it runs"
                      << (Crossed ? " (assuming reconvergence)" : "") << "\n");
    ++NumEquivalentBlocks;
    // Name the block that has counts of its own (From may take them too).
    const BlockRecord &Via = Rec.Blocks[BlockIds.lookup(From)];
    P.Blocks[Id].How = BlockCounting::Equivalent;
    Rec.Blocks[Id].AssumesReconvergence = Crossed || Via.AssumesReconvergence;
    Rec.Blocks[Id].SameCountsAs =
        Via.SameCountsAs >= 0 ? Via.SameCountsAs : int(Via.Id);
  }
  // A header's preheader that took another block's counts: the header
  // names that block (the driver derives headers before equivalences).
  for (BlockRecord &B : Rec.Blocks)
    if (B.EnteredFrom >= 0 && Rec.Blocks[B.EnteredFrom].SameCountsAs >= 0)
      B.EnteredFrom = Rec.Blocks[B.EnteredFrom].SameCountsAs;
}

#undef DEBUG_TYPE
