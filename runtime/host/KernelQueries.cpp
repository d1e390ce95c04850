//===- KernelQueries.cpp - What kernels and the device offer --------------===//

#include "KernelQueries.h"
#include "warpscope/ABI/KernelResources.h"
#include <cuda_runtime_api.h>
#include <dlfcn.h>

using namespace warpscope;
using namespace warpscope::rt;

namespace {

/// The emulator's hook, or null on a real CUDA runtime.
EmuKernelResourcesFn emulatorKernelResources() {
  static auto Hook = reinterpret_cast<EmuKernelResourcesFn>(
      dlsym(RTLD_DEFAULT, EmuKernelResourcesFunction));
  return Hook;
}

KernelAttributes askAttributes(const void *Func, bool &Failed) {
  EmuKernelResourcesFn Ext = emulatorKernelResources();
  KernelAttributes A;
  A.Source = Ext ? "ptxas" : "cuda-runtime";
  cudaFuncAttributes FA;
  if (cudaError_t E = cudaFuncGetAttributes(&FA, Func); E != cudaSuccess) {
    Failed = true;
    A.Error =
        std::string("cudaFuncGetAttributes failed: ") + cudaGetErrorString(E);
    return A;
  }
  if (Ext) {
    // The emulator answered cudaFuncGetAttributes from ptxas too; its
    // hook adds spills and says when ptxas gave nothing.
    KernelResources KR;
    if (int E = Ext(Func, &KR); E || !KR.Known) {
      A.Error = E ? cudaGetErrorString(cudaError_t(E)) : KR.Why;
      return A;
    }
    A.SpillStoreBytes = KR.SpillStoreBytes;
    A.SpillLoadBytes = KR.SpillLoadBytes;
  }
  A.Known = true;
  A.Registers = uint32_t(FA.numRegs);
  A.LocalBytes = FA.localSizeBytes;
  A.StaticSharedBytes = FA.sharedSizeBytes;
  A.MaxThreadsPerBlock = uint32_t(FA.maxThreadsPerBlock);
  return A;
}

} // namespace

void warpscope::rt::queryKernelResources(Registry &Reg, const void *Func,
                                         const KernelRef &K,
                                         const LaunchConfig &C) {
  if (K.Module < 0) // a stub no instrumented module registered
    return;
  OccupancyKey O{
      {K.Module, K.Name}, C.Block.X * C.Block.Y * C.Block.Z, C.SharedBytes};
  ResourceQuestions Q = Reg.claimResourceQuestions(K, O);
  if (!Q.Attributes && !Q.Occupancy)
    return;
  cudaError_t Pending = cudaPeekAtLastError();
  bool Failed = false;
  if (Q.Attributes)
    Reg.setAttributes(K, askAttributes(Func, Failed));
  if (Q.Occupancy) {
    std::optional<KernelAttributes> A = Reg.attributes(K);
    int Blocks = 0;
    // Unknown attributes: the emulator would answer from a guess.
    if (A && A->Known &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &Blocks, Func, int(O.Threads), O.SharedBytes) == cudaSuccess)
      Reg.setBlocksPerSM(O, uint32_t(Blocks));
    else
      Failed = Failed || (A && A->Known);
  }
  // Our failed question must not become the program's error.
  if (Failed && Pending == cudaSuccess)
    cudaGetLastError();
}

std::optional<DeviceLimits> warpscope::rt::currentDeviceLimits() {
  int Device = 0;
  cudaDeviceProp P;
  if (cudaGetDevice(&Device) != cudaSuccess ||
      cudaGetDeviceProperties(&P, Device) != cudaSuccess)
    return std::nullopt;
  DeviceLimits L;
  L.ComputeCapability = std::to_string(P.major) + "." + std::to_string(P.minor);
  L.SmCount = uint32_t(P.multiProcessorCount);
  L.WarpSize = uint32_t(P.warpSize);
  L.RegistersPerSM = uint32_t(P.regsPerMultiprocessor);
  L.RegistersPerBlock = uint32_t(P.regsPerBlock);
  L.MaxThreadsPerSM = uint32_t(P.maxThreadsPerMultiProcessor);
  L.MaxBlocksPerSM = uint32_t(P.maxBlocksPerMultiProcessor);
  L.MaxThreadsPerBlock = uint32_t(P.maxThreadsPerBlock);
  L.SharedPerSM = P.sharedMemPerMultiprocessor;
  L.SharedPerBlockOptin = P.sharedMemPerBlockOptin;
  L.ReservedSharedPerBlock = P.reservedSharedMemPerBlock;
  return L;
}
