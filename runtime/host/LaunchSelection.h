//===- LaunchSelection.h - Which launches are profiled --------------------===//
//
// Like Nsight Compute's -k, --launch-skip and --launch-count: of the
// launches of kernels matching a regex (all when none is given), skip the
// first N, then profile at most M, counted over all those kernels or per
// kernel (WARPSCOPE_LAUNCH_KERNEL, WARPSCOPE_LAUNCH_SKIP,
// WARPSCOPE_LAUNCH_COUNT, WARPSCOPE_LAUNCH_SCOPE).
// Launches left out still run; their counts are discarded and the profile
// lists how many each kernel had. Pure bookkeeping, no CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_RUNTIME_LAUNCHSELECTION_H
#define WARPSCOPE_RUNTIME_LAUNCHSELECTION_H

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <utility>

namespace warpscope::rt {

struct LaunchSelectionSettings {
  uint64_t Skip = 0;
  std::optional<uint64_t> Count; ///< none: no limit
  bool PerKernel = false;        ///< count per kernel, not over all launches
  /// ECMAScript regex over mangled and demangled names; "": every kernel.
  std::string KernelRegex;
  /// Anything to select: otherwise every launch is profiled, as before.
  bool active() const { return Skip || Count || !KernelRegex.empty(); }
};

class LaunchSelection {
public:
  /// S.KernelRegex must be a valid regex (readSettings checks it).
  explicit LaunchSelection(LaunchSelectionSettings S);
  /// Whether this launch of Kernel (module index, mangled name) is
  /// profiled; each call is one launch. Not thread-safe: the caller holds
  /// its lock.
  bool admit(const std::pair<int, std::string> &Kernel);

private:
  struct Seen {
    uint64_t Launches = 0, Profiled = 0;
  };
  bool matches(const std::string &Mangled);

  LaunchSelectionSettings S;
  std::optional<std::regex> Kernels;
  std::map<std::string, bool> Matched; ///< by mangled name
  Seen All;
  std::map<std::pair<int, std::string>, Seen> PerKernel;
};

/// "" when Pattern is a regex WARPSCOPE_LAUNCH_KERNEL accepts, else why not.
std::string kernelRegexError(const std::string &Pattern);

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_LAUNCHSELECTION_H
