//===- SassShape.cpp - What ptxas makes of a function's PTX ---------------===//
//
// Where ptxas turns several PTX instructions into fewer or more SASS ones
// than describe() charges them as alone, read from sm_90 SASS
// (test/fixtures/gpu/h200/sass) and checked against the H200's measured
// instruction counts (benchmarks/gpu/model_compare.py, "SASS warp
// instructions"; docs/timing-model.md, "PTX is not SASS").
//
//===----------------------------------------------------------------------===//
#include "SassShape.h"

#include <vector>

namespace warpscope::emu::core {

using timing::Kind;
using timing::Pipe;
using timing::StaticInst;

bool isConstant(const Function &F, uint32_t Slot) {
  for (const SlotInit &I : F.Inits)
    if (I.Slot == Slot)
      return I.Kind == InitValue;
  return false;
}

namespace {

// The reads of each register slot of F that the model sees, and whether
// each read is one ptxas can compute in the shared window's 32 bits: the
// address of a shared-memory access, or an operand of a 64-bit add or
// subtract (whose own result decides).
struct SlotReads {
  std::vector<uint32_t> Reads, Reader, Writes;
  std::vector<uint8_t> NotShared; ///< read as something else
};

bool add64(const Inst &I) {
  return (I.Op == OpAdd || I.Op == OpSub) && tySize(I.T) == 8 && !tyFloat(I.T);
}

SlotReads slotReads(const Function &F, const StaticInst *Table, bool Probes) {
  const size_t N = F.NumSlots;
  SlotReads R{std::vector<uint32_t>(N), std::vector<uint32_t>(N),
              std::vector<uint32_t>(N), std::vector<uint8_t>(N)};
  for (uint32_t M : F.MatrixSlots) // long operand lists: not followed
    if (M < N)
      R.NotShared[M] = 1;
  for (uint32_t J = 0; J < F.Code.size(); ++J) {
    if (F.Instrumentation[J] && !Probes)
      continue;
    const Inst &I = F.Code[J];
    auto Read = [&](uint32_t Slot, bool Address) {
      if (Slot < FirstRegSlot || Slot >= N)
        return;
      ++R.Reads[Slot];
      R.Reader[Slot] = J;
      R.NotShared[Slot] |= !Address;
    };
    for (unsigned K = 0; K < I.ND && K < 4; ++K) {
      if (I.D[K] < N)
        ++R.Writes[I.D[K]];
      if (I.Op == OpSust) // lists the values it stores as D
        Read(I.D[K], false);
    }
    for (unsigned K = 0; K < I.NS && K < 5; ++K)
      Read(I.S[K], add64(I));
    if (I.Guard >= 0)
      Read((uint32_t)I.Guard, false);
    const StaticInst &S = Table[J];
    const bool SharedAccess =
        S.Sp == timing::Space::Shared && I.Space == SpShared &&
        (S.K == Kind::Load || S.K == Kind::Store || S.K == Kind::Atomic);
    Read(I.Addr, SharedAccess);
  }
  return R;
}

// ptxas computes addresses in fewer instructions than clang's PTX writes
// them (sm_90 SASS, test/fixtures/gpu/h200/sass):
// - a `mul.wide` whose one reader is a 64-bit add is one IMAD.WIDE with it
//   (bfs_expand's, kmeans_assign's indexing), a `shl.b64` by a constant
//   whose one reader is one is the add's LEA and LEA.HI.X (kmeans_assign):
//   the multiply or shift vanishes into the add;
// - a shared-memory address fits the 32-bit shared window: 64-bit integer
//   arithmetic whose results only ever address shared memory, directly or
//   through more such adds, is one 32-bit instruction (the advisor's
//   occupancy_limiter: IMAD and LEA on the window's base, 3 instructions
//   per address where the PTX has 5).
void markAddressArith(const Function &F, StaticInst *Table, bool Probes) {
  const std::vector<Inst> &Code = F.Code;
  auto Skip = [&](uint32_t J) { return F.Instrumentation[J] && !Probes; };
  SlotReads R = slotReads(F, Table, Probes);
  // The slots only shared addresses read: the largest set closed under
  // "a 64-bit add's operands are in it only if its result is".
  std::vector<uint8_t> Shared(F.NumSlots);
  for (size_t Slot = 0; Slot < Shared.size(); ++Slot)
    Shared[Slot] = R.Reads[Slot] && !R.NotShared[Slot];
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (uint32_t J = 0; J < Code.size(); ++J) {
      const Inst &I = Code[J];
      if (Skip(J) || !add64(I) || (I.D[0] < Shared.size() && Shared[I.D[0]]))
        continue;
      for (unsigned K = 0; K < I.NS && K < 5; ++K)
        if (I.S[K] < Shared.size() && Shared[I.S[K]]) {
          Shared[I.S[K]] = 0;
          Changed = true;
        }
    }
  }
  auto InShared = [&](uint32_t Slot) {
    return Slot < Shared.size() && Shared[Slot];
  };
  std::vector<uint8_t> Absorbed(Code.size()); // an add that took a mul.wide
  for (uint32_t J = 0; J < Code.size(); ++J) {
    const Inst &I = Code[J];
    StaticInst &S = Table[J];
    if (Skip(J) || S.K != Kind::Alu || I.ND == 0 || I.D[0] >= Shared.size())
      continue;
    const uint32_t D = I.D[0];
    const bool Wide = I.Op == OpMul && (I.Flags & FWide) && !tyFloat(I.T);
    const bool Shift =
        I.Op == OpShl && tySize(I.T) == 8 && I.NS > 1 && isConstant(F, I.S[1]);
    if ((Wide || Shift) && R.Reads[D] == 1 && R.Writes[D] == 1 &&
        add64(Code[R.Reader[D]]) && !(Wide && Absorbed[R.Reader[D]])) {
      S.Expand = 0;
      if (Wide) {
        Absorbed[R.Reader[D]] = 1;
        Table[R.Reader[D]].Expand = 1;
      }
      continue;
    }
    if (InShared(D) && S.P == Pipe::Int && !S.Chain && S.Expand > 1)
      S.Expand = 1;
  }
}

// Whether control at K leaves the function at once: a ret or exit, maybe
// after unconditional branches and free probes (not there in the plain
// build; a probe's branches stay within it, so it is passed in order).
bool leaves(const Function &F, uint32_t K, bool Probes) {
  for (unsigned Hops = 0; K < F.Code.size() && Hops < 1024; ++Hops) {
    const Inst &I = F.Code[K];
    if (F.Instrumentation[K] && !Probes)
      ++K;
    else if (I.Op == OpRet || I.Op == OpExit)
      return true;
    else if (I.Op == OpBra && I.Guard < 0)
      K = I.Target;
    else
      return false;
  }
  return K >= F.Code.size();
}

// Whether some path from J's successors comes back to J without passing
// Join: J decides whether to stay in a loop.
bool loopsAround(const Function &F, uint32_t J, uint32_t Join) {
  std::vector<uint8_t> Seen(F.Code.size() + 1);
  std::vector<uint32_t> Work;
  auto Push = [&](uint32_t K) {
    if (K < F.Code.size() && K != Join && !Seen[K]) {
      Seen[K] = 1;
      Work.push_back(K);
    }
  };
  eachSuccessor(F, J, Push);
  while (!Work.empty()) {
    const uint32_t K = Work.back();
    Work.pop_back();
    if (K == J)
      return true;
    eachSuccessor(F, K, Push);
  }
  return false;
}

// ptxas brackets a conditional branch whose paths join again with a
// convergence barrier: BSSY before it, BSYNC where they join (sm_90 SASS:
// bitonic_sort_tile's compare-and-swap, bfs_expand's visited test), so
// the branch stands for 3 instructions. Not a branch that decides a loop
// (its paths meet only after the loop), nor one where a path leaves the
// function (a predicated EXIT), nor one whose paths meet only at the
// function's end.
void markConvergence(const Function &F, StaticInst *Table, bool Probes) {
  const uint32_t N = (uint32_t)F.Code.size();
  for (uint32_t J = 0; J < N; ++J) {
    const Inst &I = F.Code[J];
    if (I.Op != OpBra || I.Guard < 0 || (I.Flags & FUni) ||
        (F.Instrumentation[J] && !Probes) || I.Ipdom >= N ||
        leaves(F, I.Target, Probes) || leaves(F, J + 1, Probes) ||
        loopsAround(F, J, I.Ipdom))
      continue;
    Table[J].Expand += 2;
  }
}

} // namespace

void shapeAsSass(const Function &F, StaticInst *Table, bool Probes) {
  markAddressArith(F, Table, Probes);
  markConvergence(F, Table, Probes);
  // Every sm_90 kernel begins with LDC R1 (the stack pointer) and ULDC.64
  // of the global memory descriptor: on its first instruction that issues.
  if (F.IsKernel)
    for (size_t K = 0; K < F.Code.size(); ++K)
      if ((Probes || !F.Instrumentation[K]) && Table[K].Expand) {
        Table[K].Expand += 2;
        break;
      }
}

} // namespace warpscope::emu::core
