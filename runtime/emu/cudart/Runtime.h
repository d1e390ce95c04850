//===- Runtime.h - internals of the stand-in libcudart.so.13 --------------===//
//
// Helpers of the stand-in CUDA runtime that the unit tests exercise
// directly. The CUDA API itself (extern "C", cuda_runtime_api.h
// signatures) lives in the .cpp files beside this header, one per concern
// (listed in RuntimeState.h), and talks to the emulator core only through
// runtime/emu/Emulator.h.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CUDART_RUNTIME_H
#define WARPSCOPE_EMU_CUDART_RUNTIME_H

#include "warpscope/Emu/Emulator.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::emu::cudart {

/// Kernel arguments copied out of CUDA's void **args (args[i] points to
/// parameter i) into one buffer laid out like the PTX .param space: each
/// parameter at its declared alignment. Ptrs[i] points into Buffer.
struct PackedArgs {
  std::vector<uint8_t> Buffer;
  std::vector<size_t> Offsets;
  std::vector<void *> Ptrs;
};

/// False (Error set) when Args is null but the kernel takes parameters, or
/// one of the pointers is null.
bool packArgs(const KernelInfo &K, void **Args, PackedArgs &Out,
              std::string &Error);

/// Blocks of kernel K resident per SM of the emulated H100 (occupancy).
int occupancyBlocksPerSM(const KernelInfo &K, int BlockSize,
                         size_t DynamicShared);

/// Drops every module, allocation, stream, event and error state (tests).
void resetStateForTesting();

/// Directory ground-truth files go to ($WARPSCOPE_OUT or ./warpscope-out).
std::string truthDirectory();

} // namespace warpscope::emu::cudart

#endif // WARPSCOPE_EMU_CUDART_RUNTIME_H
