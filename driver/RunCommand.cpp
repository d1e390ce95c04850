//===- RunCommand.cpp - warpscope run: run a program with the runtime -----===//
//
// Preloads libwarpscope-rt.so (harmless when the program links it), points
// it at the output directory, and on request (or when no GPU is present)
// puts the emulator's libcudart.so.13 first on the library path. Everything
// that can be checked before the program starts is (the program, the
// options, the directory: OutputDirectory.h), each problem in one line; the
// notes come only once the program starts.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "GroundTruth.h"
#include "OutputDirectory.h"
#include "Paths.h"
#include "ProgramLinkage.h"
#include "RunCollection.h"
#include "RunDirectory.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#ifdef WARPSCOPE_RUN_TIMING_CONFIGS
#include "warpscope/Emu/TimingConfig.h"
#endif
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
namespace files = warpscope::files;

/// An emulated launch that runs this long is most likely a loop that never
/// ends (`warpscope run --timeout`; docs/emulator.md, "Watchdog").
static constexpr double DefaultEmuTimeoutSeconds = 600;

cl::SubCommand warpscope::RunSub(
    "run", "Run a program and collect its profile: warpscope run [options] "
           "-- program [args...]");

static cl::opt<bool> Emulate("emulate",
                             cl::desc("Run on the CPU emulator (the default "
                                      "when no GPU is present)"),
                             cl::sub(warpscope::RunSub));
static cl::opt<bool> Racecheck(
    "racecheck",
    cl::desc("Report shared-memory hazards between warps (missing "
             "__syncthreads) on the emulator (WARPSCOPE_EMU_RACECHECK=1)"),
    cl::sub(warpscope::RunSub));
