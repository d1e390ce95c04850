//===- SwitchProbes.cpp - Inline PTX for switch probes --------------------===//
//
// A switch's probe (emitProbe, more than two successors): the lanes group by
// successor (match.any), each group's leader counts its successor's words,
// and a switch on an i32 may map its values to successors inside the probe
// (ProbeSpec::SwitchValue, SwitchChain).
//
//===----------------------------------------------------------------------===//

#include "ProbesImpl.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/Support/FormatVariadic.h"
#include <cassert>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::probes;

namespace {

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

/// The switch's record; Rec is its byte offset in the array. Visits and
/// active threads are left out when the block's counts are them.
std::string switchBody(const ProbeSpec &S, const CounterArray &C, uint64_t Rec,
                       StringRef Index) {
  std::string T;
  bool Shared = !S.countsVisits();
  auto Word = [&](unsigned K) { return at(C, Rec + 8 * K); };
  if (!Shared)
    T += formatv("\t@%wsp red.global.add.u64 {0}, 1;\n", Word(BranchVisits));
  // Group is each lane's successor group (match.any of its successor index
  // Succ), the lowest (chain) or highest (value) lane of each group leads it.
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
  if (!Shared)
    T += addPopcount(S, "%wsm", Word(BranchActiveThreads));
  return T;
}

} // namespace

void probes::emitSwitchProbe(Instruction *InsertBefore,
                             const CounterArray &Counters, const ProbeSpec &S) {
  assert(S.BranchWord && S.NumSuccessors != 2 && "not a two-way branch");
  // A switch: its index is $0, the base $1.
  std::string Text = probePrologue(S) + replicaBase(Counters, "$1");
  SmallVector<Value *, 2> Args = {S.SuccessorIndex};
  std::string Constraints = "r";
  if (S.BlockWord) {
    uint64_t Block = 8 * *S.BlockWord;
    Text += formatv("\t@%wsp red.global.add.u64 {0}, 1;\n",
                    at(Counters, Block + 8 * BlockWarpExecutions));
    Text +=
        addPopcount(S, "%wsm", at(Counters, Block + 8 * BlockThreadExecutions));
  }
  Text += switchBody(S, Counters, 8 * *S.BranchWord, "$0");
  if (Counters.Base) {
    Args.push_back(Counters.Base);
    Constraints += ("," + baseConstraint(Counters)).str();
  }
  Text += "\t}";
  emitProbeAsm(InsertBefore, Text, Constraints, Args);
}
