//===- CudaHooks.cpp - The runtime's C ABI and its CUDA side --------------===//
//
// Entry points the host pass calls (warpscope/Abi.h), counter read-back with
// the CUDA runtime, and the flushes at exit, cudaDeviceReset and signals.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"
#include "FatalSignal.h"
#include "KernelQueries.h"
#include "Profile.h"
#include "Registry.h"
#include "warpscope/Support/Demangle.h"
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <mutex>
#include <unistd.h>

using namespace warpscope;
using namespace warpscope::rt;

#define WS_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" void __cudaRegisterVar(void **Handle, char *HostVar,
                                  char *DeviceAddress, const char *DeviceName,
                                  int Ext, size_t Size, int Constant,
                                  int Global);

namespace {

using LaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                                 cudaStream_t);

/// Never destroyed: exit handlers and signal handlers may run after static
/// destructors would have.
struct Runtime {
  Registry Reg;
  Settings Config = readSettings(
      [](const char *Name) -> const char * { return std::getenv(Name); });
  std::mutex FlushLock, PerLaunchLock, SelectLock;
  LaunchSelection Select{Config.Selection};
  /// Aggregate mode with a launch selection: what the device counters hold
  /// since they were last read (SelectLock).
  enum class Held { Nothing, Profiled, LeftOut } Counting = Held::Nothing;
  std::atomic<bool> ExitHandlerInstalled{false};
  std::atomic<bool> FlushedAtExit{false};
  cudaEvent_t Start = nullptr, Stop = nullptr;

  Runtime() {
    if (!Config.Warning.empty())
      std::fprintf(stderr, "warpscope: warning: %s\n", Config.Warning.c_str());
  }
};

/// How long a flush after a fatal signal may take before the process ends
/// without it.
constexpr unsigned FatalFlushSeconds = 10;

Runtime &runtime() {
  static Runtime *R = new Runtime;
  return *R;
}

std::string cudaMessage(const char *What, cudaError_t E) {
  return std::string(What) + " failed: " + cudaGetErrorString(E);
}

/// 64-bit words of a module's device array: every replica of its counters.
uint64_t deviceWords(const ModuleDescriptor &D) {
  return D.NumCounters ? uint64_t(D.CounterReplicas) * D.ReplicaStride : 0;
}

/// Errors that mean a kernel started and faulted, leaving the context
/// unusable (as opposed to a launch that was refused and ran nothing).
bool isKernelFault(cudaError_t E) {
  switch (E) {
  case cudaErrorLaunchFailure:
  case cudaErrorIllegalAddress:
  case cudaErrorAssert:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorHardwareStackError:
  case cudaErrorLaunchTimeout:
    return true;
  default:
    return false;
  }
}

/// The emulator's hook (null on a GPU). Its presence also means faults are
/// reported by the launch that ran the faulting kernel.
EmuReadAfterFaultFn emulatorReadAfterFault() {
  static auto Peek = reinterpret_cast<EmuReadAfterFaultFn>(
      dlsym(RTLD_DEFAULT, EmuReadAfterFaultFunction));
  return Peek;
}

/// The emulator's hooks for a signal during a launch (null on a GPU),
/// looked up before any handler may need them (dlsym is not
/// async-signal-safe).
EmuInterruptFn EmuInterrupt = nullptr;
EmuWriteTruthFn EmuWriteTruth = nullptr;

void findEmulatorSignalHooks() {
  EmuInterrupt = reinterpret_cast<EmuInterruptFn>(
      dlsym(RTLD_DEFAULT, EmuInterruptFunction));
  EmuWriteTruth = reinterpret_cast<EmuWriteTruthFn>(
      dlsym(RTLD_DEFAULT, EmuWriteTruthFunction));
}

/// SIGINT or SIGTERM: an emulated launch that is running stops at its next
/// branch, and its thread flushes (keepInterrupted).
bool deferToLaunch(int Signal) { return EmuInterrupt && EmuInterrupt(Signal); }

