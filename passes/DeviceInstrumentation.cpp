//===- DeviceInstrumentation.cpp - Block counters and divergence probes ---===//
//
// The device pass: its options, the module-level steps (plan every function,
// lay out the counter array, place the probes, write the program database)
// and when it leaves a module alone. The steps themselves are in
// CountingPlan.cpp, LoopPromotion.cpp and ProbePlacement.cpp.
//
//===----------------------------------------------------------------------===//

#include "DeviceInstrumentation.h"
#include "DeviceInstrumentationImpl.h"
#include "KernelFilter.h"
#include "ModuleIdentity.h"
#include "PlainPtx.h"
#include "ProfileUse.h"
#include "ReduceLoops.h"
#include "SubprogramNames.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/TargetParser/Triple.h"
#include <map>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::device;

#define DEBUG_TYPE "warpscope-device"

STATISTIC(NumCounterWords, "Counter words in device arrays, replicas included");
STATISTIC(NumFunctionsInstrumented, "Device functions instrumented");

static cl::opt<bool> ProbeAll(
    "warpscope-probe-all", cl::Hidden,
    cl::desc("Probe branches that UniformityAnalysis proves uniform too "
             "(to validate the analysis)"),
    cl::init(false));

static cl::opt<bool>
    Instrument("warpscope-instrument", cl::Hidden,
               cl::desc("Insert device counters and probes and write the "
                        "program database (default on)"),
               cl::init(true));

static cl::opt<bool> CheaperCounting(
    "warpscope-cheaper-counting", cl::Hidden,
    cl::desc("Merge a block's probe into its branch probe and derive "
             "single-predecessor successors from branch records (default on; "
             "off probes every block on its own)"),
    cl::init(true));

static cl::opt<bool> DeriveEquivalentBlocks(
    "warpscope-derive-equivalent-blocks", cl::Hidden,
    cl::desc("A block that runs exactly when a block dominating it runs (it "
             "post-dominates that block, in the same loop, with no call and "
             "no branch that may diverge between them) takes that block's "
             "counts instead of a probe (default on)"),
    cl::init(true));

static cl::opt<bool> AssumeReconvergence(
    "warpscope-assume-reconvergence", cl::Hidden,
    cl::desc("Derive such blocks across branches that may diverge too, "
             "assuming the lanes meet again at the immediate post-dominator "
             "(as the emulator and ptxas' convergence barriers do, but not "
             "guaranteed on GPUs with independent thread scheduling; "
             "default off)"),
    cl::init(false));

static cl::opt<bool> EdgeArrivals(
    "warpscope-edge-arrivals", cl::Hidden,
    cl::desc("Count warp arrivals at both sides of every probed two-way "
             "branch, so PTX the code generator puts on a branch's edge gets "
             "exact counts in instruction histograms (default on)"),
    cl::init(true));

static cl::opt<bool> CountLoopEntries(
    "warpscope-count-loop-entries", cl::Hidden,
    cl::desc("Count the visits of a proven-uniform branch that enters a loop "
             "over a critical edge, so the preheader the code generator puts "
             "there gets exact counts in instruction histograms (default on)"),
    cl::init(true));

static cl::opt<bool> BranchThroughProbe(
    "warpscope-branch-through-probe", cl::Hidden,
    cl::desc("A loop's exiting latch takes its compare from its probe, "
             "which passes it through, so the code generator (loop strength "
             "reduction) does not rewrite the branch's compare and keep a "
             "second one for the probe (default on)"),
    cl::init(true));

static cl::opt<bool> PromoteLoopCounters(
    "warpscope-promote-loop-counters", cl::Hidden,
    cl::desc("Inside loops without calls, count in the leader lanes' "
             "registers and add them to the counters at the loop's exits "
             "(default on)"),
    cl::init(true));

static cl::opt<bool> PromoteBlocks(
    "warpscope-promote-block-probes", cl::Hidden,
    cl::desc("With loop counter promotion, also promote probes that count "
             "only a block (default off: in the emulator's instruction count "
             "they cost about the same either way, and each adds registers "
             "to zero and flush)"),
    cl::init(false));

static cl::opt<bool> LaneBlockProbes(
    "warpscope-lane-block-probes", cl::Hidden,
    cl::desc("In a loop counting in lane-local 32-bit registers, probes "
             "that count only a block count there too (default on)"),
    cl::init(true));

