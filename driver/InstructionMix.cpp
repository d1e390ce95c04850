//===- InstructionMix.cpp - Dynamic PTX instructions ----------------------===//

#include "InstructionMix.h"
#include "warpscope/PTX/InstructionClasses.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace warpscope;

namespace {

const BranchCounts *branchOf(const FunctionProfile &F, unsigned Block) {
  for (const BranchCounts &Br : F.Branches)
    if (Br.Block == Block)
      return &Br;
  return nullptr;
}

const BranchCounts *twoWayBranchOf(const FunctionProfile &F, unsigned Block) {
  const BranchCounts *Br = branchOf(F, Block);
  return Br && Br->Successors.size() == 2 ? Br : nullptr;
}

/// Warp arrivals and threads over the IR edge X -> V, from the counts and
/// the control-flow graph: a branch record's arrivals where it has them;
/// else, at a block whose every visit takes exactly one edge (an
/// unconditional or proven-uniform branch), its executions minus its other
/// edges'; else, at a V where no lanes meet again (no divergent branch
/// reconverges there, so every group arriving runs it once), V's executions
/// minus its other incoming edges'. Cycles and deep chains give up.
class EdgeFlow {
public:
  explicit EdgeFlow(const FunctionProfile &F) : F(F), Preds(F.Blocks.size()) {
    for (const BlockCounts &B : F.Blocks) {
      if (!B.hasSuccessors())
        Complete = false;
      for (unsigned S : B.successors())
        Preds[S].push_back(B.Id);
    }
  }

  /// Starts the work budget anew for one piece of PTX; edges derived for
  /// earlier ones are kept.
  EdgeFlow &forNextQuery() {
    Budget = MaxDerivations;
    return *this;
  }

  std::optional<WarpThread> edge(unsigned X, unsigned V) {
    if (auto It = Known.find({X, V}); It != Known.end())
      return It->second;
    // Depth and work are bounded: a large control-flow graph gives up
    // (unknown, so lower bounds) instead of searching without end.
    if (!Complete || X >= F.Blocks.size() || V >= F.Blocks.size() ||
        Open.size() > 32 || !Budget || !Open.insert({X, V}).second)
      return std::nullopt;
    --Budget;
    std::optional<WarpThread> R = derive(X, V);
    Open.erase({X, V});
    // Every derivation is an identity of exact counts: one that succeeds
    // holds whichever way it went.
    if (R)
      Known[{X, V}] = *R;
    return R;
  }

private:
  const FunctionProfile &F;
  std::vector<std::vector<unsigned>> Preds;
  std::set<std::pair<unsigned, unsigned>> Open; ///< edges being derived
  std::map<std::pair<unsigned, unsigned>, WarpThread> Known;
  static constexpr unsigned MaxDerivations = 100000; ///< per query
  unsigned Budget = MaxDerivations;
  bool Complete = true;

  static std::optional<WarpThread> minus(WarpThread A, WarpThread B) {
    if (A.Warp < B.Warp || A.Thread < B.Thread)
      return std::nullopt;
    return WarpThread{A.Warp - B.Warp, A.Thread - B.Thread};
  }

