//===- MemorySide.cpp - L1, L2, DRAM and shared memory of one SM ---------===//
//
// Latency plus bandwidth: each level is a server that is next free at some
// cycle; an access waits for it, occupies it for its bytes over the level's
// bytes per cycle, and completes a latency later. Global and local accesses
// use the exact 32-byte sector count of the instruction (MemCount.cpp) and
// its 128-byte lines with the sectors touched in each: sectors found in L1
// cost L1 latency (or wait for their fill, when it is still on its way);
// the missing ones go to L2 (tags shared by the simulated SMs, Model.cpp;
// bandwidth: this SM's share), and those missing there to this SM's share
// of DRAM bandwidth, with the rest of the L2's fetch granule. Both caches
// fill sectors, not lines. Stores write through L1 (no allocation) to L2.
// Atomics are performed at L2, one address after another. Shared accesses take
// one cycle per bank wavefront (bank conflicts replay) in the SM's
// shared-memory pipe.
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
  MapBytes = (size_t)Sets * W * 6 * sizeof(uint64_t);
  void *P = mmap(nullptr, MapBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED) {
    MapBytes = 0;
    throw std::bad_alloc();
  }
  Tags = (uint64_t *)P;
  Stamps = Tags + (size_t)Sets * W;
  Fills = Stamps + (size_t)Sets * W; // four per way
}

namespace {
// Sets are indexed by the line skewed by a hash of its higher part, not by
// its low bits alone: GPUs hash addresses over L2 slices and sets so that
// a power-of-two stride does not land in one set. The lines of one row of
// Sets consecutive lines still go to distinct sets (each row is rotated by
// its own hash), as they would by low bits, and Sets need not be a power
// of two (the L2's share, the L1 less the carve-out).
uint64_t setOf(uint64_t Line, uint64_t Sets) {
  const uint64_t Row = Line / Sets;
  return (Line - Row * Sets + ((Row * 0x9E3779B97F4A7C15ull) >> 32)) % Sets;
}

// Direct-mapped tables of atomic addresses (AtomicOwners, AtomicFree).
constexpr unsigned AtomicSlotBits = 12;
size_t atomicSlot(uint64_t Addr) {
  return (size_t)((Addr * 0x9E3779B97F4A7C15ull) >> (64 - AtomicSlotBits));
}
} // namespace

bool LineCache::gone(const uint64_t *T, const uint64_t *S, unsigned K) const {
  // Its depth in the set's LRU order: the lines touched after it here,
  // and the lines of others that came since (PerSet a tick, by their mean).
  unsigned After = 0;
  for (unsigned J = 0; J < Ways; ++J)
    After += T[J] && S[J] > S[K];
  const uint64_t *Words = &Fills[(size_t)(S - Stamps + K) * 4];
  const uint64_t Since = *Clock > Words[1] ? *Clock - Words[1] : 0;
  const double Depth = After + PerSet * (double)Since;
  return (Words[2] ? Depth * Unseen : Depth) >= Ways;
}

bool LineCache::access(uint64_t Entry, bool Allocate) {
  Fill = nullptr;
  Found = Aged = false;
  Missing = sectorsOf(Entry);
  if (!Sets)
    return false;
  const uint64_t Line = lineOf(Entry);
  const uint64_t Tag = Line + 1;
  const uint64_t Set = setOf(Line, Sets);
  uint64_t *T = &Tags[Set * Ways];
  uint64_t *S = &Stamps[Set * Ways];
  unsigned Victim = 0;
  for (unsigned K = 0; K < Ways; ++K) {
    if (lineOf(T[K]) == Tag) {
      if (Clock && gone(T, S, K)) { // as absent; its way is the one to fill
        Aged = true;
        Victim = K;
        break;
      }
      Found = true;
      S[K] = ++Now;
      Fill = &Fills[(Set * Ways + K) * 4];
      Missing &= ~(unsigned)(T[K] >> SectorShift);
      if (Allocate)
        T[K] |= (uint64_t)Missing << SectorShift;
      if (Clock)
        Fill[1] = *Clock;
      return Missing == 0;
    }
    if (S[K] < S[Victim])
      Victim = K;
  }
  if (Allocate) {
    T[Victim] = Tag | (uint64_t)Missing << SectorShift;
    S[Victim] = ++Now;
    Fill = &Fills[(Set * Ways + Victim) * 4];
    // An aged-out line's first word stays: its owner (SharedL2) still is.
    std::fill(Fill + (Aged ? 1 : 0), Fill + 4, 0);
    if (Clock)
      Fill[1] = *Clock;
  }
  return false;
}

