//===- RunCommand.cpp - warpscope run: run a program with the runtime -----===//
//
// Preloads libwarpscope-rt.so (harmless when the program links it), points
// it at the output directory, and on request (or when no GPU is present)
// puts the emulator's libcudart.so.13 first on the library path.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "JsonFiles.h"
#include "Paths.h"
#include "RunCollection.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
namespace files = warpscope::files;

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
static cl::opt<std::string>
    ModelConfig("model-config",
                cl::desc("Timing model configuration on the emulator: h100-sxm "
                         "(default), a100, t4, a JSON file, or off "
                         "(WARPSCOPE_EMU_MODEL; docs/timing-model.md)"),
                cl::value_desc("name|file"), cl::sub(warpscope::RunSub));
static cl::opt<bool> ModelProbes(
    "model-probes",
    cl::desc("Timing model on the emulator: charge the probes' own "
             "instructions (default: free, so that modeled time and samples "
             "describe the program; WARPSCOPE_EMU_MODEL_PROBES=1)"),
    cl::sub(warpscope::RunSub));
static cl::opt<std::string> Mode("mode",
                                 cl::desc("aggregate (default) or per-launch"),
                                 cl::init("aggregate"),
                                 cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    OutDir("o", cl::desc("Profile directory"), cl::value_desc("dir"),
           cl::init(std::string(warpscope::DefaultOutputDirectory)),
           cl::sub(warpscope::RunSub));
static cl::opt<bool>
    PcSampling("pc-sampling",
               cl::desc("Sample warp PCs and stall reasons: with CUPTI on a "
                        "GPU, modeled by the timing model on the emulator"),
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
             "still run; WARPSCOPE_LAUNCH_SKIP)"),
    cl::value_desc("N"), cl::init(0), cl::sub(warpscope::RunSub));
static cl::opt<unsigned long long>
    LaunchCount("launch-count",
                cl::desc("Profile at most M launches after the skipped ones "
                         "(WARPSCOPE_LAUNCH_COUNT)"),
                cl::value_desc("M"), cl::init(0), cl::sub(warpscope::RunSub));
static cl::opt<std::string>
    LaunchScope("launch-scope",
                cl::desc("Count --launch-skip/--launch-count over all launches "
                         "(overall, the default) or per kernel (per-kernel)"),
                cl::init("overall"), cl::sub(warpscope::RunSub));
static cl::opt<std::string> LaunchKernel(
    "launch-kernel",
    cl::desc("Profile only launches of kernels whose mangled or demangled "
             "name matches this regex (ECMAScript); --launch-skip and "
             "--launch-count count those launches only "
             "(WARPSCOPE_LAUNCH_KERNEL)"),
    cl::value_desc("regex"), cl::init(""), cl::sub(warpscope::RunSub));
static cl::list<std::string> ProgramAndArgs(cl::Positional,
                                            cl::desc("-- program [args...]"),
                                            cl::sub(warpscope::RunSub));

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

/// Removes what an earlier run left, so reports never mix two runs.
static void clearOldProfile(const std::string &Dir) {
  std::error_code EC;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    if (files::Profile.matches(Name) || files::Database.matches(Name) ||
        files::Truth.matches(Name) || files::Launches.matches(Name))
      sys::fs::remove(I->path());
  }
}

/// A program that ran but left nothing (no instrumented module registered,
/// no hardware data) was most likely not built with the plugin.
static void warnIfNothingCollected(const std::string &Out) {
  std::error_code EC;
  if (!filesNamed(Out, files::Profile, EC).empty() || EC ||
      !filesNamed(Out, files::PcSamples, EC).empty() ||
      !filesNamed(Out, files::SassMetrics, EC).empty())
    return;
  WithColor::warning(errs(), "warpscope run")
      << "the program left no profile in '" << Out
      << "': it has no instrumented CUDA module (build it with $(warpscope "
         "config --cflags) and $(warpscope config --ldflags); -fgpu-rdc "
         "builds are not supported)\n";
}

