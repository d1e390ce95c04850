//===- ValidateCommand.cpp - warpscope validate: counts vs ground truth ---===//
//
// For a run on the emulator: every probe's first PTX instruction carries its
// marker ("ws:block N" / "ws:branch N") in the emulator's ground truth, so
//  - a block record must equal that instruction's warp and thread executions;
//  - a branch record's active threads must equal that instruction's thread
//    executions;
//  - a conditional branch record's visits and divergent visits must equal
//    those of the first conditional bra after the probe that is not the
//    instrumentation's (before the next probe), and the lanes taking that
//    bra one successor's threads.
//    Switches are lowered to several bra, so only their visits are checked,
//    against the probe instruction itself.
//  - where the database has PTX histograms, every function's dynamic PTX
//    instructions per opcode (counts x histograms, warp level and active
//    threads) must equal the emulator's executions of its instructions
//    outside probe scopes.
// With --plain-truth DIR (a run of the plain build, compiled without the
// plugin, on the emulator), every function's plain-build histogram (counts x
// the plain build's PTX, docs/design.md) must equal that run's executions.
// Any difference is listed and the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "GroundTruth.h"
#include "InstructionMix.h"
#include "PlainBuild.h"
#include "ProfileModel.h"
#include "RunDirectory.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::ValidateSub(
    "validate", "Check every instrumentation count of an emulated run "
                "against the emulator's ground truth");

static cl::opt<std::string> ValidateDir(cl::Positional,
                                        cl::desc("<profile dir>"), cl::Required,
                                        cl::sub(ValidateSub));
static cl::opt<std::string> PlainTruth(
    "plain-truth",
    cl::desc("Also check each function's plain-build histogram against the "
             "emulator's ground truth in this directory, of a run of the "
             "plain build (compiled without the plugin) with the same input"),
    cl::value_desc("dir"), cl::init(""), cl::sub(ValidateSub));
static cl::opt<bool> Verbose("v", cl::desc("Also list what matched"),
                             cl::sub(ValidateSub));

