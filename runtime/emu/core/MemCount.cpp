//===- MemCount.cpp - memory-efficiency counts of ld/st/atom/red ----------===//
//
// Exact, address-only counts per memory instruction (docs/emulator.md,
// "Memory efficiency"), accumulated into Function::Mem:
//  - global and local: one request per warp execution with an active lane,
//    the distinct 32-byte sectors its lanes touch and the ideal: the sectors
//    its distinct bytes need at best (ceil(distinct bytes / 32));
//  - shared: wavefronts under 32 banks of 4 bytes, lanes processed in phases
//    of 128 bytes (all 32 lanes up to 4-byte accesses, half warps for 8,
//    quarter warps for 16); a phase needs as many wavefronts as the largest
//    number of distinct 32-bit words any one bank holds (one word read by
//    many lanes is one access); 8- and 16-byte loads whose lanes pair up on
//    one address get phases of twice the lanes (countShared). Ideal:
//    ceil(distinct bytes / 128), for such loads at least Size / 8;
//  - atom/red: the distinct addresses of each execution;
//  - global and shared lanes: the stride between neighbouring active lanes
//    (StrideCounts, warpscope/Emu/MemoryCounts.h).
// Local addresses are placed as the hardware interleaves them: 32-bit word w
// of lane l's window at w * 128 + l * 4, so lanes reading the same offset
// coalesce. Generic addresses count in the space they resolve to.
// Called once per warp instruction before the access (so a failing access is
// counted, like the other counters); the common case (lanes' addresses in
// ascending order, each lane inside one sector) needs one pass, no set.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace warpscope::emu::core {