int warpscope::runRun() {
  auto Error = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope run") << Msg << "\n";
    return 2;
  };
  if (ProgramAndArgs.empty())
    return Error("no program given; usage: warpscope run [options] -- "
                 "program [args...]");
  if (Mode != "aggregate" && Mode != "per-launch")
    return Error("--mode '" + Mode + "' is not 'aggregate' or 'per-launch'");
  if (LaunchCount.getNumOccurrences() && LaunchCount == 0)
    return Error("--launch-count 0 would profile nothing; give at least 1");
  if (LaunchScope != "overall" && LaunchScope != "per-kernel")
    return Error("--launch-scope '" + LaunchScope +
                 "' is not 'overall' or 'per-kernel'");
  if (LaunchScope.getNumOccurrences() && !LaunchSkip.getNumOccurrences() &&
      !LaunchCount.getNumOccurrences())
    return Error("--launch-scope applies with --launch-skip or "
                 "--launch-count");
  // The runtime reads it with std::regex, so it is checked with that here.
  try {
    std::regex R(LaunchKernel.getValue());
  } catch (const std::regex_error &E) {
    return Error("--launch-kernel '" + LaunchKernel + "' is not a regular " +
                 "expression (" + E.what() + ")");
  }
  warpscope::CollectionOptions Collect;
  Collect.PcSampling = PcSampling;
  Collect.SassMetrics = SassMetrics;
  if (SamplingPeriod.getNumOccurrences())
    Collect.SamplingPeriod = SamplingPeriod;
  if (std::string Bad = checkCollectionOptions(Collect); !Bad.empty())
    return Error(Bad);
  std::string Runtime = libraryDirectory() + "/libwarpscope-rt.so";
  if (!sys::fs::exists(Runtime))
    return Error("runtime not found at '" + Runtime +
                 "'; build it (make build)");
  bool UseEmulator = Emulate;
  if (!UseEmulator && !gpuPresent()) {
    WithColor::note(errs(), "warpscope run")
        << "no GPU found; running on the emulator\n";
    UseEmulator = true;
  }
  if (ModelConfig.getNumOccurrences() && !UseEmulator)
    return Error("--model-config needs the emulator (--emulate); on a GPU "
                 "the time is measured");
  if (ModelProbes && !UseEmulator)
    return Error("--model-probes needs the emulator (--emulate); on a GPU "
                 "the probes' time is measured with the program's");
  if (Racecheck && !UseEmulator)
    return Error("--racecheck needs the emulator (--emulate); on a GPU use "
                 "compute-sanitizer --tool racecheck");
  if (UseEmulator) {
    std::string Emu = emulatorDirectory();
    if (!sys::fs::exists(Emu + "/libcudart.so.13"))
      return Error("emulator not found at '" + Emu +
                   "/libcudart.so.13'; build it (make build)");
    prependPath("LD_LIBRARY_PATH", Emu);
    // Long emulated launches report their progress on stderr.
    setenv("WARPSCOPE_EMU_PROGRESS", "2", 0);
    // A profile run takes the memory-efficiency counts (report's memory view).
    setenv("WARPSCOPE_EMU_MEMORY", "1", 0);
    if (Racecheck)
      setenv("WARPSCOPE_EMU_RACECHECK", "1", 1);
    // Modeled time on every emulated profile run (the emulator checks the
    // name or file and says so in one line when it is bad).
    if (ModelConfig.getNumOccurrences())
      setenv("WARPSCOPE_EMU_MODEL", ModelConfig.c_str(), 1);
    else
      setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 0);
    if (ModelProbes)
      setenv("WARPSCOPE_EMU_MODEL_PROBES", "1", 1);
  }
  SmallString<256> Out(OutDir);
  sys::fs::make_absolute(Out);
  if (sys::fs::exists(Out) && !sys::fs::is_directory(Out))
    return Error("'-o " + OutDir +
                 "' is a file, not a directory; name a "
                 "directory for the profile");
  if (std::error_code EC = sys::fs::create_directories(Out))
    return Error("cannot create '" + Out + "': " + EC.message());
  clearOldProfile(std::string(Out));
  clearCollectedFiles(std::string(Out));
  if (std::string Bad = prepareCollection(Collect, UseEmulator); !Bad.empty())
    return Error(Bad);
  setenv(warpscope::OutputDirectoryVariable, Out.c_str(), 1);
  setenv("WARPSCOPE_MODE", Mode.c_str(), 1);
  if (LaunchSkip.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_SKIP", std::to_string(LaunchSkip).c_str(), 1);
  if (LaunchCount.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_COUNT", std::to_string(LaunchCount).c_str(), 1);
  if (LaunchScope.getNumOccurrences())
    setenv("WARPSCOPE_LAUNCH_SCOPE", LaunchScope.c_str(), 1);
  if (!LaunchKernel.empty())
    setenv("WARPSCOPE_LAUNCH_KERNEL", LaunchKernel.c_str(), 1);
  prependPath("LD_PRELOAD", Runtime);

  std::vector<char *> Argv;
  for (std::string &A : ProgramAndArgs)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  pid_t Child = fork();
  if (Child < 0)
    return Error(Twine("cannot fork: ") + std::strerror(errno));
  if (Child == 0) {
    execvp(Argv[0], Argv.data());
    errs() << "warpscope run: error: cannot run '" << Argv[0]
           << "': " << std::strerror(errno) << "\n";
    _exit(127);
  }
  // SIGINT, SIGTERM or SIGHUP to warpscope run (Ctrl-C, timeout) go to the
  // program: it ends, flushing its profile, and this returns its status;
  // no program is left running behind.
  ChildPid = Child;
  struct sigaction Forward = {};
  Forward.sa_handler = forwardSignal;
  sigemptyset(&Forward.sa_mask);
  for (int S : {SIGINT, SIGTERM, SIGHUP})
    sigaction(S, &Forward, nullptr);
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR)
    continue;
  disassembleCubins(std::string(Out));
  warnIfNothingCollected(std::string(Out));
  // Forward the exit code the way a shell would.
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  if (WIFSIGNALED(Status)) {
    errs() << "warpscope run: program terminated by signal " << WTERMSIG(Status)
           << "\n";
    return 128 + WTERMSIG(Status);
  }
  return 1;
}
