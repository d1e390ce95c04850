//===- PassParameters.cpp - Options in textual pipelines ------------------===//
//
// Each pass's parameters are a table of (name, field) pairs over its options
// struct, made from the pass's rows of PluginOptions.def; parsing and
// printing both walk the table, so the two cannot disagree on a name.
//
//===----------------------------------------------------------------------===//

#include "PassParameters.h"
#include "PluginChoices.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include <variant>

using namespace llvm;

namespace warpscope {
namespace {

/// One parameter of an options struct O: a flag, a count, a string or one
/// of an enum's names (PluginChoices.h).
template <typename O> struct Param {
  StringLiteral Name;
  std::variant<bool O::*, unsigned O::*, std::string O::*, InlinedLines O::*>
      Field;
};

/// The module identity's parameters, reached through each struct's
/// Identity member.
template <typename O> struct IdentityParam {
  StringLiteral Name;
  std::string ModuleIdentityOptions::*Field;
};

#define WARPSCOPE_PARAM(Type, Field, Name, ...)                                \
  {Name, &WARPSCOPE_STRUCT::Field},

template <typename O>
constexpr IdentityParam<O> IdentityParams[] = {
#define WARPSCOPE_STRUCT ModuleIdentityOptions
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_PARAM
#include "PluginOptions.def"
#undef WARPSCOPE_STRUCT
};

// Each pass's rows of PluginOptions.def, in the table's order.
const Param<DeviceInstrumentationOptions> DeviceParams[] = {
#define WARPSCOPE_STRUCT DeviceInstrumentationOptions
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_PARAM
#define WARPSCOPE_DEVICE_PARAMETER WARPSCOPE_PARAM
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_PARAM
#include "PluginOptions.def"
#undef WARPSCOPE_STRUCT
};

const Param<HostInstrumentationOptions> HostParams[] = {
#define WARPSCOPE_STRUCT HostInstrumentationOptions
#define WARPSCOPE_HOST_OPTION WARPSCOPE_PARAM
#include "PluginOptions.def"
#undef WARPSCOPE_STRUCT
};

const Param<ProfileUseOptions> ProfileUseParams[] = {
#define WARPSCOPE_STRUCT ProfileUseOptions
#define WARPSCOPE_PGO_OPTION WARPSCOPE_PARAM
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_PARAM
#include "PluginOptions.def"
#undef WARPSCOPE_STRUCT
};

#undef WARPSCOPE_PARAM

Error paramError(StringRef Pass, StringRef Param, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           Pass + ": parameter '" + Param + "' " + What +
                               " (docs/plugin-options.md lists them)");
}

/// E's names, as an error message lists them.
template <typename E> std::string choiceNames(E) {
  std::string S;
  for (const Choice<E> &C : choicesOf(E()))
    S += (S.empty() ? "" : ", ") + std::string(C.Name);
  return S;
}

/// Sets the one parameter Text (`name`, `no-name` or `name=value`) in Opts.
template <typename O, size_t N>
Error setParam(StringRef Pass, const Param<O> (&Table)[N], StringRef Text,
               O &Opts) {
  auto [Name, Value] = Text.split('=');
  bool HasValue = Text.contains('=');
  for (const IdentityParam<O> &P : IdentityParams<O>)
    if (Name == P.Name) {
      if (!HasValue)
        return paramError(Pass, Text, "needs a value: " + Name + "=...");
      Opts.Identity.*P.Field = Value.str();
      return Error::success();
    }
  bool Negated = !HasValue && Name.consume_front("no-");
  for (const Param<O> &P : Table) {
    if (Name != P.Name)
      continue;
    if (auto *Flag = std::get_if<bool O::*>(&P.Field)) {
      if (HasValue)
        return paramError(Pass, Text,
                          "is a flag: write " + Name + " or no-" + Name);
      Opts.**Flag = !Negated;
      return Error::success();
    }
    if (Negated || !HasValue)
      return paramError(Pass, Text, "needs a value: " + Name + "=...");
    if (auto *Count = std::get_if<unsigned O::*>(&P.Field)) {
      unsigned V;
      if (!to_integer(Value, V, 10))
        return paramError(Pass, Text, "needs a whole number");
      Opts.**Count = V;
    } else if (auto *Named = std::get_if<InlinedLines O::*>(&P.Field)) {
      if (!choiceNamed(std::string_view(Value), Opts.**Named))
        return paramError(Pass, Text,
                          "needs one of " + choiceNames(Opts.**Named));
    } else {
      Opts.*std::get<std::string O::*>(P.Field) = Value.str();
    }
    return Error::success();
  }
  return paramError(Pass, Text, "is unknown");
}

template <typename O, size_t N>
Expected<O> parseParams(StringRef Pass, const Param<O> (&Table)[N],
                        StringRef Params) {
  O Opts;
  SmallVector<StringRef, 8> Parts;
  Params.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts)
    if (Error E = setParam(Pass, Table, Part, Opts))
      return E;
  return Opts;
}

template <typename O, size_t N>
void printParams(const Param<O> (&Table)[N], const O &Opts, raw_ostream &OS) {
  const O Defaults;
  SmallVector<std::string, 8> Out;
  for (const Param<O> &P : Table) {
    if (auto *Flag = std::get_if<bool O::*>(&P.Field)) {
      if (Opts.**Flag != Defaults.**Flag)
        Out.push_back((Opts.**Flag ? "" : "no-") + P.Name.str());
    } else if (auto *Count = std::get_if<unsigned O::*>(&P.Field)) {
      if (Opts.**Count != Defaults.**Count)
        Out.push_back(P.Name.str() + "=" + utostr(Opts.**Count));
    } else if (auto *Named = std::get_if<InlinedLines O::*>(&P.Field)) {
      if (Opts.**Named != Defaults.**Named)
        Out.push_back(P.Name.str() + "=" + choiceName(Opts.**Named));
    } else {
      const std::string &S = Opts.*std::get<std::string O::*>(P.Field);
      if (S != Defaults.*std::get<std::string O::*>(P.Field))
        Out.push_back(P.Name.str() + "=" + S);
    }
  }
  for (const IdentityParam<O> &P : IdentityParams<O>)
    if (!(Opts.Identity.*P.Field).empty())
      Out.push_back(P.Name.str() + "=" + Opts.Identity.*P.Field);
  if (!Out.empty())
    OS << "<" << join(Out, ";") << ">";
}

} // namespace

Expected<DeviceInstrumentationOptions> parseDeviceParameters(StringRef P) {
  return parseParams("warpscope-device", DeviceParams, P);
}
Expected<HostInstrumentationOptions> parseHostParameters(StringRef P) {
  return parseParams("warpscope-host", HostParams, P);
}
Expected<ProfileUseOptions> parseProfileUseParameters(StringRef P) {
  return parseParams("warpscope-pgo-use", ProfileUseParams, P);
}

void printDeviceParameters(const DeviceInstrumentationOptions &Opts,
                           raw_ostream &OS) {
  printParams(DeviceParams, Opts, OS);
}
void printHostParameters(const HostInstrumentationOptions &Opts,
                         raw_ostream &OS) {
  printParams(HostParams, Opts, OS);
}
void printProfileUseParameters(const ProfileUseOptions &Opts, raw_ostream &OS) {
  printParams(ProfileUseParams, Opts, OS);
}

void DeviceInstrumentationPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  printDeviceParameters(Opts, OS);
}
void HostInstrumentationPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  printHostParameters(Opts, OS);
}
void ProfileUsePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name());
  printProfileUseParameters(Opts, OS);
}

} // namespace warpscope
