//===- Occupancy.h - Theoretical occupancy of a kernel on one SM ----------===//
//
// How many blocks of a kernel fit on one SM at once, and which resource
// stops the next one: the rules of NVIDIA's occupancy calculator
// (cuda_occupancy.h in the CUDA toolkit), for the figures of one SM. The
// emulator's cudaOccupancyMaxActiveBlocksPerMultiprocessor and `warpscope
// report` both use this, so they agree exactly. Header-only, no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_OCCUPANCY_H
#define WARPSCOPE_SUPPORT_OCCUPANCY_H

#include <algorithm>
#include <cstdint>
#include <string>

namespace warpscope {

/// One SM's limits. Sources: the CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability" (cc 9.0), and the allocation
/// rules of the CUDA occupancy calculator (cuda_occupancy.h, CUDA 13).
struct SmLimits {
  uint32_t WarpSize = 32;
  /// 64K 32-bit registers per SM (guide: "Number of 32-bit registers per
  /// multiprocessor", 64 K for 9.0).
  uint32_t RegistersPerSM = 65536;
  /// 64K registers per block (guide: "per thread block", 64 K).
  uint32_t RegistersPerBlock = 65536;
  /// Registers go to warps in units of 256 (cuda_occupancy.h,
  /// cudaOccRegAllocationGranularity: 256 for cc 3.x-12.x).
  uint32_t RegisterAllocationUnit = 256;
  /// 255 registers per thread (guide; cudaOccRegAllocationMaxPerThread).
  uint32_t MaxRegistersPerThread = 255;
  /// The register file is split over 4 sub-partitions, a warp's registers
  /// in one (cudaOccSubPartitionsPerMultiprocessor: 4 for cc 7.x-12.x).
  uint32_t RegisterSubPartitions = 4;
  /// 2048 resident threads = 64 warps per SM (guide, 9.0).
  uint32_t MaxThreadsPerSM = 2048;
  /// 32 resident blocks per SM (guide, 9.0).
  uint32_t MaxBlocksPerSM = 32;
  /// 1024 threads per block (guide).
  uint32_t MaxThreadsPerBlock = 1024;
  /// 228 KB shared memory per SM, at most 227 KB per block (guide, 9.0).
  uint64_t SharedPerSM = 228 * 1024;
  uint64_t SharedPerBlockOptin = 227 * 1024;
  /// 1 KB of each block's shared memory is reserved for the system (guide:
  /// cudaDevAttrReservedSharedMemoryPerBlock; cuda_occupancy.h adds it to
  /// the static size).
  uint64_t ReservedSharedPerBlock = 1024;
  /// Shared memory goes to blocks in units of 128 bytes
  /// (cudaOccSMemAllocationGranularity: 128 for cc 8.x-12.x).
  uint64_t SharedAllocationUnit = 128;

