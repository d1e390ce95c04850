//===- DeviceInstrumentation.cpp - Block counters and divergence probes ---===//

#include "DeviceInstrumentation.h"
#include "CfgChecksum.h"
#include "DivergenceModel.h"
#include "ModuleIdentity.h"
#include "Probes.h"
#include "ProfileUse.h"
#include "SubprogramNames.h"
#include "warpscope/ABI/Abi.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include <set>

using namespace llvm;
using namespace warpscope;

#define DEBUG_TYPE "warpscope"

STATISTIC(NumCounterWords, "Counter words in device arrays, replicas included");

static cl::opt<bool> ProbeAll(
    "warpscope-probe-all",
    cl::desc("Probe branches that UniformityAnalysis proves uniform too "
             "(to validate the analysis)"),
    cl::init(false));

static cl::opt<bool>
    Instrument("warpscope-instrument",
               cl::desc("Insert device counters and probes and write the "
                        "program database (default on)"),
               cl::init(true));

static cl::opt<bool> CheaperCounting(
    "warpscope-cheaper-counting",
    cl::desc("Merge a block's probe into its branch probe and derive "
             "single-predecessor successors from branch records (default on; "
             "off probes every block on its own)"),
    cl::init(true));

static cl::opt<bool> DeriveEquivalentBlocks(
    "warpscope-derive-equivalent-blocks",
    cl::desc("A block that runs exactly when a block dominating it runs (it "
             "post-dominates that block, in the same loop, with no call and "
             "no branch that may diverge between them) takes that block's "
             "counts instead of a probe (default on)"),
    cl::init(true));

static cl::opt<bool> AssumeReconvergence(
    "warpscope-assume-reconvergence",
    cl::desc("Derive such blocks across branches that may diverge too, "
             "assuming the lanes meet again at the immediate post-dominator "
             "(as the emulator and ptxas' convergence barriers do, but not "
             "guaranteed on GPUs with independent thread scheduling; "
             "default off)"),
    cl::init(false));

static cl::opt<bool> EdgeArrivals(
    "warpscope-edge-arrivals",
    cl::desc("Count warp arrivals at both sides of every probed two-way "
             "branch, so PTX the code generator puts on a branch's edge gets "
             "exact counts in instruction histograms (default on)"),
    cl::init(true));

static cl::opt<bool> CountLoopEntries(
    "warpscope-count-loop-entries",
    cl::desc("Count the visits of a proven-uniform branch that enters a loop "
             "over a critical edge, so the preheader the code generator puts "
             "there gets exact counts in instruction histograms (default on)"),
    cl::init(true));

static cl::opt<bool> BranchThroughProbe(
    "warpscope-branch-through-probe",
    cl::desc("A loop's exiting latch takes its compare from its probe, "
             "which passes it through, so the code generator (loop strength "
             "reduction) does not rewrite the branch's compare and keep a "
             "second one for the probe (default on)"),
    cl::init(true));

static cl::opt<bool> PromoteLoopCounters(
    "warpscope-promote-loop-counters",
    cl::desc("Inside loops without calls, count in the leader lanes' "
             "registers and add them to the counters at the loop's exits "
             "(default on)"),
    cl::init(true));

static cl::opt<bool> PromoteBlocks(
    "warpscope-promote-block-probes",
    cl::desc("With loop counter promotion, also promote probes that count "
             "only a block (default off: in the emulator's instruction count "
             "they cost about the same either way, and each adds registers "
             "to zero and flush)"),
    cl::init(false));

static cl::opt<bool> SkipShortLoops(
    "warpscope-promote-skip-short-loops",
    cl::desc("Do not promote loops that likely run few times per lane: "
             "stepping by the block size or by 32 or more, or at most 4 "
             "iterations (default on)"),
    cl::init(true));

static cl::opt<unsigned> CounterReplicas(
    "warpscope-counter-replicas",
    cl::desc("Copies of the counter array that probes spread their adds "
             "over, picked by the clock (a power of two up to 1024; the "
             "runtime sums them). Warps adding to one address serialize at "
             "the L2 (default 256, fewer where the copies would exceed "
             "4 MiB; 1: one array, no spreading)"),
    cl::init(256));

static cl::opt<std::string> DatabaseOut(
    "warpscope-db-out",
    cl::desc("Write the program database to this file instead of "
             "<warpscope-db-dir>/<module id>.json"),
    cl::init(""));

