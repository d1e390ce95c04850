//===- Runtime.cpp - the stand-in libcudart.so.13 of the CPU emulator -----===//
//
// Implements the CUDA runtime API on top of the emulator core
// (runtime/emu/Emulator.h): device memory is host memory, every operation
// is synchronous (streams and events keep CUDA's semantics trivially), and
// kernels run in the core's SIMT interpreter. Anything not implemented
// here is a generated stub (CudartStubs.cpp) returning
// cudaErrorNotSupported. See docs/emulator-runtime.md.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/Fatbin/Fatbin.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>

using namespace warpscope::emu;

#define WS_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t AllocAlign = 256;
constexpr size_t PitchAlign = 512;
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

thread_local std::vector<LaunchConfig> ConfigStack;

void printfSink(const char *Text, size_t Len) { fwrite(Text, 1, Len, stdout); }

void atExitHandler();

State &S() {
  // Leaked on purpose: registration happens in static constructors and
  // unregistration in atexit handlers of the user's program, in any order
  // relative to our own static objects.
  static State *St = [] {
    auto *P = new State();
    setPrintfSink(printfSink);
    atexit(atExitHandler);
    return P;
  }();
  return *St;
}

using Lock = std::lock_guard<std::recursive_mutex>;

cudaError_t setErr(cudaError_t E) {
  if (E != cudaSuccess)
    S().Last = E;
  return E;
}

/// Device-touching calls fail with the sticky error once a kernel failed.
#define CHECK_STICKY()                                                         \
  do {                                                                         \
    if (S().Sticky != cudaSuccess)                                             \
      return setErr(S().Sticky);                                               \
  } while (0)

void syncPoint() { fflush(stdout); }

//===-- modules ----------------------------------------------------------===//

std::string programName() {
  return program_invocation_short_name && *program_invocation_short_name
             ? program_invocation_short_name
             : "program";
}

std::string moduleName(const ModuleRec &R) {
  std::string N = programName() + ":fatbin" + std::to_string(R.Index);
  if (!R.KernelNames.empty())
    N += ":" + R.KernelNames.front();
  return N;
}

/// True when the ELF file that contains Addr has a section named Name
/// (clang's new offload driver emits llvm_offload_entries for -fgpu-rdc).
bool objectHasSection(const void *Addr, const char *Name) {
  Dl_info Info{};
  std::string Path = "/proc/self/exe";
  if (dladdr(Addr, &Info) && Info.dli_fname && *Info.dli_fname)
    Path = Info.dli_fname;
  std::ifstream F(Path, std::ios::binary);
  if (!F)
    return false;
  std::vector<char> Buf((std::istreambuf_iterator<char>(F)),
                        std::istreambuf_iterator<char>());
  if (Buf.size() < sizeof(Elf64_Ehdr) || memcmp(Buf.data(), ELFMAG, SELFMAG) ||
      Buf[EI_CLASS] != ELFCLASS64)
    return false;
  Elf64_Ehdr Eh;
  memcpy(&Eh, Buf.data(), sizeof(Eh));
  if (Eh.e_shentsize != sizeof(Elf64_Shdr) || Eh.e_shoff > Buf.size() ||
      uint64_t(Eh.e_shnum) * sizeof(Elf64_Shdr) > Buf.size() - Eh.e_shoff ||
      Eh.e_shstrndx >= Eh.e_shnum)
    return false;
  auto Sh = [&](unsigned I) {
    Elf64_Shdr H;
    memcpy(&H, Buf.data() + Eh.e_shoff + I * sizeof(Elf64_Shdr), sizeof(H));
    return H;
  };
  Elf64_Shdr Str = Sh(Eh.e_shstrndx);
  if (Str.sh_offset > Buf.size() || Str.sh_size > Buf.size() - Str.sh_offset)
    return false;
  size_t NameLen = strlen(Name);
  for (unsigned I = 0; I < Eh.e_shnum; ++I) {
    Elf64_Shdr H = Sh(I);
    if (H.sh_name + NameLen + 1 > Str.sh_size)
      continue;
    const char *N = Buf.data() + Str.sh_offset + H.sh_name;
    if (!memcmp(N, Name, NameLen + 1))
      return true;
  }
  return false;
}

void emuError(const std::string &Msg) {
  fflush(stdout);
  fprintf(stderr, "warpscope-emu: error: %s\n", Msg.c_str());
  fflush(stderr);
}

/// Decodes the fatbin and loads its PTX into the core, once.
cudaError_t ensureLoaded(ModuleRec &R) {
  if (R.LoadTried)
    return R.LoadError;
  R.LoadTried = true;
  const std::string Name = moduleName(R);
  auto Fail = [&](cudaError_t E, const std::string &Msg) {
    emuError(Msg);
    R.LoadError = E;
    return E;
  };
  fatbin::Wrapper W;
  std::string Err;
  if (!fatbin::readWrapper(R.WrapperPtr, W, Err))
    return Fail(cudaErrorInvalidKernelImage, Name + ": corrupt fatbin: " + Err);
  if (W.Version == 2)
    return Fail(cudaErrorNotSupported,
                Name + " was built with relocatable device code (-fgpu-rdc / "
                       "nvcc -rdc), which the emulator does not support; "
                       "rebuild without -fgpu-rdc and with "
                       "--cuda-include-ptx=sm_90");
  uint64_t Size = fatbin::containerSize(W.Data);
  if (Size == 0)
    return Fail(cudaErrorInvalidKernelImage,
                Name + ": corrupt fatbin: bad container header");
  fatbin::PtxResult P = fatbin::extractPtx(W.Data, Size, 90);
  if (P.Status == fatbin::PtxStatus::Corrupt)
    return Fail(cudaErrorInvalidKernelImage,
                Name + ": corrupt fatbin: " + P.Error);
  if (P.Status == fatbin::PtxStatus::NoPtx) {
    if (objectHasSection(R.WrapperPtr, "llvm_offload_entries"))
      return Fail(cudaErrorNotSupported,
                  Name + " has no PTX: it was built with -fgpu-rdc "
                         "(relocatable device code), which the emulator does "
                         "not support; rebuild without -fgpu-rdc and with "
                         "--cuda-include-ptx=sm_90");
    std::string Archs;
    for (uint32_t A : P.ElfArchs)
      Archs += (Archs.empty() ? "sm_" : ", sm_") + std::to_string(A);
    if (Archs.empty())
      Archs = "none";
    return Fail(cudaErrorNoKernelImageForDevice,
                Name + " has no PTX (only cubins for " + Archs +
                    "); rebuild with --cuda-include-ptx=sm_90");
  }
  R.PtxArch = P.Arch;
  std::unique_ptr<Module> M = loadPtx(P.Ptx, Name, Err);
  if (!M)
    return Fail(cudaErrorInvalidPtx,
                Err.empty() ? Name + ": PTX rejected" : Err);
  R.M = std::move(M);
  return cudaSuccess;
}

bool truthEnabled() {
  const char *E = getenv("WARPSCOPE_EMU_TRUTH");
  return !(E && (!strcmp(E, "0") || !strcmp(E, "off") || !strcmp(E, "false")));
}

void mkdirs(const std::string &Dir) {
  std::string Cur;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    Pos = Dir.find('/', Pos + 1);
    Cur = Dir.substr(0, Pos);
    if (!Cur.empty())
      mkdir(Cur.c_str(), 0777);
  }
}

void writeTruth(ModuleRec &R) {
  if (R.TruthWritten || !R.M || !truthEnabled())
    return;
  R.TruthWritten = true;
  std::string Dir = cudart::truthDirectory();
  mkdirs(Dir);
  std::string Base = "emu-" + std::to_string(getpid()) + "-" +
                     std::to_string(R.Index) + ".json";
  std::string Final = Dir + "/" + Base, Tmp = Dir + "/." + Base + ".tmp";
  std::string Json = R.M->groundTruthJson();
  FILE *F = fopen(Tmp.c_str(), "wb");
  if (!F) {
    fprintf(stderr, "warpscope-emu: warning: cannot write %s: %s\n",
            Tmp.c_str(), strerror(errno));
    return;
  }
  bool Ok = fwrite(Json.data(), 1, Json.size(), F) == Json.size();
  Ok = (fclose(F) == 0) && Ok;
  if (!Ok || rename(Tmp.c_str(), Final.c_str()) != 0) {
    fprintf(stderr, "warpscope-emu: warning: cannot write %s\n", Final.c_str());
    unlink(Tmp.c_str());
  }
}