/// Records the first kernel fault (Registry::recordFailure). Attributed:
/// K ran the faulting kernel; otherwise the fault only surfaced at K (or,
/// with no name, at a synchronization).
void noteFault(Runtime &R, const KernelRef &K, const LaunchConfig &C,
               cudaError_t E, bool Attributed) {
  if (!R.Reg.recordFailure({K, C, cudaGetErrorString(E), Attributed}) ||
      R.Config.Quiet)
    return;
  std::string Where =
      K.Name.empty() ? "a synchronization" : withDemangledNames(K.Name);
  std::fprintf(stderr,
               "warpscope: kernel fault (%s) %s %s; recorded in the "
               "profile\n",
               cudaGetErrorString(E), Attributed ? "in" : "surfaced at",
               Where.c_str());
}

/// Reads a module's device counters into Out, the replicas summed. After a
/// kernel fault only the emulator can still read them (AfterFault is set).
std::string readCounters(const ModuleDescriptor &D, std::vector<uint64_t> &Out,
                         bool *AfterFault = nullptr) {
  Out.assign(D.NumCounters, 0);
  if (!D.NumCounters)
    return "";
  std::vector<uint64_t> All(deviceWords(D));
  size_t Bytes = All.size() * sizeof(uint64_t);
  cudaError_t E = cudaMemcpyFromSymbol(All.data(), D.CountersShadow, Bytes);
  if (E != cudaSuccess && isKernelFault(E) && AfterFault) {
    EmuReadAfterFaultFn Peek = emulatorReadAfterFault();
    if (Peek && Peek(D.CountersShadow, All.data(), Bytes) == cudaSuccess) {
      E = cudaSuccess;
      *AfterFault = true;
    }
  }
  if (E != cudaSuccess)
    return cudaMessage("reading counters", E);
  for (uint64_t R = 0; R < D.CounterReplicas; ++R)
    for (uint64_t W = 0; W < D.NumCounters; ++W)
      Out[W] += All[R * D.ReplicaStride + W];
  return "";
}

std::string zeroCounters(const ModuleDescriptor &D) {
  if (!D.NumCounters)
    return "";
  void *Address = nullptr;
  cudaError_t E = cudaGetSymbolAddress(&Address, D.CountersShadow);
  if (E == cudaSuccess)
    E = cudaMemset(Address, 0, deviceWords(D) * sizeof(uint64_t));
  return E == cudaSuccess ? "" : cudaMessage("resetting counters", E);
}

/// Reads a module's counters into Counts and zeroes them on the device, so
/// nothing is counted twice; after a fault (AfterFault) they cannot be
/// zeroed, and the caller must not read them again.
std::string takeCounters(const ModuleDescriptor &D,
                         std::vector<uint64_t> &Counts, bool &AfterFault) {
  AfterFault = false;
  std::string Error = readCounters(D, Counts, &AfterFault);
  if (Error.empty() && !AfterFault)
    Error = zeroCounters(D);
  return Error;
}

/// Reads and zeroes every module's device counters, so a later read (or a
/// device reset) never counts anything twice: into the totals (Keep), or
/// dropped because they hold only launches the launch selection left out.
void takeAllCounters(Runtime &R, bool Keep) {
  std::vector<ModuleState> Modules = R.Reg.modules();
  for (size_t M = 0; M < Modules.size(); ++M) {
    // Read once after a fault, where they could not be zeroed: again would
    // count them twice.
    if (Modules[M].ReadAfterFault)
      continue;
    std::vector<uint64_t> Counts;
    bool AfterFault = false;
    std::string Error = takeCounters(*Modules[M].Desc, Counts, AfterFault);
    // First seen here, unless it is that of a launch a signal stopped.
    if (Keep && !R.Reg.interrupted())
      if (cudaError_t E = cudaPeekAtLastError(); isKernelFault(E))
        noteFault(R, KernelRef(), LaunchConfig(), E, false);
    if (!Error.empty())
      R.Reg.setModuleError(int(M), Error);
    else if (Keep)
      R.Reg.accumulate(int(M), Counts);
    if (AfterFault)
      R.Reg.setReadAfterFault(int(M));
  }
}

/// Adds every module's device counters to its totals and zeroes them.
void drainCounters(Runtime &R) {
  if (R.Reg.launchCount())
    takeAllCounters(R, /*Keep=*/true);
}

/// Reads the device counters into the totals, or drops them when they hold
/// only launches the selection left out.
void settleCounters(Runtime &R) {
  if (R.Counting == Runtime::Held::LeftOut)
    takeAllCounters(R, /*Keep=*/false);
  else
    drainCounters(R);
  R.Counting = Runtime::Held::Nothing;
}

