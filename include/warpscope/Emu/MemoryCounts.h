//===- MemoryCounts.h - Memory-efficiency counts, writer and reader --*- C++
//-*-===//
//
// Part of the ground-truth contract (schema warpscope-emu/1, docs/emulator.md
// "Memory efficiency"): the counts the emulator takes per memory instruction
// and the names they have in emu-*.json. The emulator writes them and the
// driver reads them through MemoryCountFields, so the two sides cannot spell
// a field differently.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_MEMORYCOUNTS_H
#define WARPSCOPE_EMU_MEMORYCOUNTS_H

#include <cstdint>
#include <cstdlib>

namespace warpscope {

/// Requests, 32-byte sectors and shared-memory wavefronts (each with the
/// ideal for the bytes accessed) and atomic addresses, summed over an
/// instruction's warp executions.
struct MemoryCounts {
  uint64_t GlobalRequests = 0, GlobalSectors = 0, GlobalIdealSectors = 0;
  uint64_t LocalRequests = 0, LocalSectors = 0, LocalIdealSectors = 0;
  uint64_t SharedRequests = 0, SharedWavefronts = 0, SharedIdealWavefronts = 0;
  uint64_t AtomicAddresses = 0;
  MemoryCounts &operator+=(const MemoryCounts &O);
};

/// Which group a field belongs to; the emulator writes a group only where
/// the instruction's space (or, for generic addresses, a space it resolved
/// to) has it.
enum class MemoryCountGroup { Global, Local, Shared, Atomic };

struct MemoryCountField {
  const char *Key; ///< the field's name in emu-*.json
  uint64_t MemoryCounts::*Member;
  MemoryCountGroup Group;
};

inline constexpr MemoryCountField MemoryCountFields[] = {
    {"global_requests", &MemoryCounts::GlobalRequests,
     MemoryCountGroup::Global},
    {"global_sectors", &MemoryCounts::GlobalSectors, MemoryCountGroup::Global},
    {"global_ideal_sectors", &MemoryCounts::GlobalIdealSectors,
     MemoryCountGroup::Global},
    {"local_requests", &MemoryCounts::LocalRequests, MemoryCountGroup::Local},
    {"local_sectors", &MemoryCounts::LocalSectors, MemoryCountGroup::Local},
    {"local_ideal_sectors", &MemoryCounts::LocalIdealSectors,
     MemoryCountGroup::Local},
    {"shared_requests", &MemoryCounts::SharedRequests,
     MemoryCountGroup::Shared},
    {"shared_wavefronts", &MemoryCounts::SharedWavefronts,
     MemoryCountGroup::Shared},
    {"shared_ideal_wavefronts", &MemoryCounts::SharedIdealWavefronts,
     MemoryCountGroup::Shared},
    {"atomic_addresses", &MemoryCounts::AtomicAddresses,
     MemoryCountGroup::Atomic},
};

inline MemoryCounts &MemoryCounts::operator+=(const MemoryCounts &O) {
  for (const MemoryCountField &F : MemoryCountFields)
    this->*F.Member += O.*F.Member;
  return *this;
}

/// The stride of an access: the address difference between neighbouring
/// active lanes (per lane, so lanes 0 and 2 with lane 1 inactive count one
/// difference of half their distance), kept exactly per instruction over its
/// warp executions (docs/emulator.md, "Memory efficiency"). Each
/// execution's difference that more than half of its lane pairs have adds
/// those pairs to that stride; a gather's executions add
/// none. Up to Slots strides are kept; an instruction whose executions have
/// more (per-warp strides) keeps none and reads as irregular. Both rules
/// depend only on the set of executions, not on their order, so the counts
/// are the same for every emulator thread count and file order.
struct StrideCounts {
  static constexpr unsigned Slots = 8;
  uint64_t LanePairs = 0; ///< neighbouring active lane pairs
  int64_t Stride[Slots] = {};
  uint64_t Pairs[Slots] = {};
  unsigned Used = 0;
  bool Overflow = false; ///< more than Slots strides: none kept

  /// N lane pairs at Stride bytes.
  void add(int64_t S, uint64_t N) {
    if (Overflow || !N)
      return;
    for (unsigned K = 0; K < Used; ++K)
      if (Stride[K] == S) {
        Pairs[K] += N;
        return;
      }
    if (Used == Slots) {
      Overflow = true;
      Used = 0;
      return;
    }
    Stride[Used] = S;
    Pairs[Used++] = N;
  }
  StrideCounts &operator+=(const StrideCounts &O) {
    LanePairs += O.LanePairs;
    if (O.Overflow) {
      Overflow = true;
      Used = 0;
    }
    for (unsigned K = 0; K < O.Used; ++K)
      add(O.Stride[K], O.Pairs[K]);
    return *this;
  }
  /// The stride most lane pairs have (ties: the smaller magnitude, then the
  /// smaller value); false when none was kept.
  bool dominant(int64_t &S, uint64_t &N) const {
    bool Any = false;
    for (unsigned K = 0; K < Used; ++K) {
      int64_t A = Stride[K];
      bool Better =
          !Any || Pairs[K] > N ||
          (Pairs[K] == N && (std::llabs(A) < std::llabs(S) ||
                             (std::llabs(A) == std::llabs(S) && A < S)));
      if (Better) {
        S = A;
        N = Pairs[K];
        Any = true;
      }
    }
    return Any;
  }
};

/// Their names in emu-*.json: "lane_pairs" (a count) and "strides", an array
/// of [bytes, lane pairs] (empty when none was kept).
inline constexpr const char *LanePairsKey = "lane_pairs";
inline constexpr const char *StridesKey = "strides";

/// The shared memory a launch's blocks touched (every load, store, atomic,
/// cp.async, matrix access or printf string in .shared, through a .shared or
/// a generic address; most over the launch's blocks), in the two parts a
/// program reserves: the static variables and the dynamic array (the
/// launch's third parameter). Static: bytes of the static variables up to
/// the highest one touched, and all of them when a dynamic byte was touched
/// (the emulator keeps one high-water mark per launch, not one per part).
/// Dynamic: bytes of the dynamic array up to the highest one touched. So
/// Static + Dynamic is a reservation that holds every byte this run touched
/// without moving a variable. Key in emu-*.json's launches[]: an object
/// {"static": n, "dynamic": n} (docs/emulator.md).
struct SharedTouched {
  uint64_t Static = 0, Dynamic = 0;
  uint64_t total() const { return Static + Dynamic; }
};
inline constexpr const char *SharedTouchedKey = "shared_touched";

/// The split above of End, the end of the highest byte touched as an offset
/// into a block's shared window, which holds StaticBytes of static
/// variables at 0 and the dynamic array at DynamicOffset (the static size
/// rounded up to the array's alignment).
inline SharedTouched splitSharedTouched(uint64_t End, uint64_t StaticBytes,
                                        uint64_t DynamicOffset) {
  SharedTouched T;
  T.Static = End < StaticBytes ? End : StaticBytes;
  T.Dynamic = End > DynamicOffset ? End - DynamicOffset : 0;
  return T;
}

} // namespace warpscope

#endif // WARPSCOPE_EMU_MEMORYCOUNTS_H