void atExitHandler() {
  State &St = S();
  Lock L(St.Mu);
  for (auto &R : St.Modules)
    writeTruth(*R);
  syncPoint();
}

ModuleRec *moduleOf(void **Handle) {
  auto *R = reinterpret_cast<ModuleRec *>(Handle);
  for (auto &M : S().Modules)
    if (M.get() == R)
      return R;
  return nullptr;
}

//===-- lookups ----------------------------------------------------------===//

cudaError_t findKernel(const void *Func, FuncRec *&F, const KernelInfo *&K) {
  auto It = S().Funcs.find(Func);
  if (It == S().Funcs.end())
    return cudaErrorInvalidDeviceFunction;
  F = &It->second;
  if (cudaError_t E = ensureLoaded(*F->Mod))
    return E;
  K = F->Mod->M->findKernel(F->Name);
  if (!K) {
    emuError("kernel " + F->Name + " is registered but not in the PTX of " +
             moduleName(*F->Mod));
    return cudaErrorInvalidDeviceFunction;
  }
  return cudaSuccess;
}

cudaError_t findSymbol(const void *Symbol, const GlobalInfo *&G) {
  auto It = S().Vars.find(Symbol);
  if (It == S().Vars.end())
    return cudaErrorInvalidSymbol;
  if (cudaError_t E = ensureLoaded(*It->second.Mod))
    return E;
  G = It->second.Mod->M->findGlobal(It->second.Name);
  if (!G || !G->Address)
    return cudaErrorInvalidSymbol;
  return cudaSuccess;
}

bool validStream(cudaStream_t St) {
  if (St == nullptr || St == cudaStreamLegacy || St == cudaStreamPerThread)
    return true;
  return S().Streams.count(St) != 0;
}

bool validKind(cudaMemcpyKind K) {
  return K >= cudaMemcpyHostToHost && K <= cudaMemcpyDefault;
}

void *alignedAlloc(size_t Size) {
  size_t Rounded = (Size + AllocAlign - 1) / AllocAlign * AllocAlign;
  void *P = aligned_alloc(AllocAlign, Rounded);
  if (P)
    memset(P, 0, Rounded); // deterministic emulation
  return P;
}

//===-- device properties ------------------------------------------------===//

const cudaDeviceProp &deviceProp() {
  static const cudaDeviceProp P = [] {
    cudaDeviceProp D;
    memset(&D, 0, sizeof(D));
    snprintf(D.name, sizeof(D.name), "WarpScope Emulated H100");
    memcpy(D.uuid.bytes, "WarpScopeEmuH100", 16);
    D.totalGlobalMem = TotalMem;
    D.sharedMemPerBlock = SharedPerBlock;
    D.regsPerBlock = RegsPerSM;
    D.warpSize = 32;
    D.memPitch = 2147483647;
    D.maxThreadsPerBlock = 1024;
    D.maxThreadsDim[0] = 1024;
    D.maxThreadsDim[1] = 1024;
    D.maxThreadsDim[2] = 64;
    D.maxGridSize[0] = 2147483647;
    D.maxGridSize[1] = 65535;
    D.maxGridSize[2] = 65535;
    D.totalConstMem = 65536;
    D.major = 9;
    D.minor = 0;
    D.textureAlignment = 512;
    D.texturePitchAlignment = 32;
    D.multiProcessorCount = SmCount;
    D.canMapHostMemory = 1;
    D.maxTexture1D = 131072;
    D.maxTexture2D[0] = 131072;
    D.maxTexture2D[1] = 65536;
    D.surfaceAlignment = 512;
    D.concurrentKernels = 1;
    D.pciBusID = 1;
    D.asyncEngineCount = 2;
    D.unifiedAddressing = 1;
    D.memoryBusWidth = 5120;
    D.l2CacheSize = 50 * 1024 * 1024;
    D.persistingL2CacheMaxSize = 32 * 1024 * 1024;
    D.maxThreadsPerMultiProcessor = MaxThreadsPerSM;
    D.streamPrioritiesSupported = 1;
    D.globalL1CacheSupported = 1;
    D.localL1CacheSupported = 1;
    D.sharedMemPerMultiprocessor = SharedPerSM;
    D.regsPerMultiprocessor = RegsPerSM;
    D.managedMemory = 1;
    D.hostNativeAtomicSupported = 1;
    D.pageableMemoryAccess = 1;
    D.concurrentManagedAccess = 1;
    D.computePreemptionSupported = 1;
    D.canUseHostPointerForRegisteredMem = 1;
    D.cooperativeLaunch = 0;
    D.sharedMemPerBlockOptin = SharedPerBlockOptin;
    D.directManagedMemAccessFromHost = 1;
    D.maxBlocksPerMultiProcessor = MaxBlocksPerSM;
    D.accessPolicyMaxWindowSize = 134213632;
    D.reservedSharedMemPerBlock = 1024;
    D.hostRegisterSupported = 1;
    D.memoryPoolsSupported = 0;
    D.clusterLaunch = 0;
    D.deviceNumaId = -1;
    D.hostNumaId = -1;
    return D;
  }();
  return P;
}

int deviceAttr(cudaDeviceAttr A, bool &Known) {
  const cudaDeviceProp &P = deviceProp();
  Known = true;
  switch (A) {
  case cudaDevAttrMaxThreadsPerBlock:
    return P.maxThreadsPerBlock;
  case cudaDevAttrMaxBlockDimX:
    return P.maxThreadsDim[0];
  case cudaDevAttrMaxBlockDimY:
    return P.maxThreadsDim[1];
  case cudaDevAttrMaxBlockDimZ:
    return P.maxThreadsDim[2];
  case cudaDevAttrMaxGridDimX:
    return P.maxGridSize[0];
  case cudaDevAttrMaxGridDimY:
    return P.maxGridSize[1];
  case cudaDevAttrMaxGridDimZ:
    return P.maxGridSize[2];
  case cudaDevAttrMaxSharedMemoryPerBlock:
    return int(P.sharedMemPerBlock);
  case cudaDevAttrTotalConstantMemory:
    return int(P.totalConstMem);
  case cudaDevAttrWarpSize:
    return P.warpSize;
  case cudaDevAttrMaxPitch:
    return int(P.memPitch);
  case cudaDevAttrMaxRegistersPerBlock:
    return P.regsPerBlock;
  case cudaDevAttrClockRate:
    return 1980000;
  case cudaDevAttrMemoryClockRate:
    return 2619000;
  case cudaDevAttrTextureAlignment:
    return int(P.textureAlignment);
  case cudaDevAttrGpuOverlap:
    return 1;
  case cudaDevAttrMultiProcessorCount:
    return P.multiProcessorCount;
  case cudaDevAttrKernelExecTimeout:
    return 0;
  case cudaDevAttrIntegrated:
    return 0;
  case cudaDevAttrCanMapHostMemory:
    return 1;
  case cudaDevAttrComputeMode:
    return 0;
  case cudaDevAttrConcurrentKernels:
    return 1;
  case cudaDevAttrEccEnabled:
    return 0;
  case cudaDevAttrPciBusId:
    return P.pciBusID;
  case cudaDevAttrPciDeviceId:
    return 0;
  case cudaDevAttrPciDomainId:
    return 0;
  case cudaDevAttrTccDriver:
    return 0;
  case cudaDevAttrGlobalMemoryBusWidth:
    return P.memoryBusWidth;
  case cudaDevAttrL2CacheSize:
    return P.l2CacheSize;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    return MaxThreadsPerSM;
  case cudaDevAttrAsyncEngineCount:
    return P.asyncEngineCount;
  case cudaDevAttrUnifiedAddressing:
    return 1;
  case cudaDevAttrTexturePitchAlignment:
    return int(P.texturePitchAlignment);
  case cudaDevAttrSurfaceAlignment:
    return int(P.surfaceAlignment);
  case cudaDevAttrComputeCapabilityMajor:
    return P.major;
  case cudaDevAttrComputeCapabilityMinor:
    return P.minor;
  case cudaDevAttrStreamPrioritiesSupported:
    return 1;
  case cudaDevAttrGlobalL1CacheSupported:
    return 1;
  case cudaDevAttrLocalL1CacheSupported:
    return 1;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    return int(SharedPerSM);
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    return RegsPerSM;
  case cudaDevAttrManagedMemory:
    return 1;
  case cudaDevAttrIsMultiGpuBoard:
    return 0;
  case cudaDevAttrMultiGpuBoardGroupID:
    return 0;
  case cudaDevAttrHostNativeAtomicSupported:
    return 1;
  case cudaDevAttrSingleToDoublePrecisionPerfRatio:
    return 2;
  case cudaDevAttrPageableMemoryAccess:
    return 1;
  case cudaDevAttrConcurrentManagedAccess:
    return 1;
  case cudaDevAttrComputePreemptionSupported:
    return 1;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    return 1;
  case cudaDevAttrCooperativeLaunch:
    return 0;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    return int(SharedPerBlockOptin);
  case cudaDevAttrCanFlushRemoteWrites:
    return 0;
  case cudaDevAttrHostRegisterSupported:
    return 1;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    return 1;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    return 1;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    return MaxBlocksPerSM;
  case cudaDevAttrMaxPersistingL2CacheSize:
    return P.persistingL2CacheMaxSize;
  case cudaDevAttrMaxAccessPolicyWindowSize:
    return P.accessPolicyMaxWindowSize;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    return 1024;
  case cudaDevAttrMemoryPoolsSupported:
    return 0;
  case cudaDevAttrClusterLaunch:
    return 0;
  case cudaDevAttrNumaConfig:
    return 0;
  case cudaDevAttrNumaId:
    return -1;
  case cudaDevAttrHostNumaId:
    return -1;
  case cudaDevAttrMaxTexture1DWidth:
    return P.maxTexture1D;
  case cudaDevAttrMaxTexture2DWidth:
    return P.maxTexture2D[0];
  case cudaDevAttrMaxTexture2DHeight:
    return P.maxTexture2D[1];
  default:
    Known = int(A) > 0 && int(A) <= 150;
    return 0;
  }
}