namespace {

// Distinct 64-bit keys (at most 96 here: 32 lanes x 3 sectors; 32 lanes x
// 2 words of a phase; a local request's 68 sectors), open addressing in 256
// slots, cheaper than sorting 32 lanes' addresses.
class DistinctSet {
public:
  /// True when K was not in the set yet.
  bool insert(uint64_t K) {
    for (unsigned H = (unsigned)((K * 0x9E3779B97F4A7C15ull) >> 56);;
         H = (H + 1) & 255) {
      uint64_t Bit = 1ull << (H & 63);
      if (!(Used[H >> 6] & Bit)) {
        Used[H >> 6] |= Bit;
        Key[H] = K;
        return true;
      }
      if (Key[H] == K)
        return false;
    }
  }

private:
  uint64_t Used[4] = {0, 0, 0, 0};
  uint64_t Key[256];
};

// The addresses of the lanes in M into K (lane order), how many, how many
// distinct, and how many distinct 32-byte sectors the accesses [K, K + Size)
// touch. One pass when lanes come in ascending order (the usual case).
struct Gathered {
  unsigned N = 0, Distinct = 0, Sectors = 0;
};
Gathered gather(const uint64_t *Ad, uint32_t M, unsigned Size, uint64_t *K,
                bool WantSectors = true) {
  Gathered G;
  bool Sorted = true, Inside = true;
  uint64_t Prev = ~0ull;
  for (uint32_t R = M; R; R &= R - 1) {
    uint64_t V = Ad[__builtin_ctz(R)];
    Sorted &= G.N == 0 || Prev <= V;
    G.Distinct += V != Prev;
    G.Sectors += (V >> 5) != (Prev >> 5);
    Inside &= (V & 31) + Size <= 32;
    Prev = V;
    K[G.N++] = V;
  }
  if (Sorted && Inside)
    return G;
  DistinctSet Addresses;
  G.Distinct = 0;
  for (unsigned J = 0; J < G.N; ++J)
    G.Distinct += Addresses.insert(K[J]);
  if (!WantSectors)
    return G;
  DistinctSet Sectors;
  G.Sectors = 0;
  for (unsigned J = 0; J < G.N; ++J)
    // An access may span sectors (misaligned, or wider than one).
    for (uint64_t X = K[J] >> 5; X <= (K[J] + Size - 1) >> 5; ++X)
      G.Sectors += Sectors.insert(X);
  return G;
}

uint64_t ceilDiv(uint64_t A, uint64_t B) { return (A + B - 1) / B; }

// Global: Ad holds every lane's address. Returns the distinct addresses.
unsigned countGlobal(const uint64_t *Ad, uint32_t M, unsigned Size,
                     MemCounts &C) {
  uint64_t K[32];
  Gathered G = gather(Ad, M, Size, K);
  ++C.GlobalRequests;
  C.GlobalSectors += G.Sectors;
  C.GlobalIdealSectors += ceilDiv((uint64_t)G.Distinct * Size, 32);
  return G.Distinct;
}

// Local: Off holds every lane's offset in its own window.
void countLocal(const uint64_t *Off, uint32_t M, unsigned Size, MemCounts &C) {
  // Each lane's bytes, word by word, at their interleaved addresses.
  uint64_t K[32 * 17];
  unsigned N = 0;
  for (uint32_t R = M; R; R &= R - 1) {
    int L = __builtin_ctz(R);
    for (uint64_t W = Off[L] >> 2; W <= (Off[L] + Size - 1) >> 2; ++W)
      if (N < sizeof K / sizeof *K)
        K[N++] = W * 128 + (uint64_t)L * 4;
  }
  DistinctSet Sectors;
  unsigned Distinct = 0;
  for (unsigned J = 0; J < N; ++J)
    Distinct += Sectors.insert(K[J] >> 5);
  ++C.LocalRequests;
  C.LocalSectors += Distinct;
  C.LocalIdealSectors += ceilDiv((uint64_t)__builtin_popcount(M) * Size, 32);
}

// Wavefronts of one phase: the most distinct words any bank holds.
unsigned phaseWavefronts(const uint64_t *K, unsigned N, unsigned Size) {
  uint64_t Lo = ~0ull, Hi = 0;
  bool Sorted = true;
  for (unsigned J = 0; J < N; ++J) {
    Lo = std::min(Lo, K[J] >> 2);
    Hi = std::max(Hi, (K[J] + Size - 1) >> 2);
    Sorted &= J == 0 || K[J - 1] + Size <= K[J] || K[J - 1] == K[J];
  }
  if (Hi - Lo < 32)
    return 1; // all words in one 32-word window: a bank each
  unsigned PerBank[32] = {}, Max = 0;
  if (Sorted) {
    // Ascending, not overlapping: equal words are neighbours.
    uint64_t Prev = ~0ull;
    for (unsigned J = 0; J < N; ++J)
      for (uint64_t X = K[J] >> 2; X <= (K[J] + Size - 1) >> 2; ++X)
        if (X != Prev) {
          Max = std::max(Max, ++PerBank[X & 31]);
          Prev = X;
        }
    return Max;
  }
  DistinctSet Words;
  for (unsigned J = 0; J < N; ++J)
    for (uint64_t X = K[J] >> 2; X <= (K[J] + Size - 1) >> 2; ++X)
      if (Words.insert(X))
        Max = std::max(Max, ++PerBank[X & 31]);
  return Max;
}

// Whether every active lane L whose partner L ^ Step is active reads the
// partner's address.
bool lanesPaired(const uint64_t *Ad, uint32_t M, unsigned Step) {
  for (uint32_t R = M; R; R &= R - 1) {
    unsigned L = __builtin_ctz(R), P = L ^ Step;
    if ((M >> P & 1) && Ad[P] != Ad[L])
      return false;
  }
  return true;
}

// Shared: Ad holds every lane's offset. Returns the distinct addresses.
// Load: an ld (not st, atom or red). An 8- or 16-byte load whose lanes pair
// up on one address (L and L ^ 1, or L and L ^ 2; a broadcast is both)
// returns two lanes' registers per wavefront, so a phase holds twice the
// lanes, and no such load needs fewer than Size / 8 wavefronts: a uniform
// ld.shared.v4 is 2 on the H200 with no conflict counted
// (docs/results/2026-11-27-h200-timing-model.md; NVIDIA's forum gives the
// pair rule for Volta and Turing).
unsigned countShared(const uint64_t *Ad, uint32_t M, unsigned Size, bool Load,
                     MemCounts &C) {
  unsigned PerPhase = Size <= 4 ? 32 : std::max(1u, 128 / Size);
  if (Load && Size > 4 && PerPhase < 32 &&
      (lanesPaired(Ad, M, 1) || lanesPaired(Ad, M, 2)))
    PerPhase *= 2;
  const uint32_t PhaseMask =
      PerPhase >= 32 ? ~0u : (uint32_t)((1ull << PerPhase) - 1);
  uint64_t K[32];
  Gathered All = gather(Ad, M, Size, K, /*WantSectors=*/false);
  ++C.SharedRequests;
  uint64_t Ideal = ceilDiv((uint64_t)All.Distinct * Size, 128);
  C.SharedIdealWavefronts += Load ? std::max<uint64_t>(Ideal, Size / 8) : Ideal;
  if (PerPhase >= 32) {
    C.SharedWavefronts += phaseWavefronts(K, All.N, Size);
    return All.Distinct;
  }
  for (unsigned P = 0; P < 32; P += PerPhase) {
    uint32_t PM = M & (PhaseMask << P);
    if (!PM)
      continue;
    Gathered G = gather(Ad, PM, Size, K, /*WantSectors=*/false);
    C.SharedWavefronts += phaseWavefronts(K, G.N, Size);
  }
  return All.Distinct;
}

// True when the 32 lanes' addresses are consecutive Size-byte elements (a
// coalesced access). The hot path: four lanes at a time in vector registers
// (GCC/Clang vector extensions; plain SSE2 runs it as two halves).
bool contiguous(const uint64_t *A, unsigned Size) {
  typedef uint64_t V4 __attribute__((vector_size(32)));
  const uint64_t S = Size;
  const V4 Base = {A[0], A[0], A[0], A[0]}, Step = {4 * S, 4 * S, 4 * S, 4 * S};
  V4 Want = {0, S, 2 * S, 3 * S}, Bad = {0, 0, 0, 0};
  for (int L = 0; L < 32; L += 4) {
    V4 X;
    std::memcpy(&X, A + L, sizeof X);
    Bad |= (X - Base) ^ Want;
    Want += Step;
  }
  return !(Bad[0] | Bad[1] | Bad[2] | Bad[3]);
}

// Counts a contiguous access from A0 without looking at each lane again:
// the span's sectors; for shared, one wavefront per 128-byte phase (A0 is
// aligned to the access size or a word, so a phase spans at most 32 words).
void countContiguous(MemCounts &C, uint64_t A0, unsigned Size, bool Shared,
                     bool Atomic) {
  if (Shared) {
    ++C.SharedRequests;
    uint64_t Phases = ceilDiv(32 * (uint64_t)Size, 128);
    C.SharedWavefronts += Phases;
    C.SharedIdealWavefronts += Phases;
  } else {
    ++C.GlobalRequests;
    C.GlobalSectors += ((A0 + 32 * Size - 1) >> 5) - (A0 >> 5) + 1;
    C.GlobalIdealSectors += Size; // ceil(32 * Size / 32)
  }
  if (Atomic)
    C.AtomicAddresses += 32;
}

// A per-lane difference no stride can have (two neighbours whose distance
// does not divide by their lanes' distance).
constexpr int64_t NoStride = INT64_MIN;

// The stride pattern of one execution of the lanes in M (Ad: their
// addresses): its lane pairs, and the per-lane difference that more than
// half of them have, if one does (a majority vote, then a count: two passes
// over at most 31 differences, no sort).
void countStride(const uint64_t *Ad, uint32_t M, StrideCounts &S) {
  if (M == ~0u) {
    // A full warp (the common case: 2-D blocks, strided rows): neighbours
    // are one lane apart, so one pass of plain subtractions counts the
    // pairs at lane 0's difference; when that holds a majority it is the
    // one the vote below would find, and the vote is skipped.
    const uint64_t D0 = Ad[1] - Ad[0];
    unsigned Held = 0;
    for (int L = 0; L < 31; ++L)
      Held += Ad[L + 1] - Ad[L] == D0;
    if (2 * Held > 31) {
      S.LanePairs += 31;
      S.add((int64_t)D0, Held);
      return;
    }
  }
  int64_t D[32], Cand = 0;
  unsigned N = 0, Votes = 0;
  int Prev = -1;
  for (uint32_t R = M; R; R &= R - 1) {
    int L = __builtin_ctz(R);
    if (Prev >= 0) {
      int64_t Diff = (int64_t)(Ad[L] - Ad[Prev]), Apart = L - Prev;
      int64_t V = Apart == 1 ? Diff : Diff % Apart ? NoStride : Diff / Apart;
      D[N++] = V;
      if (!Votes)
        Cand = V;
      Votes += V == Cand ? 1 : -1u;
    }
    Prev = L;
  }
  S.LanePairs += N;
  unsigned Held = 0;
  for (unsigned J = 0; J < N; ++J)
    Held += D[J] == Cand;
  if (N && 2 * Held > N && Cand != NoStride)
    S.add(Cand, Held);
}

} // namespace

