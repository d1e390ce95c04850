//===- Paths.h - Where the driver finds its plugin, runtime and CUDA ------===//
#ifndef WARPSCOPE_DRIVER_PATHS_H
#define WARPSCOPE_DRIVER_PATHS_H

#include <string>
#include <vector>

namespace warpscope {

/// Directory holding the warpscope executable (build/bin or <prefix>/bin).
std::string toolDirectory();
/// <prefix>/lib, where libWarpScope.so and the runtimes live.
std::string libraryDirectory();
std::string pluginPath();
/// $CUDA_HOME if set, else the toolkit found at configure time.
std::string cudaHome();
/// clang++ 22: $WARPSCOPE_CLANG if set, else the one found at configure time.
std::string clangPath();
/// The stand-in libcudart.so.13's directory (<lib>/emu).
std::string emulatorDirectory();

/// Where shipped prediction models are: <prefix>/share/warpscope/models,
/// then the source tree's data/models.
std::vector<std::string> modelDirectories();

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PATHS_H