const char *errorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "no error";
  case cudaErrorInvalidValue:
    return "invalid argument";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  case cudaErrorInitializationError:
    return "initialization error";
  case cudaErrorCudartUnloading:
    return "driver shutting down";
  case cudaErrorInvalidConfiguration:
    return "invalid configuration argument";
  case cudaErrorInvalidPitchValue:
    return "invalid pitch argument";
  case cudaErrorInvalidSymbol:
    return "invalid device symbol";
  case cudaErrorInvalidHostPointer:
    return "invalid host pointer";
  case cudaErrorInvalidDevicePointer:
    return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case cudaErrorMissingConfiguration:
    return "__global__ function call is not configured";
  case cudaErrorInvalidDeviceFunction:
    return "invalid device function";
  case cudaErrorNoDevice:
    return "no CUDA-capable device is detected";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorInvalidKernelImage:
    return "device kernel image is invalid";
  case cudaErrorNoKernelImageForDevice:
    return "no kernel image is available for execution on the device";
  case cudaErrorUnsupportedLimit:
    return "limit is not supported on this architecture";
  case cudaErrorInvalidPtx:
    return "a PTX JIT compilation failed";
  case cudaErrorSymbolNotFound:
    return "named symbol not found";
  case cudaErrorInvalidResourceHandle:
    return "invalid resource handle";
  case cudaErrorNotReady:
    return "device not ready";
  case cudaErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case cudaErrorLaunchOutOfResources:
    return "too many resources requested for launch";
  case cudaErrorLaunchTimeout:
    return "the launch timed out and was terminated";
  case cudaErrorAssert:
    return "device-side assert triggered";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  case cudaErrorNotPermitted:
    return "operation not permitted";
  case cudaErrorNotSupported:
    return "operation not supported";
  case cudaErrorUnknown:
    return "unknown error";
  default:
    return nullptr;
  }
}

const char *errorName(cudaError_t E) {
  switch (E) {
#define ERR(N)                                                                 \
  case N:                                                                      \
    return #N;
#include "ErrorNames.inc"
#undef ERR
  default:
    return nullptr;
  }
}

cudaError_t copy2D(void *Dst, size_t DPitch, const void *Src, size_t SPitch,
                   size_t Width, size_t Height, cudaMemcpyKind Kind) {
  if (!validKind(Kind))
    return cudaErrorInvalidMemcpyDirection;
  if (Width > DPitch || Width > SPitch)
    return cudaErrorInvalidPitchValue;
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return cudaErrorInvalidValue;
  for (size_t R = 0; R < Height; ++R)
    memmove(static_cast<char *>(Dst) + R * DPitch,
            static_cast<const char *>(Src) + R * SPitch, Width);
  return cudaSuccess;
}

cudaError_t set2D(void *Dst, size_t Pitch, int Value, size_t Width,
                  size_t Height) {
  if (Width > Pitch)
    return cudaErrorInvalidPitchValue;
  if (Width == 0 || Height == 0)
    return cudaSuccess;
  if (!Dst)
    return cudaErrorInvalidValue;
  for (size_t R = 0; R < Height; ++R)
    memset(static_cast<char *>(Dst) + R * Pitch, Value, Width);
  return cudaSuccess;
}

cudaError_t launch(const void *Func, dim3 Grid, dim3 Block, void **Args,
                   size_t Shared, cudaStream_t Stream) {
  CHECK_STICKY();
  if (!validStream(Stream))
    return cudaErrorInvalidResourceHandle;
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return E;
  const cudaDeviceProp &P = deviceProp();
  uint64_t Threads = uint64_t(Block.x) * Block.y * Block.z;
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z ||
      Grid.x > unsigned(P.maxGridSize[0]) ||
      Grid.y > unsigned(P.maxGridSize[1]) ||
      Grid.z > unsigned(P.maxGridSize[2]) ||
      Block.x > unsigned(P.maxThreadsDim[0]) ||
      Block.y > unsigned(P.maxThreadsDim[1]) ||
      Block.z > unsigned(P.maxThreadsDim[2]) || Threads > 1024 ||
      (K->MaxThreadsPerBlock && Threads > K->MaxThreadsPerBlock))
    return cudaErrorInvalidConfiguration;
  size_t DynLimit = F->MaxDynamicShared >= 0
                        ? size_t(F->MaxDynamicShared)
                        : (K->StaticSharedBytes < SharedPerBlock
                               ? SharedPerBlock - K->StaticSharedBytes
                               : 0);
  if (Shared > DynLimit || K->StaticSharedBytes + Shared > SharedPerBlockOptin)
    return cudaErrorInvalidValue;
  cudart::PackedArgs Packed;
  std::string Err;
  if (!cudart::packArgs(*K, Args, Packed, Err)) {
    emuError("launch of " + F->Name + ": " + Err);
    return cudaErrorInvalidValue;
  }
  LaunchParams LP;
  LP.Grid = {Grid.x, Grid.y, Grid.z};
  LP.Block = {Block.x, Block.y, Block.z};
  LP.DynamicSharedBytes = static_cast<uint32_t>(Shared);
  LP.Args = Packed.Ptrs.empty() ? nullptr : Packed.Ptrs.data();
  if (!F->Mod->M->launch(F->Name, LP, Err)) {
    emuError(Err.empty() ? "kernel " + F->Name + " failed" : Err);
    S().Sticky = cudaErrorLaunchFailure;
    return cudaErrorLaunchFailure;
  }
  return cudaSuccess;
}

} // namespace

//===-- helpers exposed for tests
//------------------------------------------===//

