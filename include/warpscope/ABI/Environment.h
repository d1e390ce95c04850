//===- Environment.h - Where WarpScope's runtimes write -----------*- C++
//-*-===//
//
// The instrumentation runtime, the emulator and the PC-sampling collector
// run inside the user's program and write into one profile directory, which
// `warpscope run -o DIR` hands them in WARPSCOPE_OUT. Header-only and free of
// LLVM: the runtimes must not link it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ENVIRONMENT_H
#define WARPSCOPE_ENVIRONMENT_H

#include <string>

namespace warpscope {

constexpr const char *OutputDirectoryVariable = "WARPSCOPE_OUT";
constexpr const char *DefaultOutputDirectory = "warpscope-out";

/// $WARPSCOPE_OUT when set and not empty, else warpscope-out (relative to
/// the program's working directory). Get is getenv, or a test's stand-in.
inline std::string outputDirectory(const char *(*Get)(const char *)) {
  const char *Dir = Get(OutputDirectoryVariable);
  return Dir && *Dir ? Dir : DefaultOutputDirectory;
}

} // namespace warpscope

#endif // WARPSCOPE_ENVIRONMENT_H
