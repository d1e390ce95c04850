//===- main.cpp - The warpscope driver
//-------------------------------------===//
//
// warpscope <command> [options]; `warpscope <command> --help` (or
// `warpscope help <command>`) for each.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "RunDirectory.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;
using namespace warpscope;

static void printVersion(raw_ostream &OS) {
  OS << "warpscope " << WARPSCOPE_VERSION << " (built with LLVM "
     << LLVM_VERSION_STRING << ")\n";
}

std::vector<std::string> warpscope::Invocation;

// For tests: each command reads each kind of file of a run directory once
// (RunDirectory.h); this prints how often it did.
static cl::opt<bool> DebugRunDirectory(
    "debug-run-directory", cl::Hidden,
    cl::desc("Print how often each kind of file of a run directory was read"),
    cl::sub(cl::SubCommand::getAll()));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  Invocation.assign(argv, argv + argc);
  cl::SetVersionPrinter(printVersion);
  const Command Commands[] = {
      {ConfigSub, runConfig},  {RunSub, runRun},
      {ReportSub, runReport},  {ValidateSub, runValidate},
      {DiffSub, runDiff},      {PgoSub, runPgo},
      {StaticSub, runStatic},  {FeaturesSub, runFeatures},
      {AdviseSub, runAdvise},  {TrainSub, runTrain},
      {PredictSub, runPredict}};
  // `warpscope help [command]`, as git and cargo have it: the command's
  // --help.
  std::vector<const char *> Help;
  if (argc >= 2 && StringRef(argv[1]) == "help") {
    if (argc > 3) {
      WithColor::error(errs(), "warpscope")
          << "help takes one command: warpscope help <command>\n";
      return 2;
    }
    Help = {argv[0]};
    if (argc == 3) {
      std::string Names;
      for (const Command &C : Commands)
        Names += (Names.empty() ? "" : ", ") + C.Sub.getName().str();
      if (std::none_of(
              std::begin(Commands), std::end(Commands),
              [&](const Command &C) { return C.Sub.getName() == argv[2]; })) {
        WithColor::error(errs(), "warpscope")
            << "no command '" << argv[2] << "'; the commands are " << Names
            << "\n";
        return 2;
      }
      Help.push_back(argv[2]);
    }
    Help.push_back("--help");
    argc = int(Help.size());
    argv = const_cast<char **>(Help.data());
  }
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "WarpScope: where and why CUDA kernels "
                                   "lose time\n",
                                   &errs()))
    return 2;
  for (const Command &C : Commands)
    if (C.Sub) {
      int Status = C.Run();
      if (DebugRunDirectory)
        RunDirectory::printAllReads(errs());
      return Status;
    }
  WithColor::error(errs(), "warpscope")
      << "no command given; try 'warpscope --help'\n";
  return 2;
}
