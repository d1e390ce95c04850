//===- Resimulate.cpp - Estimates the timing model confirms ---------------===//

#include "Resimulate.h"
#include "../GroundTruth.h"
#include "../RunDirectory.h"
#include "../RunLog.h"
#include "AdviseInputs.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <map>

extern char **environ;

using namespace llvm;

namespace warpscope::advise {
namespace {

int Anchor;

/// The recorded value of option Name ("--model-clock X" or
/// "--model-clock=X") in a warpscope command line, "" when absent.
std::string recordedOption(const std::vector<std::string> &Cmd,
                           StringRef Name) {
  for (size_t I = 0; I < Cmd.size() && Cmd[I] != "--"; ++I) {
    StringRef A(Cmd[I]);
    if (A == Name && I + 1 < Cmd.size())
      return Cmd[I + 1];
    if (A.consume_front(Name) && A.consume_front("="))
      return A.str();
  }
  return "";
}

/// The kernel's modeled cycles in Dir's ground truth, launch cost included
/// (summed as the advice's own modeled time is: modeledTimes).
std::optional<double> kernelCycles(const std::string &Dir,
                                   const std::string &Kernel,
                                   std::string &Why) {
  RunDirectory Run(Dir);
  Expected<const Truth &> TOr = Run.truth();
  if (!TOr) {
    Why = toString(TOr.takeError());
    return std::nullopt;
  }
  std::map<std::string, KernelModeledTime> Times = modeledTimes(*TOr, nullptr);
  auto It = Times.find(Kernel);
  if (It == Times.end()) {
    Why = "the re-run has no modeled launch of the kernel";
    return std::nullopt;
  }
  return It->second.total();
}

/// The last line of File, for why a re-run failed.
std::string lastLine(const std::string &File) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(File);
  if (!B)
    return "";
  StringRef S = (*B)->getBuffer().rtrim();
  return S.substr(S.rfind('\n') + 1).str();
}

} // namespace

WhatIfRunner programRunner(RunDirectory &Run, const Inputs &In) {
  Expected<const std::vector<RunRecord> &> Log = Run.runLog();
  std::vector<std::string> Cmd;
  std::string LogError;
  if (!Log)
    LogError = toString(Log.takeError());
  else
    for (const RunRecord &R : *Log)
      if (!R.Command.empty())
        Cmd = R.Command;
  auto Dash = std::find(Cmd.begin(), Cmd.end(), "--");
  std::vector<std::string> Program;
  if (Dash != Cmd.end())
    Program.assign(Dash + 1, Cmd.end());
  std::string Clock = recordedOption(Cmd, "--model-clock");
  std::string Sms = recordedOption(Cmd, "--model-sms");
  bool Probes = In.SampleProbes == "modeled" ||
                std::find(Cmd.begin(), Dash, "--model-probes") != Dash;
  std::string Exe = sys::fs::getMainExecutable("warpscope", &Anchor);
  return [=, &In](const emu::WhatIf &W,
                  std::string &Why) -> std::optional<double> {
    if (!LogError.empty() || Program.empty()) {
      Why = LogError.empty() ? "the run log records no `warpscope run ... -- "
                               "PROGRAM` to run again"
                             : LogError;
      return std::nullopt;
    }
    auto M = In.ModeledTime.find(W.Kernel);
    if (M == In.ModeledTime.end()) {
      Why = "the kernel has no modeled time (run with `--emulate`)";
      return std::nullopt;
    }
    SmallString<128> Tmp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("warpscope-what-if", Tmp)) {
      Why = "cannot make a temporary directory: " + EC.message();
      return std::nullopt;
    }
    std::vector<std::string> Args = {
        Exe, "run", "--emulate", "--force", "--model-config", M->second.Config};
    if (!Clock.empty())
      Args.insert(Args.end(), {"--model-clock", Clock});
    if (!Sms.empty())
      Args.insert(Args.end(), {"--model-sms", Sms});
    if (Probes)
      Args.push_back("--model-probes");
    Args.insert(Args.end(), {"-o", std::string(Tmp), "--"});
    Args.insert(Args.end(), Program.begin(), Program.end());
    std::vector<std::string> Env;
    for (char **E = environ; *E; ++E)
      if (!StringRef(*E).starts_with(std::string(emu::WhatIfVariable) + "="))
        Env.push_back(*E);
    Env.push_back(std::string(emu::WhatIfVariable) + "=" + formatWhatIf(W));
    Env.push_back("WARPSCOPE_QUIET=1");
    SmallString<128> Out(Tmp);
    sys::path::append(Out, "what-if.log");
    std::vector<StringRef> ArgRefs(Args.begin(), Args.end()),
        EnvRefs(Env.begin(), Env.end());
    std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                            StringRef(Out)};
    std::string ExecError;
    int Rc = sys::ExecuteAndWait(Exe, ArgRefs, ArrayRef<StringRef>(EnvRefs),
                                 Redirects, 0, 0, &ExecError);
    std::optional<double> Cycles;
    if (Rc != 0)
      Why = formatv("`warpscope run` of {0} with {1} failed (exit {2}): {3}",
                    Program.front(), formatWhatIf(W), Rc,
                    ExecError.empty() ? lastLine(std::string(Out)) : ExecError)
                .str();
    else
      Cycles = kernelCycles(std::string(Tmp), W.Kernel, Why);
    sys::fs::remove_directories(Tmp);
    return Cycles;
  };
}