static cl::opt<bool> SkipShortLoops(
    "warpscope-promote-skip-short-loops", cl::Hidden,
    cl::desc("Do not promote loops that likely run few times per lane: "
             "stepping by the block size or by 32 or more, or at most 4 "
             "iterations (default on)"),
    cl::init(true));

static cl::opt<bool> LaneLoopCounters(
    "warpscope-lane-loop-counters", cl::Hidden,
    cl::desc("Promoted probes of a loop whose trip count per entry is "
             "bounded below 2^32 count in 32-bit registers of every lane "
             "(no popc, no 64-bit add in the loop), summed over the warp "
             "with redux.sync at the loop's exits (sm_80+; default on)"),
    cl::init(true));

static cl::opt<bool> GuardedLaneCounters(
    "warpscope-guarded-lane-counters", cl::Hidden,
    cl::desc("With lane-local loop counters, also count in 32-bit lane "
             "registers in loops without a trip count bound, guarded by the "
             "thread count of a probe that runs every iteration: each lane "
             "spills its registers before that count wraps (default on)"),
    cl::init(true));

static cl::opt<unsigned> LaneGuardLimit(
    "warpscope-lane-guard-limit", cl::Hidden,
    cl::desc("The thread count at which a guard spills a lane's loop "
             "registers (at most and by default 4294967294; lower values "
             "test the spill)"),
    cl::init(4294967294u));

static cl::opt<bool> ReplicaPerWarp(
    "warpscope-replica-per-warp", cl::Hidden,
    cl::desc("With counter replicas, pick a function invocation's replica "
             "once at its entry (by the clock) and hand its address to every "
             "probe, instead of each probe reading the clock and computing "
             "the address (default on)"),
    cl::init(true));

static cl::opt<bool> PlainPtx(
    "warpscope-plain-ptx", cl::Hidden,
    cl::desc("Also compile the module as it is before instrumentation to "
             "PTX (the plain build's), so reports can compare the "
             "instrumented build's instructions with the plain program's "
             "(default on)"),
    cl::init(true));

static cl::opt<unsigned> CounterReplicas(
    "warpscope-counter-replicas", cl::Hidden,
    cl::desc("Copies of the counter array that probes spread their adds "
             "over, picked by the clock (a power of two up to 1024; the "
             "runtime sums them). Warps adding to one address serialize at "
             "the L2 (default 256, fewer where the copies would exceed "
             "4 MiB; 1: one array, no spreading)"),
    cl::init(256));

static cl::opt<std::string>
    DatabaseOut("warpscope-db-out", cl::Hidden,
                cl::desc("Write the program database to this file instead of "
                         "<warpscope-db-dir>/<module id>.json"),
                cl::init(""));

static cl::opt<std::string> KernelFilter(
    "warpscope-kernel-filter", cl::Hidden,
    cl::desc("Instrument only kernels whose mangled or demangled name "
             "matches this regex, and the device functions they call; the "
             "others compile as without the plugin"),
    cl::init(""));

/// Opts with the values given on the command line applied.
static DeviceInstrumentationOptions
overrideFromCL(DeviceInstrumentationOptions Opts) {
  auto Apply = [](auto &Field, const auto &Option) {
    if (Option.getNumOccurrences())
      Field = Option;
  };
  Apply(Opts.Instrument, Instrument);
  Apply(Opts.ProbeAll, ProbeAll);
  Apply(Opts.CheaperCounting, CheaperCounting);
  Apply(Opts.DeriveEquivalentBlocks, DeriveEquivalentBlocks);
  Apply(Opts.AssumeReconvergence, AssumeReconvergence);
  Apply(Opts.EdgeArrivals, EdgeArrivals);
  Apply(Opts.CountLoopEntries, CountLoopEntries);
  Apply(Opts.BranchThroughProbe, BranchThroughProbe);
  Opts.ReduceLoopsFirst = reduceLoopsFirst(Opts.ReduceLoopsFirst);
  Apply(Opts.PromoteLoopCounters, PromoteLoopCounters);
  Apply(Opts.PromoteBlockProbes, PromoteBlocks);
  Apply(Opts.LaneBlockProbes, LaneBlockProbes);
  Apply(Opts.SkipShortLoops, SkipShortLoops);
  Apply(Opts.LaneLoopCounters, LaneLoopCounters);
  Apply(Opts.ReplicaPerWarp, ReplicaPerWarp);
  Apply(Opts.GuardedLaneCounters, GuardedLaneCounters);
  Apply(Opts.LaneGuardLimit, LaneGuardLimit);
  // Every register is at most the guarded count plus 1: below 2^32.
  Opts.LaneGuardLimit = std::min(Opts.LaneGuardLimit, 4294967294u);
  Apply(Opts.PlainPtx, PlainPtx);
  Apply(Opts.CounterReplicas, CounterReplicas);
  Apply(Opts.DatabaseOut, DatabaseOut);
  Apply(Opts.KernelFilter, KernelFilter);
  Opts.Identity = overrideIdentityFromCL(Opts.Identity);
  return Opts;
}

