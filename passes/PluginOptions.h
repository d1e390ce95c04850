//===- PluginOptions.h - The -warpscope-<name> command-line options -------===//
//
// Each pass's options struct with the -warpscope-<name> options given on the
// command line applied: the options, and what each sets, come from the one
// table PluginOptions.def. A pass applies them to the struct it is built
// with, so an option on the command line overrides code and pipeline
// parameters alike.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PLUGINOPTIONS_H
#define WARPSCOPE_PASSES_PLUGINOPTIONS_H

#include "DeviceInstrumentation.h"
#include "HostInstrumentation.h"
#include "ModuleIdentity.h"
#include "ProfileUse.h"

namespace warpscope {

/// Opts with the values given on the command line applied (the identity
/// options too).
DeviceInstrumentationOptions withCommandLine(DeviceInstrumentationOptions Opts);
HostInstrumentationOptions withCommandLine(HostInstrumentationOptions Opts);
ProfileUseOptions withCommandLine(ProfileUseOptions Opts);
ModuleIdentityOptions withCommandLine(ModuleIdentityOptions Opts);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PLUGINOPTIONS_H