namespace {

/// Compares one profile's counts with the emulator's ground truth, printing
/// a line per mismatch (and per match with --verbose).
class Validator {
public:
  void checkFunction(const FunctionProfile &F,
                     const std::vector<TruthInstruction> &Insts);
  /// false when the function has no instruction histograms.
  bool checkMix(const FunctionProfile &F,
                const std::vector<TruthInstruction> &Insts);
  unsigned Checked = 0, Mismatches = 0, Incomplete = 0;

private:
  void report(bool Ok, const FunctionProfile &F, const Twine &What,
              uint64_t Ours, uint64_t Theirs);
  void checkBlocks(const FunctionProfile &F,
                   const std::vector<TruthInstruction> &Insts,
                   const std::map<std::string, size_t> &MarkerAt);
  void checkBranches(const FunctionProfile &F,
                     const std::vector<TruthInstruction> &Insts,
                     const std::map<std::string, size_t> &MarkerAt);
};

void Validator::report(bool Ok, const FunctionProfile &F, const Twine &What,
                       uint64_t Ours, uint64_t Theirs) {
  ++Checked;
  if (Ok && !Verbose)
    return;
  if (!Ok)
    ++Mismatches;
  outs() << (Ok ? "ok       " : "MISMATCH ") << F.Demangled << ": " << What
         << ": instrumentation " << Ours << ", emulator " << Theirs << "\n";
}

void Validator::checkFunction(const FunctionProfile &F,
                              const std::vector<TruthInstruction> &Insts) {
  // A merged probe's marker names two records: "ws:block N ws:branch M".
  std::map<std::string, size_t> MarkerAt;
  for (size_t K = 0; K < Insts.size(); ++K) {
    SmallVector<StringRef, 4> Words;
    StringRef(Insts[K].Marker).split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (size_t W = 0; W + 1 < Words.size(); W += 2)
      MarkerAt[(Words[W] + " " + Words[W + 1]).str()] = K;
  }
  checkBlocks(F, Insts, MarkerAt);
  checkBranches(F, Insts, MarkerAt);
}

void Validator::checkBlocks(const FunctionProfile &F,
                            const std::vector<TruthInstruction> &Insts,
                            const std::map<std::string, size_t> &MarkerAt) {
  for (const BlockCounts &B : F.Blocks) {
    std::string M = formatv("{0} {1}", BlockMarker, B.Counter).str();
    auto At = MarkerAt.find(M);
    std::string Where = formatv("block {0} (line {1})", B.Id, B.Loc.Line);
    if (At == MarkerAt.end()) {
      // A block the code generator removed never runs; any count is wrong.
      report(B.WarpExecutions == 0, F, Where + " has no probe in the PTX",
             B.WarpExecutions, 0);
      continue;
    }
    const TruthInstruction &I = Insts[At->second];
    report(B.WarpExecutions == I.Warp, F, Where + " warp executions",
           B.WarpExecutions, I.Warp);
    report(B.ThreadExecutions == I.Thread, F, Where + " thread executions",
           B.ThreadExecutions, I.Thread);
  }
}

void Validator::checkBranches(const FunctionProfile &F,
                              const std::vector<TruthInstruction> &Insts,
                              const std::map<std::string, size_t> &MarkerAt) {
  for (const BranchCounts &Br : F.Branches) {
    if (!Br.Probed)
      continue;
    std::string M = formatv("{0} {1}", BranchMarker, Br.Counter).str();
    auto At = MarkerAt.find(M);
    std::string Where =
        formatv("branch {0} (line {1})", Br.Id, Br.Loc.Line).str();
    if (At == MarkerAt.end()) {
      report(Br.Visits == 0, F, Where + " has no probe in the PTX", Br.Visits,
             0);
      continue;
    }
    const TruthInstruction &Probe = Insts[At->second];
    // The probe's first instruction runs on every active lane.
    report(Br.ActiveThreads == Probe.Thread, F, Where + " active threads",
           Br.ActiveThreads, Probe.Thread);
    if (Br.Kind == BranchKind::Switch) {
      report(Br.Visits == Probe.Warp, F, Where + " visits", Br.Visits,
             Probe.Warp);
      continue;
    }
    const TruthInstruction *Bra = nullptr;
    for (size_t K = At->second + 1; K < Insts.size(); ++K) {
      if (StringRef(Insts[K].Marker).contains(BranchMarker))
        break;
      // The probe's own branches (around its leader's atomics) are not the
      // program's.
      if (Insts[K].Conditional && !Insts[K].Instrumentation) {
        Bra = &Insts[K];
        break;
      }
    }
    if (!Bra) {
      report(false, F, Where + " has no conditional bra after its probe",
             Br.Visits, 0);
      continue;
    }
    report(Br.Visits == Bra->Visits, F, Where + " visits", Br.Visits,
           Bra->Visits);
    report(Br.Divergent == Bra->Divergent, F, Where + " divergent visits",
           Br.Divergent, Bra->Divergent);
    // A guarded bra runs on the lanes that take it: one successor's
    // threads (which one depends on how the code generator laid it out).
    if (Br.SuccessorThreads.size() == 2) {
      uint64_t Taken = Br.SuccessorThreads[0] == Bra->Thread
                           ? Br.SuccessorThreads[0]
                           : Br.SuccessorThreads[1];
      report(Taken == Bra->Thread, F, Where + " threads to one successor",
             Taken, Bra->Thread);
    }
  }
}

bool Validator::checkMix(const FunctionProfile &F,
                         const std::vector<TruthInstruction> &Insts) {
  InstructionMix Mix = instructionMix(F);
  if (!Mix.Available)
    return false;
  std::map<std::string, WarpThread> Emulated;
  for (const TruthInstruction &I : Insts)
    if (!I.Instrumentation)
      Emulated[I.Opcode] += WarpThread{I.Warp, I.Active};
  // Opcodes with instructions the counts cannot give are lower bounds:
  // they must not exceed the emulator's, and are listed as incomplete.
  const std::map<std::string, uint64_t> &Unknown = Mix.Unknown;
  for (const auto &[Opcode, E] : Emulated) {
    WarpThread Ours =
        Mix.ByOpcode.count(Opcode) ? Mix.ByOpcode.at(Opcode) : WarpThread{};
    if (Unknown.count(Opcode) &&
        (Ours.Warp != E.Warp || Ours.Thread != E.Thread)) {
      bool Bound = Ours.Warp <= E.Warp && Ours.Thread <= E.Thread;
      report(Bound, F, Opcode + " instructions (lower bound) warp-level",
             Ours.Warp, E.Warp);
      if (Bound) {
        ++Incomplete;
        outs() << "partial  " << F.Demangled << ": " << Opcode << ": "
               << Unknown.at(Opcode)
               << " static instructions not tied to counts; instrumentation "
               << Ours.Warp << " of the emulator's " << E.Warp
               << " warp-level\n";
      }
      continue;
    }
    report(Ours.Warp == E.Warp, F, Opcode + " warp-level instructions",
           Ours.Warp, E.Warp);
    report(Ours.Thread == E.Thread, F, Opcode + " thread-level instructions",
           Ours.Thread, E.Thread);
  }
  for (const auto &[Opcode, Ours] : Mix.ByOpcode)
    if (!Emulated.count(Opcode))
      report(Ours.Warp == 0, F, Opcode + " (not in the PTX) instructions",
             Ours.Warp, 0);
  return true;
}

/// Why a plain build's counts may differ from the instrumented run's without
/// a counting error: the two runs are separate processes.
static std::string plainRunNote(const Truth &Instrumented, const Truth &Plain) {
  std::map<std::string, std::pair<uint64_t, uint64_t>> Launches;
  for (const TruthLaunch &L : Instrumented.Launches)
    ++Launches[L.Kernel].first;
  for (const TruthLaunch &L : Plain.Launches)
    ++Launches[L.Kernel].second;
  for (const auto &[Kernel, N] : Launches)
    if (N.first != N.second)
      return formatv("the plain run launched {0} {1} time(s), the "
                     "instrumented run {2}: the two runs did different work "
                     "(another input or a data-dependent launch count); "
                     "run both with the same input",
                     demangle(Kernel), N.second, N.first)
          .str();
  return "the plain build ran as a separate process: where a program's work "
         "depends on thread timing (blocks racing for data, the order of "
         "atomics) or on the clock or a random seed, two runs' counts differ "
         "without a counting error; rerun both with WARPSCOPE_EMU_THREADS=1 "
         "and the same input to tell";
}

} // namespace

