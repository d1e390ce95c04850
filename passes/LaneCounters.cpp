//===- LaneCounters.cpp - Lane-local 32-bit loop counters -----------------===//
//
// The inline PTX of lane-local loop counters (Probes.h): in a loop whose trip
// count per entry is bounded below 2^32, each lane counts in 32-bit
// registers (itself for thread-level counts, the elected leader for its
// group's warp-level counts), and the loop's exits sum the registers over
// the lanes there (redux.sync) for one atomic per counter per warp. Compared
// with the 64-bit leader registers (emitPromotedProbe), the loop runs no
// popc, no 64-bit add, and half the registers per counter.
//
//===----------------------------------------------------------------------===//

#include "Probes.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace warpscope;

namespace {

/// "=r,=r,...,0,1,...": N outputs tied to their inputs (a predicated add
/// leaves the register as it was), then Extra.
std::string tiedConstraints(unsigned N, bool Pass, StringRef Extra) {
  std::string C;
  for (unsigned K = 0; K < N; ++K)
    C += "=r,";
  if (Pass)
    C += "=b,";
  for (unsigned K = 0; K < N; ++K)
    C += std::to_string(K) + ",";
  C += Extra.str();
  if (!C.empty() && C.back() == ',')
    C.pop_back();
  return C;
}

} // namespace

SmallVector<Value *, 6> warpscope::emitLaneProbe(Instruction *InsertBefore,
                                                 const ProbeSpec &S,
                                                 ArrayRef<Value *> Accumulators,
                                                 ArrayRef<LaneField> Fields) {
  assert(canPromote(S) && "switch probes are not promoted");
  auto Layout = promotedLayout(S);
  assert(Layout.size() == Fields.size());
  unsigned N = Accumulators.size();
  ProbeMarker Marker{S.BlockWord, S.BranchWord};
  std::string Text = formatv("// {0} (promoted)\n\t{{\n"
                             "\t.reg .b32 {1};\n"
                             "\t.reg .pred %wsp, %wsa, %wsd;\n"
                             "\t.reg .b32 %wsm, %wsl, %wsn, %wsb;\n"
                             "\tactivemask.b32 %wsm;\n",
                             Marker.text(), Marker.registerName())
                         .str();
  Text += electLeader(S.UseElect);
  bool Pass = S.PassCondition && S.BranchWord;
  // The branch condition's operand: after the outputs and tied inputs.
  std::string Cond = "$" + std::to_string(2 * N + Pass);
  std::string Not = S.ConditionNegated ? "!" : "";
  if (S.BranchWord)
    Text += formatv("\tvote.sync.ballot.b32 %wsb, {0}{1}, %wsm;\n", Not, Cond)
                .str();
  for (auto [K, F] : enumerate(Fields)) {
    assert(F.Reg < N && (F.Shift == 0 || F.Shift == 16));
    // One add of a constant per count, packed or not.
    uint32_t One = uint32_t(1) << F.Shift;
    switch (Layout[K].second) {
    case Accumulate::PerArrival:
      Text += formatv("\t@%wsp add.u32 ${0}, ${0}, {1};\n", F.Reg, One).str();
      break;
    case Accumulate::PerLane:
      Text += formatv("\tadd.u32 ${0}, ${0}, {1};\n", F.Reg, One).str();
      break;
    case Accumulate::Divergent:
      // %wsa: the leader, and some lane goes to successor 0; %wsd: that,
      // and not every lane (the ballot is neither empty nor the mask).
      Text += formatv("\tsetp.ne.and.u32 %wsa, %wsb, 0, %wsp;\n"
                      "\tsetp.ne.and.u32 %wsd, %wsb, %wsm, %wsa;\n"
                      "\t@%wsd add.u32 ${0}, ${0}, {1};\n",
                      F.Reg, One)
                  .str();
      break;
    case Accumulate::Successor0:
      Text +=
          formatv("\t@{1}{2} add.u32 ${0}, ${0}, {3};\n", F.Reg, Not, Cond, One)
              .str();
      break;
    case Accumulate::Arrivals0:
      // After Divergent in the layout: %wsa is set.
      Text += formatv("\t@%wsa add.u32 ${0}, ${0}, {1};\n", F.Reg, One).str();
      break;
    }
  }
  Text += "\t}";
  SmallVector<Value *, 8> Args(Accumulators.begin(), Accumulators.end());
  std::string Extra;
  if (S.BranchWord) {
    Extra = Pass ? std::to_string(N) : "b";
    Args.push_back(S.SuccessorIndex);
  }
  SmallVector<Value *, 6> Results;
  emitProbeAsm(InsertBefore, Text, tiedConstraints(N, Pass, Extra), Args, N,
               &Results, Pass, 32);
  return Results;
}

