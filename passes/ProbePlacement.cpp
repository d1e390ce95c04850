//===- ProbePlacement.cpp - Put the planned probes into the IR ------------===//
//
// Emission of one function's plan: loop-entry probes, branch probes (with
// the successor index each hands its probe), block probes, the registers
// and flushes of promoted loops, and the markers of derived blocks. The
// probes' PTX comes from Probes.cpp.
//
//===----------------------------------------------------------------------===//

#include "DeviceInstrumentationImpl.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;
using namespace warpscope;
using namespace warpscope::device;

#define DEBUG_TYPE "warpscope-probe-placement"

STATISTIC(NumBlockProbes, "Block probes placed");
STATISTIC(NumBranchProbes,
          "Branch probes placed (their block's too where merged)");
STATISTIC(NumLoopEntryProbes, "Loop-entry probes placed");
STATISTIC(NumPromotedProbes, "Probes counting in registers");
STATISTIC(NumPromotedLoops, "Loops whose probes count in registers");

/// A loop's latch that may leave it, on a compare: the loop strength
/// reduction of the code generator rewrites such a compare for the branch
/// (counting toward zero, or on the incremented value) and would keep the
/// original for a probe that reads it, computing both.
static bool exitingLatchCompare(const Instruction &Term, const LoopInfo &LI) {
  const auto *BI = dyn_cast<BranchInst>(&Term);
  const Loop *L = LI.getLoopFor(Term.getParent());
  return BI && BI->isConditional() && isa<ICmpInst>(BI->getCondition()) && L &&
         L->isLoopLatch(Term.getParent()) && L->isLoopExiting(Term.getParent());
}

/// Whether the code generator negates V for free: a compare (it inverts the
/// predicate), or and/or/not of such values (it applies De Morgan's laws,
/// as it does when the branch alone negates them).
static bool freelyNegated(const Value *V, unsigned Depth = 0) {
  using namespace PatternMatch;
  if (isa<CmpInst>(V))
    return true;
  const Value *A, *B;
  if (Depth < 4 && (match(V, m_LogicalAnd(m_Value(A), m_Value(B))) ||
                    match(V, m_LogicalOr(m_Value(A), m_Value(B)))))
    return freelyNegated(A, Depth + 1) && freelyNegated(B, Depth + 1);
  return Depth < 4 && match(V, m_Not(m_Value(A))) &&
         freelyNegated(A, Depth + 1);
}

/// Whether the switch's cases are consecutive values going to consecutive
/// successors, none the default (a dense switch): then every lane maps its
/// value with one range check (Spec's Affine fields, set here).
static bool affineCases(ProbeSpec &Spec) {
  auto Cases = Spec.Cases;
  if (Cases.size() < 2)
    return false;
  sort(Cases);
  for (size_t K = 0; K < Cases.size(); ++K)
    if (Cases[K].second == Spec.DefaultSuccessor ||
        Cases[K].first != Cases[0].first + K ||
        Cases[K].second != Cases[0].second + K)
      return false;
  Spec.AffineLo = Cases[0].first;
  Spec.AffineCount = Cases.size();
  Spec.AffineFirst = Cases[0].second;
  return true;
}