void Launcher::countMemUntraced(Warp &W, Frame &Fr, const Inst &I,
                                uint32_t EM) {
  if (!EM || I.Space == SpParam || I.Space == SpConst)
    return;
  const size_t Index = &I - Fr.F->Code.data();
  MemCounts &C = Ctr.Sets[Fr.F->Index].Mem[Index];
  const uint64_t *A = Fr.Regs.data() + (size_t)I.Addr * 32;
  const bool Atomic = I.Op == OpAtom || I.Op == OpRed;
  // Vector atomics (atom.add.v2/.v4.f32) access Vec elements per lane.
  const unsigned Size =
      tySize(I.T) * (I.Op == OpLd || I.Op == OpSt || Atomic ? I.Vec : 1);
  if (!Size)
    return;
  const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
  const uint64_t LoLo = (uint64_t)(uintptr_t)LocalBuf.data();
  if (EM == ~0u && I.Space != SpLocal && contiguous(A, Size)) {
    // Generic: only when the whole span is shared, or clear of the shared
    // and local windows.
    uint64_t A0 = A[0] + (uint64_t)I.Off, End = A0 + 32 * Size;
    uint64_t Base = I.Space == SpShared ? 0 : ShLo;
    bool InShared = A0 - ShLo < SharedSize && End - ShLo <= SharedSize;
    bool Clear = (End <= ShLo || A0 >= ShLo + SharedSize) &&
                 (End <= LoLo || A0 >= LoLo + LocalBuf.size());
    bool Sh = I.Space == SpShared || (I.Space == SpGeneric && InShared);
    if ((Sh || I.Space == SpGlobal || Clear) &&
        (!Sh || (A0 - Base) % std::min(Size, 4u) == 0)) {
      countContiguous(C, A0, Size, Sh, Atomic);
      StrideCounts &S = Ctr.Sets[Fr.F->Index].Strides[Index];
      S.LanePairs += 31;
      S.add(Size, 31);
      return;
    }
  }
  uint64_t Ad[32];
  for (int L = 0; L < 32; ++L)
    Ad[L] = A[L] + (uint64_t)I.Off;
  uint32_t Sh = 0, Lo = 0, Gl = 0;
  if (I.Space == SpShared)
    Sh = EM;
  else if (I.Space == SpLocal)
    Lo = EM;
  else if (I.Space == SpGlobal)
    Gl = EM;
  else {
    // Generic: split the lanes by the window their address falls into.
    for (uint32_t R = EM; R; R &= R - 1) {
      int L = __builtin_ctz(R);
      if (Ad[L] - ShLo < SharedSize) {
        Sh |= 1u << L;
        Ad[L] -= ShLo;
      } else if (Ad[L] - LoLo < LocalBuf.size()) {
        Lo |= 1u << L;
        Ad[L] -= (uint64_t)(uintptr_t)W.LaneLocal[L];
      } else {
        Gl |= 1u << L;
      }
    }
  }
  // Local lanes each have their own window: no stride between them.
  if (Gl | Sh)
    countStride(Ad, Gl | Sh, Ctr.Sets[Fr.F->Index].Strides[Index]);
  if (Gl) {
    unsigned D = countGlobal(Ad, Gl, Size, C);
    if (Atomic)
      C.AtomicAddresses += D;
  }
  if (Sh) {
    unsigned D = countShared(Ad, Sh, Size, I.Op == OpLd, C);
    if (Atomic)
      C.AtomicAddresses += D;
  }
  if (Lo) {
    countLocal(Ad, Lo, Size, C);
    if (Atomic)
      C.AtomicAddresses += __builtin_popcount(Lo); // a window per lane
  }
}

