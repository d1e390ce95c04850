//===- LaunchSelection.h - Which launches are profiled --------------------===//
//
// Like Nsight Compute's --launch-skip and --launch-count: skip the first N
// launches, then profile at most M, counted over all kernels or per kernel
// (WARPSCOPE_LAUNCH_SKIP, WARPSCOPE_LAUNCH_COUNT, WARPSCOPE_LAUNCH_SCOPE).
// Launches left out still run; their counts are discarded and the profile
// lists how many each kernel had. Pure bookkeeping, no CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_RUNTIME_LAUNCHSELECTION_H
#define WARPSCOPE_RUNTIME_LAUNCHSELECTION_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace warpscope::rt {

struct LaunchSelectionSettings {
  uint64_t Skip = 0;
  std::optional<uint64_t> Count; ///< none: no limit
  bool PerKernel = false;        ///< count per kernel, not over all launches
  /// Anything to select: otherwise every launch is profiled, as before.
  bool active() const { return Skip || Count; }
};

class LaunchSelection {
public:
  explicit LaunchSelection(LaunchSelectionSettings S) : S(S) {}
  /// Whether this launch of Kernel (module index, mangled name) is
  /// profiled; each call is one launch. Not thread-safe: the caller holds
  /// its lock.
  bool admit(const std::pair<int, std::string> &Kernel);

private:
  struct Seen {
    uint64_t Launches = 0, Profiled = 0;
  };
  LaunchSelectionSettings S;
  Seen All;
  std::map<std::pair<int, std::string>, Seen> PerKernel;
};

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_LAUNCHSELECTION_H
