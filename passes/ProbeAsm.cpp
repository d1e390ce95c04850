//===- ProbeAsm.cpp - The inline PTX every probe builder shares -----------===//
//
// The pieces of PTX text all probes are made of, the convergent inline asm
// call that puts a probe into the IR, and the target features that decide
// which instructions a probe may use (ProbesImpl.h, Probes.h).
//
//===----------------------------------------------------------------------===//

#include "ProbesImpl.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;
using namespace warpscope::probes;

std::pair<std::string, std::string> probes::markerNames(const ProbeSpec &S) {
  ProbeMarker M{S.BlockWord, S.BranchWord};
  return {M.registerName(), M.text()};
}

std::string probes::probePrologue(const ProbeSpec &S, bool Elect) {
  auto [Register, Comment] = markerNames(S);
  std::string Text =
      formatv("// {0}\n\t{{\n"
              "\t.reg .b32 {1};\n"
              "\t.reg .pred %wsp, %wsq, %wsd, %wsa;\n"
              "\t.reg .b32 %wsm, %wsl, %wsn, %wsb;\n"
              "\t.reg .b64 %wsc, %wsr;\n"
              "{2}"
              "\tactivemask.b32 %wsm;\n",
              Comment, Register,
              S.SwitchValue || S.SwitchChain ? "\t.reg .b32 %wsi, %wsx;\n"
                                               "\t.reg .pred %wst;\n"
                                             : "")
          .str();
  return Elect ? Text + electLeader(S.UseElect) : Text;
}

std::string probes::base(const CounterArray &C) {
  return C.Replicas > 1 ? "%wsg" : C.Symbol;
}

std::string probes::at(const CounterArray &C, uint64_t Byte) {
  return formatv("[{0}+{1}]", base(C), Byte).str();
}

std::string probes::replicaBase(const CounterArray &C, StringRef Operand) {
  if (C.Replicas <= 1)
    return "";
  if (C.Base && C.BaseIsOffset) // the function's offset: add the array's
    return formatv("\t.reg .b64 %wsg;\n"
                   "\tmov.u64 %wsg, {1};\n"
                   "\tmad.wide.u32 %wsg, {0}, 1, %wsg;\n",
                   Operand, C.Symbol)
        .str();
  if (C.Base) // the function's address: the operand the probe is given
    return formatv("\t.reg .b64 %wsg;\n"
                   "\tmov.u64 %wsg, {0};\n",
                   Operand)
        .str();
  return formatv("\t.reg .b32 %wsk;\n"
                 "\t.reg .b64 %wsg;\n"
                 "\tmov.u32 %wsk, %clock;\n"
                 "\tand.b32 %wsk, %wsk, {0};\n"
                 "\tmov.u64 %wsg, {1};\n"
                 "\tmad.wide.u32 %wsg, %wsk, {2}, %wsg;\n",
                 C.Replicas - 1, C.Symbol, C.ReplicaBytes)
      .str();
}

StringRef probes::baseConstraint(const CounterArray &C) {
  return C.BaseIsOffset ? "r" : "l";
}

std::string probes::addPopcount(const ProbeSpec &S, StringRef Mask,
                                StringRef Addr, StringRef Pred) {
  std::string G = S.UnpredicatedTemps ? "" : ("@" + Pred + " ").str();
  return formatv("\t{0}popc.b32 %wsn, {1};\n"
                 "\t{0}cvt.u64.u32 %wsc, %wsn;\n"
                 "\t@{2} red.global.add.u64 {3}, %wsc;\n",
                 G, Mask, Pred, Addr)
      .str();
}

CallInst *warpscope::emitProbeAsm(Instruction *InsertBefore, StringRef Text,
                                  StringRef Constraints, ArrayRef<Value *> Args,
                                  unsigned NumResults,
                                  SmallVectorImpl<Value *> *Results,
                                  bool PassCondition, unsigned ResultBits) {
  IRBuilder<> B(InsertBefore);
  SmallVector<Type *, 4> ArgTypes;
  for (Value *A : Args)
    ArgTypes.push_back(A->getType());
  SmallVector<Type *, 8> ResultTypes(NumResults, B.getIntNTy(ResultBits));
  if (PassCondition)
    ResultTypes.push_back(B.getInt1Ty());
  NumResults = ResultTypes.size();
  Type *RetTy = B.getVoidTy();
  if (NumResults == 1)
    RetTy = ResultTypes[0];
  else if (NumResults > 1)
    RetTy = StructType::get(B.getContext(), ResultTypes);
  auto *FTy = FunctionType::get(RetTy, ArgTypes, false);
  InlineAsm *IA = InlineAsm::get(FTy, Text, Constraints,
                                 /*hasSideEffects=*/true);
  CallInst *CI = B.CreateCall(IA, Args);
  // Convergent: codegen must not sink, hoist or duplicate it across
  // divergent control flow, or it would count a different active mask.
  CI->addFnAttr(Attribute::Convergent);
  CI->addFnAttr(Attribute::NoUnwind);
  if (Results) {
    if (NumResults == 1)
      Results->push_back(CI);
    else
      for (unsigned K = 0; K < NumResults; ++K)
        Results->push_back(B.CreateExtractValue(CI, K));
  }
  return CI;
}

std::string warpscope::electLeader(bool UseElect) {
  if (UseElect)
    return "\telect.sync _|%wsp, %wsm;\n";
  // Without elect.sync: the highest active lane leads.
  return "\tmov.u32 %wsl, %laneid;\n"
         "\tbfind.u32 %wsn, %wsm;\n"
         "\tsetp.eq.u32 %wsp, %wsl, %wsn;\n";
}

/// The target's SM and PTX ISA versions (0 when unknown).
static std::pair<unsigned, unsigned> targetVersions(const Function &F) {
  unsigned Sm = 0, Ptx = 0;
  StringRef Cpu = F.getFnAttribute("target-cpu").getValueAsString();
  if (!Cpu.consume_front("sm_") || Cpu.consumeInteger(10, Sm))
    return {0, 0};
  SmallVector<StringRef, 8> Features;
  F.getFnAttribute("target-features").getValueAsString().split(Features, ',');
  for (StringRef Feature : Features)
    if (Feature.consume_front("+ptx"))
      Feature.getAsInteger(10, Ptx);
  return {Sm, Ptx};
}

bool warpscope::targetHasElect(const Function &F) {
  auto [Sm, Ptx] = targetVersions(F);
  return Sm >= 90 && Ptx >= 80;
}

bool warpscope::targetHasRedux(const Function &F) {
  auto [Sm, Ptx] = targetVersions(F);
  return Sm >= 80 && Ptx >= 70;
}
