//===- ConfigCommand.cpp - warpscope config: flags for a user's build -----===//

#include "Commands.h"
#include "Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

cl::SubCommand warpscope::ConfigSub(
    "config", "Print the flags an instrumented CUDA build with clang 22 needs");

static cl::opt<bool> ShowPlugin("plugin", cl::desc("Path of libWarpScope.so"),
                                cl::sub(warpscope::ConfigSub));
static cl::opt<bool> ShowCFlags("cflags",
                                cl::desc("clang flags for compiling .cu files"),
                                cl::sub(warpscope::ConfigSub));
static cl::opt<bool>
    NoInstrument("no-instrument",
                 cl::desc("With --cflags: the same flags without the plugin"),
                 cl::sub(warpscope::ConfigSub));
static cl::opt<bool> ShowLdFlags("ldflags",
                                 cl::desc("Linker flags: runtime and cudart"),
                                 cl::sub(warpscope::ConfigSub));
static cl::opt<bool> ShowCudaHome("cuda-home", cl::desc("CUDA toolkit root"),
                                  cl::sub(warpscope::ConfigSub));

static std::string runtimeLibrary() {
  SmallString<256> P(warpscope::libraryDirectory());
  sys::path::append(P, "libwarpscope-rt.so");
  return std::string(P);
}

int warpscope::runConfig() {
  if (!ShowPlugin && !ShowCFlags && !ShowLdFlags && !ShowCudaHome) {
    WithColor::error(errs(), "warpscope config")
        << "say what to print: --plugin, --cflags [--no-instrument], "
           "--ldflags or --cuda-home\n";
    return 2;
  }
  if (NoInstrument && !ShowCFlags) {
    WithColor::error(errs(), "warpscope config")
        << "--no-instrument only applies to --cflags\n";
    return 2;
  }
  std::string Plugin = pluginPath();
  if (!NoInstrument && (ShowPlugin || ShowCFlags) && !sys::fs::exists(Plugin)) {
    WithColor::error(errs(), "warpscope config")
        << "plugin not found at '" << Plugin
        << "'; build it first (make build)\n";
    return 2;
  }
  std::string Cuda = cudaHome();
  SmallVector<std::string, 8> Words;
  if (ShowPlugin)
    Words.push_back(Plugin);
  if (ShowCudaHome)
    Words.push_back(Cuda);
  if (ShowCFlags) {
    if (!NoInstrument)
      Words.push_back("-fpass-plugin=" + Plugin);
    // PTX lets the emulator run the program; line tables tie counts to
    // source lines.
    // PTX of every --cuda-gpu-arch the user builds for.
    Words.push_back("--cuda-include-ptx=all");
    Words.push_back("-gline-tables-only");
    Words.push_back("--cuda-path=" + Cuda);
    // CUDA 13 keeps CCCL (cuda/std, cub, thrust; cooperative_groups.h
    // includes it) under include/cccl, which nvcc adds and clang does not.
    if (sys::fs::is_directory(Cuda + "/include/cccl")) {
      Words.push_back("-isystem");
      Words.push_back(Cuda + "/include/cccl");
    }
    Words.push_back("-Wno-unknown-cuda-version");
  }
  if (ShowLdFlags) {
    std::string Lib = libraryDirectory();
    if (sys::fs::exists(runtimeLibrary())) {
      Words.push_back("-L" + Lib);
      Words.push_back("-lwarpscope-rt");
      Words.push_back("-Wl,-rpath," + Lib);
    }
    Words.push_back("-L" + Cuda + "/lib64");
    Words.push_back("-lcudart");
    // RUNPATH, not RPATH: LD_LIBRARY_PATH must still win so the emulator's
    // libcudart.so.13 can stand in.
    Words.push_back("-Wl,--enable-new-dtags,-rpath," + Cuda + "/lib64");
  }
  for (size_t I = 0; I < Words.size(); ++I)
    outs() << (I ? " " : "") << Words[I];
  outs() << "\n";
  return 0;
}