namespace warpscope::emu::cudart {

bool packArgs(const KernelInfo &K, void **Args, PackedArgs &Out,
              std::string &Error) {
  Out = PackedArgs();
  if (K.Params.empty())
    return true;
  if (!Args) {
    Error = "kernel " + K.Name + " takes " + std::to_string(K.Params.size()) +
            " parameters but no argument array was passed";
    return false;
  }
  size_t Off = 0;
  for (const ParamInfo &P : K.Params) {
    size_t A = P.Align ? P.Align : 1;
    Off = (Off + A - 1) / A * A;
    Out.Offsets.push_back(Off);
    Off += P.Size;
  }
  Out.Buffer.assign(Off ? Off : 1, 0);
  for (size_t I = 0; I < K.Params.size(); ++I) {
    if (!Args[I]) {
      Error = "argument " + std::to_string(I) + " (" + K.Params[I].Name +
              ") of kernel " + K.Name + " is a null pointer";
      return false;
    }
    memcpy(Out.Buffer.data() + Out.Offsets[I], Args[I], K.Params[I].Size);
  }
  for (size_t I = 0; I < K.Params.size(); ++I)
    Out.Ptrs.push_back(Out.Buffer.data() + Out.Offsets[I]);
  return true;
}

int occupancyBlocksPerSM(const KernelInfo &K, int BlockSize,
                         size_t DynamicShared) {
  if (BlockSize <= 0 || BlockSize > 1024 ||
      (K.MaxThreadsPerBlock && uint32_t(BlockSize) > K.MaxThreadsPerBlock))
    return 0;
  int Warps = (BlockSize + 31) / 32;
  int Blocks = std::min(MaxBlocksPerSM, (MaxThreadsPerSM / 32) / Warps);
  if (K.NumRegisters) {
    int RegsPerWarp = (int(K.NumRegisters) * 32 + 255) / 256 * 256;
    int WarpsByRegs = RegsPerSM / RegsPerWarp;
    Blocks = std::min(Blocks, WarpsByRegs / Warps);
  }
  size_t Shm = K.StaticSharedBytes + DynamicShared;
  if (Shm > SharedPerBlockOptin)
    return 0;
  if (Shm) {
    size_t PerBlock = (Shm + 1024 + 127) / 128 * 128; // 1 KiB reserved
    Blocks = std::min<int>(Blocks, int(SharedPerSM / PerBlock));
  }
  return std::max(Blocks, 0);
}

void resetStateForTesting() {
  State &St = S();
  Lock L(St.Mu);
  St.Modules.clear();
  St.Funcs.clear();
  St.Vars.clear();
  for (auto *M : {&St.DeviceAllocs, &St.HostAllocs})
    for (auto &A : *M) {
      unregisterAllocation(reinterpret_cast<void *>(A.first));
      free(reinterpret_cast<void *>(A.first));
    }
  St.DeviceAllocs.clear();
  St.HostAllocs.clear();
  St.HostAllocFlags.clear();
  St.DeviceBytes = 0;
  St.Streams.clear();
  St.Events.clear();
  St.Last = St.Sticky = cudaSuccess;
  St.NextModuleIndex = 0;
  ConfigStack.clear();
}

std::string truthDirectory() {
  return warpscope::outputDirectory(
      [](const char *Name) -> const char * { return getenv(Name); });
}

} // namespace warpscope::emu::cudart

extern "C" __attribute__((visibility("default"))) int
warpscope_emu_unsupported(const char *Name, int *Once) {
  if (!__atomic_exchange_n(Once, 1, __ATOMIC_RELAXED)) {
    fflush(stdout);
    fprintf(stderr, "warpscope-emu: not supported by the emulator: %s\n", Name);
  }
  Lock L(S().Mu);
  return setErr(cudaErrorNotSupported);
}

//===-- registration ABI
//---------------------------------------------------===//

WS_EXPORT void **__cudaRegisterFatBinary(void *FatCubin) {
  State &St = S();
  Lock L(St.Mu);
  auto R = std::make_unique<ModuleRec>();
  R->Index = St.NextModuleIndex++;
  R->WrapperPtr = FatCubin;
  void **H = reinterpret_cast<void **>(R.get());
  St.Modules.push_back(std::move(R));
  return H;
}

WS_EXPORT void __cudaRegisterFatBinaryEnd(void **Handle) { (void)Handle; }

WS_EXPORT void __cudaUnregisterFatBinary(void **Handle) {
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R)
    return;
  syncPoint();
  writeTruth(*R);
  R->Unregistered = true;
  // The host stubs and shadow variables may go away with the code that
  // registered them (dlclose); forget them so a later registration that
  // reuses the addresses cannot resolve to this module.
  for (auto It = St.Funcs.begin(); It != St.Funcs.end();)
    It = It->second.Mod == R ? St.Funcs.erase(It) : std::next(It);
  for (auto It = St.Vars.begin(); It != St.Vars.end();)
    It = It->second.Mod == R ? St.Vars.erase(It) : std::next(It);
}

WS_EXPORT void __cudaRegisterFunction(void **Handle, const char *HostFun,
                                      char *DeviceFun, const char *DeviceName,
                                      int ThreadLimit, uint3 *Tid, uint3 *Bid,
                                      dim3 *BDim, dim3 *GDim, int *WSize) {
  (void)DeviceFun, (void)ThreadLimit, (void)Tid, (void)Bid, (void)BDim,
      (void)GDim, (void)WSize;
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R || !DeviceName)
    return;
  R->KernelNames.push_back(DeviceName);
  FuncRec &F = St.Funcs[HostFun];
  F.Mod = R;
  F.Name = DeviceName;
}

WS_EXPORT void __cudaRegisterVar(void **Handle, char *HostVar,
                                 char *DeviceAddress, const char *DeviceName,
                                 int Ext, size_t Size, int Constant,
                                 int Global) {
  (void)DeviceAddress, (void)Ext, (void)Global;
  State &St = S();
  Lock L(St.Mu);
  ModuleRec *R = moduleOf(Handle);
  if (!R || !DeviceName)
    return;
  VarRec &V = St.Vars[HostVar];
  V.Mod = R;
  V.Name = DeviceName;
  V.Size = Size;
  V.Constant = Constant != 0;
}

WS_EXPORT void __cudaRegisterManagedVar(void **Handle, void **HostVarPtrAddress,
                                        char *DeviceAddress,
                                        const char *DeviceName, int Ext,
                                        size_t Size, int Constant, int Global) {
  (void)Handle, (void)HostVarPtrAddress, (void)DeviceAddress, (void)Ext,
      (void)Size, (void)Constant, (void)Global;
  emuError(std::string("__managed__ variable ") +
           (DeviceName ? DeviceName : "?") +
           " is not supported by the emulator");
  Lock L(S().Mu);
  setErr(cudaErrorNotSupported);
}

WS_EXPORT char __cudaInitModule(void **Handle) {
  Lock L(S().Mu);
  ModuleRec *R = moduleOf(Handle);
  return R && ensureLoaded(*R) == cudaSuccess;
}

//===-- launch ABI
//-----------------------------------------------------------===//

WS_EXPORT unsigned __cudaPushCallConfiguration(dim3 GridDim, dim3 BlockDim,
                                               size_t SharedMem,
                                               struct CUstream_st *Stream) {
  ConfigStack.push_back({GridDim, BlockDim, SharedMem, Stream});
  return 0;
}

WS_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *GridDim, dim3 *BlockDim,
                                                 size_t *SharedMem,
                                                 void *Stream) {
  if (ConfigStack.empty()) {
    Lock L(S().Mu);
    return setErr(cudaErrorMissingConfiguration);
  }
  LaunchConfig C = ConfigStack.back();
  ConfigStack.pop_back();
  if (GridDim)
    *GridDim = C.Grid;
  if (BlockDim)
    *BlockDim = C.Block;
  if (SharedMem)
    *SharedMem = C.Shared;
  if (Stream)
    *static_cast<void **>(Stream) = C.Stream;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaLaunchKernel(const void *Func, dim3 GridDim,
                                       dim3 BlockDim, void **Args,
                                       size_t SharedMem, cudaStream_t Stream) {
  Lock L(S().Mu);
  return setErr(launch(Func, GridDim, BlockDim, Args, SharedMem, Stream));
}

WS_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Config,
                                          const void *Func, void **Args) {
  Lock L(S().Mu);
  if (!Config)
    return setErr(cudaErrorInvalidValue);
  return setErr(launch(Func, Config->gridDim, Config->blockDim, Args,
                       Config->dynamicSmemBytes, Config->stream));
}

// nvcc 13's launch sequence: __cudaGetKernel once, then __cudaLaunchKernel.
// A cudaKernel_t here is the host stub address itself.
WS_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *Kernel, const void *Func) {
  Lock L(S().Mu);
  if (!Kernel)
    return setErr(cudaErrorInvalidValue);
  if (!S().Funcs.count(Func))
    return setErr(cudaErrorInvalidDeviceFunction);
  *Kernel = reinterpret_cast<cudaKernel_t>(const_cast<void *>(Func));
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *Kernel,
                                    const void *EntryFuncAddr) {
  return __cudaGetKernel(Kernel, EntryFuncAddr);
}

