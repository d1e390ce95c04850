//===- KernelResources.h - What a kernel's machine code uses --------------===//
//
// The emulator's stand-in libcudart answers cudaFuncGetAttributes from
// `ptxas -v` run on the kernel's PTX. cudaFuncAttributes has no field for
// spill traffic, nor a way to say "unknown" (ptxas missing or rejecting the
// PTX), so the emulator also exports the hook below (one of the
// __warpscope_emu_* hooks, like Abi.h's EmuReadAfterFaultFunction), which
// the host runtime finds with dlsym: present means "running on the
// emulator". Plain C layout, no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_KERNELRESOURCES_H
#define WARPSCOPE_ABI_KERNELRESOURCES_H

#include <cstdint>

namespace warpscope {

/// A kernel's resources as ptxas reports them.
struct KernelResources {
  uint32_t Known = 0; ///< 0: ptxas gave nothing; Why says why
  uint32_t Registers = 0;
  uint64_t StackFrameBytes = 0; ///< local memory per thread
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  uint64_t StaticSharedBytes = 0;
  char Why[256] = {}; ///< one line, when !Known
};

/// int __warpscope_emu_kernel_resources(const void *Func,
///                                      KernelResources *Out):
/// cudaSuccess (0) with Out filled, or the error cudaFuncGetAttributes
/// would return for Func.
constexpr const char *EmuKernelResourcesFunction =
    "__warpscope_emu_kernel_resources";
using EmuKernelResourcesFn = int (*)(const void *Func, KernelResources *Out);

} // namespace warpscope

#endif // WARPSCOPE_ABI_KERNELRESOURCES_H