bool ModuleInstrumenter::run() {
  std::optional<KernelSelection> Selection;
  if (!Opts.KernelFilter.empty()) {
    std::string Why;
    if (!Regex(Opts.KernelFilter).isValid(Why)) {
      M.getContext().emitError("warpscope: -warpscope-kernel-filter='" +
                               Opts.KernelFilter +
                               "' is not a valid regular expression: " + Why);
      return false;
    }
    Selection = selectKernels(M, Opts.KernelFilter);
  }
  auto Ours = [](const Function &F) {
    return !F.isDeclaration() && !F.getName().starts_with("__warpscope");
  };
  SmallVector<Function *, 16> Selected;
  for (Function &F : M)
    if (Ours(F) && (!Selection || Selection->Instrument.count(&F)))
      Selected.push_back(&F);
  // Before the CFG is read: LSR's loop canonicalization may add blocks. A
  // module that gets probes has the code generator's LSR turned off, so the
  // functions the kernel filter left out are reduced here too, as in the
  // plain build.
  if (Opts.ReduceLoopsFirst && !Selected.empty())
    for (Function &F : M)
      if (Ours(F))
        reduceLoops(F, FAM);
  for (Function *F : Selected)
    plan(*F);
  // A module whose kernels the filter all left out still gets a database
  // (with no counters), so the report can say what was left out.
  if (Plans.empty() && (!Selection || Selection->LeftOut.empty()))
    return false;

  DB.ModuleId = moduleId(M, Opts.Identity);
  DB.SourceFile = M.getSourceFileName();
  DB.CountersSymbol = CountersSymbolPrefix + DB.ModuleId;
  DB.NumCounters = NextCounter;
  if (Selection) {
    DB.KernelFilter = Opts.KernelFilter;
    for (const std::string &Name : Selection->LeftOut)
      DB.KernelsNotInstrumented.push_back({Name, demangle(Name)});
    for (FunctionRecord &Rec : DB.Functions)
      Rec.SharedWithLeftOut =
          Selection->SharedWithLeftOut.count(M.getFunction(Rec.Name)) > 0;
  }
  for (const Function &F : M)
    if (!F.isDeclaration()) {
      DB.Target = F.getFnAttribute("target-cpu").getValueAsString();
      break;
    }
  if (Plans.empty()) {
    DB.ReplicaStride = 0;
    writeDatabase();
    return false;
  }
  if (!layOutCounters())
    return false;
  for (const PlannedFunction &P : Plans)
    instrument(P);
  if (Opts.ReduceLoopsFirst)
    disableCodeGeneratorLoopReduction();
  NumFunctionsInstrumented += Plans.size();
  writeDatabase();
  return true;
}

/// The module's counter array: replicas, stride, and its global.
bool ModuleInstrumenter::layOutCounters() {
  unsigned CounterReplicas = Opts.CounterReplicas;
  if (!isPowerOf2_32(CounterReplicas) || CounterReplicas > MaxCounterReplicas) {
    M.getContext().emitError(
        "warpscope: -warpscope-counter-replicas=" + Twine(CounterReplicas) +
        " is not a power of two from 1 to " + Twine(MaxCounterReplicas));
    return false;
  }
  // Replicas start on separate 128-byte lines, so no two share one. The
  // runtime copies the whole array after each launch in per-launch mode, so
  // a module with many counters gets fewer replicas.
  unsigned Replicas = CounterReplicas;
  uint64_t Stride = Replicas > 1 ? alignTo(NextCounter, 16) : NextCounter;
  while (Replicas > 1 && Replicas * Stride * 8 > MaxCounterArrayBytes)
    Replicas /= 2;
  if (Replicas == 1)
    Stride = NextCounter;
  DB.CounterReplicas = Replicas;
  DB.ReplicaStride = Stride;
  Array = {DB.CountersSymbol, Replicas, 8 * Stride};
  NumCounterWords += DB.CounterReplicas * DB.ReplicaStride;
  LLVM_DEBUG(dbgs() << "warpscope: " << NextCounter << " counters x "
                    << Replicas << " replicas, stride " << DB.ReplicaStride
                    << " words\n");

  auto *Ty =
      ArrayType::get(Type::getInt64Ty(M.getContext()), Replicas * Stride);
  auto *Counters = new GlobalVariable(
      M, Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
      Constant::getNullValue(Ty), DB.CountersSymbol, nullptr,
      GlobalValue::NotThreadLocal, /*AddressSpace=*/1,
      /*isExternallyInitialized=*/true);
  Counters->setAlignment(Align(Replicas > 1 ? 128 : 8));
  return true;
}