/// What the change is, in words: "shared=8192 B/block".
static std::string describeChange(const emu::WhatIf &W) {
  std::vector<std::string> Parts;
  if (W.Grid)
    Parts.push_back(formatv("{0} blocks", W.Grid));
  if (W.Block)
    Parts.push_back(formatv("{0} threads/block", W.Block));
  if (W.Registers)
    Parts.push_back(formatv("{0} registers/thread", W.Registers));
  if (W.Shared >= 0)
    Parts.push_back(formatv("{0} B shared/block", W.Shared));
  if (W.MaxRegisters)
    Parts.push_back(
        W.MaxRegisters >= 255
            ? std::string("no register cap")
            : formatv("a cap of {0} registers/thread", W.MaxRegisters).str());
  return join(Parts, ", ");
}

void resimulate(const Inputs &In, const WhatIfRunner &Run,
                std::vector<Advice> &All, std::vector<std::string> &Notes) {
  constexpr double MinSpeedup = 1.01;
  std::map<std::string, std::pair<std::optional<double>, std::string>> Done;
  std::vector<Advice> Kept;
  for (Advice &A : All) {
    auto M = In.ModeledTime.find(A.Kernel);
    if (A.Change.Kernel.empty() || !A.Change.any()) {
      Kept.push_back(std::move(A));
      continue;
    }
    const std::string Key = formatWhatIf(A.Change);
    if (!Done.count(Key)) {
      std::string Why;
      std::optional<double> C = Run(A.Change, Why);
      Done[Key] = {C, Why};
    }
    const auto &[After, Why] = Done[Key];
    const double Before = M == In.ModeledTime.end() ? 0 : M->second.total();
    if (!After || !(*After > 0) || !(Before > 0)) {
      A.Estimator += "; not re-simulated: " +
                     (Why.empty() ? std::string("no modeled time") : Why);
      Kept.push_back(std::move(A));
      continue;
    }
    const double Formula = A.EstimatedSpeedup;
    A.EstimatedSpeedup = Before / *After;
    A.Kind = EstimateKind::Resimulated;
    A.Estimator =
        formatv("re-simulated: the timing model ran the program "
                "again with {0}: {1} -> {2} modeled cycles, the "
                "launches' fixed cost included (the formula said "
                "{3}x: {4})",
                describeChange(A.Change), formatNumber(Before, 0),
                formatNumber(*After, 0), formatNumber(Formula), A.Estimator)
            .str();
    if (A.EstimatedSpeedup < MinSpeedup) {
      Notes.push_back(formatv("{0} for {1}: re-simulated with {2}, {3}x; "
                              "not advised",
                              A.Optimizer, A.Kernel, describeChange(A.Change),
                              formatNumber(A.EstimatedSpeedup, 3))
                          .str());
      continue;
    }
    Kept.push_back(std::move(A));
  }
  All = std::move(Kept);
}

} // namespace warpscope::advise
