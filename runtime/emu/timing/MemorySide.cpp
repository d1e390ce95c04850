//===- MemorySide.cpp - L1, L2, DRAM and shared memory of one SM ---------===//
//
// Latency plus bandwidth: each level is a server that is next free at some
// cycle; an access waits for it, occupies it for its bytes over the level's
// bytes per cycle, and completes a latency later. Global and local accesses
// use the exact 32-byte sector count of the instruction (MemCount.cpp) and
// its 128-byte lines: lines found in L1 cost L1 latency; the sectors of
// missing lines go to L2 (tags shared by the simulated SMs, Model.cpp;
// bandwidth: this SM's share), and those missing there to this SM's share
// of DRAM bandwidth. Stores write through L1 (no allocation) to L2. Atomics are
// performed at L2, one address after another. Shared accesses take one cycle
// per bank wavefront (bank conflicts replay) in the SM's shared-memory pipe.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <sys/mman.h>

namespace warpscope::emu::timing {

LineCache::~LineCache() {
  if (MapBytes)
    munmap(Tags, MapBytes);
}

void LineCache::init(uint64_t Bytes, unsigned W) {
  if (MapBytes)
    munmap(Tags, MapBytes);
  MapBytes = 0;
  Ways = W;
  Sets = Bytes / 128 / W;
  Now = 0;
  if (!Sets)
    return;
  MapBytes = (size_t)Sets * W * 2 * sizeof(uint64_t);
  void *P = mmap(nullptr, MapBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED) {
    MapBytes = 0;
    throw std::bad_alloc();
  }
  Tags = (uint64_t *)P;
  Stamps = Tags + (size_t)Sets * W;
}

bool LineCache::access(uint64_t Line, bool Allocate) {
  if (!Sets)
    return false;
  const uint64_t Tag = Line + 1;
  uint64_t *T = &Tags[(Line % Sets) * Ways];
  uint64_t *S = &Stamps[(Line % Sets) * Ways];
  unsigned Victim = 0;
  for (unsigned K = 0; K < Ways; ++K) {
    if (T[K] == Tag) {
      S[K] = ++Now;
      return true;
    }
    if (S[K] < S[Victim])
      Victim = K;
  }
  if (Allocate) {
    T[Victim] = Tag;
    S[Victim] = ++Now;
  }
  return false;
}

void MemorySide::init(const Config &Cfg, uint64_t ActiveSms,
                      uint64_t SharedInUse, LineCache &SharedL2) {
  C = &Cfg;
  // The shared-memory carve-out comes out of the L1's capacity.
  double Cap = std::max(0.0, Cfg.L1Bytes - (double)SharedInUse);
  L1.init((uint64_t)Cap, 4);
  L2 = &SharedL2;
  L2Share = Cfg.L2BytesPerCycle / (double)ActiveSms;
  DramShare = Cfg.dramBytesPerCycle() / (double)ActiveSms;
}

uint64_t MemorySide::access(const StaticInst &SI, const MemAccess &M,
                            const uint64_t *Lines, uint64_t T) {
  const double Start = (double)T;
  if (M.Off)
    return T + 1; // guarded off: issues, touches nothing
  if (!M.Counted) {
    // No exact counts for this instruction (cp.async, ldmatrix, wmma, tex,
    // const): a typical cost of its space.
    switch (SI.Sp) {
    case Space::Shared:
      return T + (uint64_t)C->SharedLatency + 3;
    case Space::Const:
      return T + (uint64_t)C->L1Latency;
    default:
      return T + (uint64_t)C->L2Latency;
    }
  }
  double Done = Start + 1;
  if (M.Shared) {
    double S0 = std::max(Start, SharedFree);
    SharedFree = S0 + std::max(1u, M.Wavefronts);
    double Atomic = SI.K == Kind::Atomic ? 2.0 * M.Wavefronts : 0;
    Done = std::max(Done, S0 + C->SharedLatency + M.Wavefronts - 1 + Atomic);
  }
  if (!M.Global)
    return (uint64_t)std::ceil(Done);
  const double Sectors = std::max(1u, M.Sectors);
  const double L0 = std::max(Start, L1Free);
  L1Free = L0 + Sectors * 32 / C->L1BytesPerCycle;
  if (SI.K == Kind::Atomic) {
    double A0 = std::max(L0, L2Free);
    double N = std::max(1u, M.Atomics);
    L2Free = A0 + N * 32 / L2Share;
    for (uint32_t K = 0; K < M.NLines; ++K)
      L2->access(Lines[M.LineBegin + K], true);
    return (uint64_t)std::ceil(std::max(Done, A0 + C->AtomicLatency + N - 1));
  }
  const bool Store = SI.K == Kind::Store;
  uint32_t L1Miss = 0, L2Miss = 0;
  for (uint32_t K = 0; K < M.NLines; ++K) {
    uint64_t Line = Lines[M.LineBegin + K];
    if (!Store && L1.access(Line, true))
      continue;
    ++L1Miss;
    L2Miss += !L2->access(Line, true);
  }
  const double NLines = std::max(1u, M.NLines);
  if (!Store && L1Miss == 0)
    return (uint64_t)std::ceil(std::max(Done, L0 + C->L1Latency));
  double MissSectors = std::ceil(Sectors * L1Miss / NLines);
  if (Store && !M.NLines)
    MissSectors = Sectors;
  double A0 = std::max(L0, L2Free);
  L2Free = A0 + MissSectors * 32 / L2Share;
  if (L2Miss == 0 || Store) {
    if (L2Miss) { // write-back of the new lines, later: bandwidth only
      double D0 = std::max(A0, DramFree);
      DramFree = D0 + std::ceil(Sectors * L2Miss / NLines) * 32 / DramShare;
    }
    return (uint64_t)std::ceil(std::max(Done, A0 + C->L2Latency));
  }
  double DramSectors = std::ceil(MissSectors * L2Miss / std::max(1u, L1Miss));
  double D0 = std::max(A0, DramFree);
  DramFree = D0 + DramSectors * 32 / DramShare;
  return (uint64_t)std::ceil(std::max(Done, D0 + C->DramLatency));
}

} // namespace warpscope::emu::timing
