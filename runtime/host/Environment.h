//===- Environment.h - Runtime settings from the environment --------------===//
#ifndef WARPSCOPE_RUNTIME_ENVIRONMENT_H
#define WARPSCOPE_RUNTIME_ENVIRONMENT_H

#include "LaunchSelection.h"
#include <optional>
#include <string>

namespace warpscope::rt {

enum class Mode { Aggregate, PerLaunch };

struct Settings {
  Mode CollectionMode = Mode::Aggregate;
  std::string OutputDirectory;  ///< see warpscope/Environment.h
  std::optional<int> Rank;      ///< MPI/Slurm rank when launched by one
  std::optional<int> WorldSize; ///< its job's number of ranks, when said
  bool Quiet = false;
  /// For tests (WARPSCOPE_FLUSH_DELAY_MS): each flush waits this long before
  /// it writes, so a signal can arrive during one.
  unsigned FlushDelayMs = 0;
  /// WARPSCOPE_LAUNCH_SKIP, _COUNT and _SCOPE (overall or per-kernel).
  LaunchSelectionSettings Selection;
  std::string Warning; ///< one line about a bad setting, empty if none
};

/// Reads WARPSCOPE_MODE, WARPSCOPE_OUT, WARPSCOPE_QUIET, the launch
/// selection (WARPSCOPE_LAUNCH_SKIP, _COUNT, _SCOPE) and the rank
/// variables of Open MPI, MPICH/PMI, PMIx and Slurm. Get is the lookup
/// (getenv in the runtime, a map in tests).
Settings readSettings(const char *(*Get)(const char *));

/// profile-<pid>[-rank<r>].json
std::string profileFileName(long Pid, std::optional<int> Rank);
/// launches-<pid>[-rank<r>].jsonl
std::string launchesFileName(long Pid, std::optional<int> Rank);

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_ENVIRONMENT_H