bool AtomicOwners::shared(uint64_t Addr, uint64_t Cta) {
  if (Table.empty())
    Table.resize(size_t(1) << AtomicSlotBits);
  Entry &E = Table[atomicSlot(Addr)];
  if (E.Tag != Addr + 1) {
    E = Entry{Addr + 1, Cta, false};
    return false;
  }
  E.Shared |= E.First != Cta;
  return E.Shared;
}

void MemorySide::init(const Config &Cfg, uint64_t NActive,
                      uint64_t SharedCarveout, SharedSide &S,
                      uint32_t SmIndex) {
  C = &Cfg;
  Sm = SmIndex;
  // The shared-memory carveout comes out of the L1's capacity.
  double Cap = std::max(0.0, Cfg.L1Bytes - (double)SharedCarveout);
  L1.init((uint64_t)Cap, 4);
  Shared = &S;
  ActiveSms = (double)NActive;
  L2Share = Cfg.L2BytesPerCycle / ActiveSms;
  DramShare = Cfg.dramBytesPerCycle() / ActiveSms;
}

double MemorySide::sharedAccess(const StaticInst &SI, const MemAccess &M,
                                const uint64_t *Lines, double Start,
                                uint64_t Cta) {
  double W = std::max(1u, M.Wavefronts);
  const double S0 = std::max(Start, SharedFree);
  if (SI.K != Kind::Atomic) {
    SharedFree = S0 + W;
    return S0 + C->SharedLatency + W - 1;
  }
  if (SI.CasLoop)
    return casLoop(M, Lines, S0, Cta);
  // An atomic's lanes on one word are not merged: each is a pass, a
  // read-modify-write that holds the pipe SharedAtomicCycles; but an
  // increment (ATOMS.POPC.INC) updates each word once, a pass per wavefront.
  if (!SI.MergesLanes)
    W = std::max<double>(W, M.SharedPasses);
  const double Pass = C->SharedAtomicCycles;
  SharedFree = S0 + W * Pass;
  return S0 + C->SharedLatency + W * Pass;
}

double MemorySide::casLoop(const MemAccess &M, const uint64_t *Lines, double S0,
                           uint64_t Cta) {
  // sm_90's loop (kmeans_accumulate's SASS): LDS, FADD, ATOMS.CAST.SPIN,
  // ISETP, BRA back to the LDS, each waiting for the one before, so a round
  // is two shared-memory round trips and three ALU latencies. Of a warp's
  // lanes on one word one stores a round (lanes grouped by address, as a
  // public NVIDIA patent describes; not measured on sm_90), so its rounds
  // are the most lanes on one word; each round's LDS and ATOMS touch the
  // words with a lane still to store, a wavefront per such word on the
  // busiest bank. A lane's store lands Land into its round; it fails when
  // another warp's store on its word landed after its LDS: the lane
  // succeeds in the first round of its warp that starts after the word's
  // last store.
  const double Pass = C->SharedAtomicCycles;
  const double Land =
      C->SharedLatency + C->Pipes[(int)Pipe::Fp32].Latency + Pass;
  const double Round = Land + C->SharedLatency +
                       C->Pipes[(int)Pipe::Int].Latency +
                       C->Pipes[(int)Pipe::Branch].Latency;
  double Rounds = std::max<uint16_t>(1, M.SharedMaxSame);
  double LdsWavefronts = Rounds * std::max(1u, M.Wavefronts);
  if (M.NSharedAtoms) {
    if (WordFree.empty())
      WordFree.assign(size_t(1) << AtomicSlotBits, {0, 0.0});
    Rounds = casRounds(M, Lines, S0, Round, Land, Cta, LdsWavefronts);
  }
  // A round's bank conflicts serialize its LDS and its ATOMS.
  SharedFree = S0 + LdsWavefronts * (1 + Pass);
  return S0 + Rounds * Round + (LdsWavefronts - Rounds) * (1 + Pass);
}