WS_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t Kernel, dim3 GridDim,
                                         dim3 BlockDim, void **Args,
                                         size_t SharedMem,
                                         cudaStream_t Stream) {
  Lock L(S().Mu);
  return setErr(launch(reinterpret_cast<const void *>(Kernel), GridDim,
                       BlockDim, Args, SharedMem, Stream));
}

//===-- memory
//---------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaMalloc(void **DevPtr, size_t Size) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!DevPtr)
    return setErr(cudaErrorInvalidValue);
  if (Size == 0) {
    *DevPtr = nullptr;
    return cudaSuccess;
  }
  if (Size > TotalMem - St.DeviceBytes) {
    *DevPtr = nullptr;
    return setErr(cudaErrorMemoryAllocation);
  }
  void *P = alignedAlloc(Size);
  if (!P) {
    *DevPtr = nullptr;
    return setErr(cudaErrorMemoryAllocation);
  }
  St.DeviceAllocs[reinterpret_cast<uintptr_t>(P)] = Size;
  St.DeviceBytes += Size;
  registerAllocation(P, Size);
  *DevPtr = P;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMallocManaged(void **DevPtr, size_t Size,
                                        unsigned Flags) {
  (void)Flags;
  return cudaMalloc(DevPtr, Size);
}

WS_EXPORT cudaError_t cudaMallocAsync(void **DevPtr, size_t Size,
                                      cudaStream_t Stream) {
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
  }
  return cudaMalloc(DevPtr, Size);
}

WS_EXPORT cudaError_t cudaFree(void *DevPtr) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!DevPtr)
    return cudaSuccess; // cudaFree(0): context warm-up idiom
  auto It = St.DeviceAllocs.find(reinterpret_cast<uintptr_t>(DevPtr));
  if (It == St.DeviceAllocs.end())
    return setErr(cudaErrorInvalidValue);
  St.DeviceBytes -= It->second;
  St.DeviceAllocs.erase(It);
  unregisterAllocation(DevPtr);
  free(DevPtr);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFreeAsync(void *DevPtr, cudaStream_t Stream) {
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
  }
  return cudaFree(DevPtr);
}

WS_EXPORT cudaError_t cudaHostAlloc(void **PHost, size_t Size,
                                    unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!PHost || Flags > 0xF)
    return setErr(cudaErrorInvalidValue);
  if (Size == 0) {
    *PHost = nullptr;
    return cudaSuccess;
  }
  void *P = alignedAlloc(Size);
  if (!P) {
    *PHost = nullptr;
    return setErr(cudaErrorMemoryAllocation);
  }
  St.HostAllocs[reinterpret_cast<uintptr_t>(P)] = Size;
  St.HostAllocFlags[reinterpret_cast<uintptr_t>(P)] = Flags;
  registerAllocation(P, Size); // pinned memory is device-accessible (UVA)
  *PHost = P;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMallocHost(void **Ptr, size_t Size) {
  return cudaHostAlloc(Ptr, Size, cudaHostAllocDefault);
}

WS_EXPORT cudaError_t cudaFreeHost(void *Ptr) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Ptr)
    return cudaSuccess;
  auto It = St.HostAllocs.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == St.HostAllocs.end())
    return setErr(cudaErrorInvalidValue);
  St.HostAllocs.erase(It);
  St.HostAllocFlags.erase(reinterpret_cast<uintptr_t>(Ptr));
  unregisterAllocation(Ptr);
  free(Ptr);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostGetDevicePointer(void **PDevice, void *PHost,
                                               unsigned int Flags) {
  Lock L(S().Mu);
  if (!PDevice || !PHost || Flags)
    return setErr(cudaErrorInvalidValue);
  *PDevice = PHost;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostGetFlags(unsigned int *PFlags, void *PHost) {
  State &St = S();
  Lock L(St.Mu);
  auto It = St.HostAllocFlags.find(reinterpret_cast<uintptr_t>(PHost));
  if (!PFlags || It == St.HostAllocFlags.end())
    return setErr(cudaErrorInvalidValue);
  *PFlags = It->second;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostRegister(void *Ptr, size_t Size,
                                       unsigned int Flags) {
  (void)Flags;
  Lock L(S().Mu);
  if (!Ptr || !Size)
    return setErr(cudaErrorInvalidValue);
  registerAllocation(Ptr, Size);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostUnregister(void *Ptr) {
  Lock L(S().Mu);
  if (!Ptr)
    return setErr(cudaErrorInvalidValue);
  unregisterAllocation(Ptr);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMallocPitch(void **DevPtr, size_t *Pitch,
                                      size_t Width, size_t Height) {
  {
    Lock L(S().Mu);
    if (!DevPtr || !Pitch)
      return setErr(cudaErrorInvalidValue);
  }
  size_t P = (Width + PitchAlign - 1) / PitchAlign * PitchAlign;
  if (Height && P > SIZE_MAX / Height) {
    Lock L(S().Mu);
    return setErr(cudaErrorMemoryAllocation);
  }
  cudaError_t E = cudaMalloc(DevPtr, P * Height);
  if (E == cudaSuccess)
    *Pitch = P;
  return E;
}

WS_EXPORT cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Free || !Total)
    return setErr(cudaErrorInvalidValue);
  *Total = TotalMem;
  *Free = TotalMem - St.DeviceBytes;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *Attr,
                                               const void *Ptr) {
  State &St = S();
  Lock L(St.Mu);
  if (!Attr)
    return setErr(cudaErrorInvalidValue);
  memset(Attr, 0, sizeof(*Attr));
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  auto Inside = [P](const std::map<uintptr_t, size_t> &M) {
    auto It = M.upper_bound(P);
    if (It == M.begin())
      return false;
    --It;
    return P < It->first + std::max<size_t>(It->second, 1);
  };
  Attr->device = 0;
  if (Inside(St.DeviceAllocs)) {
    Attr->type = cudaMemoryTypeDevice;
    Attr->devicePointer = const_cast<void *>(Ptr);
  } else if (Inside(St.HostAllocs)) {
    Attr->type = cudaMemoryTypeHost;
    Attr->devicePointer = const_cast<void *>(Ptr);
    Attr->hostPointer = const_cast<void *>(Ptr);
  } else {
    Attr->type = cudaMemoryTypeUnregistered;
    Attr->device = -2;
  }
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                 cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validKind(Kind))
    return setErr(cudaErrorInvalidMemcpyDirection);
  if (Count == 0)
    return cudaSuccess;
  if (!Dst || !Src)
    return setErr(cudaErrorInvalidValue);
  memmove(Dst, Src, Count);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                                      cudaMemcpyKind Kind,
                                      cudaStream_t Stream) {
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
  }
  return cudaMemcpy(Dst, Src, Count, Kind);
}

WS_EXPORT cudaError_t cudaMemcpyPeer(void *Dst, int DstDevice, const void *Src,
                                     int SrcDevice, size_t Count) {
  {
    Lock L(S().Mu);
    if (DstDevice != 0 || SrcDevice != 0)
      return setErr(cudaErrorInvalidDevice);
  }
  return cudaMemcpy(Dst, Src, Count, cudaMemcpyDeviceToDevice);
}

WS_EXPORT cudaError_t cudaMemset(void *DevPtr, int Value, size_t Count) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (Count == 0)
    return cudaSuccess;
  if (!DevPtr)
    return setErr(cudaErrorInvalidValue);
  memset(DevPtr, Value, Count);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemsetAsync(void *DevPtr, int Value, size_t Count,
                                      cudaStream_t Stream) {
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
  }
  return cudaMemset(DevPtr, Value, Count);
}

WS_EXPORT cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                                   size_t SPitch, size_t Width, size_t Height,
                                   cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(copy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind));
}

WS_EXPORT cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch,
                                        const void *Src, size_t SPitch,
                                        size_t Width, size_t Height,
                                        cudaMemcpyKind Kind,
                                        cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return setErr(copy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind));
}

WS_EXPORT cudaError_t cudaMemset2D(void *DevPtr, size_t Pitch, int Value,
                                   size_t Width, size_t Height) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(set2D(DevPtr, Pitch, Value, Width, Height));
}

WS_EXPORT cudaError_t cudaMemset2DAsync(void *DevPtr, size_t Pitch, int Value,
                                        size_t Width, size_t Height,
                                        cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return setErr(set2D(DevPtr, Pitch, Value, Width, Height));
}

