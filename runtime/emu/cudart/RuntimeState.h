//===- RuntimeState.h - state shared by the stand-in runtime ----*- C++ -*-===//
//
// Private to runtime/emu/cudart: the emulated H100's limits, the records
// behind CUDA's handles (modules, kernels, variables, streams, events), the
// one process-wide State every CUDA call locks, and the helpers the API
// files share. The CUDA API is split by concern:
//   Registration.cpp  fatbin/module registration ABI, PTX loading, lookups
//   Launch.cpp        call configuration and kernel launch
//   Memory.cpp        device and host allocation
//   MemoryCopy.cpp    cudaMemcpy*, cudaMemset*, peer access
//   Symbols.cpp       __device__/__constant__ variables (cudaMemcpyToSymbol)
//   Textures.cpp      CUDA arrays, texture and surface objects
//   Streams.cpp       streams and events
//   Device.cpp        device properties, attributes, limits, reset
//   DeviceHeap.cpp    device memory in 2 MiB pages, as a GPU maps it
//   Interrupt.cpp     SIGINT and SIGTERM during a launch
//   Functions.cpp     kernel attributes and occupancy
//   Errors.cpp        last/sticky error, error strings, stub entry point
//   Truth.cpp         ground-truth files
//   RuntimeState.cpp  the State itself
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CUDART_RUNTIMESTATE_H
#define WARPSCOPE_EMU_CUDART_RUNTIMESTATE_H

#include "Ptxas.h"
#include "Runtime.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

/// The CUDA API: C names, default visibility; libcudart.map exports the
/// cuda* and __cuda* ones.
#define WS_EXPORT extern "C" __attribute__((visibility("default")))

