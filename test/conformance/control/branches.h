// Branches: bra (guarded, divergent, nested, backward loops), bra.uni and
// brx.idx. Each lane records the path it took; after the join every lane
// votes (vote.sync.ballot with the member mask of the lanes that must be
// there), which is the full group only when the paths have reconverged.
#pragma once
#include "harness.h"

namespace ctl {

// Two-way: @p bra, the fall-through path leaves with an unconditional bra.
__global__ void kBraDivergent(const uint32_t *Pat, uint32_t *Path,
                              uint32_t *Ballot, uint32_t *After) {
  unsigned T = threadIdx.x, Lane = T & 31;
  uint32_t Bit = (Pat[T >> 5] >> Lane) & 1, P, B;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.u32 p, %2, 0;\n\t"
               "@p bra BT%=;\n\t"
               "mov.u32 %0, 1;\n\t"
               "bra BJ%=;\n"
               "BT%=:\n\t"
               "mov.u32 %0, 2;\n"
               "BJ%=:\n\t"
               "vote.sync.ballot.b32 %1, 1, %3;\n\t}"
               : "=&r"(P), "=&r"(B)
               : "r"(Bit), "r"(__activemask()));
  Path[T] = P;
  Ballot[T] = B;
  After[T] = P * 1000 + Lane; // written after the join by every lane
}

// Nested: inner joins vote with the outer path's lanes, the outer join with
// the whole warp.
__global__ void kBraNested(const uint32_t *PatP, const uint32_t *PatQ,
                           uint32_t *Path, uint32_t *Inner, uint32_t *Outer) {
  unsigned T = threadIdx.x, Lane = T & 31, W = T >> 5;
  uint32_t Bp = (PatP[W] >> Lane) & 1, Bq = (PatQ[W] >> Lane) & 1;
  uint32_t Live = __activemask();
  uint32_t MaskP = PatP[W] & Live, MaskNotP = ~PatP[W] & Live;
  uint32_t P, I, O;
  asm volatile("{\n\t.reg .pred p, q;\n\t"
               "setp.ne.u32 p, %3, 0;\n\t"
               "setp.ne.u32 q, %4, 0;\n\t"
               "@p bra NA%=;\n\t"
               "@q bra NB%=;\n\t"
               "mov.u32 %0, 1;\n\t"
               "bra NJ1%=;\n"
               "NB%=:\n\t"
               "mov.u32 %0, 2;\n"
               "NJ1%=:\n\t"
               "vote.sync.ballot.b32 %1, 1, %6;\n\t"
               "bra NJ%=;\n"
               "NA%=:\n\t"
               "@!q bra NC%=;\n\t"
               "mov.u32 %0, 4;\n\t"
               "bra NJ2%=;\n"
               "NC%=:\n\t"
               "mov.u32 %0, 3;\n"
               "NJ2%=:\n\t"
               "vote.sync.ballot.b32 %1, 1, %5;\n"
               "NJ%=:\n\t"
               "vote.sync.ballot.b32 %2, 1, %7;\n\t}"
               : "=&r"(P), "=&r"(I), "=&r"(O)
               : "r"(Bp), "r"(Bq), "r"(MaskP), "r"(MaskNotP), "r"(Live));
  Path[T] = P;
  Inner[T] = I;
  Outer[T] = O;
}

// Backward branch: a loop whose trip count differs per lane (0 = skipped).
__global__ void kBraLoop(const uint32_t *Trips, uint32_t *Acc,
                         uint32_t *Ballot) {
  unsigned T = threadIdx.x;
  uint32_t A, B;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .u32 i;\n\t"
               "mov.u32 i, 0;\n\t"
               "mov.u32 %0, 7;\n\t"
               "setp.eq.u32 p, %2, 0;\n\t"
               "@p bra LD%=;\n"
               "LL%=:\n\t"
               "add.u32 %0, %0, i;\n\t"
               "mul.lo.u32 %0, %0, 3;\n\t"
               "add.u32 i, i, 1;\n\t"
               "setp.lt.u32 p, i, %2;\n\t"
               "@p bra LL%=;\n"
               "LD%=:\n\t"
               "vote.sync.ballot.b32 %1, 1, %3;\n\t}"
               : "=&r"(A), "=&r"(B)
               : "r"(Trips[T]), "r"(__activemask()));
  Acc[T] = A;
  Ballot[T] = B;
}

