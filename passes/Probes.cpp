//===- Probes.cpp - Inline PTX for block and branch probes ----------------===//

#include "Probes.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

namespace {

/// "%ws_block_3_branch_7" and "ws:block 3 ws:branch 7" for a spec.
std::pair<std::string, std::string> markerNames(const ProbeSpec &S) {
  ProbeMarker M{S.BlockWord, S.BranchWord};
  return {M.registerName(), M.text()};
}

/// The marker first (tools find our instructions by it; the comment is for
/// people reading -S output, since PTX loses comments in a fatbin), then the
/// scoped registers and the leader election.
std::string probePrologue(const ProbeSpec &S, bool Elect = true) {
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

/// The base address of the replica a probe adds to: the array's symbol, so
/// the probe needs no address register (none computed outside its scope),
/// or with replicas %wsg, which replicaBase computes.
std::string base(const CounterArray &C) {
  return C.Replicas > 1 ? "%wsg" : C.Symbol;
}

/// "[base+Byte]": a counter of the replica the probe adds to.
std::string at(const CounterArray &C, uint64_t Byte) {
  return formatv("[{0}+{1}]", base(C), Byte).str();
}

/// With replicas: %wsg = the array + (%clock mod replicas) * replica size,
/// for every lane (switch probes add from lanes other than the leader).
/// The clock's low bits differ between warps that reach the probe in
/// different cycles, which is enough to spread their adds; any choice
/// keeps the counts exact, since the runtime sums the replicas.
std::string replicaBase(const CounterArray &C, StringRef Operand = "") {
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

/// The inline asm constraint of the function's replica operand.
StringRef baseConstraint(const CounterArray &C) {
  return C.BaseIsOffset ? "r" : "l";
}

/// Leader adds popc(Mask) to the counter at Addr (all three instructions
/// the leader's alone, or with S.UnpredicatedTemps only the atomic: a
/// predicated definition keeps the register's old value live where the
/// predicate is false, and ptxas then holds the probe's temporaries through
/// the whole probe: interp's two switch probes cost it 9 of its 42
/// registers).
std::string addPopcount(const ProbeSpec &S, StringRef Mask, StringRef Addr,
                        StringRef Pred = "%wsp") {
  std::string G = S.UnpredicatedTemps ? "" : ("@" + Pred + " ").str();
  return formatv("\t{0}popc.b32 %wsn, {1};\n"
                 "\t{0}cvt.u64.u32 %wsc, %wsn;\n"
                 "\t@{2} red.global.add.u64 {3}, %wsc;\n",
                 G, Mask, Pred, Addr)
      .str();
}

/// The case table: each case value that does not go to the default
/// selects its successor index into %wsi (Guard: "@%wsq " where only the
/// lanes leading a value's group map it).
std::string caseTable(const ProbeSpec &S, StringRef Index, StringRef Guard) {
  std::string T;
  for (auto [Value, To] : S.Cases)
    if (To != S.DefaultSuccessor)
      T += formatv("\t{0}setp.eq.u32 %wst, {1}, {2};\n"
                   "\t{0}selp.u32 %wsi, {3}, %wsi, %wst;\n",
                   Guard, Index, Value, To)
               .str();
  return T;
}

/// A switch's counts from each lane's successor group (Group: its mask)
/// and successor index (Succ), once Lead has set %wsq in each group's
/// leader: the visit is divergent iff the elected leader's group is not the
/// whole warp; each group's leader adds 1 at its successor's arrivals word
/// (when a case block takes its counts from them), 1 at its uniform-visits
/// word when its group is the whole warp, and its group's size at its
/// threads word (all but the last successor, whose threads are the rest),
/// all at addresses from its successor index.
std::string switchCounts(const ProbeSpec &S, const CounterArray &C,
                         uint64_t Rec, StringRef Group, StringRef Succ,
                         StringRef Lead) {
  uint32_t N = S.NumSuccessors;
  std::string T = formatv("\tsetp.ne.and.u32 %wsd, {0}, %wsm, %wsp;\n"
                          "\t@%wsd red.global.add.u64 {1}, 1;\n",
                          Group, at(C, Rec + 8 * BranchDivergent))
                      .str();
  T += Lead;
  // Unpredicated, every lane's Succ is a successor index.
  const StringRef G = S.UnpredicatedTemps ? "" : "@%wsq ";
  T += formatv("\t{0}mov.u64 %wsr, {1};\n"
               "\t{0}mad.wide.u32 %wsr, {2}, 8, %wsr;\n",
               G, base(C), Succ)
           .str();
  if (S.CountArrivals)
    T += formatv("\t@%wsq red.global.add.u64 [%wsr+{0}], 1;\n",
                 Rec + 8 * switchArrivalsWord(N))
             .str();
  T += formatv("\tsetp.eq.and.u32 %wsa, {0}, %wsm, %wsq;\n"
               "\t@%wsa red.global.add.u64 [%wsr+{1}], 1;\n"
               "\tsetp.lt.and.u32 %wsq, {2}, {3}, %wsq;\n",
               Group, Rec + 8 * switchUniformVisitsWord(N), Succ, N - 1)
           .str();
  T += addPopcount(S, Group,
                   formatv("[%wsr+{0}]", Rec + 8 * BranchFirstSuccessor).str(),
                   "%wsq");
  return T;
}

/// The branch part; Rec is the byte offset of the record in the array.
/// Visits and active threads are left out when the block's counts are them.
std::string branchBody(const ProbeSpec &S, const CounterArray &C, uint64_t Rec,
                       StringRef Index) {
  std::string T;
  bool Shared = !S.countsVisits();
  auto Word = [&](unsigned K) { return at(C, Rec + 8 * K); };
  if (!Shared)
    T += formatv("\t@%wsp red.global.add.u64 {0}, 1;\n", Word(BranchVisits));
  if (S.NumSuccessors == 2) {
    // One ballot of "goes to successor 0" gives the verdict (divergent iff
    // neither empty nor the whole mask), successor 0's threads, and whether
    // any lane arrives at successor 0.
    // %wsa: leader and some lane to successor 0; %wsd: that and not all.
    T += formatv("\tvote.sync.ballot.b32 %wsb, {0}{1}, %wsm;\n"
                 "\tsetp.ne.and.u32 %wsa, %wsb, 0, %wsp;\n"
                 "\tsetp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\n",
                 S.ConditionNegated ? "!" : "", Index);
    if (S.CountArrivals)
      T += formatv("\t@%wsa red.global.add.u64 {0}, 1;\n",
                   Word(BranchSuccessor0Arrivals));
    T += formatv("\t@%wsd red.global.add.u64 {0}, 1;\n", Word(BranchDivergent));
    T += addPopcount(S, "%wsb", Word(BranchFirstSuccessor));
  } else {
    // A switch: Group is each lane's successor group (match.any of its
    // successor index Succ), the lowest (chain) or highest (value) lane of
    // each group leads it.
    StringRef Group = "%wsb", Succ = Index;
    std::string Lead = "\tmov.u32 %wsl, %lanemask_lt;\n"
                       "\tand.b32 %wsl, %wsl, %wsb;\n"
                       "\tsetp.eq.u32 %wsq, %wsl, 0;\n";
    if (S.SwitchValue) {
      // Lanes with the same value go the same way: the highest lane of each
      // value's group (match.any) maps it to its successor (the case table,
      // its instructions that lane's alone) and hands it to the group
      // (shfl); then the lanes group by successor (several values may share
      // one).
      T += formatv("\tmatch.any.sync.b32 %wsb, {0}, %wsm;\n"
                   "\tbfind.u32 %wsl, %wsb;\n"
                   "\tmov.u32 %wsn, %laneid;\n"
                   "\tsetp.eq.u32 %wsq, %wsl, %wsn;\n"
                   "\t@%wsq mov.u32 %wsi, {1};\n",
                   Index, S.DefaultSuccessor)
               .str();
      T += caseTable(S, Index, "@%wsq ");
      T += "\tshfl.sync.idx.b32 %wsi, %wsi, %wsl, 31, %wsm;\n"
           "\tmatch.any.sync.b32 %wsx, %wsi, %wsm;\n";
      Group = "%wsx";
      Succ = "%wsi";
      Lead = "\tbfind.u32 %wsl, %wsx;\n"
             "\tsetp.eq.u32 %wsq, %wsl, %wsn;\n";
    } else {
      if (S.SwitchChain && S.AffineCount) {
        // Every lane maps its value to its successor index: in the range of
        // cases, AffineFirst + (value - AffineLo); else the default.
        T += formatv("\tsub.u32 %wsi, {0}, {1};\n"
                     "\tsetp.lt.u32 %wst, %wsi, {2};\n"
                     "\tadd.u32 %wsi, %wsi, {3};\n"
                     "\tselp.u32 %wsi, %wsi, {4}, %wst;\n",
                     Index, S.AffineLo, S.AffineCount, S.AffineFirst,
                     S.DefaultSuccessor)
                 .str();
        Succ = "%wsi";
      } else if (S.SwitchChain) {
        // Every lane maps its value to its successor index.
        T += formatv("\tmov.u32 %wsi, {0};\n", S.DefaultSuccessor).str();
        T += caseTable(S, Index, "");
        Succ = "%wsi";
      }
      T += formatv("\tmatch.any.sync.b32 %wsb, {0}, %wsm;\n", Succ).str();
    }
    T += switchCounts(S, C, Rec, Group, Succ, Lead);
  }
  if (!Shared)
    T += addPopcount(S, "%wsm", Word(BranchActiveThreads));
  return T;
}

} // namespace

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

/// A block or two-way branch probe: what every lane runs (the ballot, the
/// predicates), then one branch around the leader's counting, so ptxas
/// makes one leader region (BSSY/BRA/BSYNC once, the replica address only
/// there) instead of one per predicated atomic.
static std::string leaderRegionBody(const ProbeSpec &S, const CounterArray &C,
                                    StringRef Cond, StringRef BaseOperand) {
  std::string Pre, T;
  auto Word = [&](uint64_t Byte) { return at(C, Byte); };
  auto AddCount = [&](StringRef Mask, uint64_t Byte) {
    T += formatv("\tpopc.b32 %wsn, {0};\n"
                 "\tcvt.u64.u32 %wsc, %wsn;\n"
                 "\tred.global.add.u64 {1}, %wsc;\n",
                 Mask, Word(Byte))
             .str();
  };
  if (S.BlockWord) {
    uint64_t Block = 8 * *S.BlockWord;
    T += formatv("\tred.global.add.u64 {0}, 1;\n",
                 Word(Block + 8 * BlockWarpExecutions))
             .str();
    AddCount("%wsm", Block + 8 * BlockThreadExecutions);
  }
  if (S.BranchWord) {
    uint64_t Rec = 8 * *S.BranchWord;
    if (S.countsVisits()) {
      T += formatv("\tred.global.add.u64 {0}, 1;\n",
                   Word(Rec + 8 * BranchVisits))
               .str();
      AddCount("%wsm", Rec + 8 * BranchActiveThreads);
    }
    // %wsa: leader and some lane to successor 0; %wsd: that and not all.
    Pre = formatv("\tvote.sync.ballot.b32 %wsb, {0}{1}, %wsm;\n"
                  "\tsetp.ne.and.u32 %wsa, %wsb, 0, %wsp;\n"
                  "\tsetp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\n",
                  S.ConditionNegated ? "!" : "", Cond)
              .str();
    if (S.CountArrivals)
      T += formatv("\t@%wsa red.global.add.u64 {0}, 1;\n",
                   Word(Rec + 8 * BranchSuccessor0Arrivals))
               .str();
    T += formatv("\t@%wsd red.global.add.u64 {0}, 1;\n",
                 Word(Rec + 8 * BranchDivergent))
             .str();
    AddCount("%wsb", Rec + 8 * BranchFirstSuccessor);
  }
  return Pre + "\t@!%wsp bra ws_done;\n" + replicaBase(C, BaseOperand) + T +
         "ws_done:\n";
}

/// A block or two-way branch probe without warp-synchronous instructions
/// (-warpscope-sync-free-probes): ptxas compiles a function with any
/// elect/vote/redux/match/shfl .sync in divergent code into many more
/// registers (lu_step 26 -> 54, 28 without them). The group's leader (the
/// highest lane of the active mask, found with bfind) adds the block's and
/// the visits' counts; then the lanes going to successor 0 branch into a
/// region where their own active mask is the ballot the voting probe takes,
/// and their leader adds its popc, 1 arrival, and 1 divergent visit when it
/// is not the whole group's mask. Lanes of one group take the branch
/// together (a group splits only at a branch), so the counts are the
/// voting probe's.
static std::string syncFreeBody(const ProbeSpec &S, const CounterArray &C,
                                StringRef Cond, StringRef BaseOperand) {
  assert(!S.UseElect && "the leader is found with bfind, %wsl is the lane");
  auto Add = [&](std::string &To, uint64_t Byte, StringRef Mask) {
    if (Mask.empty())
      To += formatv("\tred.global.add.u64 {0}, 1;\n", at(C, Byte)).str();
    else
      To += formatv("\tpopc.b32 %wsn, {0};\n"
                    "\tcvt.u64.u32 %wsc, %wsn;\n"
                    "\tred.global.add.u64 {1}, %wsc;\n",
                    Mask, at(C, Byte))
                .str();
  };
  // The group's leader: the block's counts, or the visits.
  std::string Lead;
  if (S.BlockWord) {
    uint64_t Block = 8 * *S.BlockWord;
    Add(Lead, Block + 8 * BlockWarpExecutions, "");
    Add(Lead, Block + 8 * BlockThreadExecutions, "%wsm");
  }
  if (S.countsVisits()) {
    uint64_t Rec = 8 * *S.BranchWord;
    Add(Lead, Rec + 8 * BranchVisits, "");
    Add(Lead, Rec + 8 * BranchActiveThreads, "%wsm");
  }
  // The election only where the group's leader adds something (the lane
  // number is needed by successor 0's leader in any case).
  std::string Text = "\tmov.u32 %wsl, %laneid;\n" + replicaBase(C, BaseOperand);
  if (!Lead.empty())
    Text += "\tbfind.u32 %wsn, %wsm;\n"
            "\tsetp.eq.u32 %wsp, %wsl, %wsn;\n"
            "\t@!%wsp bra ws_led;\n" +
            Lead + "ws_led:\n";
  if (!S.BranchWord)
    return Text;
  // The lanes going to successor 0 (the others skip the rest) and their
  // leader.
  uint64_t Rec = 8 * *S.BranchWord;
  Text += formatv("\t@{0}{1} bra ws_done;\n"
                  "\tactivemask.b32 %wsb;\n"
                  "\tbfind.u32 %wsn, %wsb;\n"
                  "\tsetp.eq.u32 %wsp, %wsl, %wsn;\n"
                  "\t@!%wsp bra ws_done;\n"
                  "\tsetp.ne.u32 %wsd, %wsb, %wsm;\n",
                  S.ConditionNegated ? "" : "!", Cond)
              .str();
  if (S.CountArrivals)
    Add(Text, Rec + 8 * BranchSuccessor0Arrivals, "");
  Text += formatv("\t@%wsd red.global.add.u64 {0}, 1;\n",
                  at(C, Rec + 8 * BranchDivergent))
              .str();
  Add(Text, Rec + 8 * BranchFirstSuccessor, "%wsb");
  return Text + "ws_done:\n";
}

Value *warpscope::emitProbe(Instruction *InsertBefore,
                            const CounterArray &Counters, const ProbeSpec &S) {
  bool Pass = S.PassCondition && S.BranchWord && S.NumSuccessors == 2;
  if (!S.BranchWord || S.NumSuccessors == 2) {
    // Operands: the passed-through condition, the condition, the base.
    std::string BaseOperand =
        "$" + std::to_string(unsigned(Pass) + unsigned(bool(S.BranchWord)));
    StringRef Cond = Pass ? "$1" : "$0";
    std::string Text =
        probePrologue(S, !S.SyncFree) +
        (S.SyncFree ? syncFreeBody(S, Counters, Cond, BaseOperand)
                    : leaderRegionBody(S, Counters, Cond, BaseOperand)) +
        "\t}";
    SmallVector<Value *, 2> Args;
    if (S.BranchWord)
      Args.push_back(S.SuccessorIndex);
    // Passed through in the same register (the output is tied to the
    // input): no instruction.
    std::string Constraints = Pass ? "=b,0" : S.BranchWord ? "b" : "";
    if (Counters.Base) {
      Args.push_back(Counters.Base);
      Constraints +=
          (Constraints.empty() ? "" : ",") + baseConstraint(Counters).str();
    }
    SmallVector<Value *, 1> Results;
    emitProbeAsm(InsertBefore, Text, Constraints, Args, 0, &Results, Pass);
    return Pass ? Results[0] : nullptr;
  }
  // A switch: its index is $0, the base $1.
  std::string Text = probePrologue(S) + replicaBase(Counters, "$1");
  SmallVector<Value *, 2> Args;
  std::string Constraints;
  if (S.BlockWord) {
    uint64_t Block = 8 * *S.BlockWord;
    Text += formatv("\t@%wsp red.global.add.u64 {0}, 1;\n",
                    at(Counters, Block + 8 * BlockWarpExecutions));
    Text +=
        addPopcount(S, "%wsm", at(Counters, Block + 8 * BlockThreadExecutions));
  }
  if (S.BranchWord) {
    Constraints = S.NumSuccessors == 2 ? "b" : "r";
    Args.push_back(S.SuccessorIndex);
    Text += branchBody(S, Counters, 8 * *S.BranchWord, Pass ? "$1" : "$0");
  }
  // Passed through in the same register (the output is tied to the
  // input): no instruction.
  if (Pass)
    Constraints = "=b,0";
  if (Counters.Base) {
    Args.push_back(Counters.Base);
    Constraints += ("," + baseConstraint(Counters)).str();
  }
  Text += "\t}";
  SmallVector<Value *, 1> Results;
  emitProbeAsm(InsertBefore, Text, Constraints, Args, 0, &Results, Pass);
  return Pass ? Results[0] : nullptr;
}

Value *warpscope::emitReplicaBase(Instruction *InsertBefore,
                                  const CounterArray &C) {
  std::string Text = formatv("// ws:replica\n\t{{\n"
                             "\t.reg .b32 %ws_replica;\n"
                             "\t.reg .b32 %wsk;\n"
                             "\tmov.u32 %wsk, %clock;\n"
                             "\tand.b32 %wsk, %wsk, {0};\n",
                             C.Replicas - 1)
                         .str();
  // The replicas span at most MaxCounterArrayBytes (layOutCounters): the
  // offset fits 32 bits.
  Text +=
      C.BaseIsOffset
          ? formatv("\tmul.lo.u32 $0, %wsk, {0};\n\t}", C.ReplicaBytes).str()
          : formatv("\tmov.u64 $0, {0};\n"
                    "\tmad.wide.u32 $0, %wsk, {1}, $0;\n\t}",
                    C.Symbol, C.ReplicaBytes)
                .str();
  SmallVector<Value *, 1> Results;
  emitProbeAsm(InsertBefore, Text, C.BaseIsOffset ? "=r" : "=l", {}, 1,
               &Results, false, C.BaseIsOffset ? 32 : 64);
  return Results[0];
}

void warpscope::emitLoopEntryProbe(Instruction *InsertBefore,
                                   const CounterArray &Counters, uint64_t Word,
                                   Value *Cond, bool UseElect) {
  std::string Text = formatv("// ws:entry {0}\n\t{{\n"
                             "\t.reg .b32 %ws_entry_{0};\n"
                             "\t.reg .pred %wsp;\n"
                             "\t.reg .b32 %wsm, %wsl, %wsn;\n"
                             "\t.reg .b64 %wsc;\n"
                             "\tactivemask.b32 %wsm;\n",
                             Word)
                         .str();
  Text += electLeader(UseElect);
  // Only the leader, and only when it goes to successor 0: one region.
  Text += "\tand.pred %wsp, %wsp, $0;\n"
          "\t@!%wsp bra ws_done;\n" +
          replicaBase(Counters, "$1") +
          formatv("\tred.global.add.u64 {0}, 1;\n"
                  "\tpopc.b32 %wsn, %wsm;\n"
                  "\tcvt.u64.u32 %wsc, %wsn;\n"
                  "\tred.global.add.u64 {1}, %wsc;\n"
                  "ws_done:\n\t}",
                  at(Counters, 8 * (Word + LoopEntrySuccessor0Arrivals)),
                  at(Counters, 8 * (Word + LoopEntrySuccessor0Threads)))
              .str();
  if (Counters.Base)
    emitProbeAsm(InsertBefore, Text, ("b," + baseConstraint(Counters)).str(),
                 {Cond, Counters.Base});
  else
    emitProbeAsm(InsertBefore, Text, "b", {Cond});
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

SmallVector<std::pair<uint64_t, Accumulate>, 6>
warpscope::promotedLayout(const ProbeSpec &S) {
  SmallVector<std::pair<uint64_t, Accumulate>, 6> L;
  if (S.BlockWord) {
    L.push_back({*S.BlockWord + BlockWarpExecutions, Accumulate::PerArrival});
    L.push_back({*S.BlockWord + BlockThreadExecutions, Accumulate::PerLane});
  }
  if (S.BranchWord) {
    uint64_t W = *S.BranchWord;
    if (S.countsVisits()) {
      L.push_back({W + BranchVisits, Accumulate::PerArrival});
      L.push_back({W + BranchActiveThreads, Accumulate::PerLane});
    }
    L.push_back({W + BranchDivergent, Accumulate::Divergent});
    L.push_back({W + BranchFirstSuccessor, Accumulate::Successor0});
    if (S.CountArrivals)
      L.push_back({W + BranchSuccessor0Arrivals, Accumulate::Arrivals0});
  }
  return L;
}

bool warpscope::canPromote(const ProbeSpec &S) {
  return !S.BranchWord || S.NumSuccessors == 2;
}

SmallVector<uint64_t, 6> warpscope::promotedWords(const ProbeSpec &S) {
  SmallVector<uint64_t, 6> Words;
  for (auto &[Word, How] : promotedLayout(S))
    Words.push_back(Word);
  return Words;
}

SmallVector<Value *, 6>
warpscope::emitPromotedProbe(Instruction *InsertBefore, const ProbeSpec &S,
                             ArrayRef<Value *> Accumulators) {
  assert(canPromote(S) && "switch probes are not promoted");
  auto Layout = promotedLayout(S);
  assert(Layout.size() == Accumulators.size());
  unsigned N = Layout.size();
  auto [Register, Comment] = markerNames(S);
  // Outputs $0..$N-1, each tied to its input $N..$2N-1 (a predicated add
  // leaves the register as it was), then the branch condition.
  std::string Text = formatv("// {0} (promoted)\n\t{{\n"
                             "\t.reg .b32 {1};\n"
                             "\t.reg .pred %wsp, %wsu, %wsa, %wsd;\n"
                             "\t.reg .b32 %wsm, %wsl, %wsn, %wsb;\n"
                             "\t.reg .b64 %wsx;\n"
                             "\tactivemask.b32 %wsm;\n",
                             Comment, Register)
                         .str();
  Text += electLeader(S.UseElect);
  bool Pass = S.PassCondition && S.BranchWord;
  std::string Cond = "$" + std::to_string(2 * N + Pass);
  // Everything after the election is the leader's (predicated on %wsp): it
  // adds the group's counts to its own registers, so the other lanes run
  // only activemask, the election and the ballot.
  if (S.BranchWord)
    Text += formatv("\tvote.sync.ballot.b32 %wsb, {0}{1}, %wsm;\n",
                    S.ConditionNegated ? "!" : "", Cond)
                .str();
  for (unsigned K = 0; K < N; ++K) {
    switch (Layout[K].second) {
    case Accumulate::PerArrival:
      Text += formatv("\t@%wsp add.u64 ${0}, ${0}, 1;\n", K).str();
      break;
    case Accumulate::PerLane:
      Text += formatv("\t@%wsp popc.b32 %wsn, %wsm;\n"
                      "\t@%wsp mad.wide.u32 ${0}, %wsn, 1, ${0};\n",
                      K)
                  .str();
      break;
    case Accumulate::Divergent:
      // Divergent iff the ballot is neither empty nor all active lanes.
      Text += formatv("\t@%wsp setp.ne.u32 %wsa, %wsb, 0;\n"
                      "\t@%wsp setp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\n"
                      "\t@%wsp selp.u64 %wsx, 1, 0, %wsd;\n"
                      "\t@%wsp add.u64 ${0}, ${0}, %wsx;\n",
                      K)
                  .str();
      break;
    case Accumulate::Successor0:
      Text += formatv("\t@%wsp popc.b32 %wsn, %wsb;\n"
                      "\t@%wsp mad.wide.u32 ${0}, %wsn, 1, ${0};\n",
                      K)
                  .str();
      break;
    case Accumulate::Arrivals0:
      // After Divergent in the layout: %wsa is "any lane to successor 0".
      Text += formatv("\t@%wsp selp.u64 %wsx, 1, 0, %wsa;\n"
                      "\t@%wsp add.u64 ${0}, ${0}, %wsx;\n",
                      K)
                  .str();
      break;
    }
  }
  Text += "\t}";
  std::string Constraints;
  for (unsigned K = 0; K < N; ++K)
    Constraints += "=l,";
  if (Pass)
    Constraints += "=b,";
  for (unsigned K = 0; K < N; ++K)
    Constraints += std::to_string(K) + ",";
  SmallVector<Value *, 8> Args(Accumulators.begin(), Accumulators.end());
  if (S.BranchWord) {
    Constraints += Pass ? std::to_string(N) : "b";
    Args.push_back(S.SuccessorIndex);
  } else {
    Constraints.pop_back();
  }
  SmallVector<Value *, 6> Results;
  emitProbeAsm(InsertBefore, Text, Constraints, Args, N, &Results, Pass);
  return Results;
}

SmallVector<Value *, 16> warpscope::emitPromotedInit(Instruction *InsertBefore,
                                                     unsigned N, uint64_t Id) {
  std::string Text =
      formatv("// ws:init {0}\n\t{{\n\t.reg .b32 %ws_init_{0};\n", Id).str();
  std::string Constraints;
  for (unsigned K = 0; K < N; ++K) {
    Text += formatv("\tmov.u64 ${0}, 0;\n", K).str();
    Constraints += (K ? ",=l" : "=l");
  }
  Text += "\t}";
  SmallVector<Value *, 16> Results;
  emitProbeAsm(InsertBefore, Text, Constraints, {}, N, &Results);
  return Results;
}

SmallVector<Value *, 8> warpscope::emitPromotedFlush(
    Instruction *InsertBefore, StringRef CountersSymbol,
    ArrayRef<Value *> Accumulators, ArrayRef<uint64_t> Words,
    ArrayRef<unsigned> Leads, uint64_t Id) {
  unsigned N = Accumulators.size();
  assert(N && N == Words.size());
  // A lane holds counts only for the probes where it led a group, and then
  // that probe's first accumulator (warp executions or visits) is non-zero:
  // one test of their OR picks the lanes that add their values (one atomic
  // per counter per lane that led: one per warp when the warp stayed
  // together) and set them back to zero (outputs are tied to the inputs).
  std::string Text = formatv("// ws:flush {0}\n\t{{\n"
                             "\t.reg .b32 %ws_flush_{0};\n"
                             "\t.reg .pred %wsq;\n"
                             "\t.reg .b64 %wst;\n",
                             Id)
                         .str();
  std::string Led = "$" + std::to_string(Leads.front());
  if (Leads.size() > 1) {
    Text += formatv("\tor.b64 %wst, ${0}, ${1};\n", Leads[0], Leads[1]).str();
    for (unsigned K = 2; K < Leads.size(); ++K)
      Text += formatv("\tor.b64 %wst, %wst, ${0};\n", Leads[K]).str();
    Led = "%wst";
  }
  Text += formatv("\tsetp.ne.u64 %wsq, {0}, 0;\n", Led).str();
  for (unsigned K = 0; K < N; ++K)
    Text += formatv("\t@%wsq red.global.add.u64 [{1}+{2}], ${0};\n", K,
                    CountersSymbol, 8 * Words[K])
                .str();
  for (unsigned K = 0; K < N; ++K)
    Text += formatv("\t@%wsq mov.u64 ${0}, 0;\n", K).str();
  Text += "\t}";
  std::string Constraints;
  for (unsigned K = 0; K < N; ++K)
    Constraints += "=l,";
  for (unsigned K = 0; K < N; ++K)
    Constraints += std::to_string(K) + (K + 1 < N ? "," : "");
  SmallVector<Value *, 8> Reset;
  emitProbeAsm(InsertBefore, Text, Constraints, Accumulators, N, &Reset);
  return Reset;
}

void warpscope::emitBlockMarker(Instruction *InsertBefore, uint64_t BlockWord) {
  ProbeSpec S;
  S.BlockWord = BlockWord;
  auto [Register, Comment] = markerNames(S);
  // One dead, unguarded mov keeps the block's place in the PTX (an empty
  // scope could end up before another block's first instruction, or before
  // a guarded one) and gives the marker an instruction that all of the
  // block's lanes execute. ptxas deletes it: no cost on a GPU.
  emitProbeAsm(InsertBefore,
               formatv("// {0} (derived)\n\t{{\n\t.reg .b32 {1};\n"
                       "\tmov.u32 {1}, 0;\n\t}",
                       Comment, Register)
                   .str(),
               "", {});
}