  std::optional<WarpThread> derive(unsigned X, unsigned V) {
    const BlockCounts &BX = F.Blocks[X], &BV = F.Blocks[V];
    const std::vector<unsigned> &Succ = BX.successors();
    if (!is_contained(Succ, V))
      return std::nullopt;
    WarpThread AtX{BX.WarpExecutions, BX.ThreadExecutions};
    if (Succ.size() == 1)
      return AtX;
    const BranchCounts *Br = branchOf(F, X);
    if (!Br || Br->Successors != Succ)
      return std::nullopt;
    if (Br->CountsArrivals && Succ.size() == 2) {
      unsigned K = Succ[0] == V ? 0 : 1;
      return WarpThread{Br->arrivals(K), Br->SuccessorThreads[K]};
    }
    if (Br->Uniform && !Br->Probed) {
      WarpThread Others;
      bool Known = true;
      for (unsigned O : Succ)
        if (O != V) {
          std::optional<WarpThread> E = edge(X, O);
          if (!E) {
            Known = false;
            break;
          }
          Others += *E;
        }
      if (Known)
        return minus(AtX, Others);
    }
    if (BV.Reconverges)
      return std::nullopt;
    WarpThread Others;
    for (unsigned P : Preds[V])
      if (P != X) {
        std::optional<WarpThread> E = edge(P, V);
        if (!E)
          return std::nullopt;
        Others += *E;
      }
    return minus({BV.WarpExecutions, BV.ThreadExecutions}, Others);
  }
};

/// The local rules of docs/database-schema.md (`ptx_edges`).
std::optional<WarpThread> localEdgeExecutions(const FunctionProfile &F,
                                              const PtxEdge &E) {
  const BlockCounts &X = F.Blocks[E.From], &V = F.Blocks[E.Other];
  const BranchCounts *Br = twoWayBranchOf(F, E.From);
  if (!Br)
    return std::nullopt;
  uint64_t Divergent = Br->Probed ? Br->Divergent : 0;
  if (E.Toward) {
    // The branch record: threads to that successor, visits reaching it (for
    // a uniform branch, its loop-entry record).
    if (!Br->CountsArrivals)
      return std::nullopt;
    unsigned K = Br->Successors[0] == E.Other   ? 0
                 : Br->Successors[1] == E.Other ? 1
                                                : 2;
    if (K == 2)
      return std::nullopt;
    uint64_t Arrivals = Br->arrivals(K);
    // Where lanes reconverge, those that arrived on divergent visits wait
    // and run it once, with the last visit that sends all of them.
    if (E.SelfReconverges)
      Arrivals -= std::min(Arrivals, Divergent);
    return WarpThread{Arrivals, Br->SuccessorThreads[K]};
  }
  // The side away from V, a block entered only from this branch: every
  // visit sends lanes to one side or (divergent) both.
  uint64_t ArrivalsAtV = V.WarpExecutions;
  if (E.OtherReconverges && Br->Probed) {
    // V runs once for lanes that reached it on several visits.
    if (!Br->CountsArrivals)
      return std::nullopt;
    ArrivalsAtV = Br->arrivals(Br->Successors[0] == E.Other ? 0 : 1);
  }
  if (X.ThreadExecutions < V.ThreadExecutions ||
      X.WarpExecutions + Divergent < ArrivalsAtV)
    return std::nullopt;
  uint64_t Arrivals = X.WarpExecutions + Divergent - ArrivalsAtV;
  if (E.SelfReconverges)
    Arrivals -= std::min(Arrivals, Divergent);
  return WarpThread{Arrivals, X.ThreadExecutions - V.ThreadExecutions};
}

std::optional<WarpThread> edgeExecutions(const FunctionProfile &F,
                                         const PtxEdge &E, EdgeFlow &Flow) {
  if (E.From >= F.Blocks.size() || E.Other >= F.Blocks.size())
    return std::nullopt;
  if (std::optional<WarpThread> Local = localEdgeExecutions(F, E))
    return Local;
  // Flow through the control-flow graph, over the IR edge this PTX is on.
  const BranchCounts *Br = twoWayBranchOf(F, E.From);
  if (!Br || !is_contained(Br->Successors, E.Other))
    return std::nullopt;
  unsigned To =
      E.Toward ? E.Other : Br->Successors[Br->Successors[0] == E.Other ? 1 : 0];
  std::optional<WarpThread> Exec = Flow.forNextQuery().edge(E.From, To);
  if (Exec && E.SelfReconverges && Br->Probed)
    Exec->Warp -= std::min(Exec->Warp, Br->Divergent);
  return Exec;
}

std::optional<WarpThread> switchPartExecutions(const FunctionProfile &F,
                                               const PtxSwitchPart &P,
                                               EdgeFlow &Flow) {
  const BranchCounts *Br = branchOf(F, P.From);
  if (!Br || Br->Successors.size() < 3 || P.Reaches.empty())
    return std::nullopt;
  std::vector<unsigned> Excluded;
  for (unsigned S : Br->Successors)
    if (!is_contained(P.Reaches, S))
      Excluded.push_back(S);
  if (Excluded.size() + P.Reaches.size() != Br->Successors.size())
    return std::nullopt; // reaches a block that is no successor
  auto IndexOf = [&](unsigned S) {
    return unsigned(find(Br->Successors, S) - Br->Successors.begin());
  };
  if (Br->Probed) {
    // A visit reaches this part unless all its lanes go to excluded blocks:
    // with one excluded block, that is its uniform visits. Its threads are
    // those going to the blocks it reaches.
    if (!Br->CountsUniformVisits || Excluded.size() > 1)
      return std::nullopt;
    WarpThread R{Br->Visits, 0};
    if (!Excluded.empty()) {
      uint64_t U = Br->UniformVisits[IndexOf(Excluded[0])];
      if (U > R.Warp)
        return std::nullopt;
      R.Warp -= U;
    }
    for (unsigned S : P.Reaches)
      R.Thread += Br->SuccessorThreads[IndexOf(S)];
    return R;
  }
  if (!Br->Uniform)
    return std::nullopt;
  // Proven uniform: every visit goes one way, so the edges' counts add up.
  Flow.forNextQuery();
  WarpThread R;
  for (unsigned S : P.Reaches) {
    std::optional<WarpThread> E = Flow.edge(P.From, S);
    if (!E)
      return std::nullopt;
    R += *E;
  }
  return R;
}

} // namespace

