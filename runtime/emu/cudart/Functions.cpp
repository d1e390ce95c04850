//===- Functions.cpp - kernel attributes and occupancy --------------------===//
//
// cudaFuncGetAttributes, cudaFuncSetAttribute & co., answered from the
// kernel's PTX (KernelInfo), and occupancy against the emulated H100's
// per-SM limits of threads, blocks, registers and shared memory.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/ABI/KernelResources.h"
#include "warpscope/Support/Demangle.h"
#include "warpscope/Support/Occupancy.h"

#include <cstdio>

#include <algorithm>
#include <cstring>

using namespace warpscope;
using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

int occupancyBlocksPerSM(const KernelInfo &K, int BlockSize,
                         size_t DynamicShared) {
  if (BlockSize <= 0 ||
      (K.MaxThreadsPerBlock && uint32_t(BlockSize) > K.MaxThreadsPerBlock))
    return 0;
  KernelFootprint F;
  F.ThreadsPerBlock = uint32_t(BlockSize);
  F.RegistersPerThread = K.NumRegisters;
  F.StaticSharedBytes = K.StaticSharedBytes;
  F.DynamicSharedBytes = DynamicShared;
  return int(theoreticalOccupancy(H100Limits, F).BlocksPerSM);
}

const PtxasKernel *machineResources(FuncRec &F, std::string &Why) {
  ModuleRec &M = *F.Mod;
  if (!M.PtxasTried) {
    M.PtxasTried = true;
    PtxasSettings Settings = readPtxasSettings(support::processEnvironment);
    if (!ptxasResources(M.Ptx, Settings, M.Ptxas, M.PtxasError)) {
      M.Ptxas.clear();
      // One line per module: every kernel in it lacks figures for the
      // same reason.
      fflush(stdout);
      fprintf(stderr,
              "warpscope-emu: warning: kernel %s: no register or occupancy "
              "figures: %s\n",
              withDemangledNames(F.Name).c_str(), M.PtxasError.c_str());
      fflush(stderr);
    }
  }
  auto It = M.Ptxas.find(F.Name);
  if (It != M.Ptxas.end())
    return &It->second;
  Why = M.PtxasError.empty() ? "ptxas did not report kernel " + F.Name
                             : M.PtxasError;
  return nullptr;
}

} // namespace warpscope::emu::cudart

namespace {

/// K with what the machine code uses, where ptxas said; the PTX's own
/// figures (declared registers) otherwise, so programs still run.
KernelInfo withMachineResources(FuncRec &F, const KernelInfo &K) {
  KernelInfo Out = K;
  std::string Why;
  if (const PtxasKernel *P = machineResources(F, Why)) {
    Out.NumRegisters = P->Registers;
    Out.StaticSharedBytes = uint32_t(P->SharedBytes);
    Out.LocalBytesPerThread = uint32_t(P->StackFrameBytes);
  }
  return Out;
}

} // namespace

// warpscope::EmuKernelResourcesFunction (ABI/KernelResources.h): spills
// and "unknown" for the host runtime.
WS_EXPORT int __warpscope_emu_kernel_resources(const void *Func,
                                               KernelResources *Out) {
  Lock L(S().Mu);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (!Out)
    return cudaErrorInvalidValue;
  if (cudaError_t E = findKernel(Func, F, K))
    return E;
  *Out = KernelResources();
  std::string Why;
  if (const PtxasKernel *P = machineResources(*F, Why)) {
    Out->Known = 1;
    Out->Registers = P->Registers;
    Out->StackFrameBytes = P->StackFrameBytes;
    Out->SpillStoreBytes = P->SpillStoreBytes;
    Out->SpillLoadBytes = P->SpillLoadBytes;
    Out->StaticSharedBytes = P->SharedBytes;
  } else {
    snprintf(Out->Why, sizeof(Out->Why), "%s", Why.c_str());
  }
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *Attr,
                                            const void *Func) {
  Lock L(S().Mu);
  if (!Attr)
    return setErr(cudaErrorInvalidValue);
  FuncRec *F = nullptr;
  const KernelInfo *K = nullptr;
  if (cudaError_t E = findKernel(Func, F, K))
    return setErr(E);
  const KernelInfo Machine = withMachineResources(*F, *K);
  K = &Machine;
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
  *NumBlocks = cudart::occupancyBlocksPerSM(withMachineResources(*F, *K),
                                            BlockSize, DynamicSMemSize);
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
