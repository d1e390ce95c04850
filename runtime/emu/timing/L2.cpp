//===- L2.cpp - The L2 as the simulated SMs see it ------------------------===//
//
// With K of the launch's S SMs simulated (Model.cpp), each simulated SM
// stands for S / K: the unsimulated SMs between two simulated ones receive
// CTAs like its own. Their accesses are not traced, so the L2 must account
// for them unseen. It is one cache of the whole L2's capacity, not a K / S
// share of it: a share holds an SM's own lines as the GPU does, but a
// line many SMs read (a vector every CTA reads, a pivot row) is one line
// on the GPU, which in a share takes S / K times its room (spmv's x at 1M
// rows: 4 MB, in an 8/132 share of 3 MB). So:
//
// - A line one simulated SM touches alone is its own, and each unsimulated
//   SM allocates one like it: its allocation ages the cache by (S - K) / K
//   lines more, spread over the sets by their mean (LineCache::ageBy).
// - A line a second simulated SM touches is grid-wide: the lines its first
//   allocation counted for the others are taken back (the clock goes back;
//   lines touched since get them back too, a slight error), and a sector
//   of it missing when a simulated SM asks for it is fetched from DRAM by
//   that SM only K / S of the time: the GPU fetches it once, and of its S
//   readers the first is a simulated one K / S of the time (a hash of line
//   and sector decides, the same in every run). The unsimulated SMs read
//   it too, S / K times as often as the simulated ones: the lines that
//   came since its last touch (seen, and the others' own) are S / K times
//   as many as since the GPU's last touch of it; its depth in the LRU
//   order is K / S of them.
//
// Neighbouring CTAs share lines (a stencil's halo, a row segment's last
// 64-byte fetch granule), and CTA c's neighbours c - 1 and, in a 2D grid,
// c - gridDim.x run on unsimulated SMs. Those SMs (where no other role has
// them) have their CTAs traced too (LaunchModel::wanted), not timed: the
// line entries they brought in (a load's with its fetch granule) are the
// "near" lines of the simulated CTA c they neighbour, kept while c runs
// (an SM runs several CTAs at once, each with its own neighbours; near
// lines of the SM's latest CTA only left hotspot at 2048 +49.7% against
// every SM: docs/results/2026-11-28-timing-model-halo.md). A sector c
// misses that is near is not fetched: its neighbour did, as on the GPU
// when the L2 sees CTAs in index order (c then fetches what it shares
// with c + 1 and c + gridDim.x). Only a line not grid-wide: a grid-wide
// line's readers on unsimulated SMs, neighbours included, are accounted
// for already (below), and would count twice. Near lines are private to
// that CTA and do not enter the tags: the neighbours' other lines are
// accounted for as the unsimulated SMs' (above); in the tags they would
// count twice.
//
// The unsimulated SMs' lines only come, never hit: the lines each SM
// reuses are in the cache for the simulated SMs only, so it holds K / S of
// the GPU's reused working set until misses (which age it) start. With
// every SM simulated (K = S), a plain cache.
//
//===----------------------------------------------------------------------===//
#include "SmSim.h"

#include <algorithm>

namespace warpscope::emu::timing {

namespace {
/// The owner of a grid-wide line (else: the simulated SM's index + 1).
constexpr uint64_t GridWide = ~uint64_t(0);

uint64_t mix(uint64_t X) {
  X ^= X >> 31;
  X *= 0x9E3779B97F4A7C15ull;
  return X ^ X >> 29;
}
} // namespace

void SharedL2::init(uint64_t Bytes, uint64_t SimSms, uint64_t ActiveSms) {
  Sim = std::max<uint64_t>(1, SimSms);
  Active = std::max(Sim, ActiveSms);
  Others = 0;
  Tags.init(Bytes, 16);
  Near.assign(Sim, {});
  const uint64_t Sets = Bytes / 128 / 16;
  if (Sim < Active && Sets)
    Tags.ageBy(&Others, 1.0 / ((double)Sim * Sets), (double)Sim / Active);
}

unsigned SharedL2::fetchedHere(uint64_t Line, unsigned Sectors) const {
  unsigned Here = 0;
  for (unsigned B = Sectors; B; B &= B - 1) {
    const unsigned Sector = __builtin_ctz(B);
    if (mix(Line * 4 + Sector) % Active < Sim)
      Here |= 1u << Sector;
  }
  return Here;
}

void SharedL2::setNear(uint32_t Sm, uint64_t Cta,
                       std::vector<uint64_t> &&Entries) {
  std::vector<uint64_t> &N = Near[Sm][Cta];
  N.insert(N.end(), Entries.begin(), Entries.end());
  std::sort(N.begin(), N.end(),
            [](uint64_t A, uint64_t B) { return lineOf(A) < lineOf(B); });
}

unsigned SharedL2::nearSectors(uint32_t Sm, uint64_t Cta, uint64_t Line) const {
  auto G = Near[Sm].find(Cta);
  if (G == Near[Sm].end())
    return 0;
  const std::vector<uint64_t> &N = G->second;
  unsigned Sectors = 0;
  // Sorted by line: a line's entries (any sectors) are adjacent.
  for (auto I = std::lower_bound(
           N.begin(), N.end(), Line,
           [](uint64_t E, uint64_t L) { return lineOf(E) < L; });
       I != N.end() && lineOf(*I) == Line; ++I)
    Sectors |= sectorsOf(*I);
  return Sectors;
}

bool SharedL2::access(uint64_t Entry, uint32_t Sm, uint64_t Cta) {
  Tags.access(Entry, true);
  Missing = Tags.missing();
  if (Sim == Active || !Tags.fill())
    return !Missing;
  uint64_t &Owner = Tags.fill()[0];
  const uint64_t Mine = Sm + 1, Theirs = Active - Sim;
  // Not (yet) grid-wide: what a neighbour brought in is not missing.
  if (Missing && !Near[Sm].empty() &&
      ((!Tags.found() && !Tags.aged()) || Owner == Mine))
    Missing &= ~nearSectors(Sm, Cta, lineOf(Entry));
  if (!Tags.found() && !Tags.aged()) { // new: this SM's own, and theirs
    Owner = Mine;
    Others += Theirs;
    return !Missing;
  }
  if (Owner == Mine) { // its own again; aged out: theirs too
    Others += Tags.aged() ? Theirs : 0;
    return !Missing;
  }
  if (Owner != GridWide) { // a second SM's: grid-wide from now on
    Owner = GridWide;
    if (Tags.found())
      Others -= std::min(Others, Theirs);
  }
  Tags.fill()[2] = 1; // read by the unsimulated SMs too
  Missing = fetchedHere(lineOf(Entry), Missing);
  return !Missing;
}

} // namespace warpscope::emu::timing
