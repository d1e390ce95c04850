//===- SassMetricsTable.cpp - Per-SASS-instruction metric values ----------===//

#include "SassMetricsTable.h"
#include "warpscope/ABI/Files.h"

using namespace warpscope::collect;

bool warpscope::collect::isWantedSassMetric(const std::string &Name) {
  // Executions (warp and thread level) give the GPU-side truth for our block
  // counts; branch targets split into divergent and uniform give it for the
  // divergence map. Chips name them with a unit prefix (smsp__...).
  static const char *Suffixes[] = {
      "sass_inst_executed", "sass_thread_inst_executed", "sass_branch_targets",
      "sass_branch_targets_threads_divergent",
      "sass_branch_targets_threads_uniform"};
  for (const char *S : Suffixes) {
    std::string Suffix = std::string("__") + S;
    if (Name.size() >= Suffix.size() &&
        Name.compare(Name.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      return true;
  }
  return false;
}

void SassMetricsTable::add(const CUpti_SassMetrics_Data *Records,
                           size_t NumRecords, size_t NumInstances) {
  ++Flushes;
  for (size_t I = 0; Records && I < NumRecords; ++I) {
    const CUpti_SassMetrics_Data &R = Records[I];
    auto &Values =
        Pcs[{R.cubinCrc, R.functionName ? R.functionName : "", R.pcOffset}];
    for (size_t K = 0; R.pInstanceValues && K < NumInstances; ++K) {
      const CUpti_SassMetrics_InstanceValue &V = R.pInstanceValues[K];
      auto It = Names.find(V.metricId);
      Values[It != Names.end() ? It->second
                               : "metric-" + std::to_string(V.metricId)] +=
          V.value;
    }
  }
}

nlohmann::json SassMetricsTable::toJson(long Pid, const std::string &Program,
                                        const std::string &Chip) const {
  using nlohmann::json;
  json Collected = json::array();
  for (const auto &Entry : Names)
    Collected.push_back(Entry.second);
  json PcList = json::array();
  for (const auto &[Key, Values] : Pcs)
    PcList.push_back({{"cubin_crc", hex64(Key.CubinCrc)},
                      {"function", Key.Function},
                      {"pc_offset", Key.PcOffset},
                      {"metrics", Values}});
  return {{"schema", schema::SassMetrics},
          {"pid", Pid},
          {"program", Program},
          {"chip", Chip},
          {"available_metrics", Available},
          {"collected_metrics", Collected},
          {"flushes", Flushes},
          {"dropped_records", DroppedRecords},
          {"pcs", PcList},
          {"errors", Errors}};
}