Value *ModuleInstrumenter::successorIndex(const PlannedBranch &Br,
                                          ProbeSpec &Spec) {
  IRBuilder<> B(Br.Terminator);
  // A two-way branch hands its condition to the probe as a predicate. When
  // successor 0 is the next block, the code generator falls through to it
  // and branches on the negated condition: hand the probe that one too (it
  // negates it back in its vote), so both share one setp.
  if (auto *BI = dyn_cast<BranchInst>(Br.Terminator)) {
    Value *Cond = BI->getCondition();
    if (BI->getSuccessor(0) == BI->getParent()->getNextNode() &&
        freelyNegated(Cond)) {
      Spec.ConditionNegated = true;
      return B.CreateNot(Cond);
    }
    return Cond;
  }
  auto *SI = cast<SwitchInst>(Br.Terminator);
  auto IndexOf = [&](BasicBlock *BB) {
    return unsigned(find(Br.Successors, BB) - Br.Successors.begin());
  };
  // An i32 switch hands the probe its value and case table. A dense switch
  // (an interpreter's dispatch) maps values to successors by one range check
  // in every lane, however many cases; otherwise, with 4 or more cases, in
  // one lane per value; with fewer, a compare-and-select chain in every lane
  // is cheaper. Either way the mapping is inside the probe, so histograms do
  // not count it.
  if (SI->getCondition()->getType()->isIntegerTy(32)) {
    Spec.DefaultSuccessor = IndexOf(SI->getDefaultDest());
    for (auto Case : SI->cases())
      Spec.Cases.push_back({uint32_t(Case.getCaseValue()->getZExtValue()),
                            IndexOf(Case.getCaseSuccessor())});
    bool Affine = affineCases(Spec);
    (SI->getNumCases() >= 4 && !Affine ? Spec.SwitchValue : Spec.SwitchChain) =
        true;
    return SI->getCondition();
  }
  // Other widths: the chain in IR (its instructions count as the program's).
  Value *Index = B.getInt32(IndexOf(SI->getDefaultDest()));
  for (auto Case : SI->cases()) {
    unsigned I = IndexOf(Case.getCaseSuccessor());
    if (I == IndexOf(SI->getDefaultDest()))
      continue;
    Value *Match = B.CreateICmpEQ(SI->getCondition(), Case.getCaseValue());
    Index = B.CreateSelect(Match, B.getInt32(I), Index, "ws.succ");
  }
  return Index;
}

namespace {
/// A probe to place, and for a promoted one its loop's words.
struct PlannedProbe {
  Instruction *At;
  ProbeSpec Spec;
  Loop *L;
  unsigned First = 0; ///< its first word's index in its loop
};

struct PromotedLoop {
  SmallVector<uint64_t, 8> Words;
  /// A lane holds counts iff one of these words is non-zero: each probe's
  /// first (its warp executions or visits), or all of a probe's that
  /// counts neither.
  SmallVector<unsigned, 4> Leads;
  SmallVector<bool, 8> LeaderOnly; ///< per word: counted by leaders only
  SmallVector<BasicBlock *, 4> Exits;
  unsigned Base = 0; ///< its words' first register slot
  /// Lane-local 32-bit registers (Probes.h); flushes sum 16-bit halves;
  /// two 16-bit counts per register.
  bool Lane = false, SplitHalves = false, Packed = false;
  /// The block whose probe's thread count guards them (LaneLoop).
  BasicBlock *Guard = nullptr;
  /// Its registers: one per word, or one per two packed words.
  unsigned numRegs() const {
    return Packed ? (Words.size() + 1) / 2 : Words.size();
  }
  /// Word K's register (from Base) and field: packed, words 2J and 2J + 1
  /// share register J, low half then high half.
  LaneField field(unsigned K) const {
    return Packed ? LaneField{K / 2, 16 * (K % 2)} : LaneField{K, 0};
  }
};
} // namespace

/// Register slots (i64 allocas; mem2reg makes them registers). A lane's
/// slots are zero whenever it is outside the loop using them (zero at entry,
/// back to zero at each exit, and only a lane that led holds counts), so
/// loops that neither nest nor share an exit can share slots: a lane is in
/// one of them at a time, and a flush never sees another loop's counts.
/// Lane-local (i32) and leader (i64) registers are separate pools: Lane
/// picks the loops of one. Sets each loop's exits and first slot; returns
/// the number of slots.
static unsigned assignSlots(MapVector<Loop *, PromotedLoop> &Loops, bool Lane) {
  unsigned NumSlots = 0;
  for (auto &[L, PL] : Loops) {
    if (PL.Lane != Lane)
      continue;
    L->getUniqueExitBlocks(PL.Exits);
    unsigned Base = 0;
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (auto &[M, Other] : Loops) {
        if (M == L)
          break; // only loops placed before this one
        if (Other.Lane != Lane)
          continue;
        bool Conflict = M->contains(L) || L->contains(M) ||
                        any_of(PL.Exits, [&](BasicBlock *E) {
                          return is_contained(Other.Exits, E);
                        });
        if (Conflict && Base < Other.Base + Other.numRegs() &&
            Other.Base < Base + PL.numRegs()) {
          Base = Other.Base + Other.numRegs();
          Moved = true;
        }
      }
    }
    PL.Base = Base;
    NumSlots = std::max<unsigned>(NumSlots, Base + PL.numRegs());
  }
  return NumSlots;
}

