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

/// Version 3 adds `source` ("cupti" or "model") and `granularity` ("sass":
/// pcs[] carry cubin_crc/pc_offset; "ptx": ptx_index/file/line), and for the
/// model `model_config`. Version 2 counts each sample once in a pc's
/// `samples`; version 1 also counted its not-issued reasons there (readers
/// recount them). Readers accept all three.
constexpr const char *PcSamplingSchemaV3 = "warpscope-pcsampling/3";
constexpr const char *PcSamplingSchema = PcSamplingSchemaV3; ///< written now
constexpr const char *PcSamplingSchemaV2 = "warpscope-pcsampling/2";
constexpr const char *PcSamplingSchemaV1 = "warpscope-pcsampling/1";
constexpr const char *PcSourceCupti = "cupti", *PcSourceModel = "model";
constexpr const char *PcGranularitySass = "sass", *PcGranularityPtx = "ptx";

/// The stall reasons the emulator's timing model samples, by the full names
/// GH100 reports through CUPTI (test/fixtures/gpu/pcs-reduction/). Each
/// also has its "_not_issued" twin (the model emits both).
enum class ModelStall : unsigned {
  Selected,
  NotSelected,
  LongScoreboard,
  ShortScoreboard,
  Wait,
  Barrier,
  BranchResolving,
  MathPipeThrottle,
  LgThrottle,
  MioThrottle,
  NoInstructions,
  Membar,
  DispatchStall,
  Drain,
  Sleeping,
  Count
};
constexpr const char *ModelStallNames[] = {
    "smsp__pcsamp_warps_issue_stalled_selected",
    "smsp__pcsamp_warps_issue_stalled_not_selected",
    "smsp__pcsamp_warps_issue_stalled_long_scoreboard",
    "smsp__pcsamp_warps_issue_stalled_short_scoreboard",
    "smsp__pcsamp_warps_issue_stalled_wait",
    "smsp__pcsamp_warps_issue_stalled_barrier",
    "smsp__pcsamp_warps_issue_stalled_branch_resolving",
    "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle",
    "smsp__pcsamp_warps_issue_stalled_lg_throttle",
    "smsp__pcsamp_warps_issue_stalled_mio_throttle",
    "smsp__pcsamp_warps_issue_stalled_no_instructions",
    "smsp__pcsamp_warps_issue_stalled_membar",
    "smsp__pcsamp_warps_issue_stalled_dispatch_stall",
    "smsp__pcsamp_warps_issue_stalled_drain",
    "smsp__pcsamp_warps_issue_stalled_sleeping",
};
static_assert(sizeof(ModelStallNames) / sizeof(*ModelStallNames) ==
              unsigned(ModelStall::Count));
/// Sampling period N (one sample per 2^N cycles per sub-partition) accepted
/// by `warpscope run` and both samplers.
constexpr unsigned MinSamplingPeriod = 5, MaxSamplingPeriod = 31;

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
