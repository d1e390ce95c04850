//===- FakeCore.h - test-only stand-in for the emulator core --------------===//
#ifndef WARPSCOPE_EMU_CUDART_TESTS_FAKECORE_H
#define WARPSCOPE_EMU_CUDART_TESTS_FAKECORE_H

#include "warpscope/Emu/Emulator.h"

#include <map>

namespace warpscope::emu::fake {

struct LaunchRecord {
  std::string Module, Kernel;
  LaunchParams Params;
  std::vector<std::vector<uint8_t>> ArgBytes; ///< copied at launch time
};

/// Every launch the fake core saw, in order.
std::vector<LaunchRecord> &launches();
/// What registerAllocation/unregisterAllocation left registered.
std::map<uintptr_t, size_t> &allocations();
/// What registerTexture/registerSurface were given, by handle.
struct ImageRecord {
  ImageDesc Image;
  SamplerDesc Sampler;
  bool Surface = false;
};
std::map<uint64_t, ImageRecord> &images();
/// ModuleName of every loadPtx call.
std::vector<std::string> &loadedModules();

} // namespace warpscope::emu::fake

#endif
