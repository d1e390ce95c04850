//===- KernelFilter.cpp - Which device functions a kernel regex keeps -----===//

#include "KernelFilter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"

using namespace llvm;
using namespace warpscope;

namespace {

using FunctionSet = SmallPtrSet<const Function *, 16>;

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel;
}

/// Defined functions F may call: directly, or through a pointer (then any
/// function whose address is taken).
SmallVector<const Function *, 8> callees(const Function &F,
                                         ArrayRef<const Function *> Escaped) {
  SmallVector<const Function *, 8> Out;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      if (const Function *Callee = CB->getCalledFunction()) {
        if (!Callee->isDeclaration())
          Out.push_back(Callee);
      } else if (!CB->isInlineAsm()) {
        Out.append(Escaped.begin(), Escaped.end());
      }
    }
  return Out;
}

/// Roots and every defined function they may reach.
FunctionSet reachable(ArrayRef<const Function *> Roots,
                      ArrayRef<const Function *> Escaped) {
  FunctionSet Seen;
  SmallVector<const Function *, 16> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    for (const Function *C : callees(*F, Escaped))
      Work.push_back(C);
  }
  return Seen;
}

} // namespace

KernelSelection warpscope::selectKernels(const Module &M,
                                         const std::string &Pattern) {
  Regex R(Pattern);
  SmallVector<const Function *, 8> Kept, Left, Escaped;
  KernelSelection Out;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (!isKernel(F) && F.hasAddressTaken())
      Escaped.push_back(&F);
    if (!isKernel(F))
      continue;
    std::string Name = F.getName().str();
    if (R.match(Name) || R.match(demangle(Name))) {
      Kept.push_back(&F);
    } else {
      Left.push_back(&F);
      Out.LeftOut.push_back(Name);
    }
  }
  Out.Instrument = reachable(Kept, Escaped);
  FunctionSet ReachedByLeftOut = reachable(Left, Escaped);
  for (const Function *F : Out.Instrument)
    if (ReachedByLeftOut.count(F))
      Out.SharedWithLeftOut.insert(F);
  return Out;
}
