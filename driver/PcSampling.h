//===- PcSampling.h - pcsamples-*.json, mapped to source lines ------------===//
//
// Loads what libwarpscope-collect.so wrote (docs/pc-sampling-schema.md) and
// maps each sampled pc offset to file:line through the saved cubin's line
// table. Every problem is one line naming the file. Reads
// warpscope-pcsampling/3 (CUPTI's at SASS granularity, or the timing
// model's at PTX granularity, with file and line), /2 and /1 (whose per-pc
// samples also counted the not-issued reasons; they are recounted on load).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PCSAMPLING_H
#define WARPSCOPE_DRIVER_PCSAMPLING_H

#include "warpscope/ABI/PcSampling.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct SampledPc {
  std::string CubinCrc, Function; ///< mangled
  uint64_t PcOffset = 0;
  uint64_t Samples = 0; ///< sum of the stalls that are not not-issued ones
  /// Full CUPTI names, not-issued ones included.
  std::vector<std::pair<std::string, uint64_t>> Stalls;
  std::string File; ///< empty when no line info maps it
  unsigned Line = 0;
  /// Granularity "ptx" (/3, the timing model's): the index among the
  /// function's instructions as warpscope/PTX/PtxListing.h numbers them (also
  /// in PcOffset); File/Line come from the file itself and CubinCrc is empty.
  std::optional<uint64_t> PtxIndex;
  /// The model's exact stall cycles (`stall_cycles`, `warpscope run
  /// --stall-cycles`), named like Stalls; empty when not written.
  std::vector<std::pair<std::string, double>> StallCycles;
};

struct PcSampleSet {
  std::vector<std::string> Files;
  /// CUPTI's totals, summed over files.
  uint64_t TotalSamples = 0, DroppedSamples = 0, NonUserSamples = 0;
  std::vector<SampledPc> Pcs;
  /// Every file with records names a not-issued reason (GH100's do); else
  /// no sample says whether its scheduler issued.
  bool NotIssuedKnown = true;
  std::vector<std::string> Warnings; ///< e.g. a cubin without line info
  /// /3: "cupti" (a GPU) or "model" (the emulator's timing model,
  /// configuration ModelConfig), "sass" or "ptx"; older files are CUPTI's
  /// SASS samples.
  std::string Source = PcSourceCupti, Granularity = PcGranularitySass;
  std::string ModelConfig;
  /// Modeled samples of an instrumented program: how the model treated
  /// its probe instructions, "free" or "modeled" ("" when it had none).
  std::string ModelProbes;
  /// The model's `method`: "sampled", or "exact" when the counts are its
  /// exact stall cycles (rounded), not samples.
  std::string Method = "sampled";
};

/// The one reader of PC samples: Files are Dir's pcsamples-*.json
/// (RunDirectory lists them), their pcs mapped through Dir's cubins;
/// nullopt when there is none. Commands use RunDirectory::pcSamples().
llvm::Expected<std::optional<PcSampleSet>>
readPcSamples(const std::string &Dir, const std::vector<std::string> &Files);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PCSAMPLING_H
