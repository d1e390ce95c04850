//===- Exec.cpp - the loaded module: kernels, globals, launches -----------===//
//
// ModuleImpl, what loadPtx returns: kernel and variable tables derived from
// the parsed PTX, and launch(), which validates a launch configuration and
// runs it with a Launcher (the SIMT executor, ExecInternal.h), turning its
// errors into one line. Its ground truth is written by GroundTruth.cpp.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "warpscope/Support/Settings.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <thread>

namespace warpscope::emu {
namespace core {

std::string srcLoc(const ParsedModule &PM, const Inst &I) {
  std::string S = "PTX line " + std::to_string(I.PtxLine);
  if (I.File) {
    auto It = PM.Files.find(I.File);
    S += " (" + (It != PM.Files.end() ? It->second : std::string("?")) + ":" +
         std::to_string(I.Line) + ":" + std::to_string(I.Col);
    // Header code placed on this line: where it is, innermost first.
    auto In = PM.Inlined.find(I.PtxLine);
    if (In != PM.Inlined.end())
      for (size_t K = 0; K < In->second.size(); ++K) {
        const InlinedFrame &Fr = In->second[K];
        S += (K ? ", " : ", inlined code: ") +
             (Fr.Function.empty() ? "" : Fr.Function + " at ") + Fr.File + ":" +
             std::to_string(Fr.Line) + ":" + std::to_string(Fr.Col);
      }
    S += ")";
  }
  return S;
}

ModuleImpl::ModuleImpl(std::unique_ptr<ParsedModule> P) : PM(std::move(P)) {
  for (size_t I = 0; I < PM->Functions.size(); ++I)
    PM->Functions[I]->Index = (uint32_t)I;
  for (auto &F : PM->Functions) {
    if (!F->IsKernel || !F->HasBody)
      continue;
    KernelInfo KI;
    KI.Name = F->Name;
    for (auto &PD : F->Params)
      KI.Params.push_back({PD.Name, PD.Size, PD.Align});
    KI.StaticSharedBytes = F->Shared.StaticBytes;
    KI.LocalBytesPerThread = F->LocalBytes;
    KI.NumRegisters =
        std::min<uint32_t>(std::max<uint32_t>(F->NumDeclaredRegs, 1), 255);
    KI.MaxThreadsPerBlock = F->MaxNtid   ? F->MaxNtid
                            : F->ReqNtid ? F->ReqNtid
                                         : 1024;
    Kernels.push_back(KI);
  }
  for (auto &G : PM->Globals) {
    if (G->Space == SpShared)
      continue;
    Globals.push_back({G->Name, G->Size, G->Data});
    // Kernels of any module may reach it (cudaGetSymbolAddress).
    if (G->Data && G->Size)
      registerAllocation(G->Data, G->Size);
  }
}

ModuleImpl::~ModuleImpl() {
  for (const GlobalInfo &G : Globals)
    if (G.Address && G.Size)
      unregisterAllocation(G.Address);
}

const KernelInfo *ModuleImpl::findKernel(const std::string &Name) const {
  for (auto &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}
const GlobalInfo *ModuleImpl::findGlobal(const std::string &Name) const {
  for (auto &G : Globals)
    if (G.Name == Name)
      return &G;
  return nullptr;
}

// Settings are read at each launch, so a test or a debugger can switch them
// between launches; a malformed value is reported once per process.
void ModuleImpl::readLaunchSettings() {
  support::SettingsReader R;
  // The stand-in cudart owns WARPSCOPE_EMU_TRUTH and reports a malformed
  // value; a reader of its own keeps the warning from being printed twice.
  // Memory-efficiency counts cost 4-27% of emulation time on memory-bound
  // kernels (docs/results/2026-11-23-memory-efficiency.md): off for a plain
  // emulated run, on where a profile is taken (warpscope run --emulate).
  CountMemory = support::SettingsReader().flag("WARPSCOPE_EMU_TRUTH", true) &&
                R.flag("WARPSCOPE_EMU_MEMORY", false);
  MemoryIncomplete |= !CountMemory;
  RaceCheck = R.flag("WARPSCOPE_EMU_RACECHECK", false);
  ProgressSeconds = R.number("WARPSCOPE_EMU_PROGRESS", 0, 86400, 0);
  TimeoutSeconds = R.number("WARPSCOPE_EMU_TIMEOUT", 0, 7 * 86400, 0);
  Memcheck = R.flag("WARPSCOPE_EMU_MEMCHECK", false);
  unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
  Threads = (unsigned)R.integer("WARPSCOPE_EMU_THREADS", 1, 1024, "all cores")
                .value_or(Cores);
  readModelSettings(*this, R);
  static std::mutex WarnedMu;
  static std::set<std::string> Warned;
  std::lock_guard<std::mutex> L(WarnedMu);
  for (const std::string &W : R.warnings())
    if (Warned.insert(W).second)
      std::fprintf(stderr, "warpscope-emu: warning: %s\n", W.c_str());
}

bool ModuleImpl::launch(const std::string &Kernel, const LaunchParams &P,
                        std::string &Error, LaunchFault *Fault) {
  std::lock_guard<std::mutex> Lock(Mu);
  if (Fault)
    *Fault = LaunchFault::None;
  auto It = PM->FuncIndex.find(Kernel);
  if (It == PM->FuncIndex.end() || !PM->Functions[It->second]->IsKernel ||
      !PM->Functions[It->second]->HasBody) {
    Error = "no kernel named '" + Kernel + "' in module " + PM->Name;
    return false;
  }
  Function &K = *PM->Functions[It->second];
  uint64_t NT = (uint64_t)P.Block.X * P.Block.Y * P.Block.Z;
  if (NT == 0 || NT > 1024 || P.Grid.X == 0 || P.Grid.Y == 0 || P.Grid.Z == 0) {
    Error = "kernel " + Kernel + ": invalid launch configuration";
    return false;
  }
  uint32_t MaxT = K.MaxNtid ? K.MaxNtid : K.ReqNtid ? K.ReqNtid : 1024;
  if (NT > MaxT) {
    Error = "kernel " + Kernel + ": block of " + std::to_string(NT) +
            " threads exceeds .maxntid " + std::to_string(MaxT);
    return false;
  }
  if (!K.Params.empty() && !P.Args) {
    Error = "kernel " + Kernel + ": missing arguments";
    return false;
  }
  readLaunchSettings();
  Launches.push_back(
      {Kernel, P.Grid, P.Block, P.DynamicSharedBytes, false, {}, {}});
  ++LaunchCount;
  try {
    // Tests may install sinks of their own: then the model stays out.
    if (Model && TraceSinks.empty())
      runModeled(*this, K, P, P.RegistersPerThread, Launches.back());
    else
      runGrid(*this, K, P, Launches.back());
  } catch (EmuError &E) {
    Error = E.Msg;
    if (Fault)
      *Fault = E.Fault;
    return false;
  } catch (std::bad_alloc &) {
    Error = "kernel " + Kernel + ": out of host memory";
    if (Fault)
      *Fault = LaunchFault::Failure;
    return false;
  }
  return true;
}

} // namespace core

std::unique_ptr<Module> loadPtx(const std::string &PtxText,
                                const std::string &ModuleName,
                                std::string &Error) {
  auto PM = core::parsePtx(PtxText, ModuleName, Error);
  if (!PM)
    return nullptr;
  return std::make_unique<core::ModuleImpl>(std::move(PM));
}

} // namespace warpscope::emu