/// Aggregate mode: before a launch that is Profiled (or not), the counters
/// must not hold launches of the other kind. A run of either kind costs
/// one synchronization and read when it ends, none per launch.
void switchCounting(Runtime &R, bool Profiled) {
  Runtime::Held Next =
      Profiled ? Runtime::Held::Profiled : Runtime::Held::LeftOut;
  if (R.Counting != Runtime::Held::Nothing && R.Counting != Next) {
    cudaDeviceSynchronize(); // every stream: the counters are complete
    settleCounters(R);
  }
  R.Counting = Next;
}

ProcessInfo processInfo(const Runtime &R) {
  ProcessInfo P;
  P.Pid = getpid();
  P.Rank = R.Config.Rank;
  P.WorldSize = R.Config.WorldSize;
  P.CollectionMode = R.Config.CollectionMode;
  P.Selection = R.Config.Selection;
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  P.Program = N > 0 ? std::string(Exe, N) : "";
  cudaDeviceProp Prop;
  int Device = 0;
  if (R.Reg.launchCount() && cudaGetDevice(&Device) == cudaSuccess &&
      cudaGetDeviceProperties(&Prop, Device) == cudaSuccess) {
    P.Device = Prop.name;
    P.Limits = currentDeviceLimits();
  }
  return P;
}

/// The thread inside flush() (0: none), for a signal handler to tell
/// whether it interrupted that flush.
std::atomic<pid_t> FlushingThread{0};

/// Writes the profile. From a fatal signal's handler (Signal != 0) it does
/// not wait for a flush the same thread was in (that one cannot finish),
/// and after another thread's it writes nothing more: that profile is
/// complete, and the program may be tearing the CUDA runtime down.
void flush(const char *Why, bool ReadDevice, int Signal = 0) {
  Runtime &R = runtime();
  std::unique_lock<std::mutex> G(R.FlushLock, std::defer_lock);
  if (!Signal) {
    G.lock();
  } else if (!G.try_lock()) {
    if (FlushingThread.load() == gettid())
      return;
    G.lock(); // the caller's alarm bounds the wait
    return;
  }
  FlushingThread = gettid();
  if (R.Config.FlushDelayMs) {
    struct timespec Delay = {time_t(R.Config.FlushDelayMs / 1000),
                             long(R.Config.FlushDelayMs % 1000) * 1000000};
    nanosleep(&Delay, nullptr);
  }
  if (ReadDevice)
    settleCounters(R);
  std::string Error;
  ProcessInfo P = processInfo(R);
  P.EndedBySignal = Signal;
  std::string Path = writeProfile(R.Reg, P, R.Config.OutputDirectory, Error);
  if (!Error.empty())
    std::fprintf(stderr, "warpscope: error: profile not written (%s): %s\n",
                 Why, Error.c_str());
  else if (!R.Config.Quiet)
    std::fprintf(stderr, "warpscope: profile written to %s\n", Path.c_str());
  G.unlock(); // before clearing: a signal in between must not wait on us
  FlushingThread = 0;
  // A handler on another thread waited for this flush: end as it would.
  if (!Signal)
    if (int Pending = fatalSignalBeingHandled())
      dieBySignal(Pending);
}

/// Runs before the CUDA runtime's own teardown (installed after the first
/// launch, so after cudart initialized): counters are still readable.
void flushAtExit() {
  runtime().FlushedAtExit = true;
  flush("exit", /*ReadDevice=*/true);
}

/// Installed at the first registration, so it runs last: a program that
/// never launched a kernel still leaves a valid, empty profile.
void flushIfNothingWritten() {
  if (!runtime().FlushedAtExit)
    flush("exit", /*ReadDevice=*/false);
}

/// Best effort: reading the device and writing JSON are not
/// async-signal-safe, so installFatalSignalHandlers bounds this. On the
/// emulator its ground truth so far is written too: the process ends
/// without the exit handlers that would write it.
void flushOnSignal(int Signal) {
  flush("signal", /*ReadDevice=*/true, Signal);
  if (EmuWriteTruth)
    EmuWriteTruth();
}

