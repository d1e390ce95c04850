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

} // namespace warpscope

#endif // WARPSCOPE_EMU_MEMORYCOUNTS_H
