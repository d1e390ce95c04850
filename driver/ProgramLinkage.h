//===- ProgramLinkage.h - Which shared libraries a program loads -*- C++
//-*-===//
//
// `warpscope run` sees a program's CUDA calls through the libcudart.so it
// loads (the emulator's stand-in, the runtime's interposition). A program
// linked with the static CUDA runtime (nvcc's default) loads none, and
// nothing can be collected from it: the run says so in one line.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PROGRAMLINKAGE_H
#define WARPSCOPE_DRIVER_PROGRAMLINKAGE_H

#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// The DT_NEEDED entries of the 64-bit ELF file Path (its shared-library
/// dependencies), or nullopt when Path is not such a file or cannot be
/// read (a script, a 32-bit program).
std::optional<std::vector<std::string>>
neededLibraries(const std::string &Path);

/// Whether Needed names a CUDA runtime shared library (libcudart.so*).
bool loadsSharedCudart(const std::vector<std::string> &Needed);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PROGRAMLINKAGE_H
