//===- Registry.h - What the runtime knows about modules and launches -----===//
//
// Pure bookkeeping, no CUDA: modules registered by instrumented translation
// units, their kernels, launches and accumulated counters. CudaHooks.cpp
// feeds it; Profile.cpp writes it out. Thread-safe: every public method
// takes the lock.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_RUNTIME_REGISTRY_H
#define WARPSCOPE_RUNTIME_REGISTRY_H

#include "warpscope/ABI/Abi.h"
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace warpscope::rt {

struct Dim {
  uint32_t X = 1, Y = 1, Z = 1;
  bool operator<(const Dim &O) const {
    return std::tie(X, Y, Z) < std::tie(O.X, O.Y, O.Z);
  }
};

struct LaunchConfig {
  Dim Grid, Block;
  uint64_t SharedBytes = 0;
  uint32_t Stream = 0; ///< dense index, 0 = the default stream
  bool operator<(const LaunchConfig &O) const {
    return std::tie(Grid, Block, SharedBytes, Stream) <
           std::tie(O.Grid, O.Block, O.SharedBytes, O.Stream);
  }
};

/// A kernel as launches see it: module index (-1 if its stub is unknown).
struct KernelRef {
  int Module = -1;
  std::string Name;
};

struct ModuleState {
  const ModuleDescriptor *Desc = nullptr;
  std::vector<uint64_t> Totals; ///< counts read back so far
  bool Dirty = false;           ///< launched since the last read
  std::string Error;            ///< why Totals may be incomplete
  bool ReadAfterFault = false;  ///< see Registry::setReadAfterFault
};

/// Aggregate mode: launches grouped by kernel and configuration.
struct LaunchGroupKey {
  int Module;
  std::string Kernel;
  LaunchConfig Config;
  bool operator<(const LaunchGroupKey &O) const {
    return std::tie(Module, Kernel, Config) <
           std::tie(O.Module, O.Kernel, O.Config);
  }
};

/// Per-launch mode: one record per launch, counters as (index, count).
struct LaunchRecord {
  uint64_t Sequence = 0;
  KernelRef Kernel;
  LaunchConfig Config;
  double TimeMs = -1;
  std::vector<std::pair<uint32_t, uint64_t>> Counters;
  std::string Error;
};

/// What a kernel's machine code uses, asked of the CUDA runtime once per
/// kernel (on the emulator, ptxas answers it).
struct KernelAttributes {
  std::string Source; ///< "cuda-runtime" or "ptxas"
  bool Known = false; ///< false: Error says why
  std::string Error;
  uint32_t Registers = 0;  ///< per thread
  uint64_t LocalBytes = 0; ///< local memory (stack frame) per thread
  uint64_t StaticSharedBytes = 0;
  uint32_t MaxThreadsPerBlock = 0;
  /// ptxas only: the CUDA runtime does not report spill traffic.
  std::optional<uint64_t> SpillStoreBytes, SpillLoadBytes;
};

/// A kernel by module index and mangled name.
using KernelKey = std::pair<int, std::string>;

/// Blocks per SM depend on the block's threads and dynamic shared memory.
struct OccupancyKey {
  KernelKey Kernel;
  uint32_t Threads = 0;
  uint64_t SharedBytes = 0;
  bool operator<(const OccupancyKey &O) const {
    return std::tie(Kernel, Threads, SharedBytes) <
           std::tie(O.Kernel, O.Threads, O.SharedBytes);
  }
};

/// What a launch still has to ask the CUDA runtime (each question once).
struct ResourceQuestions {
  bool Attributes = false;
  bool Occupancy = false;
};

/// The first kernel fault (trap, failed assert, illegal address, an
/// unsupported instruction on the emulator); the context is unusable after
/// it, so later errors are its consequences. The emulator reports a fault
/// at the launch that ran it (Attributed); a GPU at a later launch or
/// synchronization, so Kernel is only where it surfaced.
struct FailedLaunch {
  KernelRef Kernel;
  LaunchConfig Config;
  std::string Error;
  bool Attributed = false;
};

/// The launch a signal stopped on the emulator (SIGINT, SIGTERM): its
/// counts are those of the part that ran.
struct InterruptedLaunch {
  KernelRef Kernel;
  LaunchConfig Config;
  int Signal = 0;
  uint64_t Launch = 0; ///< 1-based, among the process's profiled launches
};

class Registry {
public:
  /// Returns the module's index; a descriptor seen before keeps its index.
  int addModule(const ModuleDescriptor *Desc);
  KernelRef findKernel(const void *Stub) const;
  uint32_t streamIndex(const void *Stream);

  void recordLaunch(const KernelRef &K, const LaunchConfig &C);
  /// Per-launch mode: Counts are this launch's counts (device counters were
  /// zero before it); they are also added to the module's totals.
  void recordLaunch(const KernelRef &K, const LaunchConfig &C, double TimeMs,
                    const std::vector<uint64_t> &Counts,
                    const std::string &Error);
  /// A launch the launch selection left out (it ran; its counts were
  /// discarded).
  void recordLeftOut(const KernelRef &K);
  /// Claims the questions about K and this configuration not asked yet, so
  /// no other launch asks them again.
  ResourceQuestions claimResourceQuestions(const KernelRef &K,
                                           const OccupancyKey &O);
  void setAttributes(const KernelRef &K, const KernelAttributes &A);
  /// Null when the kernel's attributes are not known.
  std::optional<KernelAttributes> attributes(const KernelRef &K) const;
  void setBlocksPerSM(const OccupancyKey &O, std::optional<uint32_t> Blocks);
  /// Records the first fault only (see FailedLaunch); false if one was
  /// recorded before.
  bool recordFailure(const FailedLaunch &F);
  /// The last launch recorded was stopped by Signal.
  void recordInterrupted(const KernelRef &K, const LaunchConfig &C, int Signal);
  void accumulate(int Module, const std::vector<uint64_t> &Counts);
  void setModuleError(int Module, const std::string &Error);
  /// The module's counters were read after a fault (the emulator keeps
  /// device memory readable; a GPU does not).
  void setReadAfterFault(int Module);

  /// Modules launched since their last read; clears the dirty flags.
  std::vector<int> takeDirtyModules();

  // Snapshot accessors for the profile writer.
  std::vector<ModuleState> modules() const;
  std::map<LaunchGroupKey, uint64_t> launchGroups() const;
  std::vector<LaunchRecord> launchRecords() const;
  uint64_t launchCount() const;
  std::map<KernelKey, uint64_t> leftOut() const;
  std::map<KernelKey, KernelAttributes> kernelAttributes() const;
  std::map<OccupancyKey, std::optional<uint32_t>> blocksPerSM() const;
  std::optional<FailedLaunch> failure() const;
  std::optional<InterruptedLaunch> interrupted() const;

private:
  mutable std::mutex Lock;
  std::vector<ModuleState> Modules;
  std::map<const void *, KernelRef> Kernels;
  std::map<const void *, uint32_t> Streams;
  std::map<LaunchGroupKey, uint64_t> Groups;
  std::vector<LaunchRecord> Records;
  std::map<KernelKey, std::optional<KernelAttributes>> Attributes;
  std::map<OccupancyKey, std::optional<uint32_t>> BlocksPerSM;
  std::optional<FailedLaunch> Failure;
  std::optional<InterruptedLaunch> Interrupted;
  uint64_t Launches = 0;
  std::map<KernelKey, uint64_t> LeftOut;
};

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_REGISTRY_H
