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
#include "InlinedLines.h"
#include "KernelFilter.h"
#include "ModuleIdentity.h"
#include "PlainPtx.h"
#include "PluginOptions.h"
#include "ProfileUse.h"
#include "ReduceLoops.h"
#include "SubprogramNames.h"
#include "warpscope/ABI/Abi.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"
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
STATISTIC(NumInlinedLines,
          "Instructions of inlined header code given their call site's line");

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
  // plan() made one database record per plan, in the same order.
  for (size_t I = 0; I < Plans.size(); ++I) {
    const PlannedFunction &P = Plans[I];
    instrument(P);
    // After the database took its positions (the same LinePlacement, and
    // the inline stacks sample profiles need) and the plain build its PTX.
    NumInlinedLines += attributeInlinedLines(*P.F, Opts.InlinedLinesRule,
                                             &DB.Functions[I].MathCallSites);
  }
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
    : Opts(withCommandLine(std::move(Opts))) {
  // Every lane register is at most the guarded count plus 1: below 2^32.
  this->Opts.LaneGuardLimit = std::min(this->Opts.LaneGuardLimit, 4294967294u);
}

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

#undef DEBUG_TYPE