SmallVector<Value *, 16> warpscope::emitLaneInit(Instruction *InsertBefore,
                                                 unsigned N, uint64_t Id) {
  std::string Text =
      formatv("// ws:init {0}\n\t{{\n\t.reg .b32 %ws_init_{0};\n", Id).str();
  std::string Constraints;
  for (unsigned K = 0; K < N; ++K) {
    Text += formatv("\tmov.u32 ${0}, 0;\n", K).str();
    Constraints += (K ? ",=r" : "=r");
  }
  Text += "\t}";
  SmallVector<Value *, 16> Results;
  emitProbeAsm(InsertBefore, Text, Constraints, {}, N, &Results, false, 32);
  return Results;
}

SmallVector<Value *, 8>
warpscope::emitLaneFlush(Instruction *InsertBefore, StringRef CountersSymbol,
                         ArrayRef<Value *> Accumulators,
                         ArrayRef<LaneField> Fields, ArrayRef<uint64_t> Words,
                         ArrayRef<bool> LeaderOnly, uint64_t Id, bool UseElect,
                         bool SplitHalves, bool Packed) {
  unsigned N = Accumulators.size();
  assert(N && Fields.size() == Words.size() &&
         Fields.size() == LeaderOnly.size() && !(Packed && SplitHalves));
  // Every lane here holds thread-level counts: the lanes that leave together
  // sum each such register over their mask, the leader adds the sum when it
  // is not zero. Every lane starts again at 0.
  std::string Text = formatv("// ws:flush {0}\n\t{{\n"
                             "\t.reg .b32 %ws_flush_{0};\n"
                             "\t.reg .pred %wsp, %wsq;\n"
                             "\t.reg .b32 %wsm, %wsl, %wsn, %wsh;\n"
                             "\t.reg .b64 %wsc, %wst;\n"
                             "\tactivemask.b32 %wsm;\n",
                             Id)
                         .str() +
                     electLeader(UseElect);
  for (auto [K, F] : enumerate(Fields)) {
    // The count: a packed field's 16 bits (a lane's is at most 65535, so 32
    // lanes' sums stay below 2^21), else the whole register.
    std::string Count = "$" + std::to_string(F.Reg);
    if (Packed) {
      Text += F.Shift
                  ? formatv("\tshr.u32 %wsn, {0}, {1};\n", Count, F.Shift).str()
                  : formatv("\tand.b32 %wsn, {0}, 65535;\n", Count).str();
      Count = "%wsn";
    }
    if (LeaderOnly[K]) {
      // Only lanes that led hold counts here (one per warp while it stays
      // together): each adds its own.
      Text += formatv("\tsetp.ne.u32 %wsq, {0}, 0;\n"
                      "\tcvt.u64.u32 %wsc, {0};\n"
                      "\t@%wsq red.global.add.u64 [{1}+{2}], %wsc;\n",
                      Count, CountersSymbol, 8 * Words[K])
                  .str();
    } else {
      if (SplitHalves)
        // 32 lanes' sums of 16-bit halves cannot wrap; the total is 64-bit.
        Text += formatv("\tshr.u32 %wsh, {0}, 16;\n"
                        "\tand.b32 %wsn, {0}, 65535;\n"
                        "\tredux.sync.add.u32 %wsh, %wsh, %wsm;\n"
                        "\tredux.sync.add.u32 %wsn, %wsn, %wsm;\n"
                        "\tmul.wide.u32 %wsc, %wsh, 65536;\n"
                        "\tcvt.u64.u32 %wst, %wsn;\n"
                        "\tadd.u64 %wsc, %wsc, %wst;\n",
                        Count)
                    .str();
      else
        Text += formatv("\tredux.sync.add.u32 %wsn, {0}, %wsm;\n"
                        "\tcvt.u64.u32 %wsc, %wsn;\n",
                        Count)
                    .str();
      Text += formatv("\tsetp.ne.and.u64 %wsq, %wsc, 0, %wsp;\n"
                      "\t@%wsq red.global.add.u64 [{0}+{1}], %wsc;\n",
                      CountersSymbol, 8 * Words[K])
                  .str();
    }
    // Zeroed after its register's last count is read.
    if (none_of(Fields.drop_front(K + 1),
                [&](const LaneField &G) { return G.Reg == F.Reg; }))
      Text += formatv("\tmov.u32 ${0}, 0;\n", F.Reg).str();
  }
  Text += "\t}";
  SmallVector<Value *, 8> Reset;
  emitProbeAsm(InsertBefore, Text, tiedConstraints(N, false, ""), Accumulators,
               N, &Reset, false, 32);
  return Reset;
}

