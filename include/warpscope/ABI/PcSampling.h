//===- PcSampling.h - The pcsamples-*.json contract -------------*- C++ -*-===//
//
// What the CUPTI collector writes and the driver reads
// (docs/pc-sampling-schema.md): the schema tags and which stall reasons
// are not samples of their own. Header-only and free of LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PCSAMPLING_H
#define WARPSCOPE_PCSAMPLING_H

#include <string_view>

namespace warpscope {

/// Version 2 counts each sample once in a pc's `samples`; version 1 also
/// counted its not-issued reasons there (readers recount them).
constexpr const char *PcSamplingSchema = "warpscope-pcsampling/2";
constexpr const char *PcSamplingSchemaV1 = "warpscope-pcsampling/1";
/// Version 3 adds `source` ("cupti" | "model"), `granularity` ("sass" |
/// "ptx") and `model_config`; ptx entries name `ptx_index`, `file`, `line`
/// instead of `cubin_crc` / `pc_offset`.
constexpr const char *PcSamplingSchemaV3 = "warpscope-pcsampling/3";

/// The suffix GH100 gives a stall reason's not-issued twin: the subset of
/// that reason's samples taken when the warp's scheduler issued no
/// instruction, not more samples.
constexpr std::string_view NotIssuedSuffix = "_not_issued";

/// True for "<reason>_not_issued" (a base reason before the suffix).
constexpr bool isNotIssuedStall(std::string_view Name) {
  return Name.size() > NotIssuedSuffix.size() &&
         Name.substr(Name.size() - NotIssuedSuffix.size()) == NotIssuedSuffix;
}

} // namespace warpscope

#endif // WARPSCOPE_PCSAMPLING_H
