//===- PcSampleTable.h - PC sampling records, merged over drains ----------===//
//
// What cuptiPCSamplingGetData hands back, accumulated per (cubin CRC,
// function, pc offset) and per stall reason, plus the run's totals. Built
// only from CUPTI's header types, so unit tests construct records by hand
// and no GPU is needed. Serialized as warpscope-pcsampling/3 (source cupti,
// granularity sass) (docs/pc-sampling-schema.md).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_COLLECT_PCSAMPLETABLE_H
#define WARPSCOPE_COLLECT_PCSAMPLETABLE_H

#include <cstdint>
#include <cupti_pcsampling.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace warpscope::collect {

struct PcKey {
  uint64_t CubinCrc = 0;
  std::string Function;
  uint64_t PcOffset = 0;
  bool operator<(const PcKey &O) const {
    return std::tie(CubinCrc, Function, PcOffset) <
           std::tie(O.CubinCrc, O.Function, O.PcOffset);
  }
};

struct PcCounts {
  uint32_t FunctionIndex = 0;
  std::map<uint32_t, uint64_t> ByReason; ///< stall reason index -> samples
};

/// "cubin-<16 hex digits>.cubin": where the collector saves a cubin.
std::string cubinFileName(uint64_t Crc);
/// 16 lowercase hex digits.
std::string hex64(uint64_t V);

class PcSampleTable {
public:
  /// The device's stall reasons, as cuptiPCSamplingGetStallReasons lists them.
  void setStallReasons(const std::vector<uint32_t> &Indices,
                       const std::vector<std::string> &Names);
  /// Merges one drain (GetData or the buffer Disable fills).
  void add(const CUpti_PCSamplingData &Data);
  void noteCubin(uint64_t Crc) { Cubins[Crc] = cubinFileName(Crc); }
  void noteError(const std::string &Line) { Errors.push_back(Line); }
  /// Name of a stall reason index; "stall-<index>" if the device never
  /// named it (so a record is never lost).
  std::string reasonName(uint32_t Index) const;
  /// The samples at a pc: its counts of reasons that are not not-issued
  /// ones (warpscope/PcSampling.h). Decided by name when asked, so the order of
  /// naming and merging does not matter.
  uint64_t samples(const PcCounts &C) const;

  /// The warpscope-pcsampling/3 document.
  nlohmann::json toJson(long Pid, const std::string &Program,
                        std::optional<unsigned> Period) const;

  const std::map<PcKey, PcCounts> &pcs() const { return Pcs; }
  uint64_t TotalSamples = 0, DroppedSamples = 0, NonUserSamples = 0;
  unsigned Drains = 0;
  bool HardwareBufferFull = false;

private:
  std::map<uint32_t, std::string> Reasons;
  std::map<PcKey, PcCounts> Pcs;
  std::map<uint64_t, std::string> Cubins;
  std::vector<std::string> Errors;
};

} // namespace warpscope::collect

#endif // WARPSCOPE_COLLECT_PCSAMPLETABLE_H
