//===- Probes.cpp - Inline PTX for block and branch probes ----------------===//

#include "Probes.h"
#include "warpscope/Abi.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace llvm;
using namespace warpscope;

namespace {

/// Scoped registers and the leader election every probe starts with. The
/// marker must come first: tools find our instructions by it.
std::string probePrologue(StringRef Marker, uint64_t CounterWord) {
  // The comment is for people reading -S output; tools read the marker
  // register, because PTX loses its comments on the way into a fatbin.
  std::string Register = Marker.str();
  std::replace(Register.begin(), Register.end(), ':', '_');
  return formatv("// {0} {1}\n\t{{\n"
                 "\t.reg .b32 %{2}_{1};\n"
                 "\t.reg .pred %wsp, %wsq, %wsd;\n"
                 "\t.reg .b32 %wsm, %wsl, %wsn, %wsb;\n"
                 "\t.reg .b64 %wsc;\n"
                 "\tactivemask.b32 %wsm;\n"
                 "\tmov.u32 %wsl, %laneid;\n"
                 "\tbfind.u32 %wsn, %wsm;\n"
                 "\tsetp.eq.u32 %wsp, %wsl, %wsn;\n",
                 Marker, CounterWord, Register)
      .str();
}

/// Leader adds popc(Mask) at byte offset Offset of the record.
std::string addPopcount(StringRef Mask, unsigned Offset) {
  return formatv("\tpopc.b32 %wsn, {0};\n"
                 "\tcvt.u64.u32 %wsc, %wsn;\n"
                 "\t@%wsp red.global.add.u64 [$0+{1}], %wsc;\n",
                 Mask, Offset)
      .str();
}

void emitAsm(Instruction *InsertBefore, StringRef Text, StringRef Constraints,
             ArrayRef<Value *> Args) {
  IRBuilder<> B(InsertBefore);
  SmallVector<Type *, 4> ArgTypes;
  for (Value *A : Args)
    ArgTypes.push_back(A->getType());
  auto *FTy = FunctionType::get(B.getVoidTy(), ArgTypes, false);
  InlineAsm *IA = InlineAsm::get(FTy, Text, Constraints,
                                 /*hasSideEffects=*/true);
  CallInst *CI = B.CreateCall(IA, Args);
  // Convergent: codegen must not sink, hoist or duplicate it across
  // divergent control flow, or it would count a different active mask.
  CI->addFnAttr(Attribute::Convergent);
  CI->addFnAttr(Attribute::NoUnwind);
}

Value *wordAddress(IRBuilder<> &B, Value *Counters, uint64_t Word) {
  Value *P = B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Counters, Word);
  return B.CreatePtrToInt(P, B.getInt64Ty());
}

} // namespace

void warpscope::emitBlockProbe(Instruction *InsertBefore, Value *Counters,
                               uint64_t CounterWord) {
  std::string Text = probePrologue(BlockMarker, CounterWord);
  Text += "\t@%wsp red.global.add.u64 [$0], 1;\n";
  Text += addPopcount("%wsm", 8 * BlockThreadExecutions);
  Text += "\t}";
  IRBuilder<> B(InsertBefore);
  emitAsm(InsertBefore, Text, "l",
          {wordAddress(B, Counters, CounterWord)});
}

void warpscope::emitBranchProbe(Instruction *InsertBefore, Value *Counters,
                                uint64_t CounterWord, Value *SuccessorIndex,
                                unsigned NumSuccessors) {
  std::string Text = probePrologue(BranchMarker, CounterWord);
  Text += formatv("\t@%wsp red.global.add.u64 [$0+{0}], 1;\n",
                  8 * BranchVisits);
  if (NumSuccessors == 2) {
    // One ballot of "goes to successor 0" gives both the divergence verdict
    // (neither empty nor the whole mask) and successor 0's threads.
    Text += "\tsetp.eq.u32 %wsq, $1, 0;\n"
            "\tvote.sync.ballot.b32 %wsb, %wsq, %wsm;\n"
            "\tsetp.ne.u32 %wsd, %wsb, 0;\n"
            "\tsetp.ne.and.u32 %wsd, %wsb, %wsm, %wsd;\n";
  } else {
    // Divergent iff the lanes sharing the leader's successor are not all
    // active lanes (match.any gives every lane its own group).
    Text += "\tmatch.any.sync.b32 %wsb, $1, %wsm;\n"
            "\tsetp.ne.u32 %wsd, %wsb, %wsm;\n";
  }
  Text += formatv("\tand.pred %wsd, %wsd, %wsp;\n"
                  "\t@%wsd red.global.add.u64 [$0+{0}], 1;\n",
                  8 * BranchDivergent);
  if (NumSuccessors == 2) {
    Text += addPopcount("%wsb", 8 * BranchFirstSuccessor);
  } else {
    for (unsigned S = 0; S + 1 < NumSuccessors; ++S) {
      Text += formatv("\tsetp.eq.u32 %wsq, $1, {0};\n"
                      "\tvote.sync.ballot.b32 %wsb, %wsq, %wsm;\n",
                      S);
      Text += addPopcount("%wsb", 8 * (BranchFirstSuccessor + S));
    }
  }
  Text += addPopcount("%wsm", 8 * BranchActiveThreads);
  Text += "\t}";
  IRBuilder<> B(InsertBefore);
  emitAsm(InsertBefore, Text, "l,r",
          {wordAddress(B, Counters, CounterWord), SuccessorIndex});
}
