//===- PgoCommand.cpp - warpscope pgo: a sample profile for device code ---===//
//
// Writes the device functions of a profile as an LLVM sample profile (the
// AutoFDO format llvm-profdata reads), which the device compile takes with
// -Xclang -fprofile-sample-use=FILE (line tables needed). Each block's count
// (its warp-level executions) goes to every source line its instructions
// come from: "offset[.discriminator]: count" in the function the code came
// from, nested under "offset: callee:total" call-site records when inlined.
// Where several blocks share a line, the largest count stands, as a sampled
// profile would see it; a function's head is its entry block's count.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ProfileModel.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
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
    Format("format",
           cl::desc("sample-text (default) or sample-binary (through "
                    "llvm-profdata)"),
           cl::init("sample-text"), cl::sub(PgoSub));

namespace {

/// One function's samples: its own lines, and the functions inlined into it
/// by call site.
struct Samples {
  std::map<std::pair<unsigned, unsigned>, uint64_t> Lines;
  std::map<std::pair<std::pair<unsigned, unsigned>, std::string>, Samples>
      Callees;

  uint64_t total() const {
    uint64_t T = 0;
    for (auto &[Where, Count] : Lines)
      T += Count;
    for (auto &[Site, Callee] : Callees)
      T += Callee.total();
    return T;
  }
  void add(ArrayRef<Frame> Stack, uint64_t Count) {
    auto Key = std::make_pair(Stack[0].LineOffset, Stack[0].Discriminator);
    if (Stack.size() == 1) {
      uint64_t &C = Lines[Key];
      C = std::max(C, Count);
      return;
    }
    Callees[{Key, Stack[1].Function}].add(Stack.drop_front(), Count);
  }
  void write(raw_ostream &OS, unsigned Indent) const {
    auto Where = [](std::pair<unsigned, unsigned> W) {
      return W.second ? std::to_string(W.first) + "." + std::to_string(W.second)
                      : std::to_string(W.first);
    };
    for (auto &[W, Count] : Lines)
      OS.indent(Indent) << Where(W) << ": " << Count << "\n";
    for (auto &[Site, Callee] : Callees) {
      OS.indent(Indent) << Where(Site.first) << ": " << Site.second << ":"
                        << Callee.total() << "\n";
      Callee.write(OS, Indent + 1);
    }
  }
};

} // namespace

int warpscope::runPgo() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope pgo") << Msg << "\n";
    return 2;
  };
  if (Format != "sample-text" && Format != "sample-binary")
    return Fail("--format '" + Format +
                "' is not one of sample-text, sample-binary");
  Expected<ProfileSet> Set = loadProfileDirectory(Dir);
  if (!Set)
    return Fail(toString(Set.takeError()));
  std::string Text;
  raw_string_ostream OS(Text);
  unsigned Written = 0, Skipped = 0;
  for (const FunctionProfile &F : Set->Functions) {
    if (F.Blocks.empty() || !F.Blocks.front().WarpExecutions)
      continue; // never ran
    Samples S;
    for (const BlockCounts &B : F.Blocks)
      for (const std::vector<Frame> &Stack : B.InlineStacks)
        if (!Stack.empty())
          S.add(Stack, B.WarpExecutions);
    if (S.Lines.empty() && S.Callees.empty()) {
      ++Skipped; // no debug info: nothing to key lines on
      continue;
    }
    OS << F.Name << ":" << S.total() << ":" << F.Blocks.front().WarpExecutions
       << "\n";
    S.write(OS, 1);
    ++Written;
  }
  if (!Written)
    return Fail(Dir + ": no device function with line information ran; build "
                      "with -gline-tables-only (warpscope config --cflags "
                      "has it)");
  std::string TextFile = OutFile;
  SmallString<128> Temp;
  if (Format == "sample-binary") {
    if (std::error_code EC =
            sys::fs::createTemporaryFile("warpscope-pgo", "txt", Temp))
      return Fail("cannot create a temporary file: " + EC.message());
    TextFile = std::string(Temp);
  }
  FileRemover RemoveTemp(Temp, !Temp.empty());
  {
    std::error_code EC;
    raw_fd_ostream Out(TextFile, EC, sys::fs::OF_Text);
    if (EC)
      return Fail("cannot write '" + TextFile + "': " + EC.message());
    Out << Text;
  }
  if (Format == "sample-binary") {
    auto Profdata = sys::findProgramByName("llvm-profdata", {WARPSCOPE_LLVM_TOOLS});
    if (!Profdata)
      Profdata = sys::findProgramByName("llvm-profdata-22");
    if (!Profdata)
      return Fail("sample-binary needs llvm-profdata (LLVM 22), which is not "
                  "on this machine; write sample-text instead");
    std::string Error;
    StringRef Args[] = {*Profdata, "merge", "--sample", "--binary",
                        TextFile,  "-o",    OutFile};
    if (sys::ExecuteAndWait(*Profdata, Args, std::nullopt, {}, 0, 0, &Error))
      return Fail("llvm-profdata could not write '" + OutFile + "'" +
                  (Error.empty() ? "" : ": " + Error));
  }
  errs() << "warpscope pgo: " << Written << " function(s) written to "
         << OutFile;
  if (Skipped)
    errs() << " (" << Skipped << " without debug info skipped)";
  errs() << "\n";
  return 0;
}