/// The launch just made ran while a signal was deferred to it
/// (deferToLaunch): it stopped part way (Result is an error) or had just
/// finished. Its counts are kept, read at once in per-launch mode.
void keepInterrupted(Runtime &R, const KernelRef &K, const LaunchConfig &C,
                     cudaError_t Result, bool PerLaunch) {
  if (!PerLaunch) {
    R.Reg.recordLaunch(K, C);
  } else {
    std::vector<uint64_t> Counts;
    std::string Error;
    if (K.Module >= 0) {
      bool AfterFault = false;
      Error = takeCounters(*R.Reg.modules()[K.Module].Desc, Counts, AfterFault);
      if (AfterFault)
        R.Reg.setReadAfterFault(K.Module);
    }
    R.Reg.recordLaunch(K, C, -1, Counts, Error);
  }
  if (Result != cudaSuccess)
    R.Reg.recordInterrupted(K, C, deferredSignal());
}

LaunchConfig launchConfig(Runtime &R, dim3 Grid, dim3 Block, size_t Shared,
                          cudaStream_t Stream) {
  LaunchConfig C;
  C.Grid = {Grid.x, Grid.y, Grid.z};
  C.Block = {Block.x, Block.y, Block.z};
  C.SharedBytes = Shared;
  C.Stream = R.Reg.streamIndex(Stream);
  return C;
}

/// Profiled false: the launch selection left this launch out; its counts
/// are read (which zeroes them) and dropped.
cudaError_t launchPerLaunch(Runtime &R, LaunchFn Launch, const KernelRef &K,
                            const LaunchConfig &C, const void *Func, dim3 Grid,
                            dim3 Block, void **Args, size_t Shared,
                            cudaStream_t Stream, bool Profiled) {
  std::lock_guard<std::mutex> G(R.PerLaunchLock);
  // After a fault every launch is refused: nothing to time or read.
  if (R.Reg.failure())
    return Launch(Func, Grid, Block, Args, Shared, Stream);
  if (!R.Start) {
    cudaEventCreate(&R.Start);
    cudaEventCreate(&R.Stop);
  }
  cudaEventRecord(R.Start, Stream);
  cudaError_t Result = Launch(Func, Grid, Block, Args, Shared, Stream);
  if (deferredSignal()) { // launch() ends the process
    if (Profiled)
      keepInterrupted(R, K, C, Result, /*PerLaunch=*/true);
    return Result;
  }
  cudaEventRecord(R.Stop, Stream);
  float Ms = -1;
  std::string Error;
  if (cudaError_t E = cudaEventSynchronize(R.Stop); E != cudaSuccess)
    Error = cudaMessage("synchronizing after the launch", E);
  else if (cudaEventElapsedTime(&Ms, R.Start, R.Stop) != cudaSuccess)
    Ms = -1;
  cudaError_t Fault = isKernelFault(Result) ? Result : cudaPeekAtLastError();
  if (isKernelFault(Fault))
    noteFault(R, K, C, Fault, true); // this launch ran it: it was synchronized
  std::vector<uint64_t> Counts;
  if (K.Module >= 0 && (Error.empty() || isKernelFault(Fault))) {
    const ModuleDescriptor &D = *R.Reg.modules()[K.Module].Desc;
    bool AfterFault = false;
    std::string ReadError = takeCounters(D, Counts, AfterFault);
    if (AfterFault && ReadError.empty()) {
      Error.clear(); // the counts of the failed launch are all there
      R.Reg.setReadAfterFault(K.Module);
    } else if (!ReadError.empty()) {
      Error = ReadError;
    }
  }
  if (Profiled)
    R.Reg.recordLaunch(K, C, Result == cudaSuccess ? Ms : -1, Counts, Error);
  return Result;
}

