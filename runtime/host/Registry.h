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
  /// Records the first fault only (see FailedLaunch); false if one was
  /// recorded before.
  bool recordFailure(const FailedLaunch &F);
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
  std::optional<FailedLaunch> failure() const;

private:
  mutable std::mutex Lock;
  std::vector<ModuleState> Modules;
  std::map<const void *, KernelRef> Kernels;
  std::map<const void *, uint32_t> Streams;
  std::map<LaunchGroupKey, uint64_t> Groups;
  std::vector<LaunchRecord> Records;
  std::optional<FailedLaunch> Failure;
  uint64_t Launches = 0;
};

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_REGISTRY_H
