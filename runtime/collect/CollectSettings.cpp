//===- CollectSettings.cpp - What the collector does ----------------------===//

#include "CollectSettings.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/Support/Settings.h"
#include <cstdlib>

using namespace warpscope::collect;
namespace support = warpscope::support;

CollectSettings
warpscope::collect::readCollectSettings(const char *(*Get)(const char *)) {
  support::SettingsReader R(Get);
  CollectSettings S;
  S.OutputDirectory = warpscope::outputDirectory(Get);
  if (R.choice("WARPSCOPE_COLLECT", {"pc-sampling", "sass-metrics"}, 0) == 1)
    S.Mode = CollectMode::SassMetrics;
  if (auto Period =
          R.integer("WARPSCOPE_SAMPLING_PERIOD", 5, 31, "CUPTI's default"))
    S.SamplingPeriod = unsigned(*Period);
  S.Warning = R.firstWarning();
  return S;
}
