//===- CfgChecksum.cpp - Hash of block count and successor lists ----------===//

#include "CfgChecksum.h"
#include "ModuleIdentity.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include <string>

using namespace llvm;

uint64_t warpscope::cfgChecksum(const Function &F) {
  DenseMap<const BasicBlock *, unsigned> Ids;
  for (const BasicBlock &BB : F)
    Ids[&BB] = Ids.size();
  uint64_t H = fnv1a64(std::to_string(F.size()));
  for (const BasicBlock &BB : F) {
    for (const BasicBlock *S : successors(&BB))
      H = fnv1a64(std::to_string(Ids.lookup(S)) + ",", H);
    H = fnv1a64(";", H);
  }
  return H;
}
