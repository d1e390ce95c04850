//===- CollectSettings.h - What the collector does, from the environment --===//
#ifndef WARPSCOPE_COLLECT_COLLECTSETTINGS_H
#define WARPSCOPE_COLLECT_COLLECTSETTINGS_H

#include <optional>
#include <string>

namespace warpscope::collect {

enum class CollectMode { PcSampling, SassMetrics };

struct CollectSettings {
  CollectMode Mode = CollectMode::PcSampling;
  /// log2 of cycles between samples, 5..31; unset: CUPTI's default.
  std::optional<unsigned> SamplingPeriod;
  std::string OutputDirectory; ///< see warpscope/Environment.h
  std::string Warning;         ///< one line about a bad setting, empty if none
};

/// Reads WARPSCOPE_COLLECT (pc-sampling, the default, or sass-metrics),
/// WARPSCOPE_SAMPLING_PERIOD and WARPSCOPE_OUT; Get is getenv or a test map.
CollectSettings readCollectSettings(const char *(*Get)(const char *));

} // namespace warpscope::collect

#endif // WARPSCOPE_COLLECT_COLLECTSETTINGS_H
