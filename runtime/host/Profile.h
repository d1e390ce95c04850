//===- Profile.h - The profile on disk (schema warpscope-profile/2) -------===//
#ifndef WARPSCOPE_RUNTIME_PROFILE_H
#define WARPSCOPE_RUNTIME_PROFILE_H

#include "Environment.h"
#include "Registry.h"
#include <nlohmann/json.hpp>
#include <string>

namespace warpscope::rt {

/// The device's per-SM limits (cudaDeviceProp), for occupancy.
struct DeviceLimits {
  std::string ComputeCapability; ///< "9.0"
  uint32_t SmCount = 0, WarpSize = 0;
  uint32_t RegistersPerSM = 0, RegistersPerBlock = 0;
  uint32_t MaxThreadsPerSM = 0, MaxBlocksPerSM = 0, MaxThreadsPerBlock = 0;
  uint64_t SharedPerSM = 0, SharedPerBlockOptin = 0, ReservedSharedPerBlock = 0;
};

struct ProcessInfo {
  long Pid = 0;
  std::optional<int> Rank;
  std::optional<int> WorldSize; ///< the job's ranks, when its launcher said
  std::string Program;
  std::string Device;
  std::optional<DeviceLimits> Limits;
  Mode CollectionMode = Mode::Aggregate;
  /// Written by the handler of this fatal signal (0: at exit or a reset).
  int EndedBySignal = 0;
  LaunchSelectionSettings Selection;
};

nlohmann::json profileJson(const Registry &R, const ProcessInfo &P);

/// Per-launch mode: one JSON object per line and launch, with its sparse
/// counters; the profile itself keeps only launch groups.
std::string launchesJsonLines(const Registry &R);

/// Writes the profile and the database of every module that ran. Returns
/// the profile's path, or sets Error.
std::string writeProfile(const Registry &R, const ProcessInfo &P,
                         const std::string &Dir, std::string &Error);

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_PROFILE_H
