//===- FormatOption.cpp - Every command's --format ------------------------===//

#include "FormatOption.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace warpscope;

StringRef warpscope::formatName(OutputFormat F) {
  switch (F) {
  case OutputFormat::Text:
    return "text";
  case OutputFormat::Json:
    return "json";
  case OutputFormat::Csv:
    return "csv";
  case OutputFormat::Html:
    return "html";
  case OutputFormat::Sarif:
    return "sarif";
  case OutputFormat::Hypa:
    return "hypa";
  case OutputFormat::Mangrove:
    return "mangrove";
  case OutputFormat::MangroveGroups:
    return "mangrove-groups";
  case OutputFormat::SampleText:
    return "sample-text";
  case OutputFormat::SampleBinary:
    return "sample-binary";
  case OutputFormat::Instr:
    return "instr";
  case OutputFormat::InstrText:
    return "instr-text";
  }
  llvm_unreachable("every OutputFormat has a name");
}

bool FormatParser::parse(cl::Option &O, StringRef ArgName, StringRef Arg,
                         OutputFormat &Value) {
  std::string Names;
  for (unsigned I = 0, E = getNumOptions(); I != E; ++I) {
    if (getOption(I) == Arg) {
      Value = Values[I].V.getValue();
      return false;
    }
    Names += (I ? ", " : "") + getOption(I).str();
  }
  // The command's own prefix, as its other errors have.
  std::string Command = "warpscope";
  for (cl::SubCommand *S : O.Subs)
    Command += " " + S->getName().str();
  WithColor::error(errs(), Command)
      << "--" << ArgName << " '" << Arg << "' is not one of " << Names << "\n";
  return true;
}