namespace {

// Adds a lane on Key to the distinct keys of G (packed as
// TraceSink::AtomicLanes says: Key << 6 | lanes - 1).
void addLane(uint64_t *G, unsigned &N, uint64_t Key) {
  unsigned K = 0;
  while (K < N && (G[K] >> 6) != Key)
    ++K;
  if (K == N)
    G[N++] = Key << 6;
  else if ((G[K] & 63) < 63)
    ++G[K];
}

} // namespace

// For the timing model, an atomic's lanes: its distinct global addresses
// and shared words with their lane counts (G and S, 32 each) and its shared
// lanes' passes and most lanes on one word. Local lanes (a window per lane)
// never contend.
void Launcher::atomicLanes(const Frame &Fr, const Inst &I, uint32_t EM,
                           uint64_t *G, uint64_t *S,
                           TraceSink::AtomicLanes &Out) {
  const uint64_t *A = Fr.Regs.data() + (size_t)I.Addr * 32;
  const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
  const uint64_t LoLo = (uint64_t)(uintptr_t)LocalBuf.data();
  unsigned PerBank[32] = {};
  for (uint32_t R = EM; R; R &= R - 1) {
    uint64_t Ad = A[__builtin_ctz(R)] + (uint64_t)I.Off;
    bool Sh = I.Space == SpShared;
    if (I.Space == SpGeneric && Ad - ShLo < SharedSize) {
      Sh = true;
      Ad -= ShLo;
    } else if (I.Space == SpLocal ||
               (I.Space == SpGeneric && Ad - LoLo < LocalBuf.size())) {
      continue;
    }
    if (!Sh) {
      addLane(G, Out.NGlobal, Ad);
      continue;
    }
    Out.SharedPasses = std::max(Out.SharedPasses, ++PerBank[(Ad >> 2) & 31]);
    addLane(S, Out.NShared, Ad >> 2);
  }
  for (unsigned K = 0; K < Out.NShared; ++K)
    Out.SharedMaxSame = std::max(Out.SharedMaxSame, (unsigned)(S[K] & 63) + 1);
  Out.Global = G;
  Out.Shared = S;
}

