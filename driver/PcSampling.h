//===- PcSampling.h - pcsamples-*.json, mapped to source lines ------------===//
//
// Loads what libwarpscope-collect.so wrote (docs/pc-sampling-schema.md) and
// maps each sampled pc offset to file:line through the saved cubin's line
// table. Every problem is one line naming the file.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PCSAMPLING_H
#define WARPSCOPE_DRIVER_PCSAMPLING_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct SampledPc {
  std::string CubinCrc, Function; ///< mangled
  uint64_t PcOffset = 0, Samples = 0;
  std::vector<std::pair<std::string, uint64_t>> Stalls; ///< full CUPTI names
  std::string File; ///< empty when no line info maps it
  unsigned Line = 0;
};

struct PcSampleSet {
  std::vector<std::string> Files;
  uint64_t TotalSamples = 0, DroppedSamples = 0;
  std::vector<SampledPc> Pcs;
  std::vector<std::string> Warnings; ///< e.g. a cubin without line info
};

/// Loads every pcsamples-*.json in Dir; nullopt when there is none.
llvm::Expected<std::optional<PcSampleSet>>
loadPcSamples(const std::string &Dir);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PCSAMPLING_H
