//===- RunCollection.h - warpscope run --pc-sampling / --sass-metrics -----===//
//
// GPU-side collection through libwarpscope-collect.so (CUPTI, injected with
// CUDA_INJECTION64_PATH). Kept apart from RunCommand.cpp, which only calls
// these hooks.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RUNCOLLECTION_H
#define WARPSCOPE_DRIVER_RUNCOLLECTION_H

#include <optional>
#include <string>

namespace warpscope {

/// The run options that ask for it (declared in RunCommand.cpp, where the
/// subcommand lives, so they register after it).
struct CollectionOptions {
  bool PcSampling = false, SassMetrics = false;
  /// The timing model's exact stall cycles per PTX instruction
  /// (WARPSCOPE_EMU_STALL_CYCLES; emulator only).
  bool StallCycles = false;
  std::optional<unsigned> SamplingPeriod; ///< as given, unchecked
};

/// Checks --pc-sampling, --sass-metrics and --sampling-period. Returns an
/// empty string if they are fine, else the one-line problem.
std::string checkCollectionOptions(const CollectionOptions &O);
/// Sets the environment that makes the CUDA driver load the collector. With
/// no GPU (the emulator runs) it leaves collection off and sets Note to why
/// (the caller prints it once the run starts). Returns an empty string or
/// the one-line problem.
std::string prepareCollection(const CollectionOptions &O, bool OnEmulator,
                              std::string &Note);
/// Where nvdisasm is on PATH: a listing with line info (.sass) and the
/// control-flow graph (.dot) next to each saved cubin. Silent otherwise.
void disassembleCubins(const std::string &OutDir);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RUNCOLLECTION_H
