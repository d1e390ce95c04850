//===- Profile.h - The profile on disk (schema warpscope-profile/1) -------===//
#ifndef WARPSCOPE_RUNTIME_PROFILE_H
#define WARPSCOPE_RUNTIME_PROFILE_H

#include "Environment.h"
#include "Registry.h"
#include <nlohmann/json.hpp>
#include <string>

namespace warpscope::rt {

struct ProcessInfo {
  long Pid = 0;
  std::optional<int> Rank;
  std::string Program;
  std::string Device;
  Mode CollectionMode = Mode::Aggregate;
  /// Written by the handler of this fatal signal (0: at exit or a reset).
  int EndedBySignal = 0;
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