static cl::opt<bool> Memcheck(
    "memcheck",
    cl::desc("On the emulator, fail a launch at any access outside its "
             "allocation, as compute-sanitizer's memcheck does (without it, "
             "one a GPU does not fault on, inside device memory's pages, is "
             "reported once per instruction and the launch goes on; "
             "WARPSCOPE_EMU_MEMCHECK=1)"),
    cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    ModelConfig("model-config",
                cl::desc("Timing model configuration on the emulator: h100-sxm "
                         "(default), a100, t4, a JSON file, or off "
                         "(WARPSCOPE_EMU_MODEL; docs/timing-model.md)"),
                cl::value_desc("name|file"), cl::sub(warpscope::RunSub));
static cl::opt<std::string> ModelClock(
    "model-clock",
    cl::desc("Timing model on the emulator: the SM clock modeled cycles "
             "convert at: boost (default: a user's run), base (the clock "
             "Nsight Compute locks to) or MHz (WARPSCOPE_EMU_MODEL_CLOCK)"),
    cl::value_desc("boost|base|MHz"), cl::sub(warpscope::RunSub));
static cl::opt<std::string> ModelSms(
    "model-sms",
    cl::desc("Timing model on the emulator: how many of a launch's SMs are "
             "simulated: 8 (default; they represent the others: "
             "docs/timing-model.md, \"Large grids\"), a number up to 1024, "
             "or all (slower; exact where the representative SMs are not, "
             "e.g. a stencil's halo; WARPSCOPE_EMU_MODEL_SMS)"),
    cl::value_desc("N|all"), cl::sub(warpscope::RunSub));
static cl::opt<bool> ModelProbes(
    "model-probes",
    cl::desc("Timing model on the emulator: charge the probes' own "
             "instructions (default: free, so that modeled time and samples "
             "describe the program; WARPSCOPE_EMU_MODEL_PROBES=1)"),
    cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    Mode("mode",
         cl::desc("aggregate (the default) or per-launch; without it, "
                  "WARPSCOPE_MODE when set"),
         cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    OutDir("o", cl::desc("Profile directory"), cl::value_desc("dir"),
           cl::init(std::string(warpscope::DefaultOutputDirectory)),
           cl::sub(warpscope::RunSub));
static cl::opt<bool>
    Force("force",
          cl::desc("Replace the results an earlier run left in the profile "
                   "directory (without --force or --append, run refuses a "
                   "directory that holds any)"),
          cl::sub(warpscope::RunSub));
static cl::opt<bool>
    Append("append",
           cl::desc("Add this run to the results already in the profile "
                    "directory: reports then sum every run and say how many "
                    "they merge"),
           cl::sub(warpscope::RunSub));
static cl::opt<bool>
    PcSampling("pc-sampling",
               cl::desc("Sample warp PCs and stall reasons: with CUPTI on a "
                        "GPU, modeled by the timing model on the emulator"),
               cl::sub(warpscope::RunSub));
static cl::opt<bool> StallCycles(
    "stall-cycles",
    cl::desc("Emulator: write the timing model's exact stall cycles per PTX "
             "instruction (pcsamples-*.json, method exact without "
             "--pc-sampling; beside the samples with it)"),
    cl::sub(warpscope::RunSub));
static cl::opt<bool> SassMetrics(
    "sass-metrics",
    cl::desc("Count executions and branch targets per SASS instruction with "
             "CUPTI (GPU only)"),
    cl::sub(warpscope::RunSub));
static cl::opt<unsigned> SamplingPeriod(
    "sampling-period",
    cl::desc("PC sampling period: one sample per 2^N cycles, N in 5..31 "
             "(default: CUPTI's)"),
    cl::value_desc("N"), cl::sub(warpscope::RunSub));
static cl::opt<unsigned long long> LaunchSkip(
    "launch-skip",
    cl::desc("Leave the first N kernel launches out of the profile (they "
             "still run; -s, as in ncu; WARPSCOPE_LAUNCH_SKIP)"),
    cl::value_desc("N"), cl::init(0), cl::sub(warpscope::RunSub));
static cl::opt<unsigned long long>
    LaunchCount("launch-count",
                cl::desc("Profile at most M launches after the skipped ones "
                         "(-c, as in ncu; WARPSCOPE_LAUNCH_COUNT)"),
                cl::value_desc("M"), cl::init(0), cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    LaunchScope("launch-scope",
                cl::desc("Count --launch-skip/--launch-count over all launches "
                         "(overall, the default) or per kernel (per-kernel)"),
                cl::init("overall"), cl::sub(warpscope::RunSub));
static cl::opt<std::string> LaunchKernel(
    "launch-kernel",
    cl::desc("Profile only launches of kernels whose mangled or demangled "
             "name matches this regex (ECMAScript; ncu's regex: prefix is "
             "accepted); --launch-skip and --launch-count count those "
             "launches only (-k, as in ncu; WARPSCOPE_LAUNCH_KERNEL)"),
    cl::value_desc("regex"), cl::init(""), cl::sub(warpscope::RunSub));
// ncu's short launch filters (listed in --help-hidden; the long options'
// descriptions name them).
static cl::alias LaunchKernelShort("k", cl::desc("Alias for --launch-kernel"),
                                   cl::aliasopt(LaunchKernel));
static cl::alias LaunchSkipShort("s", cl::desc("Alias for --launch-skip"),
                                 cl::aliasopt(LaunchSkip));
static cl::alias LaunchCountShort("c", cl::desc("Alias for --launch-count"),
                                  cl::aliasopt(LaunchCount));
static cl::opt<double> Timeout(
    "timeout",
    cl::desc("On the emulator, fail a launch still running after this many "
             "seconds, naming where its warps are (default 600; 0: no limit; "
             "WARPSCOPE_EMU_TIMEOUT)"),
    cl::value_desc("seconds"), cl::init(DefaultEmuTimeoutSeconds),
    cl::sub(warpscope::RunSub));
static cl::list<std::string> ProgramAndArgs(cl::Positional,
                                            cl::desc("-- program [args...]"),
                                            cl::sub(warpscope::RunSub));

/// --racecheck's exit status when the program exited 0 but the emulator
/// found hazards (README, docs/emulator.md).
static constexpr int RacecheckExitCode = 3;

static volatile pid_t ChildPid = 0;

static void forwardSignal(int Signal) {
  if (ChildPid > 0)
    kill(ChildPid, Signal);
}

static bool gpuPresent() { return sys::fs::exists("/dev/nvidiactl"); }

static void prependPath(const char *Var, const std::string &Entry) {
  const char *Old = std::getenv(Var);
  std::string Value = Entry;
  if (Old && *Old)
    Value += (std::strcmp(Var, "LD_PRELOAD") ? ":" : " ") + std::string(Old);
  setenv(Var, Value.c_str(), 1);
}

/// --launch-kernel's regex: ncu's -k takes "regex:<re>" (a bare name there
/// is an exact name; here every value is a regex).
static std::string kernelRegex() {
  StringRef K = LaunchKernel;
  K.consume_front("regex:");
  return K.str();
}

/// The options' problems that need nothing run: one line, or "".
static std::string misusedOption() {
  if (Mode.getNumOccurrences() && Mode != "aggregate" && Mode != "per-launch")
    return "--mode '" + Mode + "' is not 'aggregate' or 'per-launch'";
  if (LaunchCount.getNumOccurrences() && LaunchCount == 0)
    return "--launch-count 0 would profile nothing; give at least 1";
  if (LaunchScope != "overall" && LaunchScope != "per-kernel")
    return "--launch-scope '" + LaunchScope +
           "' is not 'overall' or 'per-kernel'";
  if (LaunchScope.getNumOccurrences() && !LaunchSkip.getNumOccurrences() &&
      !LaunchCount.getNumOccurrences())
    return "--launch-scope applies with --launch-skip or --launch-count";
  if (!(Timeout >= 0) || Timeout > 7 * 86400) {
    char Given[32];
    std::snprintf(Given, sizeof Given, "%g", Timeout.getValue());
    return "--timeout " + std::string(Given) +
           " is not a number of seconds from 0 (no limit) to 604800";
  }
  if (Force && Append)
    return "--force replaces what the directory holds and --append adds to "
           "it; give one";
  // The runtime reads it with std::regex, so it is checked with that here.
  try {
    std::regex R(kernelRegex());
  } catch (const std::regex_error &E) {
    return "--launch-kernel '" + LaunchKernel + "' is not a regular " +
           "expression (" + E.what() + ")";
  }
  return "";
}

/// The collection mode: --mode, else WARPSCOPE_MODE, else aggregate. Sets
/// Note when --mode overrides a different WARPSCOPE_MODE; returns the
/// problem with WARPSCOPE_MODE, or "".
static std::string collectionMode(std::string &Chosen, std::string &Note) {
  const char *Env = std::getenv("WARPSCOPE_MODE");
  std::string FromEnv = Env ? Env : "";
  if (Mode.getNumOccurrences()) {
    Chosen = Mode;
    if (!FromEnv.empty() && FromEnv != Chosen)
      Note = "--mode " + Chosen + " overrides WARPSCOPE_MODE=" + FromEnv;
    return "";
  }
  Chosen = FromEnv.empty() ? "aggregate" : FromEnv;
  if (Chosen != "aggregate" && Chosen != "per-launch")
    return "WARPSCOPE_MODE='" + FromEnv +
           "' is not 'aggregate' or 'per-launch'; fix or unset it, or give "
           "--mode";
  return "";
}

/// Why Name cannot be run as execvp would find it, or "" when it can.
/// Status is the shell's for it: 127 not found, 126 not executable.
static std::string programProblem(const std::string &Name, int &Status) {
  Status = 127;
  if (Name.find('/') == std::string::npos) {
    if (sys::findProgramByName(Name))
      return "";
    return "program '" + Name + "' not found on PATH";
  }
  if (!sys::fs::exists(Name))
    return "program '" + Name + "' not found";
  Status = 126;
  if (sys::fs::is_directory(Name) || !sys::fs::can_execute(Name))
    return "program '" + Name + "' is not an executable file";
  return "";
}

/// The simulated SMs' count the emulator gets (WARPSCOPE_EMU_MODEL_SMS):
/// all is more than any GPU has.
static std::string modelSms() {
  using warpscope::emu::timing::MaxModelSms;
  return ModelSms == "all" ? std::to_string(MaxModelSms) : ModelSms.getValue();
}

/// --model-sms (or WARPSCOPE_EMU_MODEL_SMS), checked before anything runs:
/// the emulator would only say so at the first launch.
static std::string modelSmsProblem() {
  std::string What = "--model-sms", Value = modelSms();
  if (!ModelSms.getNumOccurrences()) {
    const char *Env = std::getenv("WARPSCOPE_EMU_MODEL_SMS");
    if (!Env)
      return "";
    What = "WARPSCOPE_EMU_MODEL_SMS", Value = Env;
  }
  using warpscope::emu::timing::MaxModelSms;
  unsigned N = 0;
  if (StringRef(Value).getAsInteger(10, N) || N < 1 || N > MaxModelSms)
    return What + ": '" + Value + "' is not a number of SMs from 1 to " +
           std::to_string(MaxModelSms) + " (or all, for --model-sms)";
  return "";
}

/// The timing model's configuration, checked before anything runs: the
/// emulator would only say so at the first launch and run without it.
static std::string modelConfigProblem() {
  std::string What = "--model-config", Value = ModelConfig;
  if (!ModelConfig.getNumOccurrences()) {
    const char *Env = std::getenv("WARPSCOPE_EMU_MODEL");
    // Unset: the default configuration (useEmulator), whose clock setting
    // is still checked below.
    Value = Env && *Env ? Env : "h100-sxm";
    if (Env && *Env)
      What = "WARPSCOPE_EMU_MODEL";
  }
  if (Value == "off" || Value == "0")
    return "";
#ifdef WARPSCOPE_RUN_TIMING_CONFIGS
  warpscope::emu::timing::Config C;
  std::string Why;
  if (!warpscope::emu::timing::loadConfig(Value, C, Why))
    return What + ": " + Why;
  std::string Clock = ModelClock;
  What = "--model-clock";
  if (!ModelClock.getNumOccurrences()) {
    const char *Env = std::getenv("WARPSCOPE_EMU_MODEL_CLOCK");
    Clock = Env ? Env : "";
    What = "WARPSCOPE_EMU_MODEL_CLOCK";
  }
  if (!warpscope::emu::timing::selectClock(C, Clock, Why))
    return What + ": " + Why;
#endif
  return modelSmsProblem();
}

/// The emulator's settings for a profile run; "" or the one-line problem.
static std::string useEmulator() {
  std::string Emu = warpscope::emulatorDirectory();
  if (!sys::fs::exists(Emu + "/libcudart.so.13"))
    return "emulator not found at '" + Emu +
           "/libcudart.so.13'; build it (make build)";
  if (std::string Bad = modelConfigProblem(); !Bad.empty())
    return Bad;
  prependPath("LD_LIBRARY_PATH", Emu);
  // Long emulated launches report their progress on stderr, and one that
  // never ends fails: --timeout, else WARPSCOPE_EMU_TIMEOUT, else the
  // default.
  setenv("WARPSCOPE_EMU_PROGRESS", "2", 0);
  char Seconds[32];
  std::snprintf(Seconds, sizeof Seconds, "%g", Timeout.getValue());
  setenv("WARPSCOPE_EMU_TIMEOUT", Seconds, Timeout.getNumOccurrences());
  // A profile run takes the memory-efficiency counts (report's memory view).
  setenv("WARPSCOPE_EMU_MEMORY", "1", 0);
  if (Racecheck)
    setenv("WARPSCOPE_EMU_RACECHECK", "1", 1);
  if (Memcheck)
    setenv("WARPSCOPE_EMU_MEMCHECK", "1", 1);
  // Modeled time on every emulated profile run.
  if (ModelConfig.getNumOccurrences())
    setenv("WARPSCOPE_EMU_MODEL", ModelConfig.c_str(), 1);
  else
    setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 0);
  if (ModelProbes)
    setenv("WARPSCOPE_EMU_MODEL_PROBES", "1", 1);
  if (ModelSms.getNumOccurrences())
    setenv("WARPSCOPE_EMU_MODEL_SMS", modelSms().c_str(), 1);
  if (ModelClock.getNumOccurrences())
    setenv("WARPSCOPE_EMU_MODEL_CLOCK", ModelClock.c_str(), 1);
  return "";
}

/// The runtime's settings: where, how and which launches to profile.
static void setRuntimeEnvironment(StringRef Out, const std::string &Mode) {
  setenv(warpscope::OutputDirectoryVariable, Out.str().c_str(), 1);
  setenv("WARPSCOPE_MODE", Mode.c_str(), 1);
  if (LaunchSkip.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_SKIP", std::to_string(LaunchSkip).c_str(), 1);
  if (LaunchCount.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_COUNT", std::to_string(LaunchCount).c_str(), 1);
  if (LaunchScope.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_SCOPE", LaunchScope.c_str(), 1);
  if (!kernelRegex().empty())
    setenv("WARPSCOPE_LAUNCH_KERNEL", kernelRegex().c_str(), 1);
}

/// A program that ran but left nothing (no instrumented module registered,
/// no hardware data) was most likely not built with the plugin, or does
/// not load libcudart.so at all though it has device code (the static CUDA
/// runtime).
static void warnIfNothingCollected(const std::string &Out,
                                   const std::string &Program) {
  warpscope::RunDirectory Run(Out);
  if (Run.has(files::Profile) || Run.listError() || Run.has(files::PcSamples) ||
      Run.has(files::SassMetrics))
    return;
  std::string Path = Program;
  if (Path.find('/') == std::string::npos)
    if (ErrorOr<std::string> Found = sys::findProgramByName(Path))
      Path = *Found;
  std::optional<warpscope::ProgramLinkage> Linkage =
      warpscope::programLinkage(Path);
  if (Linkage && Linkage->HasFatbin && !Linkage->loadsSharedCudart()) {
    WithColor::warning(errs(), "warpscope run")
        << "the program left no profile in '" << Out << "': '" << Program
        << "' does not load libcudart.so, so none of its CUDA calls can be "
           "seen (linked with the static CUDA runtime, nvcc's default?); "
           "link it with $(warpscope config --ldflags) (-lcudart; nvcc: "
           "--cudart shared)\n";
    return;
  }
  WithColor::warning(errs(), "warpscope run")
      << "the program left no profile in '" << Out
      << "': it has no instrumented CUDA module (build it with $(warpscope "
         "config --cflags) and $(warpscope config --ldflags); -fgpu-rdc "
         "builds are not supported)\n";
}

/// The ground-truth files of Dir and when each was last written.
using FileTimes = std::map<std::string, sys::TimePoint<>>;
static FileTimes truthFiles(const std::string &Dir) {
  FileTimes Times;
  for (const std::string &Path :
       warpscope::RunDirectory(Dir).files(files::Truth)) {
    sys::fs::file_status S;
    if (!sys::fs::status(Path, S))
      Times[Path] = S.getLastModificationTime();
  }
  return Times;
}

/// --racecheck: the hazards this run's ground truth holds (files not in
/// Before, or written since) decide the exit status when the program's
/// own is 0.
static int racecheckStatus(const std::string &Out, const FileTimes &Before,
                           int Status) {
  std::vector<std::string> Written;
  for (const auto &[Path, Time] : truthFiles(Out)) {
    auto It = Before.find(Path);
    if (It == Before.end() || It->second != Time)
      Written.push_back(Path);
  }
  Expected<uint64_t> Hazards = warpscope::countHazards(Written);
  if (!Hazards) {
    WithColor::warning(errs(), "warpscope run")
        << "--racecheck: " << toString(Hazards.takeError()) << "\n";
    return Status;
  }
  if (!*Hazards)
    return Status;
  WithColor::error(errs(), "warpscope run")
      << "racecheck found " << *Hazards << " shared-memory hazard"
      << (*Hazards == 1 ? "" : "s")
      << " (listed above, and as 'hazards' in emu-*.json)"
      << (Status ? "" : "; exit status " + std::to_string(RacecheckExitCode))
      << "\n";
  return Status ? Status : RacecheckExitCode;
}

/// Runs the program; its status as a shell gives it. Signals to warpscope
/// run go to the program. A program that cannot be started is said here:
/// Started is false then.
static int runProgram(std::vector<std::string> &Args, bool &Started) {
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  Started = false;
  // execvp's errno comes back through the pipe; it closes on success.
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0 || (ChildPid = fork()) < 0) {
    errs() << "warpscope run: error: cannot start the program: "
           << std::strerror(errno) << "\n";
    return 2;
  }
  if (ChildPid == 0) {
    close(Pipe[0]);
    execvp(Argv[0], Argv.data());
    int Err = errno;
    ssize_t Ignored = write(Pipe[1], &Err, sizeof Err);
    (void)Ignored;
    _exit(127);
  }
  close(Pipe[1]);
  // SIGINT, SIGTERM or SIGHUP to warpscope run (Ctrl-C, timeout) go to the
  // program: it ends, flushing its profile, and this returns its status;
  // no program is left running behind.
  struct sigaction Forward = {};
  Forward.sa_handler = forwardSignal;
  sigemptyset(&Forward.sa_mask);
  for (int S : {SIGINT, SIGTERM, SIGHUP})
    sigaction(S, &Forward, nullptr);
  int ExecError = 0;
  ssize_t N;
  while ((N = read(Pipe[0], &ExecError, sizeof ExecError)) < 0 &&
         errno == EINTR)
    continue;
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(ChildPid, &Status, 0) < 0 && errno == EINTR)
    continue;
  if (N == ssize_t(sizeof ExecError)) {
    WithColor::error(errs(), "warpscope run")
        << "cannot run '" << Argv[0] << "': " << std::strerror(ExecError)
        << "\n";
    return ExecError == ENOENT ? 127 : 126;
  }
  Started = true;
  // Forward the exit code the way a shell would, and say whose it is: a
  // program's 2 (NVIDIA's samples exit 2 when they waive a test) is not
  // warpscope run's own 2 for a bad option.
  if (WIFEXITED(Status)) {
    if (WEXITSTATUS(Status))
      errs() << "warpscope run: the program exited with status "
             << WEXITSTATUS(Status) << "\n";
    return WEXITSTATUS(Status);
  }
  if (WIFSIGNALED(Status)) {
    errs() << "warpscope run: program terminated by signal " << WTERMSIG(Status)
           << "\n";
    return 128 + WTERMSIG(Status);
  }
  return 1;
}

/// The rank an MPI or Slurm launcher gave this process (and the program it
/// runs), as the runtime reads it.
static std::optional<int> rankOfThisRun() {
  return warpscope::launcherRank(
      [](const char *Name) -> const char * { return std::getenv(Name); });
}

/// The directory -o names, made, locked and ready for this run: under a
/// launcher, for this rank's run beside the other ranks' (OutputDirectory.h).
static Expected<std::unique_ptr<warpscope::DirectoryLock>>
prepareOutput(SmallString<256> &Out, std::optional<int> Rank) {
  Out = OutDir;
  sys::fs::make_absolute(Out);
  if (sys::fs::exists(Out) && !sys::fs::is_directory(Out))
    return createStringError("'-o " + OutDir +
                             "' is a file, not a directory; name a directory "
                             "for the profile");
  if (std::error_code EC = sys::fs::create_directories(Out))
    return createStringError("cannot create '" + Out + "': " + EC.message());
  auto Lock = warpscope::DirectoryLock::acquire(std::string(Out), Rank);
  if (!Lock)
    return Lock.takeError();
  warpscope::EarlierResults When = Force    ? warpscope::EarlierResults::Replace
                                   : Append ? warpscope::EarlierResults::Append
                                            : warpscope::EarlierResults::Refuse;
  if (Error E = warpscope::prepareOutputDirectory(std::string(Out), When,
                                                  warpscope::Invocation, Rank))
    return Expected<std::unique_ptr<warpscope::DirectoryLock>>(std::move(E));
  return Lock;
}

int warpscope::runRun() {
  auto Error = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope run") << Msg << "\n";
    return 2;
  };
  if (ProgramAndArgs.empty())
    return Error("no program given; usage: warpscope run [options] -- "
                 "program [args...]");
  if (std::string Bad = misusedOption(); !Bad.empty())
    return Error(Bad);
  // Said once the program starts, never before an error that ends the run.
  std::vector<std::string> Notes;
  std::string ChosenMode, ModeNote;
  if (std::string Bad = collectionMode(ChosenMode, ModeNote); !Bad.empty())
    return Error(Bad);
  if (!ModeNote.empty())
    Notes.push_back(ModeNote);
  warpscope::CollectionOptions Collect;
  Collect.PcSampling = PcSampling;
  Collect.SassMetrics = SassMetrics;
  Collect.StallCycles = StallCycles;
  if (SamplingPeriod.getNumOccurrences())
    Collect.SamplingPeriod = SamplingPeriod;
  if (std::string Bad = checkCollectionOptions(Collect); !Bad.empty())
    return Error(Bad);
  int NotFound = 0;
  if (std::string Bad = programProblem(ProgramAndArgs[0], NotFound);
      !Bad.empty()) {
    Error(Bad);
    return NotFound;
  }
  std::string Runtime = libraryDirectory() + "/libwarpscope-rt.so";
  if (!sys::fs::exists(Runtime))
    return Error("runtime not found at '" + Runtime +
                 "'; build it (make build)");
  bool UseEmulator = Emulate || !gpuPresent();
  if (ModelConfig.getNumOccurrences() && !UseEmulator)
    return Error("--model-config needs the emulator (--emulate); on a GPU "
                 "the time is measured");
  if (ModelClock.getNumOccurrences() && !UseEmulator)
    return Error("--model-clock needs the emulator (--emulate); on a GPU "
                 "the time is measured");
  if (ModelSms.getNumOccurrences() && !UseEmulator)
    return Error("--model-sms needs the emulator (--emulate); on a GPU every "
                 "SM runs");
  if (ModelProbes && !UseEmulator)
    return Error("--model-probes needs the emulator (--emulate); on a GPU "
                 "the probes' time is measured with the program's");
  if (Racecheck && !UseEmulator)
    return Error("--racecheck needs the emulator (--emulate); on a GPU use "
                 "compute-sanitizer --tool racecheck");
  if (Memcheck && !UseEmulator)
    return Error("--memcheck needs the emulator (--emulate); on a GPU use "
                 "compute-sanitizer --tool memcheck");
  if (UseEmulator && !Emulate)
    Notes.insert(Notes.begin(), "no GPU found; running on the emulator");
  if (UseEmulator)
    if (std::string Bad = useEmulator(); !Bad.empty())
      return Error(Bad);
  std::string CollectNote;
  if (std::string Bad = prepareCollection(Collect, UseEmulator, CollectNote);
      !Bad.empty())
    return Error(Bad);
  if (!CollectNote.empty())
    Notes.push_back(CollectNote);
  SmallString<256> Out;
  std::optional<int> Rank = rankOfThisRun();
  auto Lock = prepareOutput(Out, Rank);
  if (!Lock)
    return Error(toString(Lock.takeError()));
  setRuntimeEnvironment(Out, ChosenMode);
  prependPath("LD_PRELOAD", Runtime);
  FileTimes TruthBefore = truthFiles(std::string(Out));
  for (const std::string &N : Notes)
    WithColor::note(errs(), "warpscope run") << N << "\n";
  bool Started = false;
  int Status = runProgram(ProgramAndArgs, Started);
  if (!Started)
    return Status;
  if (!Rank || *Rank == 0) // the ranks of a job share their cubins
    disassembleCubins(std::string(Out));
  warnIfNothingCollected(std::string(Out), ProgramAndArgs.front());
  if (Racecheck)
    Status = racecheckStatus(std::string(Out), TruthBefore, Status);
  return Status;
}