SmallVector<Value *, 16>
warpscope::emitLaneGuard(Instruction *InsertBefore, StringRef CountersSymbol,
                         ArrayRef<Value *> Accumulators,
                         ArrayRef<LaneField> Fields, ArrayRef<uint64_t> Words,
                         uint64_t Id, unsigned Guard, uint32_t Limit,
                         bool Packed) {
  unsigned N = Accumulators.size();
  assert(Guard < Fields.size() && Fields.size() == Words.size() &&
         Limit <= (Packed ? 65534u : 4294967294u));
  // Packed, the guard's count is normally a register's high half
  // (collectLoopWords): the register is below Limit << 16 iff that half is
  // below Limit, so the test needs no extraction. A low half is extracted.
  const LaneField &G = Fields[Guard];
  std::string Test = formatv("${0}", G.Reg).str();
  std::string Extract;
  if (Packed && G.Shift == 0) {
    Extract = formatv("\tand.b32 %wsn, {0}, 65535;\n", Test).str();
    Test = "%wsn";
  }
  // Lanes spill on their own (each at its own count), so no collective:
  // one branch around per-lane atomics that in practice never run.
  std::string Text = formatv("// ws:guard {0}\n\t{{\n"
                             "\t.reg .b32 %ws_guard_{0};\n"
                             "\t.reg .pred %wso;\n{3}"
                             "\t.reg .b64 %wsc;\n{4}"
                             "\tsetp.lt.u32 %wso, {1}, {2};\n"
                             "\t@%wso bra ws_kept;\n",
                             Id, Test, uint64_t(Limit) << G.Shift,
                             Packed ? "\t.reg .b32 %wsn;\n" : "", Extract)
                         .str();
  for (auto [K, F] : enumerate(Fields)) {
    std::string Count = "$" + std::to_string(F.Reg);
    if (Packed) {
      Text += F.Shift ? formatv("\tshr.u32 %wsn, {0}, 16;\n", Count).str()
                      : formatv("\tand.b32 %wsn, {0}, 65535;\n", Count).str();
      Count = "%wsn";
    }
    Text += formatv("\tcvt.u64.u32 %wsc, {0};\n"
                    "\tred.global.add.u64 [{1}+{2}], %wsc;\n",
                    Count, CountersSymbol, 8 * Words[K])
                .str();
    if (none_of(Fields.drop_front(K + 1),
                [&](const LaneField &H) { return H.Reg == F.Reg; }))
      Text += formatv("\tmov.u32 ${0}, 0;\n", F.Reg).str();
  }
  Text += "ws_kept:\n\t}";
  SmallVector<Value *, 16> Kept;
  emitProbeAsm(InsertBefore, Text, tiedConstraints(N, false, ""), Accumulators,
               N, &Kept, false, 32);
  return Kept;
}
