//===- Symbols.cpp - __device__ and __constant__ variables ----------------===//
//
// cudaMemcpyToSymbol & co.: a symbol is the host shadow variable that
// __cudaRegisterVar registered, resolved to the module's global in the core
// (findSymbol, Registration.cpp).
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

static cudaError_t symbolCopy(const void *Symbol, void *Host, size_t Count,
                              size_t Offset, cudaMemcpyKind Kind, bool To,
                              cudaStream_t Stream, bool AfterFault = false) {
  Lock L(S().Mu);
  if (!AfterFault)
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

// warpscope::EmuReadAfterFaultFunction (ABI/Abi.h): the WarpScope runtime
// keeps the counts of what ran before a kernel fault.
WS_EXPORT int __warpscope_emu_read_after_fault(const void *Symbol, void *Dst,
                                               size_t Count) {
  return symbolCopy(Symbol, Dst, Count, 0, cudaMemcpyDeviceToHost, false,
                    nullptr, /*AfterFault=*/true);
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

//===-- per-thread default stream variants (--default-stream per-thread) --===//

WS_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol, cudaError_t, const void *,
         const void *, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol, cudaError_t, void *,
         const void *, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync, cudaError_t,
         const void *, const void *, size_t, size_t, cudaMemcpyKind,
         cudaStream_t)
WS_ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync, cudaError_t,
         void *, const void *, size_t, size_t, cudaMemcpyKind, cudaStream_t)
