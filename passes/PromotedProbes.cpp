//===- PromotedProbes.cpp - Loop counters in the leaders' registers -------===//
//
// The inline PTX of loop counter promotion (Probes.h): inside a loop a
// probe's elected leader adds its group's counts to 64-bit registers, and
// each loop exit adds every leader's registers to the counters.
//
//===----------------------------------------------------------------------===//

#include "ProbesImpl.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/Support/FormatVariadic.h"
#include <cassert>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::probes;

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