WS_EXPORT cudaError_t cudaMemcpyPeerAsync(void *Dst, int DstDevice,
                                          const void *Src, int SrcDevice,
                                          size_t Count, cudaStream_t Stream) {
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
  }
  return cudaMemcpyPeer(Dst, DstDevice, Src, SrcDevice, Count);
}

WS_EXPORT cudaError_t cudaMalloc3D(cudaPitchedPtr *PitchedDevPtr,
                                   cudaExtent Extent) {
  {
    Lock L(S().Mu);
    if (!PitchedDevPtr)
      return setErr(cudaErrorInvalidValue);
  }
  void *P = nullptr;
  size_t Pitch = 0;
  size_t Rows = Extent.height * Extent.depth;
  if (Extent.depth && Rows / Extent.depth != Extent.height) {
    Lock L(S().Mu);
    return setErr(cudaErrorMemoryAllocation);
  }
  cudaError_t E = cudaMallocPitch(&P, &Pitch, Extent.width, Rows);
  if (E == cudaSuccess) {
    PitchedDevPtr->ptr = P;
    PitchedDevPtr->pitch = Pitch;
    PitchedDevPtr->xsize = Extent.width;
    PitchedDevPtr->ysize = Extent.height;
  }
  return E;
}

static cudaError_t set3D(cudaPitchedPtr P, int Value, cudaExtent E) {
  if (E.width > P.pitch)
    return cudaErrorInvalidValue;
  if (!E.width || !E.height || !E.depth)
    return cudaSuccess;
  if (!P.ptr)
    return cudaErrorInvalidValue;
  size_t SliceRows = P.ysize ? P.ysize : E.height;
  for (size_t Z = 0; Z < E.depth; ++Z)
    for (size_t Y = 0; Y < E.height; ++Y)
      memset(static_cast<char *>(P.ptr) + (Z * SliceRows + Y) * P.pitch, Value,
             E.width);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemset3D(cudaPitchedPtr PitchedDevPtr, int Value,
                                   cudaExtent Extent) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(set3D(PitchedDevPtr, Value, Extent));
}

WS_EXPORT cudaError_t cudaMemset3DAsync(cudaPitchedPtr PitchedDevPtr, int Value,
                                        cudaExtent Extent,
                                        cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return setErr(set3D(PitchedDevPtr, Value, Extent));
}

static cudaError_t copy3D(const cudaMemcpy3DParms *P) {
  if (!P)
    return cudaErrorInvalidValue;
  if (P->srcArray || P->dstArray)
    return cudaErrorNotSupported; // CUDA arrays are not emulated
  if (!validKind(P->kind))
    return cudaErrorInvalidMemcpyDirection;
  const cudaExtent &E = P->extent;
  if (!E.width || !E.height || !E.depth)
    return cudaSuccess;
  const cudaPitchedPtr &Sp = P->srcPtr, &Dp = P->dstPtr;
  if (!Sp.ptr || !Dp.ptr || P->srcPos.x + E.width > Sp.pitch ||
      P->dstPos.x + E.width > Dp.pitch)
    return cudaErrorInvalidValue;
  size_t SRows = Sp.ysize ? Sp.ysize : E.height;
  size_t DRows = Dp.ysize ? Dp.ysize : E.height;
  for (size_t Z = 0; Z < E.depth; ++Z)
    for (size_t Y = 0; Y < E.height; ++Y) {
      const char *Src =
          static_cast<const char *>(Sp.ptr) +
          ((P->srcPos.z + Z) * SRows + P->srcPos.y + Y) * Sp.pitch +
          P->srcPos.x;
      char *Dst = static_cast<char *>(Dp.ptr) +
                  ((P->dstPos.z + Z) * DRows + P->dstPos.y + Y) * Dp.pitch +
                  P->dstPos.x;
      memmove(Dst, Src, E.width);
    }
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *P) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(copy3D(P));
}

WS_EXPORT cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *P,
                                        cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return setErr(copy3D(P));
}

WS_EXPORT cudaError_t cudaMemPrefetchAsync(const void *DevPtr, size_t Count,
                                           cudaMemLocation Location,
                                           unsigned int Flags,
                                           cudaStream_t Stream) {
  (void)DevPtr, (void)Count, (void)Location, (void)Flags;
  Lock L(S().Mu);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaSuccess; // one memory: nothing to migrate
}

WS_EXPORT cudaError_t cudaMemAdvise(const void *DevPtr, size_t Count,
                                    cudaMemoryAdvise Advice,
                                    cudaMemLocation Location) {
  (void)DevPtr, (void)Count, (void)Advice, (void)Location;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *CanAccessPeer, int Device,
                                              int PeerDevice) {
  Lock L(S().Mu);
  if (!CanAccessPeer)
    return setErr(cudaErrorInvalidValue);
  if (Device != 0 || PeerDevice != 0)
    return setErr(cudaErrorInvalidDevice);
  *CanAccessPeer = 0;
  return cudaSuccess;
}

//===-- symbols
//--------------------------------------------------------------===//

static cudaError_t symbolCopy(const void *Symbol, void *Host, size_t Count,
                              size_t Offset, cudaMemcpyKind Kind, bool To,
                              cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  if (!validKind(Kind) ||
      (To &&
       (Kind == cudaMemcpyDeviceToHost || Kind == cudaMemcpyHostToHost)) ||
      (!To && (Kind == cudaMemcpyHostToDevice || Kind == cudaMemcpyHostToHost)))
    return setErr(cudaErrorInvalidMemcpyDirection);
  const GlobalInfo *G = nullptr;
  if (cudaError_t E = findSymbol(Symbol, G))
    return setErr(E);
  if (Offset > G->Size || Count > G->Size - Offset)
    return setErr(cudaErrorInvalidValue);
  if (Count == 0)
    return cudaSuccess;
  if (!Host)
    return setErr(cudaErrorInvalidValue);
  char *Dev = static_cast<char *>(G->Address) + Offset;
  if (To)
    memmove(Dev, Host, Count);
  else
    memmove(Host, Dev, Count);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                                         size_t Count, size_t Offset,
                                         cudaMemcpyKind Kind) {
  return symbolCopy(Symbol, const_cast<void *>(Src), Count, Offset, Kind, true,
                    nullptr);
}

WS_EXPORT cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol,
                                           size_t Count, size_t Offset,
                                           cudaMemcpyKind Kind) {
  return symbolCopy(Symbol, Dst, Count, Offset, Kind, false, nullptr);
}

WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol,
                                              const void *Src, size_t Count,
                                              size_t Offset,
                                              cudaMemcpyKind Kind,
                                              cudaStream_t Stream) {
  return symbolCopy(Symbol, const_cast<void *>(Src), Count, Offset, Kind, true,
                    Stream);
}

WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                                size_t Count, size_t Offset,
                                                cudaMemcpyKind Kind,
                                                cudaStream_t Stream) {
  return symbolCopy(Symbol, Dst, Count, Offset, Kind, false, Stream);
}

WS_EXPORT cudaError_t cudaGetSymbolAddress(void **DevPtr, const void *Symbol) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!DevPtr)
    return setErr(cudaErrorInvalidValue);
  const GlobalInfo *G = nullptr;
  if (cudaError_t E = findSymbol(Symbol, G))
    return setErr(E);
  *DevPtr = G->Address;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetSymbolSize(size_t *Size, const void *Symbol) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Size)
    return setErr(cudaErrorInvalidValue);
  const GlobalInfo *G = nullptr;
  if (cudaError_t E = findSymbol(Symbol, G))
    return setErr(E);
  *Size = G->Size;
  return cudaSuccess;
}

//===-- streams
//----------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *PStream,
                                                   unsigned int Flags,
                                                   int Priority) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!PStream || Flags > cudaStreamNonBlocking)
    return setErr(cudaErrorInvalidValue);
  auto R = std::make_unique<StreamRec>();
  R->Flags = Flags;
  R->Priority = std::max(-5, std::min(0, Priority));
  auto *H = reinterpret_cast<cudaStream_t>(R.get());
  St.Streams[H] = std::move(R);
  *PStream = H;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *PStream,
                                                unsigned int Flags) {
  return cudaStreamCreateWithPriority(PStream, Flags, 0);
}

WS_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *PStream) {
  return cudaStreamCreateWithPriority(PStream, cudaStreamDefault, 0);
}