namespace {

// The distinct 128-byte lines of the lanes' accesses, each with the 32-byte
// sectors the lanes touch in it (the caches fill sectors, not lines:
// timing::sectorsOf), sorted by line, into Lines (64): their number.
// Access(L, Ad, Size) gives lane L's address and bytes, false to skip it.
template <class LaneAccess>
[[gnu::always_inline]] inline unsigned laneLines(uint32_t EM, LaneAccess Access,
                                                 uint64_t *Lines) {
  constexpr uint64_t LineBits = (uint64_t(1) << timing::SectorShift) - 1;
  unsigned N = 0;
  bool Ascending = true;
  auto Add = [&](uint64_t L, uint64_t Mask) {
    Mask <<= timing::SectorShift;
    if (N && (Lines[N - 1] & LineBits) == L) {
      Lines[N - 1] |= Mask;
      return;
    }
    Ascending &= N == 0 || (Lines[N - 1] & LineBits) < L;
    Lines[N++] = L | Mask;
  };
  for (uint32_t R = EM; R && N + 2 <= 64; R &= R - 1) {
    uint64_t Ad;
    unsigned Size;
    if (!Access(__builtin_ctz(R), Ad, Size))
      continue;
    const uint64_t End = Ad + std::max(Size, 1u) - 1;
    if (Ad >> 5 == End >> 5) { // one sector, as usual
      Add(Ad >> 7, 1u << ((Ad >> 5) & 3));
      continue;
    }
    for (uint64_t L = Ad >> 7; L <= End >> 7; ++L) {
      const unsigned First = L == Ad >> 7 ? (Ad >> 5) & 3 : 0;
      const unsigned Last = L == End >> 7 ? (End >> 5) & 3 : 3;
      Add(L, (2u << Last) - (1u << First));
    }
  }
  // Lanes usually come in ascending order: then the lines are distinct
  // and sorted already; else sort by line and merge their sectors.
  if (!Ascending) {
    std::sort(Lines, Lines + N, [&](uint64_t X, uint64_t Y) {
      return (X & LineBits) < (Y & LineBits);
    });
    unsigned Out = 0;
    for (unsigned K = 0; K < N; ++K)
      if (Out && (Lines[Out - 1] & LineBits) == (Lines[K] & LineBits))
        Lines[Out - 1] |= Lines[K];
      else
        Lines[Out++] = Lines[K];
    N = Out;
  }
  return N;
}

} // namespace