namespace {

/// Where a planned branch probe goes and what it counts.
struct PlannedBranch {
  Instruction *Terminator;
  SmallVector<BasicBlock *, 4> Successors; ///< distinct, probe order
  uint64_t Counter;
  std::optional<uint64_t> MergedBlockWord; ///< its block, counted here too
  bool FeedsDerivedBlock = false; ///< a successor takes its counts from here
  bool CountArrivals = false;     ///< warp arrivals at successor 0 counted
  Loop *PromotedIn = nullptr;     ///< counts in registers, flushed at its exits
};

/// How a block's counts are collected.
enum class BlockCounting {
  OwnProbe,
  ByTerminatorProbe,
  Derived,   ///< from a branch record
  Equivalent ///< from a block that runs exactly when it runs
};

struct PlannedBlock {
  BasicBlock *BB;
  uint64_t Word;
  BlockCounting How;
  Loop *PromotedIn = nullptr; ///< own probe counts in registers (see above)
};

/// A proven-uniform branch whose loop-entry record is counted.
struct PlannedLoopEntry {
  BranchInst *Terminator;
  uint64_t Counter;
};

struct PlannedFunction {
  Function *F;
  std::vector<PlannedBlock> Blocks;
  std::vector<PlannedBranch> Branches;
  std::vector<PlannedLoopEntry> LoopEntries;
};

/// Whether a two-way branch of BB enters a loop from outside over a critical
/// edge while its other edge is critical too: then no block count tells how
/// many visits took which edge, yet the code generator may put code there
/// (MachineLICM creates a preheader on such an edge and hoists into it).
bool entersLoopOverCriticalEdges(const BasicBlock &BB,
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

/// Intrinsics that end the lanes running them (trap or exit).
bool endsLanes(const IntrinsicInst &II) {
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
bool hasCalls(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      const auto *II = dyn_cast<IntrinsicInst>(CB);
      if (!II || endsLanes(*II))
        return true;
    }
  return false;
}

/// Directory and file name as one path (a file may be named relative to
/// the compile directory).
std::string sourcePath(StringRef Directory, StringRef File) {
  if (sys::path::is_absolute(File) || Directory.empty())
    return File.str();
  SmallString<256> Path = Directory;
  sys::path::append(Path, File);
  return std::string(Path);
}

SourceLocation toSourceLocation(const DILocation *DL) {
  SourceLocation L;
  if (!DL || DL->getLine() == 0)
    return L;
  while (const DILocation *Outer = DL->getInlinedAt())
    DL = Outer;
  L.File = sourcePath(DL->getDirectory(), DL->getFilename());
  L.Line = DL->getLine();
  L.Column = DL->getColumn();
  return L;
}

/// Where DL's code came from, outermost function first: for each level, the
/// function and the line offset from its DISubprogram's line.
std::vector<InlineFrame> inlineStack(const DILocation *DL) {
  std::vector<InlineFrame> Frames;
  for (; DL && DL->getLine(); DL = DL->getInlinedAt()) {
    const DISubprogram *SP = DL->getScope()->getSubprogram();
    if (!SP)
      break;
    // The loader matches calls by symbol before it inlines them.
    StringRef Name = recordedSymbol(SP);
    if (Name.empty())
      Name = SP->getLinkageName();
    if (Name.empty())
      Name = SP->getName();
    unsigned Offset = DL->getLine() >= SP->getLine()
                          ? DL->getLine() - SP->getLine()
                          : 0;
    Frames.insert(Frames.begin(),
                  {Name.str(), Offset, DL->getBaseDiscriminator()});
  }
  return Frames;
}

/// The distinct inline stacks of BB's located instructions, first located
/// one first. Sample profiles key the function itself by its symbol
/// (line-tables-only debug info has no linkage names); inlined frames keep
/// the debug name, which is what the sample loader looks them up by.
std::vector<std::vector<InlineFrame>> inlineStacks(const BasicBlock &BB,
                                                   StringRef Symbol) {
  std::vector<std::vector<InlineFrame>> Stacks;
  std::set<std::string> Seen;
  for (const Instruction &I : BB) {
    std::vector<InlineFrame> Stack = inlineStack(I.getDebugLoc().get());
    if (Stack.empty())
      continue;
    Stack.front().Function = Symbol.str();
    std::string Key;
    for (const InlineFrame &Fr : Stack)
      Key += Fr.Function + ":" + std::to_string(Fr.LineOffset) + "." +
             std::to_string(Fr.Discriminator) + "/";
    if (Seen.insert(Key).second)
      Stacks.push_back(std::move(Stack));
  }
  return Stacks;
}

const DILocation *firstLocation(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (const DILocation *DL = I.getDebugLoc().get())
      if (DL->getLine() != 0)
        return DL;
  return nullptr;
}

/// Distinct successors in the order the probe numbers them: a conditional
/// branch's true target first; a switch's default first, then its cases.
SmallVector<BasicBlock *, 4> distinctSuccessors(Instruction &Term) {
  SmallVector<BasicBlock *, 4> Out;
  SmallPtrSet<BasicBlock *, 4> Seen;
  for (BasicBlock *S : successors(&Term))
    if (Seen.insert(S).second)
      Out.push_back(S);
  return Out;
}

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, FunctionAnalysisManager &FAM)
      : M(M), FAM(FAM) {}
  bool run();

private:
  Module &M;
  FunctionAnalysisManager &FAM;
  ProgramDatabase DB;
  std::vector<PlannedFunction> Plans;
  uint64_t NextCounter = 0;
  CounterArray Array;

