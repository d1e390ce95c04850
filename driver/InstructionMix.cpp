//===- InstructionMix.cpp - Dynamic PTX instructions ----------------------===//

#include "InstructionMix.h"
#include "InstructionClasses.h"
#include <algorithm>
#include <optional>

using namespace warpscope;

namespace {

const BranchCounts *branchOf(const FunctionProfile &F, unsigned Block) {
  for (const BranchCounts &Br : F.Branches)
    if (Br.Block == Block && Br.Successors.size() == 2)
      return &Br;
  return nullptr;
}

} // namespace

std::optional<WarpThread> warpscope::edgeExecutions(const FunctionProfile &F,
                                                    const PtxEdge &E) {
  const BlockCounts &X = F.Blocks[E.From], &V = F.Blocks[E.Other];
  const BranchCounts *Br = branchOf(F, E.From);
  if (!Br)
    return std::nullopt;
  uint64_t Divergent = Br->Probed ? Br->Divergent : 0;
  if (E.Toward) {
    // The branch record: threads to that successor, visits reaching it.
    if (!Br->Probed || !Br->CountsArrivals)
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
  for (const PtxEdge &E : F.PtxEdges) {
    if (std::optional<WarpThread> Exec = edgeExecutions(F, E)) {
      addStatic(M, E.Ptx, *Exec);
    } else {
      for (const auto &[Op, N] : E.Ptx)
        M.Unknown[Op] += N;
    }
  }
  for (const auto &[Op, N] : F.PtxUnattributed)
    M.Unknown[Op] += N;
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
