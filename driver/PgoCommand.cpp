//===- PgoCommand.cpp - warpscope pgo: feedback for a device rebuild ------===//
//
// --format instr: an LLVM instrumentation profile (.profdata) with each
// device function's exact block and branch counts (warpscope/ABI/PgoRecord.h),
// for -warpscope-profile-use. Written as LLVM's text profile, then indexed by
// llvm-profdata, so LLVM's own reader and `llvm-profdata merge/show` apply.
//
// --format sample-text|sample-binary: an LLVM sample profile (the
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
#include "FormatOption.h"
#include "ProfileModel.h"
#include "RunDirectory.h"
#include "warpscope/ABI/PgoRecord.h"
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

static cl::opt<std::string> PgoDir(cl::Positional, cl::desc("<profile dir>"),
                                   cl::Required, cl::sub(PgoSub));
static cl::opt<std::string> PgoOutFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::Required,
                                       cl::sub(PgoSub));
static FormatOption PgoFormat(
    "format", cl::desc("Profile format"),
    formats{{OutputFormat::SampleText, "LLVM's sample profile, text (default)"},
            {OutputFormat::SampleBinary,
             "the same, binary (for -fprofile-sample-use)"},
            {OutputFormat::Instr, "for -warpscope-profile-use"},
            {OutputFormat::InstrText, "LLVM's text form of instr"}},
    cl::sub(PgoSub));

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

/// The sample profile's text of every device function that ran with line
/// information; counts those without in Skipped.
unsigned writeSampleText(const ProfileSet &Set, raw_ostream &OS,
                         unsigned &Skipped) {
  unsigned Written = 0;
  for (const FunctionProfile &F : Set.Functions) {
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
  return Written;
}

/// A function's record (warpscope/ABI/PgoRecord.h) from its profile, or
/// an error when the database lacks the control-flow graph.
Expected<pgo::FunctionCounts> instrCounts(const FunctionProfile &F) {
  pgo::FunctionCounts C;
  std::map<unsigned, std::vector<unsigned>> Preds;
  for (const BlockCounts &B : F.Blocks) {
    if (!B.hasSuccessors())
      return createStringError(F.Demangled +
                               ": the database has no control-flow graph "
                               "(built by an older plugin); rebuild and rerun");
    C.Blocks.push_back(B.WarpExecutions);
    for (unsigned S : B.successors())
      Preds[S].push_back(B.Id);
  }
  std::map<unsigned, const BranchCounts *> ByBlock;
  for (const BranchCounts &Br : F.Branches)
    ByBlock[Br.Block] = &Br;
  for (const BlockCounts &B : F.Blocks) {
    std::vector<unsigned> Succ = B.successors();
    std::sort(Succ.begin(), Succ.end());
    Succ.erase(std::unique(Succ.begin(), Succ.end()), Succ.end());
    if (Succ.size() < 2)
      continue;
    pgo::BranchCounts Out;
    Out.Sides.assign(Succ.size(), 0);
    auto It = ByBlock.find(B.Id);
    if (It != ByBlock.end() && It->second->Probed) {
      // Threads taking each side: what a taken/not-taken profile counts.
      const BranchCounts &Br = *It->second;
      for (size_t K = 0; K < Br.Successors.size(); ++K) {
        size_t At =
            std::lower_bound(Succ.begin(), Succ.end(), Br.Successors[K]) -
            Succ.begin();
        if (At < Succ.size() && K < Br.SuccessorThreads.size())
          Out.Sides[At] = Br.SuccessorThreads[K];
      }
      Out.Divergent = Br.Divergent;
      Out.Visits = Br.Visits;
    } else {
      // Proven uniform: a successor entered only from here ran as often as
      // the warps that went that way; one other side gets the rest.
      uint64_t Known = 0;
      int Unknown = -1, Unknowns = 0;
      for (size_t K = 0; K < Succ.size(); ++K) {
        const std::vector<unsigned> &P = Preds[Succ[K]];
        if (P.size() == 1 && P[0] == B.Id) {
          Out.Sides[K] = F.Blocks[Succ[K]].WarpExecutions;
          Known += Out.Sides[K];
        } else {
          Unknown = int(K);
          ++Unknowns;
        }
      }
      if (Unknowns == 1)
        Out.Sides[Unknown] =
            B.WarpExecutions > Known ? B.WarpExecutions - Known : 0;
      else if (Unknowns > 1)
        Out.Sides.assign(Succ.size(), 0); // two unknown sides: no weights
    }
    C.Branches.push_back(std::move(Out));
  }
  return C;
}

/// LLVM's text instrumentation profile of every device function that ran.
Expected<unsigned> writeInstrText(const ProfileSet &Set, raw_ostream &OS) {
  OS << "# IR level Instrumentation Flag\n:ir\n";
  unsigned Written = 0;
  for (const FunctionProfile &F : Set.Functions) {
    if (F.Blocks.empty() || !F.Blocks.front().WarpExecutions)
      continue; // never ran
    Expected<pgo::FunctionCounts> C = instrCounts(F);
    if (!C)
      return C.takeError();
    std::vector<uint64_t> Counters = pgo::encode(*C);
    OS << pgo::recordName(F.ModuleId, F.Name) << "\n# Func Hash:\n"
       << pgo::recordHash(F.CfgChecksum) << "\n# Num Counters:\n"
       << Counters.size() << "\n# Counter Values:\n";
    for (uint64_t V : Counters)
      OS << V << "\n";
    OS << "\n";
    ++Written;
  }
  return Written;
}

} // namespace

