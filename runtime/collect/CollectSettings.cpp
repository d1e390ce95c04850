//===- CollectSettings.cpp - What the collector does ----------------------===//

#include "CollectSettings.h"
#include "warpscope/ABI/Environment.h"
#include <cstdlib>

using namespace warpscope::collect;

std::optional<unsigned>
warpscope::collect::parseSamplingPeriod(const std::string &Text) {
  if (Text.empty() || Text.size() > 2 ||
      Text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  unsigned V = unsigned(std::stoul(Text));
  if (V < 5 || V > 31)
    return std::nullopt;
  return V;
}

CollectSettings
warpscope::collect::readCollectSettings(const char *(*Get)(const char *)) {
  CollectSettings S;
  S.OutputDirectory = warpscope::outputDirectory(Get);
  if (const char *M = Get("WARPSCOPE_COLLECT"); M && *M) {
    std::string Mode = M;
    if (Mode == "sass-metrics")
      S.Mode = CollectMode::SassMetrics;
    else if (Mode != "pc-sampling")
      S.Warning = "WARPSCOPE_COLLECT='" + Mode +
                  "' is not 'pc-sampling' or 'sass-metrics'; using pc-sampling";
  }
  if (const char *P = Get("WARPSCOPE_SAMPLING_PERIOD"); P && *P) {
    S.SamplingPeriod = parseSamplingPeriod(P);
    if (!S.SamplingPeriod && S.Warning.empty())
      S.Warning = std::string("WARPSCOPE_SAMPLING_PERIOD='") + P +
                  "' is not an integer in 5..31; using CUPTI's default";
  }
  return S;
}