int warpscope::runValidate() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope validate") << Msg << "\n";
    return 2;
  };
  RunDirectory Run(ValidateDir);
  Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set)
    return Fail(toString(Set.takeError()));
  Expected<const Truth &> Truths = Run.truth();
  if (!Truths)
    return Fail(toString(Truths.takeError()));
  const Truth &T = *Truths;
  if (!Set->launches())
    return Fail(ValidateDir + ": the program launched no instrumented kernel; "
                              "nothing to validate");
  if (!T.Files && Set->EndedBySignal)
    return Fail(ValidateDir + ": the program ended by signal " +
                Twine(Set->EndedBySignal) +
                " before the emulator wrote its ground truth (it does at "
                "exit); validate needs a run that exits normally");
  if (!T.Files)
    return Fail(ValidateDir +
                ": holds no emu-*.json ground truth; validate needs a "
                "run on the emulator (warpscope run --emulate)");
  if (!Set->Faults.empty()) {
    const KernelFault &K = Set->Faults.front();
    return Fail(
        ValidateDir + ": " +
        (K.Kernel.empty() ? "a kernel" : "kernel " + demangle(K.Kernel)) +
        " faulted (" + K.Error +
        "); counts that stop at a fault cannot be checked: fix the "
        "fault (the program's error output names it) and rerun");
  }
  for (const TruthLaunch &L : T.Launches)
    if (L.Interrupted && L.BlocksStopped)
      return Fail(ValidateDir + ": a signal stopped kernel " +
                  demangle(L.Kernel) + " with " + Twine(L.BlocksStopped) +
                  " block(s) part way, whose probes' counts are partial (a "
                  "loop's are added when it ends); validate a run that was "
                  "not interrupted, or one stopped between blocks");
  uint64_t LeftOut = 0;
  for (const auto &[Kernel, N] : Set->Left.LaunchesLeftOut)
    LeftOut += N;
  if (LeftOut)
    return Fail(ValidateDir + ": the run left " + Twine(LeftOut) +
                " launch(es) out of the profile (" + Set->Left.Selection +
                "), which the emulator's ground truth counts; validate a "
                "run without --launch-skip/--launch-count");
  if (!Set->Complete)
    return Fail(ValidateDir + ": the profile is incomplete (" +
                Set->Warnings.front() + ")");
  Validator V;
  for (const FunctionProfile &F : Set->Functions)
    // Functions the emulator never loaded never ran.
    if (auto It = T.Functions.find(F.Name); It != T.Functions.end())
      V.checkFunction(F, It->second.Insts);
  unsigned MixChecked = 0;
  for (const FunctionProfile &F : Set->Functions)
    if (auto It = T.Functions.find(F.Name); It != T.Functions.end())
      MixChecked += V.checkMix(F, It->second.Insts);
  if (!V.Checked)
    return Fail(ValidateDir + ": no instrumented function ran on the emulator");
  outs() << formatv("validate: {0} counts checked ({1} functions with "
                    "instruction histograms), {2} mismatches, {3} partial\n",
                    V.Checked, MixChecked, V.Mismatches, V.Incomplete);
  if (!PlainTruth.empty()) {
    RunDirectory PlainRun(PlainTruth);
    Expected<const Truth &> PlainTruths = PlainRun.truth();
    if (!PlainTruths)
      return Fail(toString(PlainTruths.takeError()));
    const Truth &P = *PlainTruths;
    if (!P.Files)
      return Fail(PlainTruth + ": holds no emu-*.json ground truth of the "
                               "plain build (run it with WARPSCOPE_OUT set "
                               "on the emulator)");
    unsigned Before = V.Mismatches, Plain = 0, NoMap = 0;
    for (const FunctionProfile &F : Set->Functions)
      if (auto It = P.Functions.find(F.Name); It != P.Functions.end()) {
        std::optional<FunctionProfile> PF = plainProfile(F);
        PF ? Plain += V.checkMix(*PF, It->second.Insts) : ++NoMap;
      }
    outs() << formatv("validate --plain-truth: {0} functions' plain-build "
                      "histograms checked, {1} mismatches, {2} without one\n",
                      Plain, V.Mismatches - Before, NoMap);
    if (V.Mismatches > Before)
      WithColor::note(errs(), "warpscope validate")
          << plainRunNote(T, P) << "\n";
  }
  return V.Mismatches ? 1 : 0;
}
