//===- PluginOptionsDoc.cpp - The options table of the docs, generated ----===//
//
// plugin-options-doc FILE          exit 1 unless FILE's generated section
//                                  is the table PluginOptions.def makes
// plugin-options-doc --write FILE  rewrite that section
//
// The section lies between the two marker lines below in
// docs/plugin-options.md; the ctest plugin-options-doc runs the check, so
// the docs cannot drift from the options the plugin has.
//
//===----------------------------------------------------------------------===//

#include "PluginChoices.h"
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>

using namespace warpscope;

namespace {

const char *const Begin = "<!-- BEGIN options: generated from "
                          "passes/PluginOptions.def by plugin-options-doc "
                          "--write; do not edit -->";
const char *const End = "<!-- END options -->";

std::string docDefault(bool V) { return V ? "on" : "off"; }
std::string docDefault(unsigned V) { return std::to_string(V); }
std::string docDefault(const std::string &V) { return V.empty() ? "—" : V; }
template <typename E> std::string docDefault(E V) { return choiceName(V); }

/// The row's Doc, and for an enum what each of its names does.
template <typename T> std::string docColumn(const char *Doc, T V) {
  if constexpr (!std::is_enum_v<T>) {
    return Doc;
  } else {
    std::string S = Doc;
    const char *Sep = ": ";
    for (const Choice<T> &C : choicesOf(V)) {
      S += Sep + std::string("`") + C.Name + "`, " + C.Help;
      Sep = "; ";
    }
    return S;
  }
}

/// One row of the table.
template <typename T>
std::string row(const char *Name, const char *Value, T Default,
                const char *DocDefault, const char *Compile,
                const char *RowDoc) {
  std::string Option = std::string("`") + Name;
  std::string Doc = docColumn(RowDoc, Default);
  if (*Value)
    Option += std::string("=") + Value;
  return "| " + Option + "` | " +
         (*DocDefault ? std::string(DocDefault) : docDefault(Default)) + " | " +
         Compile + " | " + Doc + " |\n";
}

std::string table() {
  std::string Out = "| option | default | compile | what |\n"
                    "|---|---|---|---|\n";
#define WARPSCOPE_DOC(Compile, Type, Field, Name, Default, Help, Value,        \
                      DocDefault, Doc)                                         \
  Out += row(Name, Value, static_cast<Type>(Default), DocDefault, Compile, Doc);
#define WARPSCOPE_DEVICE_OPTION(...) WARPSCOPE_DOC("device", __VA_ARGS__)
#define WARPSCOPE_DEVICE_PARAMETER(...)                                        \
  WARPSCOPE_DOC("device (pipeline)", __VA_ARGS__)
#define WARPSCOPE_DEVICE_PGO_OPTION(...)                                       \
  WARPSCOPE_DOC("device, profile use", __VA_ARGS__)
#define WARPSCOPE_PGO_OPTION(...) WARPSCOPE_DOC("device", __VA_ARGS__)
#define WARPSCOPE_HOST_OPTION(...) WARPSCOPE_DOC("host", __VA_ARGS__)
#define WARPSCOPE_IDENTITY_OPTION(...) WARPSCOPE_DOC("both", __VA_ARGS__)
#include "PluginOptions.def"
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  bool Write = Argc == 3 && std::string(Argv[1]) == "--write";
  if (Argc != 2 + Write) {
    std::cerr << "usage: plugin-options-doc [--write] docs/plugin-options.md\n";
    return 2;
  }
  const char *Path = Argv[1 + Write];
  std::ifstream In(Path);
  std::stringstream Buf;
  Buf << In.rdbuf();
  std::string Text = Buf.str();
  size_t From = Text.find(Begin), To = Text.find(End);
  if (!In || From == std::string::npos || To == std::string::npos ||
      To < From) {
    std::cerr << Path << ": cannot read it, or it lacks the lines '" << Begin
              << "' and '" << End << "'\n";
    return 2;
  }
  From += std::string(Begin).size() + 1;
  std::string Want = table();
  if (!Write) {
    if (Text.compare(From, To - From, Want) == 0)
      return 0;
    std::cerr << Path
              << ": its options table is not the one passes/PluginOptions.def "
                 "makes; run `plugin-options-doc --write "
              << Path << "` (the build's bin/) and commit the result\n";
    return 1;
  }
  Text.replace(From, To - From, Want);
  std::ofstream(Path) << Text;
  return 0;
}