WS_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t Stream) {
  State &St = S();
  Lock L(St.Mu);
  if (!Stream || !St.Streams.count(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  St.Streams.erase(Stream);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  syncPoint();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamQuery(cudaStream_t Stream) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t Stream,
                                          cudaEvent_t Event,
                                          unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!validStream(Stream) || !St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  if (Flags > 1)
    return setErr(cudaErrorInvalidValue);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t Stream,
                                         unsigned int *Flags) {
  State &St = S();
  Lock L(St.Mu);
  if (!Flags || !validStream(Stream))
    return setErr(Flags ? cudaErrorInvalidResourceHandle
                        : cudaErrorInvalidValue);
  auto It = St.Streams.find(Stream);
  *Flags = It == St.Streams.end() ? 0 : It->second->Flags;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t Stream,
                                            int *Priority) {
  State &St = S();
  Lock L(St.Mu);
  if (!Priority || !validStream(Stream))
    return setErr(Priority ? cudaErrorInvalidResourceHandle
                           : cudaErrorInvalidValue);
  auto It = St.Streams.find(Stream);
  *Priority = It == St.Streams.end() ? 0 : It->second->Priority;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetId(cudaStream_t Stream,
                                      unsigned long long *Id) {
  Lock L(S().Mu);
  if (!Id)
    return setErr(cudaErrorInvalidValue);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  *Id = reinterpret_cast<uintptr_t>(Stream);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t Stream, int *Device) {
  Lock L(S().Mu);
  if (!Device)
    return setErr(cudaErrorInvalidValue);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *Least,
                                                       int *Greatest) {
  if (Least)
    *Least = 0;
  if (Greatest)
    *Greatest = -5;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                                         void *UserData) {
  {
    Lock L(S().Mu);
    CHECK_STICKY();
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
    if (!Fn)
      return setErr(cudaErrorInvalidValue);
  }
  Fn(UserData);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                            cudaStreamCallback_t Callback,
                                            void *UserData,
                                            unsigned int Flags) {
  cudaError_t Status;
  {
    Lock L(S().Mu);
    if (!validStream(Stream))
      return setErr(cudaErrorInvalidResourceHandle);
    if (!Callback || Flags)
      return setErr(cudaErrorInvalidValue);
    Status = S().Sticky;
  }
  Callback(Stream, Status, UserData);
  return cudaSuccess;
}

//===-- events
//-----------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Event,
                                               unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Event || Flags > (cudaEventBlockingSync | cudaEventDisableTiming |
                         cudaEventInterprocess))
    return setErr(cudaErrorInvalidValue);
  auto R = std::make_unique<EventRec>();
  R->Flags = Flags;
  auto *H = reinterpret_cast<cudaEvent_t>(R.get());
  St.Events[H] = std::move(R);
  *Event = H;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *Event) {
  return cudaEventCreateWithFlags(Event, cudaEventDefault);
}

WS_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t Event,
                                               cudaStream_t Stream,
                                               unsigned int Flags) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  auto It = St.Events.find(Event);
  if (It == St.Events.end() || !validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  (void)Flags;
  It->second->Recorded = true;
  It->second->T = std::chrono::steady_clock::now();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  return cudaEventRecordWithFlags(Event, Stream, 0);
}

WS_EXPORT cudaError_t cudaEventQuery(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  syncPoint();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t Event) {
  State &St = S();
  Lock L(St.Mu);
  if (!St.Events.count(Event))
    return setErr(cudaErrorInvalidResourceHandle);
  St.Events.erase(Event);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                           cudaEvent_t End) {
  State &St = S();
  Lock L(St.Mu);
  CHECK_STICKY();
  if (!Ms)
    return setErr(cudaErrorInvalidValue);
  auto A = St.Events.find(Start), B = St.Events.find(End);
  if (A == St.Events.end() || B == St.Events.end())
    return setErr(cudaErrorInvalidResourceHandle);
  if ((A->second->Flags | B->second->Flags) & cudaEventDisableTiming)
    return setErr(cudaErrorInvalidResourceHandle);
  if (!A->second->Recorded || !B->second->Recorded)
    return setErr(cudaErrorInvalidResourceHandle);
  *Ms = std::chrono::duration<float, std::milli>(B->second->T - A->second->T)
            .count();
  return cudaSuccess;
}

