//===- PluginOptionsTest.cpp - Pipeline parameter == command-line option --===//
//
// For every row of PluginOptions.def that has a command-line option: the
// pipeline parameter and the -warpscope-<name> option (what -mllvm passes)
// set the same field to the same value, and that value is not the default.
//
//===----------------------------------------------------------------------===//

#include "PluginOptions.h"
#include "PassParameters.h"
#include "llvm/Support/CommandLine.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

using namespace llvm;
using namespace warpscope;

namespace {

/// A value other than the default, of each type a row may have.
bool other(bool Default) { return !Default; }
unsigned other(unsigned Default) { return Default == 7 ? 8 : 7; }
std::string other(const std::string &Default) { return Default + "x"; }
template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>>
E other(E Default) {
  for (const Choice<E> &C : choicesOf(Default))
    if (C.Value != Default)
      return C.Value;
  return Default;
}

std::string onCommandLine(bool V) { return V ? "true" : "false"; }
std::string onCommandLine(unsigned V) { return std::to_string(V); }
std::string onCommandLine(const std::string &V) { return V; }
template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>>
std::string onCommandLine(E V) {
  return choiceName(V);
}

std::string inPipeline(const std::string &Name, bool V) {
  return (V ? "" : "no-") + Name;
}
std::string inPipeline(const std::string &Name, unsigned V) {
  return Name + "=" + std::to_string(V);
}
std::string inPipeline(const std::string &Name, const std::string &V) {
  return Name + "=" + V;
}
template <typename E, typename = std::enable_if_t<std::is_enum_v<E>>>
std::string inPipeline(const std::string &Name, E V) {
  return Name + "=" + choiceName(V);
}

/// The rows of one pass (and the identity rows), each given a value other
/// than its default on the command line and in the pipeline text.
struct Settings {
  std::vector<std::string> Args{"test"};
  std::string Pipeline;
  template <typename T> void add(const char *Name, T Default) {
    T V = other(Default);
    Args.push_back(std::string("-warpscope-") + Name + "=" + onCommandLine(V));
    Pipeline += (Pipeline.empty() ? "" : ";") + inPipeline(Name, V);
  }
};

#define WARPSCOPE_ADD(Type, Field, Name, Default, ...)                         \
  S.add(Name, static_cast<Type>(Default));
#define WARPSCOPE_SAME(Type, Field, Name, Default, ...)                        \
  EXPECT_EQ(FromPipeline->Field, FromCommandLine.Field) << Name;               \
  EXPECT_NE(FromCommandLine.Field, static_cast<Type>(Default)) << Name;
#define WARPSCOPE_SAME_IDENTITY(Type, Field, Name, Default, ...)               \
  EXPECT_EQ(FromPipeline->Identity.Field, FromCommandLine.Identity.Field)      \
      << Name;                                                                 \
  EXPECT_NE(FromCommandLine.Identity.Field, static_cast<Type>(Default)) << Name;

TEST(PluginOptions, PipelineParameterAndCommandLineSetTheSame) {
  Settings S;
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_ADD
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_ADD
#define WARPSCOPE_PGO_OPTION WARPSCOPE_ADD
#define WARPSCOPE_HOST_OPTION WARPSCOPE_ADD
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_ADD
#include "PluginOptions.def"
  std::vector<const char *> Argv;
  for (const std::string &A : S.Args)
    Argv.push_back(A.c_str());
  std::string Errors;
  raw_string_ostream ES(Errors);
  ASSERT_TRUE(cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &ES))
      << Errors;

  // Each pass takes its own rows only: give it those.
  auto Only = [&](auto Keep) {
    std::string Out;
    SmallVector<StringRef, 32> Parts;
    StringRef(S.Pipeline).split(Parts, ';');
    for (StringRef P : Parts)
      if (Keep(P.split('=').first.str()))
        Out += (Out.empty() ? "" : ";") + P.str();
    return Out;
  };
  auto NameIn = [](std::vector<std::string> Names) {
    return [Names](std::string N) {
      if (N.rfind("no-", 0) == 0)
        N = N.substr(3);
      return std::find(Names.begin(), Names.end(), N) != Names.end();
    };
  };
#define WARPSCOPE_NAME(Type, Field, Name, ...) Name,
  auto Device = NameIn({
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_NAME
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_NAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_NAME
#include "PluginOptions.def"
  });
  auto Host = NameIn({
#define WARPSCOPE_HOST_OPTION WARPSCOPE_NAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_NAME
#include "PluginOptions.def"
  });
  auto Pgo = NameIn({
#define WARPSCOPE_PGO_OPTION WARPSCOPE_NAME
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_NAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_NAME
#include "PluginOptions.def"
  });

  {
    Expected<DeviceInstrumentationOptions> FromPipeline =
        parseDeviceParameters(Only(Device));
    ASSERT_TRUE(bool(FromPipeline)) << toString(FromPipeline.takeError());
    DeviceInstrumentationOptions FromCommandLine =
        withCommandLine(DeviceInstrumentationOptions());
#define WARPSCOPE_DEVICE_OPTION WARPSCOPE_SAME
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_SAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_SAME_IDENTITY
#include "PluginOptions.def"
  }
  {
    Expected<HostInstrumentationOptions> FromPipeline =
        parseHostParameters(Only(Host));
    ASSERT_TRUE(bool(FromPipeline)) << toString(FromPipeline.takeError());
    HostInstrumentationOptions FromCommandLine =
        withCommandLine(HostInstrumentationOptions());
#define WARPSCOPE_HOST_OPTION WARPSCOPE_SAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_SAME_IDENTITY
#include "PluginOptions.def"
  }
  {
    Expected<ProfileUseOptions> FromPipeline =
        parseProfileUseParameters(Only(Pgo));
    ASSERT_TRUE(bool(FromPipeline)) << toString(FromPipeline.takeError());
    ProfileUseOptions FromCommandLine = withCommandLine(ProfileUseOptions());
#define WARPSCOPE_PGO_OPTION WARPSCOPE_SAME
#define WARPSCOPE_DEVICE_PGO_OPTION WARPSCOPE_SAME
#define WARPSCOPE_IDENTITY_OPTION WARPSCOPE_SAME_IDENTITY
#include "PluginOptions.def"
  }
  cl::ResetAllOptionOccurrences();
}

TEST(PluginOptions, EnumParameterPrintsAndRefusesUnknownNames) {
  Expected<DeviceInstrumentationOptions> Keep =
      parseDeviceParameters("inlined-lines=keep");
  ASSERT_TRUE(bool(Keep)) << toString(Keep.takeError());
  EXPECT_EQ(Keep->InlinedLinesRule, InlinedLines::Keep);
  std::string Printed;
  raw_string_ostream OS(Printed);
  printDeviceParameters(*Keep, OS);
  EXPECT_EQ(Printed, "<inlined-lines=keep>");
  Expected<DeviceInstrumentationOptions> Bad =
      parseDeviceParameters("inlined-lines=all");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(toString(Bad.takeError()),
            "warpscope-device: parameter 'inlined-lines=all' needs one of "
            "keep, toolkit, headers (docs/plugin-options.md lists them)");
}

} // namespace
