//===- LoadsAhead.cpp - Loads the simulated SM sends before their place ---===//
//
// The model issues PTX in order, but ptxas schedules loads ahead of the
// uses of earlier ones: a basic block's independent loads (blockAhead) and
// the loads of the iterations of a loop it unrolls (loadAhead). A warp's
// load sent ahead still issues in its place; its data is back when the
// early access says (loadData). docs/timing-model.md, "Unrolled loops'
// loads" and "A block's loads ahead of their uses".
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"

#include <algorithm>

namespace warpscope::emu::timing {

uint64_t SmSim::access(const WarpState &W, size_t P, uint64_t At) {
  static const MemAccess None;
  const TraceOp &Op = W.T->Ops[P];
  const MemAccess &M = Op.Mem != NoMem ? W.T->Mems[Op.Mem] : None;
  return Mem.access(Table[Op.Id], M, W.T->Lines.data(), At, Ctas[W.Cta].T.Cta);
}

uint64_t SmSim::loadData(WarpState &W, uint64_t T) {
  const StaticInst &SI = Table[W.T->Ops[W.Pos].Id];
  // Each load of a block moves the window of its block's loads in flight
  // on, whether it was sent ahead itself or not.
  auto Block = [&] {
    if (SI.Hoists && C.BlockLoads > 1)
      blockAhead(W, T);
  };
  // An unrolled load's next executions go ahead from the one execution a
  // group of them leaves in place: one that went ahead with its own
  // block's loads counts as in place.
  auto Unrolled = [&] {
    if (SI.Unrolled && C.UnrolledLoads > 1)
      loadAhead(W, T);
  };
  for (auto &A : W.Ahead)
    if (A.Pos == W.Pos) {
      const uint64_t Done = A.Done;
      const bool InBlock = A.InBlock;
      A = W.Ahead.back();
      W.Ahead.pop_back();
      Block();
      if (InBlock)
        Unrolled();
      return Done;
    }
  const uint64_t Done = access(W, W.Pos, T);
  Block();
  Unrolled();
  return Done;
}

bool SmSim::sentAhead(const WarpState &W, size_t P) {
  for (const auto &A : W.Ahead)
    if (A.Pos == P)
      return true;
  return false;
}

// ptxas's scheduler issues a basic block's global and shared loads ahead
// of the uses of earlier loads (the SASS of srad, backprop, cfd_flux, the
// advisor's colsum: every global load of such a block before its first use;
// fir's 32-tap body: 21 of its 64 loads before the first FFMA;
// nw_tile_diag's step: its four independent LDS first), where the PTX may
// interleave each load with its use. From such a load the model walks the
// rest of its block in the warp's trace and sends each later global or
// shared load to memory now, one a cycle, up to BlockLoads - 1 of them (a
// shared one only before any store, atomic or copy on the way), unless its
// address or guard comes from a load of the way or from a result still
// pending (a pointer chase, a value from an earlier block's load) or from
// an instruction ptxas could not move. The walk ends at the block's end (a
// branch, a branch target, a compare-and-swap loop), at a barrier or fence, and
// at a store or atomic to memory other than shared, which may alias the loads
// after it (ptxas keeps cfd_flux's and lu_step's loads after the stores before
// them).
void SmSim::blockAhead(WarpState &W, uint64_t T) {
  constexpr size_t MaxBlock = 128;
  if (W.Pos < W.WalkEnd)
    return;
  const std::vector<TraceOp> &Ops = W.T->Ops;
  const unsigned Want = (unsigned)C.BlockLoads - 1;
  // Registers written on the way carry this walk's stamp (Mark: stamp << 1
  // | holds a load's data), so that a lookup costs one compare.
  if (++Walk >> 30) {
    std::fill(Mark.begin(), Mark.end(), 0);
    Walk = 1;
  }
  auto Define = [&](uint32_t R, bool Loaded) {
    Mark[R] = Walk << 1 | (uint32_t)Loaded;
  };
  const StaticInst &First = Table[Ops[W.Pos].Id];
  for (unsigned K = 0; K < First.NDst; ++K)
    Define(First.Dst[K], true);
  unsigned Sent = 0;
  // A store, atomic or asynchronous copy on the way may alias the shared
  // loads after it: they stay in place (global loads go on).
  bool SharedKept = false;
  // A walk that reached the block's end having sent every load on its way
  // leaves nothing for a walk from a later load of the way (host time).
  bool All = true;
  W.WalkEnd = 0;
  for (size_t P = W.Pos + 1; P < Ops.size() && P - W.Pos <= MaxBlock; ++P) {
    const StaticInst &SI = Table[Ops[P].Id];
    if (SI.Leader) {
      W.WalkEnd = All ? P : 0;
      return;
    }
    // Data not at hand: a load's of the way, or a pending result of
    // before (a scoreboarded register not yet written back).
    bool Waits = false;
    for (unsigned K = 0; K < SI.NSrc && !Waits; ++K) {
      const uint32_t R = SI.Src[K];
      Waits =
          Mark[R] >> 1 == Walk
              ? (Mark[R] & 1) != 0
              : W.RegReady[R] > T && W.RegKind[R] != (uint8_t)ModelStall::Wait;
    }
    const bool Load = SI.movableLoad();
    const bool Candidate =
        Load && !Waits && (SI.Sp == Space::Global || !SharedKept);
    All &= !Load || Candidate;
    if (Candidate && !sentAhead(W, P))
      W.Ahead.push_back({P, access(W, P, T + Sent + 1), true});
    if (Candidate && ++Sent == Want)
      return;
    if (SI.endsBlock() || SI.keepsLoadsAfter()) {
      W.WalkEnd = All ? P : 0;
      return;
    }
    SharedKept |= SI.keepsSharedLoadsAfter();
    // (An instruction that vanishes passes its operands on.)
    const bool Taints =
        Waits || (SI.Expand && (SI.K == Kind::Load || SI.K == Kind::Atomic));
    for (unsigned K = 0; K < SI.NDst; ++K)
      Define(SI.Dst[K], Taints);
  }
}

// ptxas unrolls a counted loop (StaticInst::Unrolled) and issues the loads
// of its unrolled iterations before their uses, so a warp has that many
// executions of the load in flight where the PTX order would wait for each
// one's use. The model finds the load's next executions in the warp's trace
// and sends them to memory now, one a cycle, as long as the path between
// executions repeats (one iteration each, at most MaxBody instructions),
// nothing on it keeps loads in place (a barrier, a fence, a store or atomic
// other than shared, as describe() found for the loop) and the address
// does not come from a load of the way (a pointer chase is not hoisted).
// Each execution still issues in its place; its data is back when the early
// access says.
void SmSim::loadAhead(WarpState &W, uint64_t T) {
  constexpr size_t MaxBody = 64;
  const std::vector<TraceOp> &Ops = W.T->Ops;
  const uint32_t Id = Ops[W.Pos].Id;
  const unsigned Want = (unsigned)C.UnrolledLoads - 1;
  auto IsLoaded = [&](uint32_t Slot) {
    return std::find(Loaded.begin(), Loaded.end(), Slot) != Loaded.end();
  };
  const StaticInst &First = Table[Id];
  Loaded.assign(First.Dst, First.Dst + First.NDst);
  size_t Last = W.Pos, Body = 0;
  unsigned Sent = 0;
  for (size_t P = W.Pos + 1; P < Ops.size() && P - Last <= MaxBody; ++P) {
    const StaticInst &SI = Table[Ops[P].Id];
    bool FromLoad = false;
    for (unsigned K = 0; K < SI.NSrc && !FromLoad; ++K)
      FromLoad = IsLoaded(SI.Src[K]);
    if (Ops[P].Id == Id) {
      if ((Body && P - Last != Body) || FromLoad)
        return;
      Body = P - Last;
      Last = P;
      const uint64_t At = T + ++Sent;
      if (!sentAhead(W, P))
        W.Ahead.push_back({P, access(W, P, At), false});
      if (Sent == Want)
        return;
    }
    if (SI.K == Kind::Exit || SI.keepsLoadsAfter())
      return;
    // Registers that hold a load's data (of this way) from here on.
    const bool Taints = SI.K == Kind::Load || SI.K == Kind::Atomic || FromLoad;
    for (unsigned K = 0; K < SI.NDst; ++K) {
      auto It = std::find(Loaded.begin(), Loaded.end(), SI.Dst[K]);
      if (Taints && It == Loaded.end())
        Loaded.push_back(SI.Dst[K]);
      else if (!Taints && It != Loaded.end())
        Loaded.erase(It);
    }
  }
}

} // namespace warpscope::emu::timing
