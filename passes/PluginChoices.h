//===- PluginChoices.h - Plugin options that take one of a few names ------===//
//
// An option of PluginOptions.def whose type is an enum takes one of a few
// names: cl::values of its -warpscope-<name> option (PluginOptions.cpp), the
// `name=value` of its pipeline parameter (PassParameters.cpp) and the names
// in the docs' table (plugin-options-doc) all come from the enum's one table
// below. No LLVM here: plugin-options-doc links none.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PLUGINCHOICES_H
#define WARPSCOPE_PASSES_PLUGINCHOICES_H

#include <string_view>

namespace warpscope {

/// Which inlined code the device pass gives the line of the call site it
/// was inlined at (InlinedLines.h).
enum class InlinedLines { Keep, Toolkit, Headers };

/// One name an enum option takes.
template <typename E> struct Choice {
  E Value;
  const char *Name;
  const char *Help;
};

inline constexpr Choice<InlinedLines> InlinedLinesChoices[] = {
    {InlinedLines::Keep, "keep", "every line as the compiler wrote it"},
    {InlinedLines::Toolkit, "toolkit",
     "code from clang's, the CUDA toolkit's and the system's headers"},
    {InlinedLines::Headers, "headers",
     "code from any file but the compiled source"},
};

/// The table of an enum option's names (an overload per enum).
constexpr const auto &choicesOf(InlinedLines) { return InlinedLinesChoices; }

/// V's name in its table.
template <typename E> const char *choiceName(E V) {
  for (const Choice<E> &C : choicesOf(V))
    if (C.Value == V)
      return C.Name;
  return "";
}

/// The value named Name, or false when E has no such name.
template <typename E> bool choiceNamed(std::string_view Name, E &V) {
  for (const Choice<E> &C : choicesOf(E()))
    if (Name == C.Name) {
      V = C.Value;
      return true;
    }
  return false;
}

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PLUGINCHOICES_H