double MemorySide::casRounds(const MemAccess &M, const uint64_t *Lines,
                             double S0, double Round, double Land, uint64_t Cta,
                             double &LdsWavefronts) {
  // Per word, its lanes take this warp's rounds one after another, and a
  // lane's round starts after the word's last store (another warp's, or
  // this warp's round before).
  uint32_t Ends[32]; // per word: the round after its last lane's
  uint8_t Banks[32];
  const uint32_t N = std::min<uint32_t>(M.NSharedAtoms, 32);
  uint32_t Rounds = 1;
  for (uint32_t K = 0; K < N; ++K) {
    const uint64_t Packed = Lines[M.AtomBegin + M.NAtoms + K];
    const uint64_t Word = Packed >> 6;
    const uint64_t Key = (Word << 20 ^ Cta) + 1;
    auto &Slot = WordFree[atomicSlot(Key)];
    if (Slot.first != Key)
      Slot = {Key, 0.0};
    const uint8_t Bank = Word & 31;
    uint32_t R = 0;
    for (uint64_t Lane = 0; Lane <= (Packed & 63); ++Lane) {
      if (S0 + R * Round < Slot.second && Round > 0)
        R = (uint32_t)std::ceil((Slot.second - S0) / Round);
      Slot.second = S0 + R * Round + Land;
      ++R;
    }
    Ends[K] = R, Banks[K] = Bank;
    Rounds = std::max(Rounds, R);
  }
  // Each round's LDS reads the words with a lane still to store: one
  // wavefront per such word on the busiest bank. A bank's k-th latest
  // word to end is read in its first Ends rounds; over all rounds the LDS
  // pays, per rank k, the latest such word of any bank.
  uint32_t Latest[32] = {};
  for (uint32_t B = 0; B < N; ++B) {
    uint32_t Rank = 0;
    for (uint32_t K = 0; K < N; ++K)
      Rank += Banks[K] == Banks[B] &&
              (Ends[K] > Ends[B] || (Ends[K] == Ends[B] && K < B));
    Latest[Rank] = std::max(Latest[Rank], Ends[B]);
  }
  LdsWavefronts = 0;
  for (uint32_t Rank = 0; Rank < N && Latest[Rank]; ++Rank)
    LdsWavefronts += Latest[Rank];
  return Rounds;
}

double MemorySide::atomicUnits(const StaticInst &SI, const MemAccess &M,
                               const uint64_t *Lines, double A0, uint64_t Cta) {
  // Each address's updates are done one after another at its L2 slice.
  // An ATOM returns the old value: the slice finishes each of its updates
  // before the next request on the address, so every update holds it and
  // requests from other warps and SMs queue (bfs's frontier counter). A
  // RED's requests are pipelined (kmeans_assign's counter: 2,048 of them
  // on one address measure no longer than the kernel's other work): only
  // the lanes after the first of one request wait for the one before
  // (hist_global's bins). This SM's view: an address other CTAs update too
  // is updated by every SM, so this SM gets 1 / ActiveSms of its atomic
  // unit (each update occupies it ActiveSms times as long), as with the
  // bandwidth shares.
  double Done = 0;
  const double Service = C->cycles(C->AtomicSameAddressNs);
  if (Service <= 0)
    return Done;
  if (AtomicFree.empty())
    AtomicFree.assign(size_t(1) << AtomicSlotBits, {0, 0.0});
  for (uint32_t K = 0; K < M.NAtoms; ++K) {
    const uint64_t Packed = Lines[M.AtomBegin + K];
    const uint64_t Addr = Packed >> 6;
    // All lanes on one address of an aggregable operation: one update.
    const double Lanes =
        SI.Aggregable && M.NAtoms == 1 ? 1.0 : (double)(Packed & 63) + 1;
    const double Holds = SI.Returns ? Lanes : Lanes - 1;
    const double Occupy =
        Service * (Shared->Owners.shared(Addr, Cta) ? ActiveSms : 1.0);
    auto &Slot = AtomicFree[atomicSlot(Addr)];
    if (Slot.first != Addr + 1)
      Slot = {Addr + 1, 0.0};
    const double S0 = std::max(A0, Slot.second);
    Slot.second = S0 + Holds * Occupy;
    Done = std::max(Done, Slot.second + C->AtomicLatency);
  }
  return Done;
}

