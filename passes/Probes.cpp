//===- Probes.cpp - Inline PTX for block and branch probes ----------------===//
//
// The probes that count in memory at blocks and two-way branches (emitProbe
// hands a switch's to SwitchProbes.cpp), the replica base a function's probes
// share, loop-entry probes and derived blocks' markers.
//
//===----------------------------------------------------------------------===//

#include "ProbesImpl.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/Support/FormatVariadic.h"
#include <cassert>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::probes;

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
  emitSwitchProbe(InsertBefore, Counters, S);
  return nullptr;
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