cudaError_t launch(LaunchFn Launch, const void *Func, dim3 Grid, dim3 Block,
                   void **Args, size_t Shared, cudaStream_t Stream) {
  Runtime &R = runtime();
  KernelRef K = R.Reg.findKernel(Func);
  LaunchConfig C = launchConfig(R, Grid, Block, Shared, Stream);
  queryKernelResources(R.Reg, Func, K, C); // once per kernel and config
  // With a launch selection, launches are decided and made one at a time.
  std::unique_lock<std::mutex> Selecting(R.SelectLock, std::defer_lock);
  bool Profiled = true;
  if (R.Config.Selection.active()) {
    Selecting.lock();
    Profiled = R.Select.admit({K.Module, K.Name});
    if (!Profiled)
      R.Reg.recordLeftOut(K);
    if (R.Config.CollectionMode == Mode::Aggregate)
      switchCounting(R, Profiled);
  }
  cudaError_t Result;
  if (R.Config.CollectionMode == Mode::PerLaunch) {
    Result = launchPerLaunch(R, Launch, K, C, Func, Grid, Block, Args, Shared,
                             Stream, Profiled);
  } else if (Result = Launch(Func, Grid, Block, Args, Shared, Stream);
             deferredSignal()) {
    if (Profiled)
      keepInterrupted(R, K, C, Result, /*PerLaunch=*/false);
  } else {
    // A refused launch ran nothing; a fault (reported at once by the
    // emulator, at the next synchronization by a GPU) ran part of it.
    bool Ran = Result == cudaSuccess;
    if (isKernelFault(Result) && !R.Reg.failure()) {
      // The emulator ran this kernel and it faulted; a GPU refused it for
      // the fault of an earlier launch.
      bool Emulator = emulatorReadAfterFault() != nullptr;
      noteFault(R, K, C, Result, Emulator);
      Ran = Emulator;
    }
    if (Ran && Profiled)
      R.Reg.recordLaunch(K, C);
  }
  if (deferredSignal()) {
    if (Selecting.owns_lock())
      Selecting.unlock();
    finishDeferredSignal(); // flushOnSignal, then the signal
  }
  if (!R.ExitHandlerInstalled.exchange(true))
    std::atexit(flushAtExit);
  return Result;
}

} // namespace

WS_EXPORT void __warpscope_register_module(const ModuleDescriptor *D,
                                           void **Handle) {
  Runtime &R = runtime();
  if (D->AbiVersion != AbiVersion) {
    std::fprintf(stderr,
                 "warpscope: error: module %s was built for ABI %u, this "
                 "runtime speaks %u; rebuild with the matching plugin\n",
                 D->ModuleId, D->AbiVersion, AbiVersion);
    return;
  }
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::atexit(flushIfNothingWritten);
    findEmulatorSignalHooks();
    installFatalSignalHandlers(flushOnSignal, FatalFlushSeconds, deferToLaunch);
  });
  if (D->NumCounters &&
      (!D->CounterReplicas || D->ReplicaStride < D->NumCounters)) {
    std::fprintf(stderr,
                 "warpscope: error: module %s has a damaged counter layout "
                 "(%u replicas, stride %u for %llu counters); rebuild it "
                 "with the plugin\n",
                 D->ModuleId, D->CounterReplicas, D->ReplicaStride,
                 (unsigned long long)D->NumCounters);
    return;
  }
  if (D->NumCounters)
    __cudaRegisterVar(Handle, static_cast<char *>(D->CountersShadow),
                      const_cast<char *>(D->CountersSymbol), D->CountersSymbol,
                      0, deviceWords(*D) * sizeof(uint64_t), 0, 0);
  R.Reg.addModule(D);
}

WS_EXPORT cudaError_t __warpscope_cudaLaunchKernel(const void *Func, dim3 Grid,
                                                   dim3 Block, void **Args,
                                                   size_t Shared,
                                                   cudaStream_t Stream) {
  return launch(cudaLaunchKernel, Func, Grid, Block, Args, Shared, Stream);
}

WS_EXPORT cudaError_t __warpscope_cudaLaunchKernel_ptsz(const void *Func,
                                                        dim3 Grid, dim3 Block,
                                                        void **Args,
                                                        size_t Shared,
                                                        cudaStream_t Stream) {
  // Looked up late: not every libcudart (the emulator's) has it.
  static auto Real =
      reinterpret_cast<LaunchFn>(dlsym(RTLD_DEFAULT, "cudaLaunchKernel_ptsz"));
  return launch(Real ? Real : cudaLaunchKernel, Func, Grid, Block, Args, Shared,
                Stream);
}

WS_EXPORT cudaError_t __warpscope_cudaDeviceReset() {
  // Counters live in device memory that the reset frees.
  flush("cudaDeviceReset", /*ReadDevice=*/true);
  return cudaDeviceReset();
}