std::optional<WarpThread> warpscope::edgeExecutions(const FunctionProfile &F,
                                                    const PtxEdge &E) {
  EdgeFlow Flow(F);
  return ::edgeExecutions(F, E, Flow);
}

std::optional<WarpThread>
warpscope::switchPartExecutions(const FunctionProfile &F,
                                const PtxSwitchPart &P) {
  EdgeFlow Flow(F);
  return ::switchPartExecutions(F, P, Flow);
}

namespace {

void addStatic(InstructionMix &M, const OpcodeCounts &Ptx, WarpThread Exec) {
  for (const auto &[Opcode, N] : Ptx) {
    WarpThread D{Exec.Warp * N, Exec.Thread * N};
    M.ByOpcode[Opcode] += D;
  }
}

} // namespace

uint64_t InstructionMix::unknownStatic() const {
  uint64_t N = 0;
  for (const auto &[Op, K] : Unknown)
    N += K;
  return N;
}

InstructionMix warpscope::instructionMix(const FunctionProfile &F) {
  InstructionMix M;
  if (F.PtxStatus != "ok") {
    M.Why = F.PtxStatus.empty()
                ? "the program database has no PTX histograms (rebuild with "
                  "this version of the plugin)"
                : F.PtxStatus;
    return M;
  }
  M.Available = true;
  for (const BlockCounts &B : F.Blocks)
    addStatic(M, B.Ptx, {B.WarpExecutions, B.ThreadExecutions});
  // PTX whose executions the counts may not give: unknown when they do not.
  auto AddIfKnown = [&](const OpcodeCounts &Ptx,
                        std::optional<WarpThread> Exec) {
    if (Exec)
      return addStatic(M, Ptx, *Exec);
    for (const auto &[Op, N] : Ptx)
      M.Unknown[Op] += N;
  };
  // One flow for the function: edges derived for one piece serve the next.
  EdgeFlow Flow(F);
  for (const PtxEdge &E : F.PtxEdges)
    AddIfKnown(E.Ptx, ::edgeExecutions(F, E, Flow));
  for (const PtxSwitchPart &P : F.PtxSwitchParts)
    AddIfKnown(P.Ptx, ::switchPartExecutions(F, P, Flow));
  AddIfKnown(F.PtxUnattributed, std::nullopt);
  for (const auto &[Opcode, D] : M.ByOpcode) {
    ptx::InstructionInfo Info = ptx::classify(Opcode);
    M.ByClass[Info.Class] += D;
    M.Total += D;
    uint64_t Flops = D.Thread * Info.FlopsPerLane;
    if (Info.Flop == ptx::FloatWidth::Half)
      M.FlopsHalf += Flops;
    else if (Info.Flop == ptx::FloatWidth::Single)
      M.FlopsSingle += Flops;
    else if (Info.Flop == ptx::FloatWidth::Double)
      M.FlopsDouble += Flops;
    if (!Info.Space.empty() && Info.BytesPerLane)
      M.BytesBySpace[Info.Space] += D.Thread * Info.BytesPerLane;
  }
  return M;
}
