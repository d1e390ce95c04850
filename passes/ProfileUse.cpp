//===- ProfileUse.cpp - Attach counts from a profile to device IR ---------===//

#include "ProfileUse.h"
#include "CfgChecksum.h"
#include "ModuleIdentity.h"
#include "PluginOptions.h"
#include "ReduceLoops.h"
#include "warpscope/ABI/PgoRecord.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Triple.h"
#include <algorithm>
#include <map>

using namespace llvm;
using namespace warpscope;

#define DEBUG_TYPE "warpscope-profile-use"

bool warpscope::usesProfile(const Module &M) {
  return mdconst::extract_or_null<ConstantInt>(
             M.getModuleFlag(ProfileUseFlag)) != nullptr;
}

namespace {

void warn(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(DiagnosticInfoGeneric("warpscope: " + Msg, DS_Warning));
}

/// Branch weights are 32-bit: scale a set of counts down together.
SmallVector<uint32_t, 4> toWeights(ArrayRef<uint64_t> Counts) {
  uint64_t Max =
      Counts.empty() ? 0 : *std::max_element(Counts.begin(), Counts.end());
  uint64_t Scale = Max > UINT32_MAX ? Max / UINT32_MAX + 1 : 1;
  SmallVector<uint32_t, 4> W;
  for (uint64_t C : Counts)
    W.push_back(uint32_t(C / Scale));
  return W;
}

/// Weights in terminator successor order from counts per distinct
/// successor block (a switch may reach one block through several cases).
void attachWeights(Instruction *Term,
                   const std::map<BasicBlock *, uint64_t> &Per) {
  SmallVector<uint64_t, 4> Counts;
  std::map<BasicBlock *, unsigned> Edges;
  for (unsigned I = 0; I < Term->getNumSuccessors(); ++I)
    ++Edges[Term->getSuccessor(I)];
  for (unsigned I = 0; I < Term->getNumSuccessors(); ++I) {
    BasicBlock *S = Term->getSuccessor(I);
    auto It = Per.find(S);
    Counts.push_back(It == Per.end() ? 0 : It->second / Edges[S]);
  }
  Term->setMetadata(
      LLVMContext::MD_prof,
      MDBuilder(Term->getContext()).createBranchWeights(toWeights(Counts)));
}

/// Distinct successors of each block with two or more, by ascending block
/// index (the record's order, warpscope/ABI/PgoRecord.h).
std::vector<std::pair<BasicBlock *, std::vector<BasicBlock *>>>
branchShape(Function &F) {
  DenseMap<const BasicBlock *, unsigned> Index;
  for (BasicBlock &BB : F)
    Index[&BB] = Index.size();
  std::vector<std::pair<BasicBlock *, std::vector<BasicBlock *>>> Shape;
  for (BasicBlock &BB : F) {
    std::vector<BasicBlock *> Succ(succ_begin(&BB), succ_end(&BB));
    auto ByIndex = [&](BasicBlock *A, BasicBlock *B) {
      return Index[A] < Index[B];
    };
    std::sort(Succ.begin(), Succ.end(), ByIndex);
    Succ.erase(std::unique(Succ.begin(), Succ.end()), Succ.end());
    if (Succ.size() >= 2)
      Shape.emplace_back(&BB, std::move(Succ));
  }
  return Shape;
}

/// Attaches F's counts; false when the record does not fit F's shape.
bool annotate(Function &F, const std::vector<uint64_t> &Counters) {
  auto Shape = branchShape(F);
  std::vector<size_t> Sides;
  for (auto &[BB, Succ] : Shape)
    Sides.push_back(Succ.size());
  pgo::FunctionCounts P;
  if (!pgo::decode(Counters, F.size(), Sides, P))
    return false;
  if (P.Blocks.front() == 0)
    return true; // never ran
  F.setEntryCount(P.Blocks.front());
  LLVMContext &Ctx = F.getContext();
  for (size_t I = 0; I < Shape.size(); ++I) {
    const pgo::BranchCounts &Br = P.Branches[I];
    std::map<BasicBlock *, uint64_t> Per;
    uint64_t Total = 0;
    for (size_t K = 0; K < Br.Sides.size(); ++K) {
      Per[Shape[I].second[K]] = Br.Sides[K];
      Total += Br.Sides[K];
    }
    Instruction *Term = Shape[I].first->getTerminator();
    if (Br.Visits)
      Term->setMetadata(
          "warpscope.divergence",
          MDNode::get(Ctx, ConstantAsMetadata::get(ConstantFP::get(
                               Type::getDoubleTy(Ctx),
                               double(Br.Divergent) / Br.Visits))));
    if (Total) // all zero: never reached, or no side's count was known
      attachWeights(Term, Per);
  }
  return true;
}

void staleWarning(Function &F) {
  warn(F.getContext(),
       "profile for " + demangle(F.getName()) +
           " is stale (its control flow changed since the profiled build); "
           "no weights attached");
}

} // namespace

