//===- PgoCommand.cpp - warpscope pgo: a sample profile for device code ---===//
//
// Writes the device functions of a profile as an LLVM sample profile (the
// AutoFDO text format llvm-profdata reads), which the device compile takes
// with -Xclang -fprofile-sample-use=FILE (line tables needed). Each body line
// is "offset: count" with offset = source line - the function's first line
// and count = the warp-level executions of the blocks on that line (the
// largest, as a sampled profile would see it); head = entry block's.
// Code inlined from other functions is attributed to its call site's line
// (no inline call-site records yet).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ProfileModel.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::PgoSub(
    "pgo", "Turn a profile into feedback for a profile-guided rebuild");

static cl::opt<std::string> Dir(cl::Positional, cl::desc("<profile dir>"),
                                cl::Required, cl::sub(PgoSub));
static cl::opt<std::string> OutFile("o", cl::desc("Output file"),
                                    cl::value_desc("file"), cl::Required,
                                    cl::sub(PgoSub));
static cl::opt<std::string>
    Format("format", cl::desc("sample-text (the only format so far)"),
           cl::init("sample-text"), cl::sub(PgoSub));

int warpscope::runPgo() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope pgo") << Msg << "\n";
    return 2;
  };
  if (Format != "sample-text")
    return Fail("--format '" + Format +
                "' is not supported; write sample-text and convert it with "
                "llvm-profdata merge --sample --binary");
  Expected<ProfileSet> Set = loadProfileDirectory(Dir);
  if (!Set)
    return Fail(toString(Set.takeError()));
  std::string Text;
  raw_string_ostream OS(Text);
  unsigned Written = 0, Skipped = 0;
  for (const FunctionProfile &F : Set->Functions) {
    if (F.Blocks.empty() || !F.Blocks.front().WarpExecutions)
      continue; // never ran
    if (!F.Loc.Line) {
      ++Skipped; // no debug info: nothing to key lines on
      continue;
    }
    std::map<unsigned, uint64_t> Lines; // offset -> count
    for (const BlockCounts &B : F.Blocks)
      if (B.Loc.Line >= F.Loc.Line && B.Loc.File == F.Loc.File) {
        uint64_t &C = Lines[B.Loc.Line - F.Loc.Line];
        C = std::max(C, B.WarpExecutions);
      }
    uint64_t Total = 0;
    for (auto &[Offset, Count] : Lines)
      Total += Count;
    OS << F.Name << ":" << Total << ":" << F.Blocks.front().WarpExecutions
       << "\n";
    for (auto &[Offset, Count] : Lines)
      OS << " " << Offset << ": " << Count << "\n";
    ++Written;
  }
  if (!Written)
    return Fail(Dir + ": no device function with line information ran; build "
                      "with -gline-tables-only (warpscope config --cflags "
                      "has it)");
  std::error_code EC;
  raw_fd_ostream Out(OutFile, EC, sys::fs::OF_Text);
  if (EC)
    return Fail("cannot write '" + OutFile + "': " + EC.message());
  Out << Text;
  errs() << "warpscope pgo: " << Written << " function(s) written to "
         << OutFile;
  if (Skipped)
    errs() << " (" << Skipped << " without debug info skipped)";
  errs() << "\n";
  return 0;
}