  void plan(Function &F);
  void
  recordControlFlow(Function &F, FunctionRecord &Rec,
                    const DenseMap<const BasicBlock *, unsigned> &BlockIds);
  void decideCounting(PlannedFunction &P, FunctionRecord &Rec,
                      const DenseMap<const BasicBlock *, unsigned> &BlockIds,
                      const DenseMap<const BasicBlock *, unsigned> &BranchIdOf);
  void
  decidePromotion(PlannedFunction &P, FunctionRecord &Rec,
                  const DenseMap<const BasicBlock *, unsigned> &BlockIds,
                  const DenseMap<const BasicBlock *, unsigned> &BranchIdOf);
  void instrument(const PlannedFunction &P);
  Value *successorIndex(const PlannedBranch &Br, ProbeSpec &Spec);
};

void ModuleInstrumenter::plan(Function &F) {
  UniformityResult Uniformity = computeUniformity(F, FAM);
  UniformityInfo &UI = *Uniformity.Info;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);

  FunctionRecord Rec;
  Rec.Name = F.getName().str();
  Rec.Demangled = demangle(Rec.Name);
  Rec.Kernel = F.getCallingConv() == CallingConv::PTX_Kernel;
  if (const DISubprogram *SP = F.getSubprogram()) {
    Rec.Loc.File = sourcePath(SP->getDirectory(), SP->getFilename());
    Rec.Loc.Line = SP->getLine();
  }

  DenseMap<const BasicBlock *, unsigned> BlockIds, BranchIdOf;
  for (BasicBlock &BB : F)
    BlockIds[&BB] = BlockIds.size();

  PlannedFunction P{&F, {}, {}, {}};
  unsigned Probed = 0, Uniform = 0;
  for (BasicBlock &BB : F) {
    BlockRecord B;
    B.Id = BlockIds[&BB];
    B.Name = BB.getName().str();
    B.Loc = toSourceLocation(firstLocation(BB));
    B.InlineStacks = inlineStacks(BB, Rec.Name);
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
    const DILocation *DL = nullptr;
    Value *Cond = IsSwitch ? cast<SwitchInst>(Term)->getCondition()
                           : Br->getCondition();
    if (auto *CI = dyn_cast<Instruction>(Cond))
      DL = CI->getDebugLoc().get();
    if (!DL || DL->getLine() == 0)
      DL = Term->getDebugLoc().get();
    if (!DL || DL->getLine() == 0)
      DL = firstLocation(BB);
    R.Loc = toSourceLocation(DL);
    for (BasicBlock *S : Succ)
      R.Successors.push_back(BlockIds[S]);
    R.Uniform = !UI.hasDivergentTerminator(BB);
    R.Probed = !R.Uniform || ProbeAll;
    Uniform += R.Uniform;
    if (R.Probed) {
      ++Probed;
      R.Counter = NextCounter;
      R.CountsUniformVisits = Succ.size() > 2;
      P.Branches.push_back({Term, Succ, NextCounter, std::nullopt});
      BranchIdOf[&BB] = R.Id;
      NextCounter += branchRecordWords(Succ.size());
    } else if (CountLoopEntries && Br &&
               entersLoopOverCriticalEdges(BB, Succ, LI)) {
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
  for (PlannedBranch &Br : P.Branches)
    if (Br.Successors.size() == 2) {
      Br.CountArrivals = Br.FeedsDerivedBlock || EdgeArrivals;
      Rec.Branches[BranchIdOf.lookup(Br.Terminator->getParent())]
          .CountsArrivals = Br.CountArrivals;
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
void ModuleInstrumenter::recordControlFlow(
    Function &F, FunctionRecord &Rec,
    const DenseMap<const BasicBlock *, unsigned> &BlockIds) {
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
BasicBlock *equivalentSource(BasicBlock &R, DominatorTree &DT,
                             PostDominatorTree &PDT, LoopInfo &LI,
                             function_ref<bool(const BasicBlock *)> MayDiverge,
                             bool &Crossed) {
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

/// Cheaper counting where it stays exact: a block whose only way in is one
/// side of a probed two-way branch takes its counts from that branch's record
/// (threads to that side, warp arrivals at it) -- unless it post-dominates
/// the branch: then it is where the branch's lanes reconverge (a loop exit),
/// lanes that took it on different visits run it together, and arrivals
/// overcount. A block ending in a probed branch, with no call before it, is
/// counted by the branch's probe.
void ModuleInstrumenter::decideCounting(
    PlannedFunction &P, FunctionRecord &Rec,
    const DenseMap<const BasicBlock *, unsigned> &BlockIds,
    const DenseMap<const BasicBlock *, unsigned> &BranchIdOf) {
  if (!CheaperCounting)
    return;
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(*P.F);
  for (PlannedBranch &Br : P.Branches) {
    if (Br.Successors.size() != 2)
      continue;
    BasicBlock *From = Br.Terminator->getParent();
    for (unsigned K = 0; K < 2; ++K) {
      BasicBlock *S = Br.Successors[K];
      if (S == From || S->getSinglePredecessor() != From ||
          PDT.dominates(S, From))
        continue;
      unsigned Id = BlockIds.lookup(S);
      P.Blocks[Id].How = BlockCounting::Derived;
      Br.FeedsDerivedBlock = true;
      Rec.Blocks[Id].DerivedBranch = BranchIdOf.lookup(From);
      Rec.Blocks[Id].DerivedSuccessor = K;
    }
  }
  for (PlannedBranch &Br : P.Branches) {
    BasicBlock *BB = Br.Terminator->getParent();
    PlannedBlock &Blk = P.Blocks[BlockIds.lookup(BB)];
    if (Blk.How != BlockCounting::OwnProbe || hasCalls(*BB))
      continue;
    Blk.How = BlockCounting::ByTerminatorProbe;
    Br.MergedBlockWord = Blk.Word;
    Rec.Branches[BranchIdOf.lookup(BB)].SharesBlockCounts = true;
  }
  if (!DeriveEquivalentBlocks)
    return;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(*P.F);
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  auto MayDiverge = [&](const BasicBlock *BB) {
    auto It = BranchIdOf.find(BB);
    return It != BranchIdOf.end() && !Rec.Branches[It->second].Uniform;
  };
  // Loops LoopInfo does not see (irreducible cycles) would break the
  // equal-counts argument: leave such functions alone.
  ReversePostOrderTraversal<Function *> RPOT(P.F);
  if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
    return;
  // Dominators come first, so a source is final before its blocks use it.
  for (BasicBlock *BB : RPOT) {
    unsigned Id = BlockIds.lookup(BB);
    if (P.Blocks[Id].How != BlockCounting::OwnProbe)
      continue;
    bool Crossed;
    BasicBlock *From = equivalentSource(*BB, DT, PDT, LI, MayDiverge, Crossed);
    if (!From)
      continue;
    // Name the block that has counts of its own (From may take them too).
    const BlockRecord &Via = Rec.Blocks[BlockIds.lookup(From)];
    P.Blocks[Id].How = BlockCounting::Equivalent;
    Rec.Blocks[Id].AssumesReconvergence = Crossed || Via.AssumesReconvergence;
    Rec.Blocks[Id].SameCountsAs =
        Via.SameCountsAs >= 0 ? Via.SameCountsAs : int(Via.Id);
  }
}

/// Calls (they may not come back: exit, trap, a callee that never returns)
/// and lane-terminating intrinsics would lose counts held in registers.
bool mayEndLanes(const BasicBlock &BB,
                 DenseMap<const Function *, bool> &Returns);

/// Whether every call of F comes back: a definition in this module whose
/// code may not end a lane (nor call anything that may), no recursion.
bool alwaysReturns(const Function *F,
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
bool mayEndLanes(const BasicBlock &BB,
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
bool promotableLoop(const Loop &L, const LoopInfo &LI,
                    DenseMap<const Function *, bool> &Returns) {
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  if (Exits.empty())
    return false;
  for (const BasicBlock *E : Exits)
    if (const Loop *Outer = LI.getLoopFor(E); Outer && !Outer->contains(&L))
      return false;
  for (const BasicBlock *BB : L.blocks())
    if (mayEndLanes(*BB, Returns))
      return false;
  return true;
}

/// A loop whose exit test steps an induction variable by the block size (not
/// the grid size) or by 32 or more (work spread over a block's threads: each
/// lane runs it a few times), or that runs at most 4 times: zeroing and
/// flushing its registers would cost more than the probes they replace.
bool likelyFewIterations(Loop &L, ScalarEvolution &SE) {
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
void ModuleInstrumenter::decidePromotion(
    PlannedFunction &P, FunctionRecord &Rec,
    const DenseMap<const BasicBlock *, unsigned> &BlockIds,
    const DenseMap<const BasicBlock *, unsigned> &BranchIdOf) {
  if (!PromoteLoopCounters)
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
    if (Fresh)
      It->second = promotableLoop(*L, LI, Returns) &&
                   (!SkipShortLoops || !likelyFewIterations(*L, SE));
    return It->second ? L : nullptr;
  };
  if (PromoteBlocks)
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

/// A loop's latch that may leave it, on a compare: the loop strength
/// reduction of the code generator rewrites such a compare for the branch
/// (counting toward zero, or on the incremented value) and would keep the
/// original for a probe that reads it, computing both.
bool exitingLatchCompare(const Instruction &Term, const LoopInfo &LI) {
  const auto *BI = dyn_cast<BranchInst>(&Term);
  const Loop *L = LI.getLoopFor(Term.getParent());
  return BI && BI->isConditional() && isa<ICmpInst>(BI->getCondition()) && L &&
         L->isLoopLatch(Term.getParent()) && L->isLoopExiting(Term.getParent());
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
        isa<CmpInst>(Cond)) {
      Spec.ConditionNegated = true;
      return B.CreateNot(Cond);
    }
    return Cond;
  }
  auto *SI = cast<SwitchInst>(Br.Terminator);
  auto IndexOf = [&](BasicBlock *BB) {
    return unsigned(find(Br.Successors, BB) - Br.Successors.begin());
  };
  // An i32 switch hands the probe its value and case table. With 4 or more
  // cases the probe maps values to successors in one lane per value; with
  // fewer, a compare-and-select chain in every lane is cheaper. Either way
  // the mapping is inside the probe, so histograms do not count it.
  if (SI->getCondition()->getType()->isIntegerTy(32)) {
    (SI->getNumCases() >= 4 ? Spec.SwitchValue : Spec.SwitchChain) = true;
    Spec.DefaultSuccessor = IndexOf(SI->getDefaultDest());
    for (auto Case : SI->cases())
      Spec.Cases.push_back({uint32_t(Case.getCaseValue()->getZExtValue()),
                            IndexOf(Case.getCaseSuccessor())});
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

void ModuleInstrumenter::instrument(const PlannedFunction &P) {
  bool UseElect = targetHasElect(*P.F);
  auto &LI = FAM.getResult<LoopAnalysis>(*P.F);
  // Each block's first instruction before any probe: a flush goes right
  // after the block's own probe, a derived block's marker in front.
  DenseMap<BasicBlock *, Instruction *> Start;
  for (const PlannedBlock &B : P.Blocks)
    Start[B.BB] = &*B.BB->getFirstInsertionPt();
  // Every probe, and for promoted ones their loop's words.
  struct Planned {
    Instruction *At;
    ProbeSpec Spec;
    Loop *L;
    unsigned First = 0; ///< its first word's index in its loop
  };
  for (const PlannedLoopEntry &E : P.LoopEntries)
    emitLoopEntryProbe(E.Terminator, Array, E.Counter,
                       E.Terminator->getCondition(), UseElect);
  std::vector<Planned> Probes;
  for (const PlannedBranch &Br : P.Branches) {
    ProbeSpec Spec;
    Spec.UseElect = UseElect;
    Spec.BlockWord = Br.MergedBlockWord;
    Spec.BranchWord = Br.Counter;
    Spec.NumSuccessors = Br.Successors.size();
    Spec.SuccessorIndex = successorIndex(Br, Spec);
    Spec.CountArrivals = Br.CountArrivals;
    Spec.PassCondition = BranchThroughProbe && Spec.NumSuccessors == 2 &&
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
  struct PromotedLoop {
    SmallVector<uint64_t, 8> Words;
    SmallVector<unsigned, 4> Leads; ///< each probe's first word's index
    SmallVector<BasicBlock *, 4> Exits;
    unsigned Base = 0; ///< its words' first register slot
  };
  MapVector<Loop *, PromotedLoop> Loops;
  for (Planned &Pr : Probes) {
    if (!Pr.L || !canPromote(Pr.Spec)) {
      Pr.L = nullptr;
      continue;
    }
    PromotedLoop &PL = Loops[Pr.L];
    Pr.First = PL.Words.size();
    PL.Leads.push_back(PL.Words.size());
    PL.Words.append(promotedWords(Pr.Spec));
  }
  // Register slots (i64 allocas; mem2reg makes them registers below). A
  // lane's slots are zero whenever it is outside the loop using them (zero
  // at entry, back to zero at each exit, and only a lane that led holds
  // counts), so loops that neither nest nor share an exit can share slots:
  // a lane is in one of them at a time, and a flush never sees another
  // loop's counts.
  unsigned NumSlots = 0;
  for (auto &[L, PL] : Loops) {
    L->getUniqueExitBlocks(PL.Exits);
    unsigned Base = 0;
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (auto &[M, Other] : Loops) {
        if (M == L)
          break; // only loops placed before this one
        bool Conflict = M->contains(L) || L->contains(M) ||
                        any_of(PL.Exits, [&](BasicBlock *E) {
                          return is_contained(Other.Exits, E);
                        });
        if (Conflict && Base < Other.Base + Other.Words.size() &&
            Other.Base < Base + PL.Words.size()) {
          Base = Other.Base + Other.Words.size();
          Moved = true;
        }
      }
    }
    PL.Base = Base;
    NumSlots = std::max<unsigned>(NumSlots, Base + PL.Words.size());
  }
  SmallVector<AllocaInst *, 16> Slots;
  if (NumSlots) {
    Instruction *Init = Start.lookup(&P.F->getEntryBlock());
    IRBuilder<> B(Init);
    for (unsigned K = 0; K < NumSlots; ++K)
      Slots.push_back(B.CreateAlloca(B.getInt64Ty(), nullptr, "ws.acc"));
    // One scope at the entry zeroes them all.
    SmallVector<Value *, 16> Zero =
        emitPromotedInit(Init, NumSlots, Loops.front().second.Words.front());
    for (unsigned K = 0; K < NumSlots; ++K)
      B.CreateStore(Zero[K], Slots[K]);
  }
  // A branch that takes its condition from its probe: as given to the
  // probe, negated where ConditionNegated (then the successors swap, so the
  // branch still goes to successor 0 when the original condition holds).
  auto Rewire = [](const Planned &Pr, Value *Passed) {
    if (!Passed)
      return;
    auto *BI = cast<BranchInst>(Pr.At);
    BI->setCondition(Passed);
    if (Pr.Spec.ConditionNegated)
      BI->swapSuccessors();
  };
  for (const Planned &Pr : Probes) {
    if (!Pr.L) {
      Rewire(Pr, emitProbe(Pr.At, Array, Pr.Spec));
      continue;
    }
    unsigned Base = Loops[Pr.L].Base + Pr.First;
    unsigned N = promotedWords(Pr.Spec).size();
    IRBuilder<> B(Pr.At);
    SmallVector<Value *, 6> Old;
    for (unsigned K = 0; K < N; ++K)
      Old.push_back(B.CreateLoad(B.getInt64Ty(), Slots[Base + K]));
    SmallVector<Value *, 6> New = emitPromotedProbe(Pr.At, Pr.Spec, Old);
    for (unsigned K = 0; K < N; ++K)
      B.CreateStore(New[K], Slots[Base + K]);
    if (New.size() > N)
      Rewire(Pr, New[N]);
  }
  // At the start of each exit, after the exit's own probe, the flush, which
  // hands back zeroes.
  for (auto &[L, PL] : Loops) {
    uint64_t Id = PL.Words.front();
    for (BasicBlock *E : PL.Exits) {
      IRBuilder<> X(Start.lookup(E));
      SmallVector<Value *, 8> Values;
      for (unsigned K = 0; K < PL.Words.size(); ++K)
        Values.push_back(X.CreateLoad(X.getInt64Ty(), Slots[PL.Base + K]));
      SmallVector<Value *, 8> Reset = emitPromotedFlush(
          &*X.GetInsertPoint(), Array.Symbol, Values, PL.Words, PL.Leads, Id);
      for (unsigned K = 0; K < PL.Words.size(); ++K)
        X.CreateStore(Reset[K], Slots[PL.Base + K]);
    }
  }
  for (const PlannedBlock &B : P.Blocks)
    if (B.How == BlockCounting::Derived || B.How == BlockCounting::Equivalent)
      emitBlockMarker(&*B.BB->getFirstInsertionPt(), B.Word);
  if (!Slots.empty())
    PromoteMemToReg(Slots, FAM.getResult<DominatorTreeAnalysis>(*P.F));
}

bool ModuleInstrumenter::run() {
  for (Function &F : M)
    if (!F.isDeclaration() && !F.getName().starts_with("__warpscope"))
      plan(F);
  if (Plans.empty())
    return false;

  DB.ModuleId = moduleId(M);
  DB.SourceFile = M.getSourceFileName();
  DB.Target = Plans.front().F->getFnAttribute("target-cpu").getValueAsString();
  DB.CountersSymbol = CountersSymbolPrefix + DB.ModuleId;
  DB.NumCounters = NextCounter;
  if (!isPowerOf2_32(CounterReplicas) || CounterReplicas > MaxCounterReplicas) {
    M.getContext().emitError(
        "warpscope: -warpscope-counter-replicas=" + Twine(CounterReplicas) +
        " is not a power of two from 1 to " + Twine(MaxCounterReplicas));
    return false;
  }
  // Replicas start on separate 128-byte lines, so no two share one. The
  // runtime copies the whole array after each launch in per-launch mode, so
  // a module with many counters gets fewer replicas.
  unsigned Replicas = CounterReplicas;
  uint64_t Stride = Replicas > 1 ? alignTo(NextCounter, 16) : NextCounter;
  while (Replicas > 1 && Replicas * Stride * 8 > MaxCounterArrayBytes)
    Replicas /= 2;
  if (Replicas == 1)
    Stride = NextCounter;
  DB.CounterReplicas = Replicas;
  DB.ReplicaStride = Stride;
  Array = {DB.CountersSymbol, Replicas, 8 * Stride};
  NumCounterWords += DB.CounterReplicas * DB.ReplicaStride;
  LLVM_DEBUG(dbgs() << "warpscope: " << NextCounter << " counters x "
                    << Replicas << " replicas, stride " << DB.ReplicaStride
                    << " words\n");

  auto *Ty =
      ArrayType::get(Type::getInt64Ty(M.getContext()), Replicas * Stride);
  auto *Counters = new GlobalVariable(
      M, Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
      Constant::getNullValue(Ty), DB.CountersSymbol, nullptr,
      GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
      /*isExternallyInitialized=*/true);
  Counters->setAlignment(Align(Replicas > 1 ? 128 : 8));
  for (const PlannedFunction &P : Plans)
    instrument(P);

  std::string Path = DatabaseOut;
  if (Path.empty()) {
    SmallString<256> P(databaseDirectory());
    sys::path::append(P, DB.ModuleId + ".json");
    Path = std::string(P);
  }
  if (Error E = DB.writeFile(Path))
    M.getContext().emitError("warpscope: cannot write program database: " +
                             toString(std::move(E)));
  return true;
}

} // namespace

PreservedAnalyses DeviceInstrumentationPass::run(Module &M,
                                                 ModuleAnalysisManager &AM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  // A build that uses a profile is an optimized rebuild, not instrumented.
  // Its host side must not find the database an earlier instrumented build
  // of this file left behind and register counters this code does not have.
  if (profileUseRequested() || !Instrument) {
    if (DatabaseOut.empty()) {
      SmallString<256> Stale(databaseDirectory());
      sys::path::append(Stale, moduleId(M) + ".json");
      sys::fs::remove(Stale);
    }
    return PreservedAnalyses::all();
  }
  auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  return ModuleInstrumenter(M, FAM).run() ? PreservedAnalyses::none()
                                          : PreservedAnalyses::all();
}