void ModuleInstrumenter::writeDatabase() {
  // The files as this build read them: a report of a later edit shows none
  // of their (shifted) text.
  std::map<std::string, SmallVector<StringRef, 0>> Lines;
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  for (const std::string &File : DB.referencedFiles())
    if (auto Buf = MemoryBuffer::getFile(File)) {
      DB.SourceHashes[File] = ProgramDatabase::sourceHash((*Buf)->getBuffer());
      (*Buf)->getBuffer().split(Lines[File], '\n');
      Buffers.push_back(std::move(*Buf));
    }
  // Each branch's line by its text, so that `diff` finds a branch whose
  // line moved between two builds.
  for (FunctionRecord &F : DB.Functions)
    for (BranchRecord &Br : F.Branches)
      if (auto It = Lines.find(Br.Loc.File);
          It != Lines.end() && Br.Loc.Line && Br.Loc.Line <= It->second.size())
        Br.LineHash =
            ProgramDatabase::sourceHash(It->second[Br.Loc.Line - 1].trim());
  std::vector<std::string> Paths = {Opts.DatabaseOut};
  if (Opts.DatabaseOut.empty()) {
    // This invocation's host compile reads the tagged one, so a concurrent
    // build of the same file cannot swap it; the untagged one serves a host
    // compile run by a separate invocation.
    std::string Dir = databaseDirectory(Opts.Identity);
    Paths = {databaseFile(Dir, DB.ModuleId, compileJobTag()),
             databaseFile(Dir, DB.ModuleId)};
  }
  for (const std::string &Path : Paths)
    if (Error E = DB.writeFile(Path))
      return M.getContext().emitError(
          "warpscope: cannot write program database: " +
          toString(std::move(E)));
}

DeviceInstrumentationPass::DeviceInstrumentationPass(
    DeviceInstrumentationOptions Opts)
    : Opts(overrideFromCL(std::move(Opts))) {}

PreservedAnalyses DeviceInstrumentationPass::run(Module &M,
                                                 ModuleAnalysisManager &AM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  // Recorded for this pass alone: taken out, so the module leaves the
  // pipeline as it would without the record (no analysis reads it).
  SubprogramSymbols Symbols = takeSubprogramSymbols(M);
  SourceSides Sides = takeSourceSides(M);
  // A build that uses a profile is an optimized rebuild, not instrumented.
  // Its host side must not find the database an earlier instrumented build
  // of this file left behind and register counters this code does not have.
  if (usesProfile(M) || !Opts.Instrument) {
    LLVM_DEBUG(dbgs() << "warpscope: not instrumenting "
                      << M.getSourceFileName() << ": "
                      << (Opts.Instrument ? "the module uses a profile"
                                          : "-warpscope-instrument=0")
                      << "\n");
    if (Opts.DatabaseOut.empty()) {
      std::string Dir = databaseDirectory(Opts.Identity);
      std::string Id = moduleId(M, Opts.Identity);
      sys::fs::remove(databaseFile(Dir, Id, compileJobTag()));
      sys::fs::remove(databaseFile(Dir, Id));
    }
    return PreservedAnalyses::all();
  }
  auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ModuleInstrumenter Instrumenter(M, FAM, Opts, Symbols, Sides);
  // Now, before anything changes: the module is the plain build's.
  if (Opts.PlainPtx) {
    Expected<std::string> Ptx = plainPtx(M, Opts.PlainPtxOptLevel);
    if (Ptx)
      Instrumenter.setPlainPtx(std::move(*Ptx), "ok");
    else
      Instrumenter.setPlainPtx("",
                               "not made (" + toString(Ptx.takeError()) + ")");
  }
  return Instrumenter.run() ? PreservedAnalyses::none()
                            : PreservedAnalyses::all();
}