// For the timing model: the counts this execution added and the distinct
// 128-byte lines of its global and local lanes (shared lanes have none).
void Launcher::countMemTraced(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  if (!EM || I.Space == SpParam || I.Space == SpConst)
    return;
  MemCounts &C = Ctr.Sets[Fr.F->Index].Mem[&I - Fr.F->Code.data()];
  const MemCounts Before = C;
  countMemUntraced(W, Fr, I, EM);
  MemCounts D;
  for (const MemoryCountField &F : MemoryCountFields)
    D.*F.Member = C.*F.Member - Before.*F.Member;
  uint64_t Lines[64];
  unsigned N = 0;
  if (I.Space != SpShared) {
    const uint64_t *A = Fr.Regs.data() + (size_t)I.Addr * 32;
    const bool Atomic = I.Op == OpAtom || I.Op == OpRed;
    const unsigned Size =
        tySize(I.T) * (I.Op == OpLd || I.Op == OpSt || Atomic ? I.Vec : 1);
    const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
    const bool Generic = I.Space == SpGeneric;
    N = laneLines(
        EM,
        [&](int L, uint64_t &Ad, unsigned &Bytes) {
          Ad = A[L] + (uint64_t)I.Off;
          Bytes = Size;
          return !(Generic && Ad - ShLo < SharedSize);
        },
        Lines);
  }
  TraceSink::AtomicLanes AL;
  uint64_t G[32], S[32];
  if (I.Op == OpAtom || I.Op == OpRed)
    atomicLanes(Fr, I, EM, G, S, AL);
  Trace->memory(D, Lines, N, AL);
}

// For the timing model only (the exact counts leave cp.async out): the
// lines a cp.async reads, as a global load of each lane's src-size bytes
// (none when it zero-fills) would touch them, and its write to shared
// memory as one wavefront per 128 bytes the warp writes (a conflict-free
// store's; the destination's banks are not looked at).
void Launcher::cpAsyncTraced(Frame &Fr, const Inst &I, uint32_t EM) {
  if (!EM)
    return;
  const uint64_t *R = Fr.Regs.data();
  const uint64_t *Src = R + (size_t)I.S[0] * 32;
  const uint64_t *SrcSize = R + (size_t)I.S[1] * 32;
  const uint64_t *SrcOff = R + (size_t)I.S[2] * 32;
  uint64_t Lines[64];
  const unsigned N = laneLines(
      EM,
      [&](int L, uint64_t &Ad, unsigned &Bytes) {
        Ad = Src[L] + SrcOff[L];
        Bytes = cpAsyncBytes(I, SrcSize[L]);
        return Bytes != 0;
      },
      Lines);
  MemCounts D;
  for (unsigned K = 0; K < N; ++K)
    D.GlobalSectors += timing::sectorCount(timing::sectorsOf(Lines[K]));
  D.GlobalRequests = N != 0;
  D.SharedRequests = 1;
  D.SharedWavefronts = ((unsigned)__builtin_popcount(EM) * I.Sub + 127) / 128;
  Trace->memory(D, Lines, N, TraceSink::AtomicLanes());
}

} // namespace warpscope::emu::core