void MemorySide::nearLines(const StaticInst &SI, const MemAccess &M,
                           const uint64_t *Lines,
                           std::vector<uint64_t> &Out) const {
  if (!M.Global)
    return;
  const bool Load = SI.K != Kind::Store && SI.K != Kind::Atomic;
  for (uint32_t K = 0; K < M.NLines; ++K) {
    const uint64_t Entry = Lines[M.LineBegin + K];
    const unsigned Sectors =
        Load ? fetched(sectorsOf(Entry)) : sectorsOf(Entry);
    Out.push_back(lineOf(Entry) | (uint64_t)Sectors << SectorShift);
  }
}

unsigned MemorySide::fetched(unsigned Sectors) const {
  if (C->L2FetchBytes >= 128)
    return 0xfu;
  if (C->L2FetchBytes >= 64) // the aligned pair of each
    return Sectors | (Sectors & 5u) << 1 | (Sectors & 10u) >> 1;
  return Sectors;
}

uint64_t MemorySide::access(const StaticInst &SI, const MemAccess &M,
                            const uint64_t *Lines, uint64_t T, uint64_t Cta) {
  const double Start = (double)T;
  Accepted = T + 1;
  if (M.Off)
    return T + 1; // guarded off: issues, touches nothing
  if (!M.Counted) {
    // No exact counts for this instruction (ldmatrix, wmma, tex, const): a
    // typical cost of its space.
    switch (SI.Sp) {
    case Space::Shared:
      return T + (uint64_t)C->SharedLatency + 3;
    case Space::Const:
      return T + (uint64_t)C->constLatency();
    default:
      return T + (uint64_t)C->L2Latency;
    }
  }
  double Done = Start + 1;
  if (M.Shared)
    Done = std::max(Done, sharedAccess(SI, M, Lines, Start, Cta));
  if (!M.Global)
    return (uint64_t)std::ceil(Done);
  const double Sectors = std::max(1u, M.Sectors);
  const double L0 = std::max(Start, L1Free);
  L1Free = L0 + Sectors * 32 / C->L1BytesPerCycle;
  Accepted = (uint64_t)std::ceil(L1Free);
  if (SI.K == Kind::Atomic) {
    double A0 = std::max(L0, L2Free);
    double N = std::max(1u, M.Atomics);
    L2Free = A0 + N * 32 / L2Share;
    for (uint32_t K = 0; K < M.NLines; ++K)
      Shared->L2.access(Lines[M.LineBegin + K], Sm, Cta);
    Done = std::max({Done, A0 + C->AtomicLatency + N - 1,
                     atomicUnits(SI, M, Lines, A0, Cta)});
    LastWrite = std::max(LastWrite, (uint64_t)std::ceil(Done));
    return (uint64_t)std::ceil(Done);
  }
  const bool Store = SI.K == Kind::Store;
  // By sector: a line's sectors found in L1 cost its latency (or wait for
  // their fill, when it is still on its way: the miss's entry merges the
  // request); the others go to L2 and, missing there, to DRAM.
  uint32_t Asked = 0, L1Miss = 0, L2Miss = 0;
  bool ToDram = false;
  struct Pending {
    uint64_t *Fill;
    unsigned Sectors;
  } Filling[64];
  uint32_t NFilling = 0;
  // Loads' L2 lines: due from a fetch on its way (a hit waits for it), or
  // fetched by this access (due when it is back).
  uint64_t Due = 0, *Fetching[64];
  uint32_t NFetching = 0;
  for (uint32_t K = 0; K < M.NLines; ++K) {
    const uint64_t Entry = Lines[M.LineBegin + K];
    const unsigned Want = sectorsOf(Entry);
    Asked += sectorCount(Want);
    unsigned Miss = Want;
    if (!Store && !SI.BypassL1) {
      L1.access(Entry, true);
      Miss = L1.missing();
      for (unsigned B = Want & ~Miss; B; B &= B - 1)
        Done = std::max(Done, (double)L1.fill()[__builtin_ctz(B)]);
      if (!Miss)
        continue;
      if (L1.fill() && NFilling < 64)
        Filling[NFilling++] = {L1.fill(), Miss};
    }
    L1Miss += sectorCount(Miss);
    Shared->L2.access(lineOf(Entry) | (uint64_t)Miss << SectorShift, Sm, Cta);
    const unsigned Dram = Shared->L2.missing();
    L2Miss += sectorCount(Dram);
    ToDram |= Dram != 0;
    if (uint64_t *D = Store ? nullptr : Shared->L2.due()) {
      if (!Dram)
        Due = std::max(Due, *D);
      else if (NFetching < 64)
        Fetching[NFetching++] = D;
    }
    // A load's sectors missing in L2 come from DRAM with the rest of their
    // fetch granule (L2FetchBytes), which the L2 then holds.
    if (Dram && !Store && fetched(Dram) != Dram) {
      Shared->L2.access(lineOf(Entry) | (uint64_t)fetched(Dram) << SectorShift,
                        Sm, Cta);
      L2Miss += sectorCount(Shared->L2.missing());
    }
  }
  auto Filled = [&](double At) {
    const uint64_t Cycle = (uint64_t)std::ceil(At);
    for (uint32_t K = 0; K < NFilling; ++K)
      for (unsigned B = Filling[K].Sectors; B; B &= B - 1)
        Filling[K].Fill[__builtin_ctz(B)] = Cycle;
    return Cycle;
  };
  if (!Store && L1Miss == 0)
    return (uint64_t)std::ceil(std::max(Done, L0 + C->L1Latency));
  // The instruction's exact sectors in the proportions of the sectors
  // asked for (the same numbers for a trace's lines).
  const double Share = Sectors / std::max(1u, Asked);
  double MissSectors = std::ceil(Share * L1Miss);
  if (Store && !M.NLines)
    MissSectors = Sectors;
  double A0 = std::max(L0, L2Free);
  L2Free = A0 + MissSectors * 32 / L2Share;
  if (!ToDram || Store) {
    if (L2Miss) { // write-back of the new lines, later: bandwidth only
      double D0 = std::max(A0, DramFree);
      DramFree = D0 + std::ceil(Share * L2Miss) * 32 / DramShare;
    }
    // A line on its way from DRAM: wait for it, never longer than a fetch
    // of its own would take.
    const double Hit =
        std::max(A0 + C->L2Latency, std::min((double)Due, A0 + C->DramLatency));
    uint64_t At = Filled(std::max(Done, Hit));
    if (Store)
      LastWrite = std::max(LastWrite, At);
    return At;
  }
  double DramSectors = std::ceil(MissSectors * L2Miss / std::max(1u, L1Miss));
  double D0 = std::max(A0, DramFree);
  DramFree = D0 + DramSectors * 32 / DramShare;
  const uint64_t Back = Filled(std::max(Done, D0 + C->DramLatency));
  for (uint32_t K = 0; K < NFetching; ++K)
    *Fetching[K] = std::max(*Fetching[K], Back);
  return Back;
}

} // namespace warpscope::emu::timing
