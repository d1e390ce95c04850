//===- WarpOps.cpp - warp-collective instructions -------------------------===//
//
// shfl.sync, vote.sync, activemask, match.sync, redux.sync and elect.sync:
// the instructions whose lanes read each other's values or the execution
// mask. They see the lanes of the warp's current path that execute them;
// vote, match and redux only those of each lane's membermask (S[1]): the
// two halves of a cooperative_groups::tiled_partition<16> execute one
// redux.sync with masks 0x0000ffff and 0xffff0000, two reductions.
// Free functions (WarpOps.h): they need no launch state.
//
//===----------------------------------------------------------------------===//
#include "WarpOps.h"
#include "Lanes.h"

#include <algorithm>

namespace warpscope::emu::core {

// shfl.sync: each lane reads the source lane its mode and clamp/segment mask
// select (itself when out of range; the predicate output says which).
static void shflLanes(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  uint64_t Tmp[32];
  uint64_t Pr[32];
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint32_t Bv = (uint32_t)B[L], Cv = (uint32_t)C[L];
    uint32_t Clamp = Cv & 31, Seg = (Cv >> 8) & 31;
    int MinL = L & Seg, MaxL = (L & Seg) | (Clamp & ~Seg);
    int J;
    bool Ok;
    switch (I.Sub) {
    case ShUp:
      J = L - (int)(Bv & 31);
      Ok = J >= MaxL; // sic: PTX ISA pseudocode
      break;
    case ShDown:
      J = L + (int)(Bv & 31);
      Ok = J <= MaxL;
      break;
    case ShBfly:
      J = L ^ (int)(Bv & 31);
      Ok = J <= MaxL;
      break;
    default:
      J = MinL | (int)(Bv & 31 & ~Seg);
      Ok = J <= MaxL;
      break;
    }
    if (!Ok || J < 0 || J > 31)
      J = L;
    Tmp[L] = A[J];
    Pr[L] = Ok;
  }
  for (int L = 0; L < 32; ++L)
    if ((EM >> L) & 1) {
      D[L] = Tmp[L];
      if (I.Flags & FHasPredOut)
        R[(size_t)I.D[1] * 32 + L] = Pr[L];
    }
}

// The lanes lane L's collective spans: those of its membermask that
// execute the instruction.
static uint32_t groupOf(const Inst &I, const uint64_t *R, uint32_t EM, int L) {
  return EM & (uint32_t)R[(size_t)I.S[1] * 32 + L];
}

// Whether every executing lane's membermask holds all of them (the common
// case, a full-warp constant): then one group, EM, and one result.
static bool oneGroup(const Inst &I, const uint64_t *R, uint32_t EM) {
  const uint64_t *Mk = R + (size_t)I.S[1] * 32;
  uint32_t All = ~0u;
  for (uint32_t X = EM; X; X &= X - 1)
    All &= (uint32_t)Mk[__builtin_ctz(X)];
  return (EM & ~All) == 0;
}

// match.any/.all: lanes of the group with equal values (Sub 1: .all, with
// predicate).
static void matchLanes(const Inst &I, uint64_t *R, uint32_t EM) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  unsigned S = tySize(I.T);
  uint64_t Msk = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
  uint64_t Res[32];
  bool AllEq[32];
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint32_t G = groupOf(I, R, EM, L), M2 = 0;
    for (int J = 0; J < 32; ++J)
      if (((G >> J) & 1) && (A[J] & Msk) == (A[L] & Msk))
        M2 |= 1u << J;
    Res[L] = M2;
    AllEq[L] = (M2 | (1u << L)) == (G | (1u << L));
  }
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    if (I.Sub == 1) {
      D[L] = AllEq[L] ? groupOf(I, R, EM, L) : 0;
      if (I.Flags & FHasPredOut)
        R[(size_t)I.D[1] * 32 + L] = AllEq[L];
    } else {
      D[L] = Res[L];
    }
  }
}

// The reduction of I's source over the lanes of G.
static uint64_t reduceGroup(const Inst &I, const uint64_t *R, uint32_t G) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  bool S = tySigned(I.T);
  uint64_t Acc = 0;
  bool FirstV = true;
  for (int L = 0; L < 32; ++L) {
    if (!((G >> L) & 1))
      continue;
    uint32_t V = (uint32_t)A[L];
    if (FirstV) {
      Acc = V;
      FirstV = false;
      continue;
    }
    switch (I.Sub) {
    case AtAdd:
      Acc = (uint32_t)(Acc + V);
      break;
    case AtMin:
      Acc = S ? (uint32_t)std::min((int32_t)Acc, (int32_t)V)
              : std::min((uint32_t)Acc, V);
      break;
    case AtMax:
      Acc = S ? (uint32_t)std::max((int32_t)Acc, (int32_t)V)
              : std::max((uint32_t)Acc, V);
      break;
    case AtAnd:
      Acc &= V;
      break;
    case AtOr:
      Acc |= V;
      break;
    case AtXor:
      Acc ^= V;
      break;
    }
  }
  return Acc;
}

// redux.sync: one reduction over each lane's group, given to that lane
// (all results first: D may be the source register).
static void reduxLanes(const Inst &I, uint64_t *R, uint32_t EM) {
  uint64_t *D = R + (size_t)I.D[0] * 32;
  if (oneGroup(I, R, EM)) {
    uint64_t Acc = reduceGroup(I, R, EM);
    LANES(D[l] = Acc);
    return;
  }
  uint64_t Res[32];
  for (int L = 0; L < 32; ++L)
    if ((EM >> L) & 1)
      Res[L] = reduceGroup(I, R, groupOf(I, R, EM, L) | (1u << L));
  LANES(D[l] = Res[l]);
}

// vote's result for a group G whose ballot is B.
static uint64_t voteOf(uint8_t Sub, uint32_t B, uint32_t G) {
  switch (Sub) {
  case VoAll:
    return B == G;
  case VoAny:
    return B != 0;
  case VoUni:
    return B == 0 || B == G;
  default:
    return B;
  }
}

bool warpOps(const Inst &I, uint64_t *R, uint32_t EM, uint32_t Active) {
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  switch (I.Op) {
  case OpShfl:
    shflLanes(I, R, EM);
    return true;
  case OpVote: {
    uint32_t Ballot = 0;
    bool Neg = I.Flags & FNegC;
    for (int L = 0; L < 32; ++L)
      if ((EM >> L) & 1)
        Ballot |= (uint32_t)(((A[L] & 1) != 0) != Neg) << L;
    if (oneGroup(I, R, EM)) {
      uint64_t V = voteOf(I.Sub, Ballot, EM);
      LANES(D[l] = V);
      return true;
    }
    for (int L = 0; L < 32; ++L)
      if ((EM >> L) & 1) {
        uint32_t G = groupOf(I, R, EM, L) | (1u << L);
        D[L] = voteOf(I.Sub, Ballot & G, G);
      }
    return true;
  }
  case OpActivemask: {
    LANES(D[l] = Active);
    return true;
  }
  case OpElect: {
    // One deterministic leader among the executing lanes: the lowest.
    int Leader = __builtin_ctz(EM);
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1))
        continue;
      D[L] = (uint64_t)Leader;
      R[(size_t)I.D[1] * 32 + L] = L == Leader;
    }
    return true;
  }
  case OpMatch:
    matchLanes(I, R, EM);
    return true;
  case OpRedux:
    reduxLanes(I, R, EM);
    return true;
  default:
    return false;
  }
}

} // namespace warpscope::emu::core
