//===- FunctionInlining.cpp - GPA's function inlining, call overhead exact ===//
//
// GPA (Table 2): stalls in device functions and at their call sites,
// estimated by latency hiding. Inlining does more than let the compiler
// schedule the callee with the caller: the calling convention goes. So the
// estimate has two parts (docs/advisor.md):
//  - eliminated: every sample at the call overhead (the call, the callee's
//    ret, the parameter and return-value moves through .param space) and
//    the branch latency the call leaves at the callee's first instruction;
//  - hidden: the other latency samples in the callees, at most the active
//    samples left (GPA's Eq. 4) and half of what remains (its 2x bound).
// In hybrid mode the overhead's active samples are the kernel's apportioned
// by exact executions, and the evidence gives the exact calls and
// parameter moves.
//
//===----------------------------------------------------------------------===//

#include "GpaCommon.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace warpscope::advise {
namespace {

bool isCall(const Instr &I) {
  StringRef Op(I.Opcode);
  return !I.Callee.empty() && I.Class == OpClass::Branch &&
         !Op.starts_with("BRA") && !Op.starts_with("bra");
}

bool isReturn(const Instr &I) {
  StringRef Op(I.Opcode);
  return I.Class == OpClass::Branch &&
         (Op == "ret" || Op.starts_with("ret.") || Op.starts_with("RET"));
}

/// A move through .param space that inlining removes: the arguments and
/// return value of a call, and a device function's reads of its own
/// parameters. A kernel's reads of its own parameters (constant-bank
/// operands in SASS) stay: in a kernel, only a read after a call in the
/// same block (the return value) is a move.
bool isParamMove(const Function &F, unsigned I) {
  StringRef Op(F.Instrs[I].Opcode);
  if (!Op.contains(".param") ||
      !(Op.starts_with("ld.") || Op.starts_with("st.")))
    return false;
  if (!F.Kernel || Op.starts_with("st."))
    return true;
  for (unsigned K = F.Blocks[F.Instrs[I].Block].First; K < I; ++K)
    if (isCall(F.Instrs[K]))
      return true;
  return false;
}

} // namespace

void functionInlining(const Inputs &, const KernelView &V, Match &M) {
  double Eliminated = 0, EliminatedActive = 0, Latency = 0;
  double Calls = 0, Moves = 0;
  bool Exact = true, AnyCall = false;
  for (size_t P = 0; P < V.Parts.size(); ++P) {
    const FunctionBlame &B = *V.Parts[P];
    const Function &F = *B.Code;
    size_t N = F.Instrs.size();
    std::vector<double> Active = activeSamples(B);
    bool HasExec = B.Executed.size() == N;
    Exact &= HasExec;
    std::vector<char> Overhead(N);
    for (unsigned I = 0; I < N; ++I) {
      const Instr &In = F.Instrs[I];
      AnyCall |= isCall(In);
      Overhead[I] = isCall(In) || (P > 0 && isReturn(In)) || isParamMove(F, I);
      if (HasExec && Overhead[I] && !isReturn(In))
        (isCall(In) ? Calls : Moves) += B.Executed[I];
    }
    // Dependency stalls on an overhead instruction's result (a value read
    // through .param) go with it; those on real work stay as latency that
    // the inlined code may hide.
    std::vector<double> OnOverhead(N, 0), OnWork(N, 0);
    for (const BlameEdge &E : B.Edges)
      if (!*E.PrunedBy && E.Samples > 0)
        (Overhead[E.Def] ? OnOverhead : OnWork)[E.Use] += E.Samples;
    for (unsigned I = 0; I < N; ++I) {
      const Instr &In = F.Instrs[I];
      const InstrStalls &S = B.Stalls[I];
      double Stalled = S.Total - S.of(StallKind::Active);
      double Gone = OnOverhead[I];
      if (Overhead[I]) {
        Gone = Stalled - OnWork[I] + Active[I];
        EliminatedActive += Active[I];
        Latency += OnWork[I];
      } else if (P > 0) {
        // The call's branch latency shows at the callee's first
        // instruction.
        if (I == 0 && S.ByReason.count("branch_resolving"))
          Gone += S.ByReason.at("branch_resolving");
        Latency += Stalled - Gone;
        if (Stalled - Gone > 0)
          M.Hotspots.push_back(instrHotspot(B, I, Stalled - Gone,
                                            "in device function " + F.Name));
      }
      if (Gone <= 0)
        continue;
      Eliminated += Gone;
      M.Hotspots.push_back(instrHotspot(
          B, I, Gone,
          isCall(In)    ? "call of " + In.Callee
          : Overhead[I] ? (isReturn(In) ? "return from " + F.Name
                                        : "parameter move '" + In.Opcode + "'")
                        : "waits for a parameter move or call"));
    }
  }
  if (!AnyCall)
    return; // nothing is called: nothing to inline
  double Hidden =
      std::max(0.0, std::min({V.A - EliminatedActive, Latency,
                              (V.T - std::min(Eliminated, 0.99 * V.T)) / 2}));
  if (Eliminated + Hidden <= 0)
    return;
  M.M = Eliminated + Hidden;
  M.Speedup =
      eliminationAndHiding(V.T, V.A, Eliminated, EliminatedActive, Latency);
  M.Evidence =
      formatv("call overhead eliminated and callee latency hidden: T / (T - E "
              "- min(A - E_A, M^L, (T - E) / 2)), T = {0}, A = {1}, E = {2} "
              "at calls, returns and parameter moves ({3} active), M^L = {4} "
              "in the callees, {5} hidden",
              formatNumber(V.T, 1), formatNumber(V.A, 1),
              formatNumber(Eliminated, 1), formatNumber(EliminatedActive, 1),
              formatNumber(Latency, 1), formatNumber(Hidden, 1))
          .str();
  if (Exact && Calls > 0)
    M.Evidence += formatv("; {0} calls, {1} parameter moves (exact warp "
                          "executions)",
                          formatNumber(Calls, 0), formatNumber(Moves, 0))
                      .str();
  M.Hints = {"Inline the device functions called here (__forceinline__, or "
             "define them in the same translation unit without "
             "__noinline__) so the call, the return and the parameter moves "
             "go and the compiler schedules the callee with the caller."};
}

} // namespace warpscope::advise
