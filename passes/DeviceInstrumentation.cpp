//===- DeviceInstrumentation.cpp - Block counters and divergence probes ---===//

#include "DeviceInstrumentation.h"
#include "DivergenceModel.h"
#include "ModuleIdentity.h"
#include "Probes.h"
#include "ProgramDatabase.h"
#include "warpscope/Abi.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace warpscope;

#define DEBUG_TYPE "warpscope"

static cl::opt<bool> ProbeAll(
    "warpscope-probe-all",
    cl::desc("Probe branches that UniformityAnalysis proves uniform too "
             "(to validate the analysis)"),
    cl::init(false));

static cl::opt<bool>
    Instrument("warpscope-instrument",
               cl::desc("Insert device counters and probes (default on)"),
               cl::init(true));

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
};

struct PlannedFunction {
  Function *F;
  std::vector<std::pair<BasicBlock *, uint64_t>> Blocks;
  std::vector<PlannedBranch> Branches;
};

/// Reports point at the function's own source: code inlined from headers
/// (threadIdx reads, libdevice) is attributed to its outermost call site.
SourceLocation toSourceLocation(const DILocation *DL) {
  SourceLocation L;
  if (!DL || DL->getLine() == 0)
    return L;
  while (const DILocation *Outer = DL->getInlinedAt())
    DL = Outer;
  SmallString<256> Path = DL->getFilename();
  if (!sys::path::is_absolute(Path) && !DL->getDirectory().empty()) {
    Path = DL->getDirectory();
    sys::path::append(Path, DL->getFilename());
  }
  L.File = std::string(Path);
  L.Line = DL->getLine();
  L.Column = DL->getColumn();
  return L;
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

  void plan(Function &F);
  void instrument(const PlannedFunction &P, GlobalVariable *Counters);
  Value *successorIndex(const PlannedBranch &Br);
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
    Rec.Loc.File = SP->getFilename().str();
    if (!sys::path::is_absolute(Rec.Loc.File) && !SP->getDirectory().empty()) {
      SmallString<256> Path = SP->getDirectory();
      sys::path::append(Path, SP->getFilename());
      Rec.Loc.File = std::string(Path);
    }
    Rec.Loc.Line = SP->getLine();
  }

  DenseMap<const BasicBlock *, unsigned> BlockIds;
  for (BasicBlock &BB : F)
    BlockIds[&BB] = BlockIds.size();

  PlannedFunction P{&F, {}, {}};
  uint64_t Checksum = fnv1a64(std::to_string(F.size()));
  unsigned Probed = 0, Uniform = 0;
  for (BasicBlock &BB : F) {
    BlockRecord B;
    B.Id = BlockIds[&BB];
    B.Name = BB.getName().str();
    B.Loc = toSourceLocation(firstLocation(BB));
    B.LoopDepth = LI.getLoopDepth(&BB);
    B.LoopHeader = LI.isLoopHeader(&BB);
    B.Counter = NextCounter;
    P.Blocks.push_back({&BB, NextCounter});
    NextCounter += BlockRecordWords;
    Rec.Blocks.push_back(std::move(B));

    Instruction *Term = BB.getTerminator();
    for (BasicBlock *S : successors(&BB))
      Checksum = fnv1a64(std::to_string(BlockIds[S]) + ",", Checksum);
    Checksum = fnv1a64(";", Checksum);
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
      P.Branches.push_back({Term, Succ, NextCounter});
      NextCounter += branchRecordWords(Succ.size());
    }
    Rec.Branches.push_back(std::move(R));
  }
  Rec.CfgChecksum = Checksum;
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

Value *ModuleInstrumenter::successorIndex(const PlannedBranch &Br) {
  IRBuilder<> B(Br.Terminator);
  if (auto *BI = dyn_cast<BranchInst>(Br.Terminator))
    return B.CreateSelect(BI->getCondition(), B.getInt32(0), B.getInt32(1),
                          "ws.succ");
  auto *SI = cast<SwitchInst>(Br.Terminator);
  auto IndexOf = [&](BasicBlock *BB) {
    return unsigned(find(Br.Successors, BB) - Br.Successors.begin());
  };
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

void ModuleInstrumenter::instrument(const PlannedFunction &P,
                                    GlobalVariable *Counters) {
  for (const PlannedBranch &Br : P.Branches)
    emitBranchProbe(Br.Terminator, Counters, Br.Counter, successorIndex(Br),
                    Br.Successors.size());
  for (auto [BB, Word] : P.Blocks)
    emitBlockProbe(&*BB->getFirstInsertionPt(), Counters, Word);
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

  GlobalVariable *Counters = nullptr;
  if (Instrument) {
    auto *Ty = ArrayType::get(Type::getInt64Ty(M.getContext()), NextCounter);
    Counters = new GlobalVariable(
        M, Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
        Constant::getNullValue(Ty), DB.CountersSymbol, nullptr,
        GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
        /*isExternallyInitialized=*/true);
    Counters->setAlignment(Align(8));
    for (const PlannedFunction &P : Plans)
      instrument(P, Counters);
  }

  std::string Path = DatabaseOut;
  if (Path.empty()) {
    SmallString<256> P(databaseDirectory());
    sys::path::append(P, DB.ModuleId + ".json");
    Path = std::string(P);
  }
  if (Error E = DB.writeFile(Path))
    M.getContext().emitError("warpscope: cannot write program database: " +
                             toString(std::move(E)));
  return Instrument;
}

} // namespace

PreservedAnalyses DeviceInstrumentationPass::run(Module &M,
                                                 ModuleAnalysisManager &AM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  return ModuleInstrumenter(M, FAM).run() ? PreservedAnalyses::none()
                                          : PreservedAnalyses::all();
}
