//===- Commands.h - warpscope subcommands
//----------------------------------===//
//
// Each subcommand lives in its own file, declares its options in its own
// cl::SubCommand, and returns the process exit code (2 for bad input).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_COMMANDS_H
#define WARPSCOPE_DRIVER_COMMANDS_H

#include "llvm/Support/CommandLine.h"
#include <string>
#include <vector>

namespace warpscope {

/// warpscope's own command line (argv), as main received it.
extern std::vector<std::string> Invocation;

struct Command {
  llvm::cl::SubCommand &Sub;
  int (*Run)();
};

extern llvm::cl::SubCommand ConfigSub, RunSub, ReportSub, ValidateSub, DiffSub,
    PgoSub, StaticSub, FeaturesSub, AdviseSub, TrainSub, PredictSub;
/// Installs `report` and `advise`'s --path-equivalence (sources the build
/// recorded under one directory read from another); why one is malformed,
/// or "".
std::string applyPathEquivalences(const std::vector<std::string> &Args);
int runConfig();
int runRun();
int runReport();
int runValidate();
int runDiff();
int runPgo();
int runStatic();
int runFeatures();
int runAdvise();
int runTrain();
int runPredict();

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_COMMANDS_H
