//===- Launch.cpp - kernel launch -----------------------------------------===//
//
// The call configuration of <<<...>>> (__cudaPushCallConfiguration,
// __cudaPopCallConfiguration), cudaLaunchKernel and its variants, and
// nvcc 13's __cudaGetKernel/__cudaLaunchKernel. A launch is checked against
// the emulated H100's limits, its arguments are laid out like the PTX .param
// space, and the kernel runs to completion in the core; a failed kernel
// makes its error (cudaErrorIllegalAddress, cudaErrorMisalignedAddress,
// cudaErrorAssert or cudaErrorLaunchFailure) sticky, as a fault does on a
// GPU. A launch a signal stopped (Interrupt.cpp) writes the ground truth of
// the part that ran before it returns.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/Emu/WhatIf.h"
#include "warpscope/Support/Demangle.h"
#include "warpscope/Support/Settings.h"

#include <cstdio>

#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

thread_local std::vector<LaunchConfig> ConfigStack;

} // namespace warpscope::emu::cudart

namespace {

/// A signal stopped the launch (Interrupt.cpp): the ground truth so far is
/// written now, since the process ends without its exit handlers.
cudaError_t interrupted(const std::string &Why) {
  fflush(stdout);
  fprintf(stderr, "warpscope-emu: %s\n",
          warpscope::withDemangledNames(Why).c_str());
  writeAllTruth(S());
  if (endAfterInterruptedLaunch())
    endByInterrupt();
  S().Sticky = cudaErrorLaunchFailure; // it did not finish
  return setErr(cudaErrorLaunchFailure);
}

/// The what-if of WARPSCOPE_EMU_WHATIF (WhatIf.h) for kernel Name, if any;
/// false (said once) when the setting is malformed or cannot apply.
bool whatIfFor(const std::string &Name, dim3 &Grid, dim3 &Block,
               warpscope::emu::WhatIf &Out) {
  const std::string Text =
      warpscope::support::SettingsReader().text(warpscope::emu::WhatIfVariable);
  if (Text.empty())
    return true;
  std::string Error;
  if (!warpscope::emu::parseWhatIf(Text, Out, Error)) {
    emuError(std::string(warpscope::emu::WhatIfVariable) + " '" + Text + "' " +
             Error + " (see include/warpscope/Emu/WhatIf.h)");
    return false;
  }
  if (Out.Kernel != Name) {
    Out = warpscope::emu::WhatIf();
    return true;
  }
  if ((Out.Grid && (Grid.y != 1 || Grid.z != 1)) ||
      (Out.Block && (Block.y != 1 || Block.z != 1))) {
    emuError(std::string(warpscope::emu::WhatIfVariable) +
             ": grid= and block= change 1-D launches only; " + Name +
             " is launched with a 2-D or 3-D shape");
    return false;
  }
  if (Out.Grid)
    Grid.x = Out.Grid;
  if (Out.Block)
    Block.x = Out.Block;
  return true;
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
  warpscope::emu::WhatIf What;
  if (!whatIfFor(F->Name, Grid, Block, What))
    return cudaErrorInvalidValue;
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
  LP.CheckAddresses = true; // all device memory handed out is registered
  // The timing model places CTAs by occupancy: the machine code's
  // registers (ptxas, cached per module) when it runs.
  if (!warpscope::support::SettingsReader()
           .text("WARPSCOPE_EMU_MODEL")
           .empty()) {
    std::string Why;
    if (const PtxasKernel *R = cudart::machineResources(*F, Why)) {
      LP.RegistersPerThread = R->Registers;
      // Spill code is placed where ptxas spilled, under the cap it had.
      if (R->SpillStoreBytes || R->SpillLoadBytes) {
        LP.SpillCap = R->Registers;
        LP.PtxasSpillStoreBytes = R->SpillStoreBytes;
        LP.PtxasSpillLoadBytes = R->SpillLoadBytes;
        if (What.MaxRegisters > R->Registers) {
          LP.SpillCap = What.MaxRegisters;
          LP.SpillCapChanged = true;
        }
      }
    }
    if (What.Registers)
      LP.RegistersPerThread = What.Registers;
    LP.ModelSharedBytes = What.Shared;
  }
  installInterruptHandlers();
  LaunchFault Fault = LaunchFault::None;
  bool Ran;
  {
    RunningLaunch Running;
    Ran = F->Mod->M->launch(F->Name, LP, Err, &Fault);
  }
  if (!Ran && Fault == LaunchFault::Interrupted)
    return interrupted(Err);
  if (!Ran) {
    emuError(Err.empty() ? "kernel " + F->Name + " failed" : Err);
    // The kernel ran and faulted: the error a GPU gives, sticky like the
    // context a GPU loses. (Refused launches were caught above.)
    cudaError_t E =
        Fault == LaunchFault::IllegalAddress      ? cudaErrorIllegalAddress
        : Fault == LaunchFault::MisalignedAddress ? cudaErrorMisalignedAddress
        : Fault == LaunchFault::Assert            ? cudaErrorAssert
                                                  : cudaErrorLaunchFailure;
    S().Sticky = E;
    return setErr(E);
  }
  return cudaSuccess;
}

} // namespace

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

} // namespace warpscope::emu::cudart

//===-- launch ABI --------------------------------------------------------===//

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

//===-- per-thread default stream variants (--default-stream per-thread) --===//

WS_ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel, cudaError_t, const void *,
         dim3, dim3, void **, size_t, cudaStream_t)
WS_ALIAS(__cudaLaunchKernel_ptsz, __cudaLaunchKernel, cudaError_t, cudaKernel_t,
         dim3, dim3, void **, size_t, cudaStream_t)
WS_ALIAS(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC, cudaError_t,
         const cudaLaunchConfig_t *, const void *, void **)
