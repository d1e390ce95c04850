//===- PluginOptions.cpp - The -warpscope-<name> command-line options -----===//
//
// One hidden cl::opt per command-line row of PluginOptions.def, named
// -warpscope-<name>, and the functions that apply those given to a pass's
// options struct.
//
//===----------------------------------------------------------------------===//

#include "PluginOptions.h"
#include "PluginChoices.h"
#include "llvm/Support/CommandLine.h"
#include <type_traits>

using namespace llvm;

namespace warpscope {
namespace {

/// cl::values of an enum row, from its table in PluginChoices.h (what
/// cl::values would add, name by name); nothing for the other types.
template <typename T> struct ValuesOf {
  template <typename Opt> void apply(Opt &O) const {
    if constexpr (std::is_enum_v<T>)
      for (const Choice<T> &C : choicesOf(T()))
        O.getParser().addLiteralOption(C.Name, C.Value, C.Help);
  }
};

#define WARPSCOPE_COMMAND_LINE_OPTION(Type, Field, Name, Default, Help, ...)   \
  cl::opt<Type> Field##Option("warpscope-" Name, cl::Hidden, cl::desc(Help),   \
                              cl::init(Default), ValuesOf<Type>());
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
