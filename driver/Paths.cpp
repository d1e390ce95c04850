//===- Paths.cpp - Locate the installation from the running executable ----===//

#include "Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

static int Anchor;

std::string warpscope::toolDirectory() {
  std::string Exe = sys::fs::getMainExecutable("warpscope", &Anchor);
  return std::string(sys::path::parent_path(Exe));
}

std::string warpscope::libraryDirectory() {
  SmallString<256> Dir(sys::path::parent_path(toolDirectory()));
  sys::path::append(Dir, "lib");
  return std::string(Dir);
}

std::string warpscope::pluginPath() {
  SmallString<256> P(libraryDirectory());
  sys::path::append(P, "libWarpScope.so");
  return std::string(P);
}

std::string warpscope::cudaHome() {
  if (auto Env = sys::Process::GetEnv("CUDA_HOME"))
    if (!Env->empty())
      return *Env;
  return WARPSCOPE_CUDA_HOME;
}

std::string warpscope::emulatorDirectory() {
  SmallString<256> P(libraryDirectory());
  sys::path::append(P, "emu");
  return std::string(P);
}

std::string warpscope::clangPath() {
  if (auto Env = sys::Process::GetEnv("WARPSCOPE_CLANG"))
    if (!Env->empty())
      return *Env;
  return WARPSCOPE_CLANG;
}

std::vector<std::string> warpscope::modelDirectories() {
  SmallString<256> P(sys::path::parent_path(toolDirectory()));
  sys::path::append(P, "share", "warpscope", "models");
  return {std::string(P), WARPSCOPE_SOURCE_MODELS};
}
