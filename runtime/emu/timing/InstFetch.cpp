//===- InstFetch.cpp - One SM's instruction caches -----------------------===//
//
// A warp issues from a code line only once that line is in its
// sub-partition's L0 instruction cache; until then it stalls with
// no_instructions, as GH100 reports an instruction cache miss. An L0 miss
// asks the SM's L1 instruction cache (Config::IcacheL1Latency), an L1 miss
// L2 (the L1 latency plus Config::L2Latency; code is taken to be in L2, not
// DRAM). Each L0 has a stream buffer (Huerta et al., MICRO 2025, section
// 5.2): a miss also sends the next IcachePrefetchLines lines, and the first
// use of a prefetched line sends the one that many lines further, so
// straight-line code streams in and only jumps to lines not yet fetched
// (a far branch target, the head of a loop larger than the cache) wait.
// Fills are pipelined: each fetch's Ready is its own, one line per cycle
// after a miss. Addresses come from the core's layout of the module
// (StaticInst::Code). docs/timing-model.md, "Instruction fetch", gives
// the figures' sources.
//
//===----------------------------------------------------------------------===//
#include "InstFetch.h"

#include <algorithm>

namespace warpscope::emu::timing {

namespace {
// Associativities: not documented for any NVIDIA GPU. The L1's is Accel-Sim's
// for Volta (its il1: 64 sets x 128 B x 16 ways); the L0's a model choice.
constexpr unsigned L0Ways = 4, L1Ways = 16;
} // namespace

void InstFetch::Cache::init(uint64_t Lines, unsigned W) {
  Lines = std::max<uint64_t>(Lines, 1);
  Ways = (unsigned)std::min<uint64_t>(W, Lines);
  Sets = Lines / Ways;
  E.assign(Sets * Ways, Entry());
  Now = 0;
}

InstFetch::Entry *InstFetch::Cache::find(uint64_t Line) {
  Entry *Set = &E[(Line % Sets) * Ways];
  for (unsigned K = 0; K < Ways; ++K)
    if (Set[K].Tag == Line + 1) {
      Set[K].Stamp = ++Now;
      return &Set[K];
    }
  return nullptr;
}

InstFetch::Entry &InstFetch::Cache::insert(uint64_t Line, uint64_t Ready) {
  Entry *Set = &E[(Line % Sets) * Ways];
  Entry *Victim = Set;
  for (unsigned K = 1; K < Ways; ++K)
    if (Set[K].Stamp < Victim->Stamp)
      Victim = &Set[K];
  *Victim = Entry();
  Victim->Tag = Line + 1;
  Victim->Stamp = ++Now;
  Victim->Ready = Ready;
  return *Victim;
}

void InstFetch::init(const Config &C) {
  L0.clear();
  Warmed = false;
  if (C.IcacheL0Bytes <= 0)
    return;
  LineBytes = std::max<uint64_t>(1, (uint64_t)C.IcacheLineBytes);
  Ahead = (uint64_t)C.IcachePrefetchLines;
  L1Latency = C.IcacheL1Latency;
  L2Latency = C.L2Latency;
  L0.resize((size_t)C.SubPartitions);
  for (Cache &K : L0)
    K.init((uint64_t)C.IcacheL0Bytes / LineBytes, L0Ways);
  L1.init((uint64_t)C.IcacheL1Bytes / LineBytes, L1Ways);
}

uint64_t InstFetch::fromL1(uint64_t Line, uint64_t T) {
  const uint64_t Hit = T + (uint64_t)L1Latency;
  if (Entry *E = L1.find(Line))
    return std::max(Hit, E->Ready); // a fill on its way: wait for it
  return L1.insert(Line, Hit + (uint64_t)L2Latency).Ready;
}

void InstFetch::prefetch(unsigned S, uint64_t Line, uint64_t T) {
  if (L0[S].find(Line))
    return;
  const uint64_t Ready = fromL1(Line, T);
  L0[S].insert(Line, Ready).Streamed = true;
}

uint64_t InstFetch::fetch(unsigned S, uint64_t Line, uint64_t T) {
  if (Entry *E = L0[S].find(Line)) {
    const uint64_t Ready = E->Ready;
    if (E->Streamed) { // the stream buffer keeps Ahead lines ahead
      E->Streamed = false;
      prefetch(S, Line + Ahead, T);
    }
    return std::max(T, Ready);
  }
  const uint64_t Ready = fromL1(Line, T);
  L0[S].insert(Line, Ready);
  for (uint64_t K = 1; K <= Ahead; ++K)
    prefetch(S, Line + K, T + K);
  return Ready;
}

void InstFetch::warm(uint64_t Line) {
  Warmed = true;
  for (uint64_t K = 0; K <= Ahead; ++K) {
    L1.insert(Line + K, 0);
    for (Cache &C : L0)
      C.insert(Line + K, 0).Streamed = K > 0;
  }
}

} // namespace warpscope::emu::timing