// bra.uni: the guard is the same for the whole warp (per-warp flag).
__global__ void kBraUni(const uint32_t *Flag, uint32_t *Path) {
  unsigned T = threadIdx.x;
  uint32_t P;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.u32 p, %1, 0;\n\t"
               "@p bra.uni UT%=;\n\t"
               "mov.u32 %0, 1;\n\t"
               "bra.uni UJ%=;\n"
               "UT%=:\n\t"
               "mov.u32 %0, 2;\n"
               "UJ%=:\n\t}"
               : "=&r"(P)
               : "r"(Flag[T >> 5]));
  Path[T] = P + 10 * (T & 31);
}

// brx.idx over a table of 7 labels: five that set a code, the join itself
// (code stays 0) and the instruction right after brx, where the lanes whose
// guard is false also go (code 99).
__global__ void kBrx(const uint32_t *Idx, const uint32_t *Guard, uint32_t *Code,
                     uint32_t *Ballot) {
  unsigned T = threadIdx.x;
  uint32_t C, B;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "setp.ne.u32 p, %3, 0;\n\t"
               "mov.u32 %0, 0;\n"
               "XT%=: .branchtargets X0%=, X1%=, X2%=, X3%=, X4%=, XJ%=, "
               "XF%=;\n\t"
               "@p brx.idx %2, XT%=;\n"
               "XF%=:\n\t"
               "mov.u32 %0, 99;\n\t"
               "bra XJ%=;\n"
               "X0%=:\n\t"
               "mov.u32 %0, 11;\n\t"
               "bra XJ%=;\n"
               "X1%=:\n\t"
               "mov.u32 %0, 22;\n\t"
               "bra XJ%=;\n"
               "X2%=:\n\t"
               "mov.u32 %0, 33;\n\t"
               "bra XJ%=;\n"
               "X3%=:\n\t"
               "mov.u32 %0, 44;\n\t"
               "bra XJ%=;\n"
               "X4%=:\n\t"
               "mov.u32 %0, 55;\n"
               "XJ%=:\n\t"
               "vote.sync.ballot.b32 %1, 1, %4;\n\t}"
               : "=&r"(C), "=&r"(B)
               : "r"(Idx[T]), "r"(Guard[T]), "r"(__activemask()));
  Code[T] = C;
  Ballot[T] = B;
}

inline void testBraDivergent() {
  const char *Name = "bra.divergent";
  if (!canRun(Name))
    return;
  // A full block of 32 warps (one pattern each) and a ragged one of 48.
  for (unsigned N : {1024u, 48u}) {
    std::vector<uint32_t> Pat = lanePatterns(N / 32 + 1);
    Buf<uint32_t> DP(Pat), Path(N), Bal(N), After(N);
    kBraDivergent<<<1, N>>>(DP.D, Path.D, Bal.D, After.D);
    if (!launched(Name))
      return;
    auto P = Path.get(), B = Bal.get(), A = After.get();
    for (unsigned T = 0; T < N; ++T) {
      uint32_t Bit = (Pat[T / 32] >> (T % 32)) & 1, Want = Bit ? 2 : 1;
      expect(Name, "path", T, P[T], Want);
      expect(Name, "ballot", T, B[T], liveLanes(N, T / 32));
      expect(Name, "after", T, A[T], Want * 1000 + T % 32);
    }
  }
}

inline void testBraNested() {
  const char *Name = "bra.nested";
  if (!canRun(Name))
    return;
  const unsigned N = 1024;
  std::vector<uint32_t> Pp = lanePatterns(32), Pq(32);
  for (unsigned W = 0; W < 32; ++W) // q crosses p: each quarter of paths
    Pq[W] = Pp[(W * 7 + 3) % 32] ^ (W & 1 ? 0x33333333u : 0u);
  Buf<uint32_t> DP(Pp), DQ(Pq), Path(N), In(N), Out(N);
  kBraNested<<<1, N>>>(DP.D, DQ.D, Path.D, In.D, Out.D);
  if (!launched(Name))
    return;
  auto P = Path.get(), I = In.get(), O = Out.get();
  for (unsigned T = 0; T < N; ++T) {
    unsigned W = T / 32, L = T % 32;
    uint32_t Bp = (Pp[W] >> L) & 1, Bq = (Pq[W] >> L) & 1;
    expect(Name, "path", T, P[T], Bp ? (Bq ? 4 : 3) : (Bq ? 2 : 1));
    expect(Name, "inner", T, I[T], Bp ? Pp[W] : ~Pp[W]);
    expect(Name, "outer", T, O[T], ~0u);
  }
}

