//===- Environment.cpp - Runtime settings from the environment ------------===//

#include "Environment.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Support/Settings.h"
#include <cstdint>

using namespace warpscope::rt;
namespace support = warpscope::support;

Settings warpscope::rt::readSettings(const char *(*Get)(const char *)) {
  support::SettingsReader R(Get);
  Settings S;
  if (R.choice("WARPSCOPE_MODE", {"aggregate", "per-launch"}, 0) == 1)
    S.CollectionMode = Mode::PerLaunch;
  S.OutputDirectory = warpscope::outputDirectory(Get);
  S.Quiet = R.flag("WARPSCOPE_QUIET", false);
  S.FlushDelayMs = unsigned(
      R.integer("WARPSCOPE_FLUSH_DELAY_MS", 0, 60000, "0").value_or(0));
  S.Selection.Skip = uint64_t(
      R.integer("WARPSCOPE_LAUNCH_SKIP", 0, INT64_MAX, "0").value_or(0));
  if (auto Count =
          R.integer("WARPSCOPE_LAUNCH_COUNT", 1, INT64_MAX, "no limit"))
    S.Selection.Count = uint64_t(*Count);
  S.Selection.PerKernel =
      R.choice("WARPSCOPE_LAUNCH_SCOPE", {"overall", "per-kernel"}, 0) == 1;
  S.Selection.KernelRegex = R.text("WARPSCOPE_LAUNCH_KERNEL");
  if (std::string Why = kernelRegexError(S.Selection.KernelRegex);
      !Why.empty()) {
    S.Warning = "WARPSCOPE_LAUNCH_KERNEL='" + S.Selection.KernelRegex +
                "' is not a regular expression (" + Why +
                "); using every kernel";
    S.Selection.KernelRegex.clear();
  }
  // Launchers' rank variables are not ours to complain about.
  S.Rank = warpscope::launcherRank(Get);
  if (S.Rank)
    S.WorldSize = warpscope::launcherWorldSize(Get);
  if (!R.firstWarning().empty())
    S.Warning = R.firstWarning();
  return S;
}

std::string warpscope::rt::profileFileName(long Pid, std::optional<int> Rank) {
  return files::Profile.perProcess(Pid, Rank);
}

std::string warpscope::rt::launchesFileName(long Pid, std::optional<int> Rank) {
  return files::Launches.perProcess(Pid, Rank);
}