ProfileUsePass::ProfileUsePass(ProfileUseOptions Opts)
    : Opts(withCommandLine(std::move(Opts))) {}

PreservedAnalyses ProfileUsePass::run(Module &M, ModuleAnalysisManager &AM) {
  const std::string &ProfileUse = Opts.ProfileFile;
  if (ProfileUse.empty() || !M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  // Set first: even a profile that cannot be used makes this a rebuild,
  // which the device pass leaves uninstrumented.
  M.setModuleFlag(Module::Max, ProfileUseFlag, 1);
  if (sys::fs::is_directory(ProfileUse)) {
    M.getContext().emitError(
        "warpscope: -warpscope-profile-use=" + ProfileUse +
        " is a profile directory; it takes an LLVM profile: run 'warpscope "
        "pgo --format instr -o app.profdata " +
        ProfileUse + "' and pass app.profdata");
    return PreservedAnalyses::none();
  }
  auto FS = vfs::getRealFileSystem();
  auto Reader = IndexedInstrProfReader::create(ProfileUse, *FS);
  if (!Reader) {
    M.getContext().emitError("warpscope: cannot read profile '" + ProfileUse +
                             "': " + toString(Reader.takeError()) +
                             " (write one with warpscope pgo --format instr)");
    return PreservedAnalyses::none();
  }
  std::string Id = moduleId(M, Opts.Identity);
  std::string Prefix = pgo::recordName(Id, "");
  std::map<std::string, std::pair<uint64_t, std::vector<uint64_t>>> ByName;
  for (const NamedInstrProfRecord &R : **Reader)
    if (R.Name.starts_with(Prefix))
      ByName[R.Name.drop_front(Prefix.size()).str()] = {R.Hash, R.Counts};
  if (Error E = (*Reader)->getError()) {
    M.getContext().emitError("warpscope: cannot read profile '" + ProfileUse +
                             "': " + toString(std::move(E)));
    return PreservedAnalyses::none();
  }
  if (ByName.empty()) {
    warn(M.getContext(), "profile '" + ProfileUse +
                             "' has no counts for module " + Id + " (" +
                             M.getSourceFileName() + "); no weights attached");
    return PreservedAnalyses::none();
  }
  auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    auto It = ByName.find(F.getName().str());
    if (F.isDeclaration() || It == ByName.end())
      continue;
    // The CFG the instrumenting build counted was read after LSR.
    if (Opts.ReduceLoopsFirst)
      reduceLoops(F, FAM);
    if (It->second.first != pgo::recordHash(cfgChecksum(F)) ||
        !annotate(F, It->second.second)) {
      LLVM_DEBUG(dbgs() << "warpscope: " << F.getName()
                        << ": record hash or counter count does not match "
                           "the CFG\n");
      staleWarning(F);
      continue;
    }
  }
  return PreservedAnalyses::none(); // the module flag at least
}

#undef DEBUG_TYPE