  uint32_t maxWarpsPerSM() const { return MaxThreadsPerSM / WarpSize; }
};

/// The shared-memory capacities an SM's unified L1/shared memory can be
/// configured with (the carveout), in KB: cc 9.0 supports these ten (CUDA
/// C++ Programming Guide, "Compute Capability 9.0", Shared Memory; the
/// occupancy calculator's cudaOccAlignUpShmemSizeVoltaPlus), cc 8.0 those
/// up to 164. The rest of the unified memory is L1 cache.
inline constexpr uint32_t SharedCarveoutsKb[] = {0,   8,   16,  32,  64,
                                                 100, 132, 164, 196, 228};

/// The H100 (sm_90) the emulator emulates: the defaults above.
inline constexpr SmLimits H100Limits{};

/// What a launch of a kernel asks of one SM.
struct KernelFootprint {
  uint32_t ThreadsPerBlock = 0;
  uint32_t RegistersPerThread = 0;
  uint64_t StaticSharedBytes = 0;
  uint64_t DynamicSharedBytes = 0;
};

/// Which limits stop one more block (bit set; several when they tie).
enum OccupancyLimiter : unsigned {
  LimitThreads = 1,   ///< resident threads (warps) per SM
  LimitBlocks = 2,    ///< resident blocks per SM
  LimitRegisters = 4, ///< register file
  LimitShared = 8,    ///< shared memory
};

struct OccupancyResult {
  uint32_t BlocksPerSM = 0;
  uint32_t WarpsPerSM = 0;
  uint32_t MaxWarpsPerSM = 0;
  unsigned Limiters = 0; ///< OccupancyLimiter bits reaching BlocksPerSM
  /// Active warps over the SM's maximum, in [0, 1].
  double fraction() const {
    return MaxWarpsPerSM ? double(WarpsPerSM) / MaxWarpsPerSM : 0;
  }
};

/// The shared memory one block of K takes on an SM: static + the system's
/// reserved + dynamic, rounded to the allocation unit (as the occupancy
/// rules count it).
inline uint64_t sharedPerBlock(const SmLimits &L, const KernelFootprint &K) {
  const uint64_t Bytes =
      K.StaticSharedBytes + L.ReservedSharedPerBlock + K.DynamicSharedBytes;
  return (Bytes + L.SharedAllocationUnit - 1) / L.SharedAllocationUnit *
         L.SharedAllocationUnit;
}

/// The carveout the SM is configured with to hold Bytes of resident
/// blocks' shared memory: the smallest supported capacity that holds them
/// (the driver picks one that does not limit occupancy; the rest of the
/// unified L1/shared memory is L1), at most L.SharedPerSM.
inline uint64_t sharedCarveout(const SmLimits &L, uint64_t Bytes) {
  for (uint32_t Kb : SharedCarveoutsKb)
    if (uint64_t(Kb) * 1024 >= Bytes && uint64_t(Kb) * 1024 <= L.SharedPerSM)
      return uint64_t(Kb) * 1024;
  return L.SharedPerSM;
}

/// Blocks per SM by each limit, as cuda_occupancy.h computes them (default
/// shared-memory carveout: the whole SM's shared memory is available).
inline OccupancyResult theoreticalOccupancy(const SmLimits &L,
                                            const KernelFootprint &K) {
  auto RoundUp = [](uint64_t V, uint64_t Unit) {
    return (V + Unit - 1) / Unit * Unit;
  };
  OccupancyResult R;
  R.MaxWarpsPerSM = L.maxWarpsPerSM();
  if (!K.ThreadsPerBlock || K.ThreadsPerBlock > L.MaxThreadsPerBlock)
    return R;
  const uint64_t Warps = RoundUp(K.ThreadsPerBlock, L.WarpSize) / L.WarpSize;
  const uint64_t ByThreads = L.maxWarpsPerSM() / Warps;
  const uint64_t ByBlocks = L.MaxBlocksPerSM;
  // Registers: per warp, rounded to the allocation unit; a warp lives in
  // one sub-partition; the per-block check rounds warps up to the number
  // of sub-partitions.
  uint64_t ByRegisters = UINT64_MAX;
  if (K.RegistersPerThread) {
    const uint64_t PerWarp = RoundUp(
        uint64_t(K.RegistersPerThread) * L.WarpSize, L.RegisterAllocationUnit);
    const uint64_t PerBlockAssumed =
        PerWarp * RoundUp(Warps, L.RegisterSubPartitions);
    if (K.RegistersPerThread > L.MaxRegistersPerThread ||
        PerBlockAssumed > L.RegistersPerBlock ||
        PerWarp * Warps > L.RegistersPerBlock)
      ByRegisters = 0;
    else
      ByRegisters = (L.RegistersPerSM / L.RegisterSubPartitions / PerWarp) *
                    L.RegisterSubPartitions / Warps;
  }
  // Shared memory: static + reserved + dynamic, rounded to the unit.
  const uint64_t Shared = sharedPerBlock(L, K);
  const uint64_t ByShared =
      Shared > L.SharedPerBlockOptin + L.ReservedSharedPerBlock
          ? 0
          : L.SharedPerSM / Shared;
  const uint64_t Blocks =
      std::min({ByThreads, ByBlocks, ByRegisters, ByShared});
  R.BlocksPerSM = uint32_t(Blocks);
  R.WarpsPerSM = uint32_t(Blocks * Warps);
  R.Limiters = (ByThreads == Blocks ? unsigned(LimitThreads) : 0u) |
               (ByBlocks == Blocks ? unsigned(LimitBlocks) : 0u) |
               (ByRegisters == Blocks ? unsigned(LimitRegisters) : 0u) |
               (ByShared == Blocks ? unsigned(LimitShared) : 0u);
  return R;
}

/// "registers", "shared memory, threads", ...: the limiters, most
/// actionable first.
inline std::string limiterNames(unsigned Limiters) {
  std::string Out;
  auto Add = [&](unsigned Bit, const char *Name) {
    if (Limiters & Bit)
      Out += (Out.empty() ? "" : ", ") + std::string(Name);
  };
  Add(LimitRegisters, "registers");
  Add(LimitShared, "shared memory");
  Add(LimitThreads, "threads");
  Add(LimitBlocks, "blocks");
  return Out;
}

} // namespace warpscope

#endif // WARPSCOPE_SUPPORT_OCCUPANCY_H
