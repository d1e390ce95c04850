//===- ProgramLinkage.h - How a program links the CUDA runtime -*- C++ -*-===//
//
// `warpscope run` sees a program's CUDA calls through the libcudart.so it
// loads (the emulator's stand-in, the runtime's interposition). A program
// with device code that loads none was linked with the static CUDA runtime
// (nvcc's default), and nothing can be collected from it: the run says so
// in one line.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PROGRAMLINKAGE_H
#define WARPSCOPE_DRIVER_PROGRAMLINKAGE_H

#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// What a 64-bit ELF program says of its CUDA linkage.
struct ProgramLinkage {
  std::vector<std::string> Needed; ///< DT_NEEDED: its shared libraries
  bool HasFatbin = false;          ///< it embeds device code (.nv_fatbin)
  /// Whether Needed names a CUDA runtime shared library (libcudart.so*).
  bool loadsSharedCudart() const;
};

/// Path's linkage, or nullopt when Path is not a 64-bit ELF file or cannot
/// be read (a script, a 32-bit program).
std::optional<ProgramLinkage> programLinkage(const std::string &Path);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PROGRAMLINKAGE_H