/// After the guard probe of a loop without a trip count bound: every lane
/// spills the loop's registers before its thread count there (word Guard of
/// the loop) can wrap, or, packed, leave its 16 bits (every count is at
/// most the guard's plus 1, so the limit is at most 65534 then).
static void guardLoop(Instruction *At, const PromotedLoop &PL,
                      ArrayRef<AllocaInst *> Slots, unsigned Guard,
                      StringRef Symbol, uint32_t Limit) {
  IRBuilder<> B(At);
  Type *Ty = B.getInt32Ty();
  SmallVector<Value *, 16> Values;
  SmallVector<LaneField, 16> Fields;
  for (unsigned K = 0; K < PL.numRegs(); ++K)
    Values.push_back(B.CreateLoad(Ty, Slots[PL.Base + K]));
  for (unsigned K = 0; K < PL.Words.size(); ++K)
    Fields.push_back(PL.field(K));
  if (PL.Packed)
    Limit = std::min<uint32_t>(Limit, 65534);
  SmallVector<Value *, 16> Kept =
      emitLaneGuard(At, Symbol, Values, Fields, PL.Words, PL.Words.front(),
                    Guard, Limit, PL.Packed);
  for (unsigned K = 0; K < PL.numRegs(); ++K)
    B.CreateStore(Kept[K], Slots[PL.Base + K]);
}

/// The register slots of one pool (Lane: i32, else i64), zeroed by one
/// scope at the function's entry.
static void makeSlots(const PlannedFunction &P,
                      MapVector<Loop *, PromotedLoop> &Loops, bool Lane,
                      SmallVectorImpl<AllocaInst *> &Slots) {
  unsigned NumSlots = assignSlots(Loops, Lane);
  if (!NumSlots)
    return;
  Instruction *Init = &*P.F->getEntryBlock().getFirstInsertionPt();
  IRBuilder<> B(Init);
  for (unsigned K = 0; K < NumSlots; ++K)
    Slots.push_back(B.CreateAlloca(Lane ? B.getInt32Ty() : B.getInt64Ty(),
                                   nullptr, "ws.acc"));
  uint64_t Id = 0;
  for (auto &[L, PL] : Loops)
    if (PL.Lane == Lane) {
      Id = PL.Words.front();
      break;
    }
  SmallVector<Value *, 16> Zero = Lane ? emitLaneInit(Init, NumSlots, Id)
                                       : emitPromotedInit(Init, NumSlots, Id);
  for (unsigned K = 0; K < NumSlots; ++K)
    B.CreateStore(Zero[K], Slots[K]);
}

/// Each promoted probe's loop, and its words there. A guarded loop's guard
/// probe comes first, so its thread count (its second word) is the high
/// half of register 0 when packed: the guard compares the whole register.
static void collectLoopWords(const PlannedFunction &P,
                             std::vector<PlannedProbe> &Probes,
                             MapVector<Loop *, PromotedLoop> &Loops) {
  auto IsGuard = [&](const PlannedProbe &Pr) {
    auto It = P.LaneLoops.find(Pr.L);
    return It != P.LaneLoops.end() && It->second.Guard == Pr.At->getParent() &&
           Pr.Spec.BlockWord;
  };
  for (bool Guards : {true, false})
    for (PlannedProbe &Pr : Probes) {
      if (!Pr.L || !canPromote(Pr.Spec)) {
        Pr.L = nullptr;
        continue;
      }
      if (IsGuard(Pr) != Guards)
        continue;
      PromotedLoop &PL = Loops[Pr.L];
      if (auto It = P.LaneLoops.find(Pr.L); It != P.LaneLoops.end()) {
        PL.Lane = true;
        PL.SplitHalves = It->second.SplitHalves;
        PL.Guard = It->second.Guard;
        PL.Packed = It->second.Packed;
      }
      Pr.First = PL.Words.size();
      auto Layout = promotedLayout(Pr.Spec);
      // A lane that led here holds a non-zero first word (its warp
      // executions or visits), when the probe counts one; else any of its
      // words may be the one that is.
      bool Arrival = Layout.front().second == Accumulate::PerArrival;
      for (auto [K, Entry] : enumerate(Layout)) {
        auto [Word, How] = Entry;
        if (!Arrival || K == 0)
          PL.Leads.push_back(PL.Words.size());
        PL.Words.push_back(Word);
        PL.LeaderOnly.push_back(How == Accumulate::PerArrival ||
                                How == Accumulate::Divergent ||
                                How == Accumulate::Arrivals0);
      }
    }
}