inline void testBraLoop() {
  const char *Name = "bra.loop";
  if (!canRun(Name))
    return;
  const unsigned N = 256;
  std::vector<uint32_t> Trips(N);
  std::vector<uint32_t> Pat = lanePatterns(8);
  for (unsigned T = 0; T < N; ++T) {
    unsigned W = T / 32, L = T % 32;
    switch (W) {
    case 0:
      Trips[T] = 0;
      break; // nobody loops
    case 1:
      Trips[T] = 5;
      break; // uniform
    case 2:
      Trips[T] = L;
      break; // one more per lane
    case 3:
      Trips[T] = L == 31 ? 40 : 0;
      break; // lane 31 alone
    case 4:
      Trips[T] = L == 0 ? 40 : 1;
      break; // lane 0 long
    case 5:
      Trips[T] = 31 - L;
      break;
    default:
      Trips[T] = (Pat[W] >> L & 1) * ((L * 7 + W) % 41);
      break;
    }
  }
  Buf<uint32_t> DT(Trips), Acc(N), Bal(N);
  kBraLoop<<<1, N>>>(DT.D, Acc.D, Bal.D);
  if (!launched(Name))
    return;
  auto A = Acc.get(), B = Bal.get();
  for (unsigned T = 0; T < N; ++T) {
    uint32_t Want = 7;
    for (uint32_t I = 0; I < Trips[T]; ++I)
      Want = (Want + I) * 3;
    expect(Name, "acc", T, A[T], Want);
    expect(Name, "ballot", T, B[T], ~0u);
  }
}

inline void testBraUni() {
  const char *Name = "bra.uni";
  if (!canRun(Name))
    return;
  const unsigned N = 256;
  std::vector<uint32_t> Flag = {0, 1, 1, 0, 7, 0, 0, 1};
  Buf<uint32_t> DF(Flag), Path(N);
  kBraUni<<<1, N>>>(DF.D, Path.D);
  if (!launched(Name))
    return;
  auto P = Path.get();
  for (unsigned T = 0; T < N; ++T)
    expect(Name, "path", T, P[T], (Flag[T / 32] ? 2 : 1) + 10 * (T % 32));
}

inline void testBrx() {
  const char *Name = "brx.idx";
  if (!canRun(Name))
    return;
  const unsigned NW = 16, N = NW * 32;
  std::vector<uint32_t> Idx(N), Guard(N), Pat = lanePatterns(NW);
  for (unsigned T = 0; T < N; ++T) {
    unsigned W = T / 32, L = T % 32;
    Guard[T] = 1;
    if (W < 7)
      Idx[T] = W; // every entry, whole warp
    else if (W == 7)
      Idx[T] = L % 7;
    else if (W == 8)
      Idx[T] = L == 31 ? 6 : 2; // one lane elsewhere
    else if (W == 9)
      Idx[T] = (L * 5 + 3) % 7;
    else {
      Idx[T] = (L * 3 + W) % 7;
      Guard[T] = (Pat[W] >> L) & 1; // guard patterns
    }
  }
  Buf<uint32_t> DI(Idx), DG(Guard), Code(N), Bal(N);
  kBrx<<<1, N>>>(DI.D, DG.D, Code.D, Bal.D);
  if (!launched(Name))
    return;
  auto C = Code.get(), B = Bal.get();
  static const uint32_t Codes[7] = {11, 22, 33, 44, 55, 0, 99};
  for (unsigned T = 0; T < N; ++T) {
    expect(Name, "code", T, C[T], Guard[T] ? Codes[Idx[T]] : 99);
    expect(Name, "ballot", T, B[T], ~0u);
  }
}

} // namespace ctl
