//===- DivergenceModel.cpp - Sources of divergence on NVPTX ---------------===//

#include "DivergenceModel.h"
#include "llvm/ADT/GenericUniformityImpl.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace warpscope;

namespace {

enum : unsigned { GenericAS = 0, LocalAS = 5 };

/// Special registers whose value is the same for every lane of a warp.
bool isWarpUniformSpecialRegister(StringRef Reg) {
  for (StringRef Prefix :
       {"ctaid.", "nctaid.", "ntid.", "cluster_ctaid.", "cluster_nctaid.",
        "clusterid.", "nclusterid.", "cluster_ctarank", "cluster_nctarank",
        "envreg", "warpid", "nwarpid", "smid", "nsmid", "gridid", "warpsize",
        "total_smem_size", "dynamic_smem_size", "aggr_smem_size"})
    if (Reg.starts_with(Prefix))
      return true;
  return false;
}

InstructionUniformity classifyIntrinsic(const IntrinsicInst &II) {
  StringRef Name = II.getCalledFunction()->getName();
  if (Name.consume_front("llvm.nvvm.read.ptx.sreg."))
    return isWarpUniformSpecialRegister(Name)
               ? InstructionUniformity::AlwaysUniform
               : InstructionUniformity::NeverUniform; // tid, laneid, clock...
  // Warp-wide votes and reductions give every participating lane one value.
  if (Name.starts_with("llvm.nvvm.vote.") || Name == "llvm.nvvm.activemask" ||
      Name.starts_with("llvm.nvvm.redux.sync."))
    return InstructionUniformity::AlwaysUniform;
  // Lane exchanges, lane-grouping matches and atomics differ per lane.
  if (Name.contains("shfl") || Name.contains("match.any") ||
      Name.contains("atomic") || Name.contains(".atom."))
    return InstructionUniformity::NeverUniform;
  // Anything else that does not write memory computes from its operands
  // (math, bit manipulation, global/constant loads): uniform iff they are.
  if (II.onlyReadsMemory())
    return InstructionUniformity::Default;
  return InstructionUniformity::NeverUniform;
}

/// A TTI that answers only the uniformity questions; UniformityAnalysis
/// asks nothing else.
class WarpScopeDivergenceTTI : public TargetTransformInfoImplBase {
public:
  explicit WarpScopeDivergenceTTI(const DataLayout &DL)
      : TargetTransformInfoImplBase(DL) {}
  bool hasBranchDivergence(const Function *) const override { return true; }
  InstructionUniformity
  getInstructionUniformity(const Value *V) const override {
    return classifyDivergence(V);
  }
};

} // namespace

InstructionUniformity warpscope::classifyDivergence(const Value *V) {
  // Without interprocedural analysis, a device function's arguments may
  // differ per lane; a kernel's come from the launch and cannot.
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getParent()->getCallingConv() == CallingConv::PTX_Kernel
               ? InstructionUniformity::Default
               : InstructionUniformity::NeverUniform;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return InstructionUniformity::Default;
  // Per-thread memory (local, or generic that may alias it) can hold lane
  // values behind a uniform address.
  if (const auto *LI = dyn_cast<LoadInst>(I)) {
    unsigned AS = LI->getPointerAddressSpace();
    return AS == GenericAS || AS == LocalAS
               ? InstructionUniformity::NeverUniform
               : InstructionUniformity::Default;
  }
  if (I->isAtomic())
    return InstructionUniformity::NeverUniform;
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    return classifyIntrinsic(*II);
  // Calls to functions or inline asm: results may differ per lane.
  if (isa<CallBase>(I))
    return InstructionUniformity::NeverUniform;
  return InstructionUniformity::Default;
}

UniformityResult warpscope::computeUniformity(Function &F,
                                              FunctionAnalysisManager &FAM) {
  UniformityResult R;
  R.TTI = std::make_unique<TargetTransformInfo>(
      std::make_unique<WarpScopeDivergenceTTI>(F.getDataLayout()));
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &CI = FAM.getResult<CycleAnalysis>(F);
  R.Info = std::make_unique<UniformityInfo>(DT, CI, R.TTI.get());
  R.Info->compute();
  return R;
}
