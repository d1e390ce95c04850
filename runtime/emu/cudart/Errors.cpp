//===- Errors.cpp - CUDA error state and error strings --------------------===//
//
// The last and sticky errors (cudaGetLastError, cudaPeekAtLastError), the
// texts of cudaGetErrorString/cudaGetErrorName (names from ErrorNames.inc),
// the emulator's own error messages, and warpscope_emu_unsupported, which
// every generated stub (GenStubs.cmake) calls.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/Support/Demangle.h"

#include <cstdio>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

cudaError_t setErr(cudaError_t E) {
  if (E != cudaSuccess)
    S().Last = E;
  return E;
}

void emuError(const std::string &Msg) {
  fflush(stdout);
  fprintf(stderr, "warpscope-emu: error: %s\n",
          withDemangledNames(Msg).c_str());
  fflush(stderr);
}

} // namespace warpscope::emu::cudart

namespace {

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
  case cudaErrorMisalignedAddress:
    return "misaligned address";
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

} // namespace

extern "C" __attribute__((visibility("default"))) int
warpscope_emu_unsupported(const char *Name, int *Once) {
  if (!__atomic_exchange_n(Once, 1, __ATOMIC_RELAXED)) {
    fflush(stdout);
    fprintf(stderr, "warpscope-emu: not supported by the emulator: %s\n", Name);
  }
  Lock L(S().Mu);
  return setErr(cudaErrorNotSupported);
}

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