/// The probe points outside every loop that a call of a function may
/// precede. ptxas allocates a caller's registers live across a call besides
/// the callee's own, so the function's replica address, kept live from the
/// entry to such a probe, costs its registers in every function the call
/// reaches. Such a probe runs at most once per invocation, like the entry's
/// pick: it picks its replica itself at the same cost, and any replica keeps
/// the counts exact.
static SmallPtrSet<Instruction *, 8>
probesAfterCalls(Function &F, ArrayRef<Instruction *> Points,
                 const LoopInfo &LI, const DominatorTree &DT) {
  SmallVector<Instruction *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && !CB->isInlineAsm() &&
        !(CB->getCalledFunction() && CB->getCalledFunction()->isIntrinsic()))
      Calls.push_back(CB);
  SmallPtrSet<Instruction *, 8> After;
  for (Instruction *At : Points)
    if (!LI.getLoopFor(At->getParent()) && any_of(Calls, [&](Instruction *C) {
          return isPotentiallyReachable(C, At, nullptr, &DT, &LI);
        }))
      After.insert(At);
  return After;
}

/// The counters the function's probes in memory add to: with replicas per
/// warp, the replica picked at the entry (where some probe takes it), its
/// offset with replica-offset. AfterCalls: the probe points that pick their
/// own (replica-after-calls).
static CounterArray functionReplica(const PlannedFunction &P,
                                    ArrayRef<PlannedProbe> Probes,
                                    const CounterArray &Array,
                                    const DeviceInstrumentationOptions &Opts,
                                    const LoopInfo &LI, const DominatorTree &DT,
                                    SmallPtrSet<Instruction *, 8> &AfterCalls) {
  CounterArray Counters = Array;
  Counters.BaseIsOffset = Opts.ReplicaOffset;
  if (Array.Replicas <= 1 || !Opts.ReplicaPerWarp)
    return Counters;
  SmallVector<Instruction *, 32> Points;
  for (const PlannedLoopEntry &E : P.LoopEntries)
    Points.push_back(E.Terminator);
  for (const PlannedProbe &Pr : Probes)
    if (!Pr.L)
      Points.push_back(Pr.At);
  if (Opts.ReplicaAfterCalls)
    AfterCalls = probesAfterCalls(*P.F, Points, LI, DT);
  if (any_of(Points, [&](Instruction *At) { return !AfterCalls.contains(At); }))
    Counters.Base =
        emitReplicaBase(&*P.F->getEntryBlock().getFirstInsertionPt(), Counters);
  return Counters;
}

