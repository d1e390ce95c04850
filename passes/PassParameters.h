//===- PassParameters.h - Options in textual pipelines ----------*- C++ -*-===//
//
// opt -passes='warpscope-device<probe-all;no-cheaper-counting;
// counter-replicas=64>' sets a pass's options struct the way LLVM's own
// passes take parameters; -print-pipeline-passes prints them back in the
// same form. Parameter names are the -warpscope-<name> options without the
// prefix (docs/plugin-options.md); a flag takes `name` or `no-name`, the
// others `name=value`. A -warpscope-<name> option given on the command line
// still overrides the pipeline's value, as it overrides a struct built in
// code.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PASSPARAMETERS_H
#define WARPSCOPE_PASSES_PASSPARAMETERS_H

#include "DeviceInstrumentation.h"
#include "HostInstrumentation.h"
#include "ProfileUse.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace warpscope {

/// Params is the text between `<` and `>` (empty: the defaults); an
/// unknown name or a bad value is an error naming the pass and parameter.
llvm::Expected<DeviceInstrumentationOptions>
parseDeviceParameters(llvm::StringRef Params);
llvm::Expected<HostInstrumentationOptions>
parseHostParameters(llvm::StringRef Params);
llvm::Expected<ProfileUseOptions>
parseProfileUseParameters(llvm::StringRef Params);

/// `<...>` with the parameters that differ from the defaults (nothing when
/// none do), so a printed pipeline parses back to the same options.
void printDeviceParameters(const DeviceInstrumentationOptions &Opts,
                           llvm::raw_ostream &OS);
void printHostParameters(const HostInstrumentationOptions &Opts,
                         llvm::raw_ostream &OS);
void printProfileUseParameters(const ProfileUseOptions &Opts,
                               llvm::raw_ostream &OS);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PASSPARAMETERS_H