//===-- device
//-----------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaGetDeviceCount(int *Count) {
  Lock L(S().Mu);
  if (!Count)
    return setErr(cudaErrorInvalidValue);
  *Count = 1;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaSetDevice(int Device) {
  Lock L(S().Mu);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDevice(int *Device) {
  Lock L(S().Mu);
  if (!Device)
    return setErr(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaInitDevice(int Device, unsigned int DeviceFlags,
                                     unsigned int Flags) {
  (void)DeviceFlags, (void)Flags;
  return cudaSetDevice(Device);
}

WS_EXPORT cudaError_t cudaChooseDevice(int *Device,
                                       const cudaDeviceProp *Prop) {
  Lock L(S().Mu);
  if (!Device || !Prop)
    return setErr(cudaErrorInvalidValue);
  *Device = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int Flags) {
  Lock L(S().Mu);
  if (Flags & ~0x1Fu)
    return setErr(cudaErrorInvalidValue);
  S().DeviceFlags = Flags;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *Flags) {
  Lock L(S().Mu);
  if (!Flags)
    return setErr(cudaErrorInvalidValue);
  *Flags = S().DeviceFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDeviceProperties(cudaDeviceProp *Prop,
                                              int Device) {
  Lock L(S().Mu);
  if (!Prop)
    return setErr(cudaErrorInvalidValue);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  *Prop = deviceProp();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                             int Device) {
  Lock L(S().Mu);
  if (!Value)
    return setErr(cudaErrorInvalidValue);
  if (Device != 0)
    return setErr(cudaErrorInvalidDevice);
  bool Known;
  int V = deviceAttr(Attr, Known);
  if (!Known)
    return setErr(cudaErrorInvalidValue);
  *Value = V;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDriverGetVersion(int *V) {
  if (!V) {
    Lock L(S().Mu);
    return setErr(cudaErrorInvalidValue);
  }
  *V = 13000;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaRuntimeGetVersion(int *V) {
  if (!V) {
    Lock L(S().Mu);
    return setErr(cudaErrorInvalidValue);
  }
  *V = 13000;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSynchronize(void) {
  Lock L(S().Mu);
  syncPoint();
  CHECK_STICKY();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceReset(void) {
  State &St = S();
  Lock L(St.Mu);
  syncPoint();
  for (auto &A : St.DeviceAllocs) {
    unregisterAllocation(reinterpret_cast<void *>(A.first));
    free(reinterpret_cast<void *>(A.first));
  }
  St.DeviceAllocs.clear();
  St.DeviceBytes = 0;
  St.Streams.clear();
  St.Events.clear();
  St.Last = St.Sticky = cudaSuccess;
  St.DeviceFlags = 0;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetLimit(cudaLimit Limit, size_t Value) {
  Lock L(S().Mu);
  if (unsigned(Limit) >= 7)
    return setErr(cudaErrorUnsupportedLimit);
  S().Limits[Limit] = Value;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetLimit(size_t *Value, cudaLimit Limit) {
  Lock L(S().Mu);
  if (!Value)
    return setErr(cudaErrorInvalidValue);
  if (unsigned(Limit) >= 7)
    return setErr(cudaErrorUnsupportedLimit);
  *Value = S().Limits[Limit];
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache Config) {
  Lock L(S().Mu);
  S().CacheConfig = Config;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *Config) {
  Lock L(S().Mu);
  if (!Config)
    return setErr(cudaErrorInvalidValue);
  *Config = S().CacheConfig;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
WS_EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

//===-- errors
//-----------------------------------------------------------------===//

WS_EXPORT cudaError_t cudaGetLastError(void) {
  State &St = S();
  Lock L(St.Mu);
  cudaError_t E = St.Sticky != cudaSuccess ? St.Sticky : St.Last;
  St.Last = cudaSuccess;
  return E;
}

WS_EXPORT cudaError_t cudaPeekAtLastError(void) {
  State &St = S();
  Lock L(St.Mu);
  return St.Sticky != cudaSuccess ? St.Sticky : St.Last;
}

WS_EXPORT const char *cudaGetErrorString(cudaError_t E) {
  if (const char *Str = errorString(E))
    return Str;
  if (const char *N = errorName(E))
    return N;
  return "unrecognized error code";
}

WS_EXPORT const char *cudaGetErrorName(cudaError_t E) {
  if (const char *N = errorName(E))
    return N;
  return "unrecognized error code";
}

//===-- functions & occupancy
//----------------------------------------------------===//

WS_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr,
                                            const void *Func) {
  Lock L(S().Mu);
  if (!Attr)
    return setErr(cudaErrorInvalidValue);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  memset(Attr, 0, sizeof(*Attr));
  Attr->sharedSizeBytes = K->StaticSharedBytes;
  Attr->constSizeBytes = 0;
  Attr->localSizeBytes = K->LocalBytesPerThread;
  Attr->maxThreadsPerBlock = int(std::min<uint32_t>(
      1024, K->MaxThreadsPerBlock ? K->MaxThreadsPerBlock : 1024));
  Attr->numRegs = int(K->NumRegisters);
  Attr->ptxVersion = int(F->Mod->PtxArch);
  Attr->binaryVersion = 90;
  Attr->maxDynamicSharedSizeBytes =
      F->MaxDynamicShared >= 0 ? F->MaxDynamicShared
                               : int(K->StaticSharedBytes < SharedPerBlock
                                         ? SharedPerBlock - K->StaticSharedBytes
                                         : 0);
  Attr->preferredShmemCarveout = F->Carveout;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFuncSetAttribute(const void *Func,
                                           cudaFuncAttribute Attr, int Value) {
  Lock L(S().Mu);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  switch (Attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize:
    if (Value < 0 || K->StaticSharedBytes + size_t(Value) > SharedPerBlockOptin)
      return setErr(cudaErrorInvalidValue);
    F->MaxDynamicShared = Value;
    return cudaSuccess;
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    if (Value < -1 || Value > 100)
      return setErr(cudaErrorInvalidValue);
    F->Carveout = Value;
    return cudaSuccess;
  default:
    return cudaSuccess; // cluster/scheduling hints: accepted, no effect
  }
}

WS_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *Func,
                                             cudaFuncCache Config) {
  (void)Config;
  Lock L(S().Mu);
  if (!S().Funcs.count(Func))
    return setErr(cudaErrorInvalidDeviceFunction);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFuncGetName(const char **Name, const void *Func) {
  Lock L(S().Mu);
  if (!Name)
    return setErr(cudaErrorInvalidValue);
  auto It = S().Funcs.find(Func);
  if (It == S().Funcs.end())
    return setErr(cudaErrorInvalidDeviceFunction);
  *Name = It->second.Name.c_str();
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFuncGetParamInfo(const void *Func, size_t ParamIndex,
                                           size_t *ParamOffset,
                                           size_t *ParamSize) {
  Lock L(S().Mu);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  if (ParamIndex >= K->Params.size())
    return setErr(cudaErrorInvalidValue);
  size_t Off = 0;
  for (size_t I = 0; I <= ParamIndex; ++I) {
    size_t A = K->Params[I].Align ? K->Params[I].Align : 1;
    Off = (Off + A - 1) / A * A;
    if (I < ParamIndex)
      Off += K->Params[I].Size;
  }
  if (ParamOffset)
    *ParamOffset = Off;
  if (ParamSize)
    *ParamSize = K->Params[ParamIndex].Size;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize,
    unsigned int Flags) {
  (void)Flags;
  Lock L(S().Mu);
  if (!NumBlocks)
    return setErr(cudaErrorInvalidValue);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  *NumBlocks = cudart::occupancyBlocksPerSM(*K, BlockSize, DynamicSMemSize);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *NumBlocks, const void *Func, int BlockSize, size_t DynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      NumBlocks, Func, BlockSize, DynamicSMemSize, 0);
}

WS_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(
    size_t *DynamicSmemSize, const void *Func, int NumBlocks, int BlockSize) {
  Lock L(S().Mu);
  if (!DynamicSmemSize || NumBlocks <= 0 || BlockSize <= 0)
    return setErr(cudaErrorInvalidValue);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  size_t PerBlock = SharedPerSM / size_t(NumBlocks);
  PerBlock = PerBlock > 1024 ? PerBlock - 1024 : 0;
  PerBlock = std::min(PerBlock, SharedPerBlockOptin);
  *DynamicSmemSize =
      PerBlock > K->StaticSharedBytes ? PerBlock - K->StaticSharedBytes : 0;
  return cudaSuccess;
}

WS_EXPORT struct cudaChannelFormatDesc
cudaCreateChannelDesc(int X, int Y, int Z, int W, cudaChannelFormatKind F) {
  cudaChannelFormatDesc D;
  D.x = X;
  D.y = Y;
  D.z = Z;
  D.w = W;
  D.f = F;
  return D;
}

//===-- per-thread default stream variants (--default-stream per-thread) --===//

#define WS_ALIAS(NEW, OLD, RET, ...)                                           \
  WS_EXPORT RET NEW(__VA_ARGS__) __attribute__((alias(#OLD)));

WS_ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel, cudaError_t, const void *,
         dim3, dim3, void **, size_t, cudaStream_t)
WS_ALIAS(__cudaLaunchKernel_ptsz, __cudaLaunchKernel, cudaError_t, cudaKernel_t,
         dim3, dim3, void **, size_t, cudaStream_t)
WS_ALIAS(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC, cudaError_t,
         const cudaLaunchConfig_t *, const void *, void **)
WS_ALIAS(cudaMemcpy_ptds, cudaMemcpy, cudaError_t, void *, const void *, size_t,
         cudaMemcpyKind)
WS_ALIAS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync, cudaError_t, void *,
         const void *, size_t, cudaMemcpyKind, cudaStream_t)
WS_ALIAS(cudaMemset_ptds, cudaMemset, cudaError_t, void *, int, size_t)
WS_ALIAS(cudaMemsetAsync_ptsz, cudaMemsetAsync, cudaError_t, void *, int,
         size_t, cudaStream_t)
WS_ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D, cudaError_t, void *, size_t,
         const void *, size_t, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync, cudaError_t, void *, size_t,
         const void *, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t)
WS_ALIAS(cudaMemset2D_ptds, cudaMemset2D, cudaError_t, void *, size_t, int,
         size_t, size_t)
WS_ALIAS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync, cudaError_t, void *, size_t,
         int, size_t, size_t, cudaStream_t)
WS_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol, cudaError_t, const void *,
         const void *, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol, cudaError_t, void *,
         const void *, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync, cudaError_t,
         const void *, const void *, size_t, size_t, cudaMemcpyKind,
         cudaStream_t)
WS_ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync, cudaError_t,
         void *, const void *, size_t, size_t, cudaMemcpyKind, cudaStream_t)
WS_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize, cudaError_t,
         cudaStream_t)
WS_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery, cudaError_t, cudaStream_t)
WS_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent, cudaError_t,
         cudaStream_t, cudaEvent_t, unsigned int)
WS_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags, cudaError_t, cudaStream_t,
         unsigned int *)
WS_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority, cudaError_t,
         cudaStream_t, int *)
WS_ALIAS(cudaEventRecord_ptsz, cudaEventRecord, cudaError_t, cudaEvent_t,
         cudaStream_t)
WS_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags, cudaError_t,
         cudaEvent_t, cudaStream_t, unsigned int)
WS_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc, cudaError_t, cudaStream_t,
         cudaHostFn_t, void *)
WS_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback, cudaError_t,
         cudaStream_t, cudaStreamCallback_t, void *, unsigned int)
WS_ALIAS(cudaMallocAsync_ptsz, cudaMallocAsync, cudaError_t, void **, size_t,
         cudaStream_t)
WS_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D, cudaError_t,
         const cudaMemcpy3DParms *)
WS_ALIAS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync, cudaError_t,
         const cudaMemcpy3DParms *, cudaStream_t)
WS_ALIAS(cudaMemset3D_ptds, cudaMemset3D, cudaError_t, cudaPitchedPtr, int,
         cudaExtent)
WS_ALIAS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync, cudaError_t, cudaPitchedPtr,
         int, cudaExtent, cudaStream_t)
WS_ALIAS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync, cudaError_t,
         const void *, size_t, cudaMemLocation, unsigned int, cudaStream_t)
WS_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId, cudaError_t, cudaStream_t,
         unsigned long long *)
WS_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice, cudaError_t,
         cudaStream_t, int *)
WS_ALIAS(cudaFreeAsync_ptsz, cudaFreeAsync, cudaError_t, void *, cudaStream_t)