void ModuleInstrumenter::instrument(const PlannedFunction &P) {
  bool UseElect = targetHasElect(*P.F);
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  // Each block's first instruction before any probe: a flush goes right
  // after the block's own probe, a derived block's marker in front.
  DenseMap<BasicBlock *, Instruction *> Start;
  for (const PlannedBlock &B : P.Blocks)
    Start[B.BB] = &*B.BB->getFirstInsertionPt();
  // Every probe, and for promoted ones their loop's words.
  std::vector<PlannedProbe> Probes;
  for (const PlannedBranch &Br : P.Branches) {
    ProbeSpec Spec;
    Spec.UseElect = UseElect;
    Spec.BlockWord = Br.MergedBlockWord;
    Spec.VisitsElsewhere = Br.VisitsFromDerivedBlock;
    Spec.BranchWord = Br.Counter;
    Spec.NumSuccessors = Br.Successors.size();
    Spec.SuccessorIndex = successorIndex(Br, Spec);
    Spec.CountArrivals = Br.CountArrivals;
    Spec.PassCondition = Opts.BranchThroughProbe && Spec.NumSuccessors == 2 &&
                         exitingLatchCompare(*Br.Terminator, LI);
    Probes.push_back({Br.Terminator, Spec, Br.PromotedIn});
  }
  for (const PlannedBlock &B : P.Blocks)
    if (B.How == BlockCounting::OwnProbe) {
      ProbeSpec Spec;
      Spec.UseElect = UseElect;
      Spec.BlockWord = B.Word;
      Probes.push_back({Start.lookup(B.BB), Spec, B.PromotedIn});
    }
  MapVector<Loop *, PromotedLoop> Loops;
  collectLoopWords(P, Probes, Loops);
  SmallVector<AllocaInst *, 16> Wide, Lane;
  makeSlots(P, Loops, false, Wide);
  makeSlots(P, Loops, true, Lane);
  // The replica the probes in memory add to: picked once at the entry, or
  // by each probe after a call outside loops itself.
  SmallPtrSet<Instruction *, 8> AfterCalls;
  CounterArray Counters =
      functionReplica(P, Probes, Array, Opts, LI,
                      FAM.getResult<DominatorTreeAnalysis>(*P.F), AfterCalls);
  CounterArray OwnReplica = Array;
  auto CountersAt = [&](Instruction *At) -> const CounterArray & {
    return AfterCalls.contains(At) ? OwnReplica : Counters;
  };
  for (const PlannedLoopEntry &E : P.LoopEntries)
    emitLoopEntryProbe(E.Terminator, CountersAt(E.Terminator), E.Counter,
                       E.Terminator->getCondition(),
                       UseElect && !Opts.SyncFreeProbes);
  // A branch that takes its condition from its probe: as given to the
  // probe, negated where ConditionNegated (then the successors swap, so the
  // branch still goes to successor 0 when the original condition holds).
  auto Rewire = [](const PlannedProbe &Pr, Value *Passed) {
    if (!Passed)
      return;
    auto *BI = cast<BranchInst>(Pr.At);
    BI->setCondition(Passed);
    if (Pr.Spec.ConditionNegated)
      BI->swapSuccessors();
  };
  for (PlannedProbe &Pr : Probes) {
    Pr.Spec.UnpredicatedTemps = Opts.UnpredicatedProbeTemps;
    if (!Pr.L) {
      // In memory: sync-free where it is a block's or a two-way branch's.
      if (Opts.SyncFreeProbes && Pr.Spec.NumSuccessors <= 2) {
        Pr.Spec.SyncFree = true;
        Pr.Spec.UseElect = false;
      }
      Rewire(Pr, emitProbe(Pr.At, CountersAt(Pr.At), Pr.Spec));
      continue;
    }
    ++NumPromotedProbes;
    const PromotedLoop &PL = Loops[Pr.L];
    ArrayRef<AllocaInst *> Slots = PL.Lane ? Lane : Wide;
    // The registers this probe's words live in (packed: a register may hold
    // two of its words, or one of its and one of a neighbour's), each once.
    SmallVector<AllocaInst *, 6> Regs;
    SmallVector<LaneField, 6> Fields;
    for (unsigned K = 0, N = promotedWords(Pr.Spec).size(); K < N; ++K) {
      LaneField F = PL.field(Pr.First + K);
      AllocaInst *Slot = Slots[PL.Base + F.Reg];
      if (Regs.empty() || Regs.back() != Slot)
        Regs.push_back(Slot);
      Fields.push_back({unsigned(Regs.size() - 1), F.Shift});
    }
    IRBuilder<> B(Pr.At);
    SmallVector<Value *, 6> Old;
    for (AllocaInst *Slot : Regs)
      Old.push_back(B.CreateLoad(Slot->getAllocatedType(), Slot));
    SmallVector<Value *, 6> New =
        PL.Lane ? emitLaneProbe(Pr.At, Pr.Spec, Old, Fields)
                : emitPromotedProbe(Pr.At, Pr.Spec, Old);
    for (auto [K, Slot] : enumerate(Regs))
      B.CreateStore(New[K], Slot);
    if (New.size() > Regs.size())
      Rewire(Pr, New[Regs.size()]);
    if (PL.Guard == Pr.At->getParent() && Pr.Spec.BlockWord)
      guardLoop(Pr.At, PL, Slots, Pr.First + 1, Array.Symbol,
                Opts.LaneGuardLimit);
  }
  // At the start of each exit, after the exit's own probe, the flush, which
  // hands back zeroes.
  for (auto &[L, PL] : Loops) {
    uint64_t Id = PL.Words.front();
    ArrayRef<AllocaInst *> Slots = PL.Lane ? Lane : Wide;
    Type *Ty = Slots[PL.Base]->getAllocatedType();
    SmallVector<LaneField, 16> Fields;
    for (unsigned K = 0; K < PL.Words.size(); ++K)
      Fields.push_back(PL.field(K));
    for (BasicBlock *E : PL.Exits) {
      IRBuilder<> X(Start.lookup(E));
      SmallVector<Value *, 8> Values;
      for (unsigned K = 0; K < PL.numRegs(); ++K)
        Values.push_back(X.CreateLoad(Ty, Slots[PL.Base + K]));
      Instruction *At = &*X.GetInsertPoint();
      SmallVector<Value *, 8> Reset =
          PL.Lane ? emitLaneFlush(At, Array.Symbol, Values, Fields, PL.Words,
                                  PL.LeaderOnly, Id, UseElect, PL.SplitHalves,
                                  PL.Packed)
                  : emitPromotedFlush(At, Array.Symbol, Values, PL.Words,
                                      PL.Leads, Id);
      for (unsigned K = 0; K < PL.numRegs(); ++K)
        X.CreateStore(Reset[K], Slots[PL.Base + K]);
    }
  }
  for (const PlannedBlock &B : P.Blocks)
    if (B.How == BlockCounting::Derived || B.How == BlockCounting::Equivalent)
      emitBlockMarker(&*B.BB->getFirstInsertionPt(), B.Word);
  Wide.append(Lane.begin(), Lane.end());
  if (!Wide.empty())
    PromoteMemToReg(Wide, FAM.getResult<DominatorTreeAnalysis>(*P.F));
  countPlaced(P, Loops.size());
}

