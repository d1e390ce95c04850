//===- Probes.cpp - Inline PTX for block and branch probes ----------------===//

#include "Probes.h"
#include "warpscope/Abi.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

namespace {

/// "%ws_block_3_branch_7" and "ws:block 3 ws:branch 7" for a spec.
std::pair<std::string, std::string> markerNames(const ProbeSpec &S) {
  std::string Register = "%ws", Comment;
  if (S.BlockWord) {
    Register += formatv("_block_{0}", *S.BlockWord).str();
    Comment += formatv("{0} {1}", BlockMarker, *S.BlockWord).str();
  }
  if (S.BranchWord) {
    Register += formatv("_branch_{0}", *S.BranchWord).str();
    Comment += formatv("{0}{1} {2}", Comment.empty() ? "" : " ", BranchMarker,
                       *S.BranchWord)
                   .str();
  }
  return {Register, Comment};
}

/// The marker first (tools find our instructions by it; the comment is for
/// people reading -S output, since PTX loses comments in a fatbin), then the
/// scoped registers and the leader election.
std::string probePrologue(const ProbeSpec &S) {
  auto [Register, Comment] = markerNames(S);
  std::string Text = formatv("// {0}\n\t{{\n"
                             "\t.reg .b32 {1};\n"
                             "\t.reg .pred %wsp, %wsq, %wsd, %wsa;\n"
                             "\t.reg .b32 %wsm, %wsl, %wsn, %wsb;\n"
                             "\t.reg .b64 %wsc;\n"
                             "\tactivemask.b32 %wsm;\n",
                             Comment, Register)
                         .str();
  if (S.UseElect)
    return Text + "\telect.sync _|%wsp, %wsm;\n";
  // Without elect.sync: the highest active lane leads.
  return Text + "\tmov.u32 %wsl, %laneid;\n"
                "\tbfind.u32 %wsn, %wsm;\n"
                "\tsetp.eq.u32 %wsp, %wsl, %wsn;\n";
}

/// Leader adds popc(Mask) at byte Offset of the record at operand Record.
std::string addPopcount(StringRef Mask, StringRef Record, unsigned Offset) {
  return formatv("\tpopc.b32 %wsn, {0};\n"
                 "\tcvt.u64.u32 %wsc, %wsn;\n"
                 "\t@%wsp red.global.add.u64 [{1}+{2}], %wsc;\n",
                 Mask, Record, Offset)
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

/// The branch part; Record names the operand holding the record's address.
/// Visits and active threads are left out when the block record has them.
std::string branchBody(const ProbeSpec &S, StringRef Record,
                       StringRef Index) {
  std::string T;
  bool Shared = S.BlockWord.has_value();
  if (!Shared)
    T += formatv("\t@%wsp red.global.add.u64 [{0}+{1}], 1;\n", Record,
                 8 * BranchVisits);
  if (S.NumSuccessors == 2) {
    // One ballot of "goes to successor 0" gives the verdict (divergent iff
    // neither empty nor the whole mask), successor 0's threads, and whether
    // any lane arrives at successor 0.
    T += formatv("\tvote.sync.ballot.b32 %wsb, {0}, %wsm;\n"
                 "\tsetp.ne.u32 %wsa, %wsb, 0;\n"
                 "\tsetp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\n",
                 Index);
    if (S.CountArrivals)
      T += formatv("\tand.pred %wsa, %wsa, %wsp;\n"
                   "\t@%wsa red.global.add.u64 [{0}+{1}], 1;\n",
                   Record, 8 * BranchSuccessor0Arrivals);
  } else {
    // Divergent iff the lanes sharing the leader's successor are not all
    // active lanes (match.any gives every lane its own group).
    T += formatv("\tmatch.any.sync.b32 %wsb, {0}, %wsm;\n"
                 "\tsetp.ne.u32 %wsd, %wsb, %wsm;\n",
                 Index);
  }
  T += formatv("\tand.pred %wsd, %wsd, %wsp;\n"
               "\t@%wsd red.global.add.u64 [{0}+{1}], 1;\n",
               Record, 8 * BranchDivergent);
  if (S.NumSuccessors == 2) {
    T += addPopcount("%wsb", Record, 8 * BranchFirstSuccessor);
  } else {
    for (unsigned K = 0; K + 1 < S.NumSuccessors; ++K) {
      T += formatv("\tsetp.eq.u32 %wsq, {0}, {1};\n"
                   "\tvote.sync.ballot.b32 %wsb, %wsq, %wsm;\n",
                   Index, K);
      T += addPopcount("%wsb", Record, 8 * (BranchFirstSuccessor + K));
    }
  }
  if (!Shared)
    T += addPopcount("%wsm", Record, 8 * BranchActiveThreads);
  return T;
}

} // namespace

void warpscope::emitProbe(Instruction *InsertBefore, Value *Counters,
                          const ProbeSpec &S) {
  IRBuilder<> B(InsertBefore);
  std::string Text = probePrologue(S);
  SmallVector<Value *, 3> Args;
  std::string Constraints;
  auto AddOperand = [&](Value *V, StringRef Kind) {
    Constraints += (Constraints.empty() ? "" : ",") + Kind.str();
    Args.push_back(V);
    return "$" + std::to_string(Args.size() - 1);
  };
  if (S.BlockWord) {
    std::string Block = AddOperand(wordAddress(B, Counters, *S.BlockWord), "l");
    Text += formatv("\t@%wsp red.global.add.u64 [{0}], 1;\n", Block);
    Text += addPopcount("%wsm", Block, 8 * BlockThreadExecutions);
  }
  if (S.BranchWord) {
    std::string Record =
        AddOperand(wordAddress(B, Counters, *S.BranchWord), "l");
    std::string Index =
        AddOperand(S.SuccessorIndex, S.NumSuccessors == 2 ? "b" : "r");
    Text += branchBody(S, Record, Index);
  }
  Text += "\t}";
  emitAsm(InsertBefore, Text, Constraints, Args);
}

bool warpscope::targetHasElect(const Function &F) {
  unsigned Sm = 0, Ptx = 0;
  StringRef Cpu = F.getFnAttribute("target-cpu").getValueAsString();
  if (!Cpu.consume_front("sm_") || Cpu.consumeInteger(10, Sm))
    return false;
  SmallVector<StringRef, 8> Features;
  F.getFnAttribute("target-features").getValueAsString().split(Features, ',');
  for (StringRef Feature : Features)
    if (Feature.consume_front("+ptx"))
      Feature.getAsInteger(10, Ptx);
  return Sm >= 90 && Ptx >= 80;
}

void warpscope::emitBlockMarker(Instruction *InsertBefore, uint64_t BlockWord) {
  ProbeSpec S;
  S.BlockWord = BlockWord;
  auto [Register, Comment] = markerNames(S);
  // One dead, unguarded mov keeps the block's place in the PTX (an empty
  // scope could end up before another block's first instruction, or before
  // a guarded one) and gives the marker an instruction that all of the
  // block's lanes execute. ptxas deletes it: no cost on a GPU.
  emitAsm(InsertBefore,
          formatv("// {0} (derived)\n\t{{\n\t.reg .b32 {1};\n"
                  "\tmov.u32 {1}, 0;\n\t}",
                  Comment, Register)
              .str(),
          "", {});
}
