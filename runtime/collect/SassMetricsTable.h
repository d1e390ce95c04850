//===- SassMetricsTable.h - Per-SASS-instruction metric values ------------===//
//
// cuptiSassMetricsFlushData records summed per (cubin CRC, function, pc
// offset) and metric, over all instances (SMs) and flushes. Built from
// CUPTI's header types only, so tests need no GPU. Serialized as
// warpscope-sassmetrics/1 (docs/pc-sampling-schema.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_COLLECT_SASSMETRICSTABLE_H
#define WARPSCOPE_COLLECT_SASSMETRICSTABLE_H

#include "PcSampleTable.h"
#include <cupti_sass_metrics.h>

namespace warpscope::collect {

/// The metrics we ask for, by name suffix, among those the chip offers.
bool isWantedSassMetric(const std::string &Name);

class SassMetricsTable {
public:
  void noteMetric(uint64_t Id, const std::string &Name) { Names[Id] = Name; }
  void setAvailable(std::vector<std::string> All) {
    Available = std::move(All);
  }
  /// Adds NumRecords records of NumInstances values each.
  void add(const CUpti_SassMetrics_Data *Records, size_t NumRecords,
           size_t NumInstances);
  void noteError(const std::string &Line) { Errors.push_back(Line); }
  nlohmann::json toJson(long Pid, const std::string &Program,
                        const std::string &Chip) const;

  const std::map<PcKey, std::map<std::string, uint64_t>> &pcs() const {
    return Pcs;
  }
  uint64_t DroppedRecords = 0;
  unsigned Flushes = 0;

private:
  std::map<uint64_t, std::string> Names;
  std::vector<std::string> Available, Errors;
  std::map<PcKey, std::map<std::string, uint64_t>> Pcs;
};

} // namespace warpscope::collect

#endif // WARPSCOPE_COLLECT_SASSMETRICSTABLE_H
