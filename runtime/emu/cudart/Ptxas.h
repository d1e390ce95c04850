//===- Ptxas.h - Kernel resources from `ptxas -v` -------------------------===//
//
// The emulator runs PTX, not machine code, so what the machine code would
// use (registers, stack, spills, shared memory) comes from NVIDIA's
// assembler: `ptxas -v --gpu-name sm_90` on the module's PTX, run once per
// distinct PTX and kept in memory and on disk
// ($XDG_CACHE_HOME/warpscope/ptxas, else ~/.cache/warpscope/ptxas).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CUDART_PTXAS_H
#define WARPSCOPE_EMU_CUDART_PTXAS_H

#include "warpscope/Support/Settings.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace warpscope::emu::cudart {

/// One entry function in ptxas's report.
struct PtxasKernel {
  uint32_t Registers = 0;
  uint64_t StackFrameBytes = 0, SpillStoreBytes = 0, SpillLoadBytes = 0;
  uint64_t SharedBytes = 0;
};

/// Entry function name -> what ptxas reported for it.
using PtxasReport = std::map<std::string, PtxasKernel>;

/// Reads the "ptxas info" lines of `ptxas -v` output. Device functions that
/// are not entries (their "Function properties" only) are left out.
PtxasReport parsePtxasOutput(std::string_view Text);

/// Where ptxas and the cache are, from the environment.
struct PtxasSettings {
  std::string Explicit; ///< WARPSCOPE_PTXAS: this ptxas and no other
  std::string CudaHome; ///< CUDA_HOME
  std::string Path;     ///< PATH
  std::string CacheDir; ///< from XDG_CACHE_HOME or HOME; "" = no disk cache
  std::string TempDir;  ///< TMPDIR or /tmp
};
PtxasSettings readPtxasSettings(support::EnvLookup Get);

/// The ptxas to run, or "" with Why saying where it was looked for.
std::string findPtxas(const PtxasSettings &S, std::string &Why);

/// ptxas's report on Ptx for sm_90: from the in-memory cache, the disk
/// cache, or a run of ptxas (posix_spawn, no shell). False with Error (one
/// line saying what to do) when there is no ptxas or it rejects the PTX.
bool ptxasResources(const std::string &Ptx, const PtxasSettings &S,
                    PtxasReport &Out, std::string &Error);

/// 16 hex digits naming a PTX text (FNV-1a 64): the cache key.
std::string ptxHash(std::string_view Ptx);

} // namespace warpscope::emu::cudart

#endif // WARPSCOPE_EMU_CUDART_PTXAS_H
