//===- PluginOptions.cpp - The -warpscope-<name> command-line options -----===//
//
// One hidden cl::opt per command-line row of PluginOptions.def, named
// -warpscope-<name>, and the functions that apply those given to a pass's
// options struct.
//
//===----------------------------------------------------------------------===//

#include "PluginOptions.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace warpscope {
namespace {

#define WARPSCOPE_COMMAND_LINE_OPTION(Type, Field, Name, Default, Help, ...)   \
  cl::opt<Type> Field##Option("warpscope-" Name, cl::Hidden, cl::desc(Help),   \
                              cl::init(Default));
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_COMMAND_LINE_OPTION
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_COMMAND_LINE_OPTION
#define WARPSCOPE_PGO_OPTION WARPSCOPE_COMMAND_LINE_OPTION
#define WARPSCOPE_HOST_OPTION WARPSCOPE_COMMAND_LINE_OPTION
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_COMMAND_LINE_OPTION
#include "PluginOptions.def"
#undef WARPSCOPE_COMMAND_LINE_OPTION

/// Field takes Option's value where the command line gave it.
template <typename T> void takeGiven(T &Field, const cl::opt<T> &Option) {
  if (Option.getNumOccurrences())
    Field = Option;
}

} // namespace

#define WARPSCOPE_APPLY(Type, Field, ...) takeGiven(Opts.Field, Field##Option);

ModuleIdentityOptions withCommandLine(ModuleIdentityOptions Opts) {
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_APPLY
#include "PluginOptions.def"
  return Opts;
}

DeviceInstrumentationOptions
withCommandLine(DeviceInstrumentationOptions Opts) {
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_APPLY
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_APPLY
#include "PluginOptions.def"
  Opts.Identity = withCommandLine(Opts.Identity);
  return Opts;
}

HostInstrumentationOptions withCommandLine(HostInstrumentationOptions Opts) {
#define WARPSCOPE_HOST_OPTION WARPSCOPE_APPLY
#include "PluginOptions.def"
  Opts.Identity = withCommandLine(Opts.Identity);
  return Opts;
}

ProfileUseOptions withCommandLine(ProfileUseOptions Opts) {
#define WARPSCOPE_PGO_OPTION WARPSCOPE_APPLY
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_APPLY
#include "PluginOptions.def"
  Opts.Identity = withCommandLine(Opts.Identity);
  return Opts;
}

} // namespace warpscope