int warpscope::runPgo() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope pgo") << Msg << "\n";
    return 2;
  };
  bool Instr =
      PgoFormat == OutputFormat::Instr || PgoFormat == OutputFormat::InstrText;
  bool TextOnly = PgoFormat == OutputFormat::SampleText ||
                  PgoFormat == OutputFormat::InstrText;
  RunDirectory Run(PgoDir);
  Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set)
    return Fail(toString(Set.takeError()));
  if (!Set->launches())
    return Fail(PgoDir + ": the program launched no instrumented kernel; "
                         "nothing to write");
  std::string Text;
  raw_string_ostream OS(Text);
  unsigned Written = 0, Skipped = 0;
  if (Instr) {
    Expected<unsigned> N = writeInstrText(*Set, OS);
    if (!N)
      return Fail(toString(N.takeError()));
    if (!*N)
      return Fail(PgoDir + ": no instrumented device function ran");
    Written = *N;
  } else {
    Written = writeSampleText(*Set, OS, Skipped);
    if (!Written)
      return Fail(PgoDir + ": no device function with line information ran; "
                           "build with -gline-tables-only (warpscope config "
                           "--cflags has it)");
  }
  std::string TextFile = PgoOutFile;
  SmallString<128> Temp;
  if (!TextOnly) {
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
  if (!TextOnly) {
    auto Profdata =
        sys::findProgramByName("llvm-profdata", {WARPSCOPE_LLVM_TOOLS});
    if (!Profdata)
      Profdata = sys::findProgramByName("llvm-profdata-22");
    if (!Profdata)
      return Fail(formatName(PgoFormat) +
                  " needs llvm-profdata (LLVM 22), which is not on "
                  "this machine; install llvm-22 (make setup does)");
    std::string Error;
    SmallVector<StringRef, 8> Args = {*Profdata, "merge"};
    if (PgoFormat == OutputFormat::SampleBinary)
      Args.append({"--sample", "--binary"});
    else
      Args.append({"--instr"});
    Args.append({TextFile, "-o", PgoOutFile});
    if (sys::ExecuteAndWait(*Profdata, Args, std::nullopt, {}, 0, 0, &Error))
      return Fail("llvm-profdata could not write '" + PgoOutFile + "'" +
                  (Error.empty() ? "" : ": " + Error));
  }
  errs() << "warpscope pgo: " << Written << " function(s) written to "
         << PgoOutFile;
  if (Skipped)
    errs() << " (" << Skipped << " without debug info skipped)";
  errs() << "\n";
  return 0;
}