/// The statistics, and a remark per function that says the same (this LLVM
/// may be built without statistics; remarks work in every build).
void ModuleInstrumenter::countPlaced(const PlannedFunction &P,
                                     unsigned NumLoops) {
  unsigned Own = 0, Merged = 0, Derived = 0, Equivalent = 0;
  for (const PlannedBlock &B : P.Blocks)
    switch (B.How) {
    case BlockCounting::OwnProbe:
      ++Own;
      break;
    case BlockCounting::ByTerminatorProbe:
      ++Merged;
      break;
    case BlockCounting::Derived:
      ++Derived;
      break;
    case BlockCounting::Equivalent:
      ++Equivalent;
      break;
    }
  NumBlockProbes += Own;
  NumBranchProbes += P.Branches.size();
  NumLoopEntryProbes += P.LoopEntries.size();
  NumPromotedLoops += NumLoops;
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(*P.F);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Probes", P.F)
           << "placed " << ore::NV("BlockProbes", Own) << " block, "
           << ore::NV("BranchProbes", unsigned(P.Branches.size()))
           << " branch and "
           << ore::NV("LoopEntryProbes", unsigned(P.LoopEntries.size()))
           << " loop-entry probes; blocks counted by their branch's probe: "
           << ore::NV("MergedBlocks", Merged)
           << ", derived from a branch record: "
           << ore::NV("DerivedBlocks", Derived)
           << ", from an equivalent block: "
           << ore::NV("EquivalentBlocks", Equivalent)
           << "; loops counting in registers: "
           << ore::NV("PromotedLoops", NumLoops);
  });
}

#undef DEBUG_TYPE
