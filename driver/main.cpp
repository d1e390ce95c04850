//===- main.cpp - The warpscope driver
//-------------------------------------===//
//
// warpscope <command> [options]; `warpscope <command> --help` for each.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace warpscope;

static void printVersion(raw_ostream &OS) {
  OS << "warpscope " << WARPSCOPE_VERSION << " (built with LLVM "
     << LLVM_VERSION_STRING << ")\n";
}

std::vector<std::string> warpscope::Invocation;

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
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "WarpScope: where and why CUDA kernels "
                                   "lose time\n",
                                   &errs()))
    return 2;
  for (const Command &C : Commands)
    if (C.Sub)
      return C.Run();
  WithColor::error(errs(), "warpscope")
      << "no command given; try 'warpscope --help'\n";
  return 2;
}