/// Exports NEW as another name of OLD, which must be defined in the same
/// file (an alias cannot cross translation units).
#define WS_ALIAS(NEW, OLD, RET, ...)                                           \
  WS_EXPORT RET NEW(__VA_ARGS__) __attribute__((alias(#OLD)));

namespace warpscope::emu::cudart {

// The emulated H100.
constexpr size_t TotalMem = 80ull << 30;
constexpr int SmCount = 132;
constexpr size_t SharedPerBlock = 48 * 1024;
constexpr size_t SharedPerBlockOptin = 227 * 1024;
constexpr size_t SharedPerSM = 228 * 1024;
constexpr int RegsPerSM = 65536;
constexpr int MaxThreadsPerSM = 2048;
constexpr int MaxBlocksPerSM = 32;

//===-- state ------------------------------------------------------------===//

struct ModuleRec {
  unsigned Index = 0;
  const void *WrapperPtr = nullptr;
  std::vector<std::string> KernelNames; // registration order
  std::unique_ptr<Module> M;
  bool LoadTried = false;
  cudaError_t LoadError = cudaSuccess;
  uint32_t PtxArch = 0;
  bool TruthWritten = false;
  bool Unregistered = false;
  std::string Ptx; // kept for ptxas (Functions.cpp), loaded once
  // ptxas's report on Ptx, computed on the first attribute query.
  bool PtxasTried = false;
  std::string PtxasError; // why there is no report; warned about once
  PtxasReport Ptxas;
};

struct FuncRec {
  ModuleRec *Mod = nullptr;
  std::string Name;
  int MaxDynamicShared = -1; // cudaFuncAttributeMaxDynamicSharedMemorySize
  int Carveout = -1;
};

struct VarRec {
  ModuleRec *Mod = nullptr;
  std::string Name;
  size_t Size = 0;
  bool Constant = false;
};

struct StreamRec {
  unsigned Flags = 0;
  int Priority = 0;
};

struct EventRec {
  unsigned Flags = 0;
  bool Recorded = false;
  std::chrono::steady_clock::time_point T;
};

struct LaunchConfig {
  dim3 Grid, Block;
  size_t Shared = 0;
  void *Stream = nullptr;
};

struct State {
  std::recursive_mutex Mu;
  std::vector<std::unique_ptr<ModuleRec>> Modules;
  std::unordered_map<const void *, FuncRec> Funcs;
  std::unordered_map<const void *, VarRec> Vars;
  std::map<uintptr_t, size_t> DeviceAllocs; // cudaMalloc & co.
  std::map<uintptr_t, size_t> HostAllocs;   // cudaMallocHost/cudaHostAlloc
  std::map<uintptr_t, unsigned> HostAllocFlags;
  size_t DeviceBytes = 0;
  std::unordered_map<const void *, std::unique_ptr<StreamRec>> Streams;
  std::unordered_map<const void *, std::unique_ptr<EventRec>> Events;
  cudaError_t Last = cudaSuccess;
  cudaError_t Sticky = cudaSuccess;
  int Device = 0;
  unsigned DeviceFlags = 0;
  size_t Limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
  cudaFuncCache CacheConfig = cudaFuncCachePreferNone;
  unsigned NextModuleIndex = 0;
};

/// Launch configurations pushed by <<<...>>> and popped by the kernel's
/// host stub; per thread, like CUDA's (defined in Launch.cpp).
extern thread_local std::vector<LaunchConfig> ConfigStack;

/// The one State, created on first use (RuntimeState.cpp).
State &S();

using Lock = std::lock_guard<std::recursive_mutex>;

/// Records E as the last error unless it is cudaSuccess; returns E.
cudaError_t setErr(cudaError_t E);

/// Reports a problem of the program or its fatbin on stderr.
void emuError(const std::string &Msg);

/// Where CUDA would synchronize: flushes the kernels' printf output.
void syncPoint();

// Registration.cpp: host stub / shadow variable to kernel / global, loading
// the module's PTX on first use.
cudaError_t findKernel(const void *Func, FuncRec *&F, const KernelInfo *&K);
cudaError_t findSymbol(const void *Symbol, const GlobalInfo *&G);

// Functions.cpp: what ptxas says F's kernel uses; null with Why (one line)
// when ptxas is missing or rejects the module's PTX (warned once a module).
const PtxasKernel *machineResources(FuncRec &F, std::string &Why);

// DeviceHeap.cpp: cudaMalloc's memory, zeroed, in 2 MiB pages registered
// with the core as a GPU maps them; released with the size it was asked for.
void *deviceAllocate(size_t Size);
void deviceRelease(void *P, size_t Size);

// Truth.cpp: the module's ground-truth file, once; all of them (and the
// modeled PC samples) at exit or after an interrupted launch.
void writeTruth(ModuleRec &R);
void writeAllTruth(State &St);
void atExitHandler();

// Interrupt.cpp: SIGINT and SIGTERM in the middle of a launch. The handlers
// of a program without the WarpScope runtime, installed once.
void installInterruptHandlers();
/// Alive while a launch runs in the core.
struct RunningLaunch {
  RunningLaunch();
  ~RunningLaunch();
};
/// After a launch requestInterrupt stopped: whether this library's own
/// handler asked (it then ends the process: endByInterrupt) or the
/// WarpScope runtime's (which writes its profile first).
bool endAfterInterruptedLaunch();
[[noreturn]] void endByInterrupt();

// Streams.cpp, MemoryCopy.cpp, Device.cpp.
bool validStream(cudaStream_t St);
bool validKind(cudaMemcpyKind K);
const cudaDeviceProp &deviceProp();

// Textures.cpp: cudaMemcpy3D when a CUDA array takes part.
cudaError_t copy3DArray(const cudaMemcpy3DParms &P);

} // namespace warpscope::emu::cudart

/// Device-touching calls fail with the sticky error once a kernel failed.
#define CHECK_STICKY()                                                         \
  do {                                                                         \
    if (S().Sticky != cudaSuccess)                                             \
      return setErr(S().Sticky);                                               \
  } while (0)

#endif // WARPSCOPE_EMU_CUDART_RUNTIMESTATE_H
