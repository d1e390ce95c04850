//===- ProfileUse.cpp - Attach counts from a profile to device IR ---------===//

#include "ProfileUse.h"
#include "CfgChecksum.h"
#include "ModuleIdentity.h"
#include "ProfileModel.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include <algorithm>
#include <map>

using namespace llvm;
using namespace warpscope;

static cl::opt<std::string> ProfileUse(
    "warpscope-profile-use",
    cl::desc("Attach branch weights, entry counts and divergence rates from "
             "this WarpScope profile directory (device code)"),
    cl::init(""));

bool warpscope::profileUseRequested() { return !ProfileUse.empty(); }

namespace {

void warn(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(DiagnosticInfoGeneric("warpscope: " + Msg, DS_Warning));
}

/// Branch weights are 32-bit: scale a set of counts down together.
SmallVector<uint32_t, 4> toWeights(ArrayRef<uint64_t> Counts) {
  uint64_t Max = Counts.empty() ? 0 : *std::max_element(Counts.begin(), Counts.end());
  uint64_t Scale = Max > UINT32_MAX ? Max / UINT32_MAX + 1 : 1;
  SmallVector<uint32_t, 4> W;
  for (uint64_t C : Counts)
    W.push_back(uint32_t(C / Scale));
  return W;
}

/// Weights in terminator successor order from counts per distinct
/// successor block (a switch may reach one block through several cases).
void attachWeights(Instruction *Term, const std::map<BasicBlock *, uint64_t> &Per) {
  SmallVector<uint64_t, 4> Counts;
  std::map<BasicBlock *, unsigned> Edges;
  for (unsigned I = 0; I < Term->getNumSuccessors(); ++I)
    ++Edges[Term->getSuccessor(I)];
  for (unsigned I = 0; I < Term->getNumSuccessors(); ++I) {
    BasicBlock *S = Term->getSuccessor(I);
    auto It = Per.find(S);
    Counts.push_back(It == Per.end() ? 0 : It->second / Edges[S]);
  }
  Term->setMetadata(LLVMContext::MD_prof,
                    MDBuilder(Term->getContext()).createBranchWeights(toWeights(Counts)));
}

void annotate(Function &F, const FunctionProfile &P) {
  std::vector<BasicBlock *> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  F.setEntryCount(P.Blocks.front().WarpExecutions);
  LLVMContext &Ctx = F.getContext();
  for (const BranchCounts &Br : P.Branches) {
    Instruction *Term = Blocks[Br.Block]->getTerminator();
    std::map<BasicBlock *, uint64_t> Per;
    if (Br.Probed) {
      // Threads taking each side: what a taken/not-taken profile counts.
      for (size_t K = 0; K < Br.Successors.size(); ++K)
        Per[Blocks[Br.Successors[K]]] = Br.SuccessorThreads[K];
      if (Br.Visits)
        Term->setMetadata(
            "warpscope.divergence",
            MDNode::get(Ctx, ConstantAsMetadata::get(ConstantFP::get(
                                 Type::getDoubleTy(Ctx),
                                 double(Br.Divergent) / Br.Visits))));
    } else {
      // Proven uniform: a successor entered only from here ran as often as
      // the warps that went that way.
      uint64_t Here = P.Blocks[Br.Block].WarpExecutions, Known = 0;
      BasicBlock *Unknown = nullptr;
      for (unsigned S : Br.Successors) {
        BasicBlock *B = Blocks[S];
        if (B->getSinglePredecessor() == Blocks[Br.Block]) {
          Per[B] = P.Blocks[S].WarpExecutions;
          Known += Per[B];
        } else if (!Unknown) {
          Unknown = B;
        } else {
          Unknown = nullptr; // two unknown sides: no weights
          Per.clear();
          break;
        }
      }
      if (Per.empty())
        continue;
      if (Unknown)
        Per[Unknown] = Here > Known ? Here - Known : 0;
    }
    attachWeights(Term, Per);
  }
}

} // namespace

PreservedAnalyses ProfileUsePass::run(Module &M, ModuleAnalysisManager &) {
  if (ProfileUse.empty() || !M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  Expected<ProfileSet> Set = loadProfileDirectory(ProfileUse);
  if (!Set) {
    M.getContext().emitError("warpscope: " + toString(Set.takeError()));
    return PreservedAnalyses::all();
  }
  std::string Id = moduleId(M);
  std::map<std::string, const FunctionProfile *> ByName;
  for (const FunctionProfile &F : Set->Functions)
    if (F.ModuleId == Id)
      ByName[F.Name] = &F;
  if (ByName.empty()) {
    warn(M.getContext(), "profile '" + ProfileUse + "' has no counts for module " +
                             Id + " (" + M.getSourceFileName() +
                             "); no weights attached");
    return PreservedAnalyses::all();
  }
  bool Changed = false;
  for (Function &F : M) {
    auto It = ByName.find(F.getName().str());
    if (F.isDeclaration() || It == ByName.end())
      continue;
    const FunctionProfile &P = *It->second;
    if (P.CfgChecksum != cfgChecksum(F) || P.Blocks.size() != F.size()) {
      warn(M.getContext(), "profile for " + P.Demangled +
                               " is stale (its control flow changed since the "
                               "profiled build); no weights attached");
      continue;
    }
    if (P.Blocks.front().WarpExecutions == 0)
      continue; // never ran
    annotate(F, P);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
