//===- FormatOption.h - Every command's --format ----------------*- C++ -*-===//
//
// One enumerated type for --format and one parser for it, used by every
// command: a command lists the formats it writes (formats{...}, the first
// is the default), and a value it does not list gets one line naming them
// (exit status 2, from the command-line parse).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_FORMATOPTION_H
#define WARPSCOPE_DRIVER_FORMATOPTION_H

#include "llvm/Support/CommandLine.h"
#include <initializer_list>
#include <vector>

namespace warpscope {

enum class OutputFormat {
  Text,
  Json,
  Csv,
  Html,
  Sarif,
  Hypa,           // features: HyPA's columns
  Mangrove,       // features: GPU Mangrove's samples table
  MangroveGroups, // features: its per-group feature table
  SampleText,     // pgo: LLVM's sample profile, text
  SampleBinary,   // pgo: the same, binary (-fprofile-sample-use)
  Instr,          // pgo: an indexed instrumentation profile
  InstrText,      // pgo: LLVM's text form of it
};

/// The name --format takes for F (and that messages show).
llvm::StringRef formatName(OutputFormat F);

/// Accepts the names of the command's formats only; any other value is a
/// one-line error naming them.
class FormatParser : public llvm::cl::parser<OutputFormat> {
public:
  FormatParser(llvm::cl::Option &O) : llvm::cl::parser<OutputFormat>(O) {}
  bool parse(llvm::cl::Option &O, llvm::StringRef ArgName, llvm::StringRef Arg,
             OutputFormat &Value);
};

/// A command's formats and what each writes, its default first: the
/// cl::values of a FormatOption.
class formats {
public:
  struct Value {
    OutputFormat Format;
    const char *Help;
  };
  formats(std::initializer_list<Value> Values) : Values(Values) {}
  template <class Opt> void apply(Opt &O) const {
    for (const Value &V : Values)
      O.getParser().addLiteralOption(formatName(V.Format), V.Format, V.Help);
    O.setInitialValue(Values.front().Format);
  }

private:
  std::vector<Value> Values;
};

using FormatOption = llvm::cl::opt<OutputFormat, false, FormatParser>;

} // namespace warpscope

#endif
