//===- RunCollection.cpp - warpscope run --pc-sampling / --sass-metrics ---===//

#include "RunCollection.h"
#include "Paths.h"
#include "RunDirectory.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/ABI/PcSampling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>

using namespace llvm;
namespace files = warpscope::files;

std::string warpscope::checkCollectionOptions(const CollectionOptions &O) {
  if (O.PcSampling && O.SassMetrics)
    return "--pc-sampling and --sass-metrics collect in separate runs; give "
           "one";
  if (O.SamplingPeriod) {
    if (*O.SamplingPeriod < MinSamplingPeriod ||
        *O.SamplingPeriod > MaxSamplingPeriod)
      return "--sampling-period " + std::to_string(*O.SamplingPeriod) +
             " is not in " + std::to_string(MinSamplingPeriod) + ".." +
             std::to_string(MaxSamplingPeriod) + " (one sample per 2^N cycles)";
    if (!O.PcSampling)
      return "--sampling-period needs --pc-sampling";
  }
  if (O.StallCycles && O.SassMetrics)
    return "--stall-cycles and --sass-metrics collect in separate runs; give "
           "one";
  return "";
}

std::string warpscope::prepareCollection(const CollectionOptions &O,
                                         bool OnEmulator, std::string &Note) {
  if (O.StallCycles && !OnEmulator)
    return "--stall-cycles needs the emulator (--emulate): the cycles are "
           "the timing model's";
  if (O.StallCycles)
    setenv("WARPSCOPE_EMU_STALL_CYCLES", "1", 1);
  else
    unsetenv("WARPSCOPE_EMU_STALL_CYCLES");
  if (!O.PcSampling && !O.SassMetrics)
    return "";
  const char *What = O.PcSampling ? "PC sampling" : "SASS metrics";
  if (OnEmulator && O.PcSampling) {
    // No CUPTI on the emulator: its timing model samples instead
    // (docs/timing-model.md), labelled as modeled.
    setenv("WARPSCOPE_EMU_PC_SAMPLING", "1", 1);
    if (O.SamplingPeriod)
      setenv("WARPSCOPE_SAMPLING_PERIOD",
             std::to_string(*O.SamplingPeriod).c_str(), 1);
    else
      unsetenv("WARPSCOPE_SAMPLING_PERIOD");
    return "";
  }
  if (OnEmulator) {
    // The emulator is a stand-in cudart: no driver, so nothing loads CUPTI.
    Note = std::string(What) + " needs an NVIDIA GPU; running without it";
    return "";
  }
  std::string Lib = libraryDirectory() + "/libwarpscope-collect.so";
  if (!sys::fs::exists(Lib))
    return "collector not found at '" + Lib + "'; build it (make build)";
  setenv("CUDA_INJECTION64_PATH", Lib.c_str(), 1);
  setenv("WARPSCOPE_COLLECT", O.PcSampling ? "pc-sampling" : "sass-metrics", 1);
  if (O.SamplingPeriod)
    setenv("WARPSCOPE_SAMPLING_PERIOD",
           std::to_string(*O.SamplingPeriod).c_str(), 1);
  else
    unsetenv("WARPSCOPE_SAMPLING_PERIOD");
  // The collector writes where the runtime does: WARPSCOPE_OUT.
  return "";
}

void warpscope::disassembleCubins(const std::string &OutDir) {
  ErrorOr<std::string> Nvdisasm = sys::findProgramByName("nvdisasm");
  if (!Nvdisasm)
    return;
  for (const std::string &File : RunDirectory(OutDir).files(files::Cubin)) {
    StringRef Path = File;
    StringRef Stem = Path.drop_back(strlen(files::Cubin.Suffix));
    std::string Listing = (Stem + ".sass").str(), Cfg = (Stem + ".dot").str();
    std::optional<StringRef> ListingIO[] = {std::nullopt, StringRef(Listing),
                                            std::nullopt};
    std::optional<StringRef> CfgIO[] = {std::nullopt, StringRef(Cfg),
                                        std::nullopt};
    // -hex: the advisor reads the control bits (docs/advisor.md).
    sys::ExecuteAndWait(*Nvdisasm, {*Nvdisasm, "-c", "-g", "-hex", Path},
                        std::nullopt, ListingIO);
    sys::ExecuteAndWait(*Nvdisasm, {*Nvdisasm, "-cfg", Path}, std::nullopt,
                        CfgIO);
  }
}
