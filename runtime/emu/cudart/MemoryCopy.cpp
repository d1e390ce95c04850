//===- MemoryCopy.cpp - cudaMemcpy and cudaMemset -------------------------===//
//
// 1D, 2D (pitched) and 3D copies and sets, synchronous whatever the
// stream, and the peer copies of the one device. Every copy is a memmove in
// one address space; its kind is validated all the same.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace warpscope::emu::cudart {

bool validKind(cudaMemcpyKind K) {
  return K >= cudaMemcpyHostToHost && K <= cudaMemcpyDefault;
}

} // namespace warpscope::emu::cudart

namespace {

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

} // namespace

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
    return copy3DArray(*P);
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

//===-- per-thread default stream variants (--default-stream per-thread) --===//

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
WS_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D, cudaError_t,
         const cudaMemcpy3DParms *)
WS_ALIAS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync, cudaError_t,
         const cudaMemcpy3DParms *, cudaStream_t)
WS_ALIAS(cudaMemset3D_ptds, cudaMemset3D, cudaError_t, cudaPitchedPtr, int,
         cudaExtent)
WS_ALIAS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync, cudaError_t, cudaPitchedPtr,
         int, cudaExtent, cudaStream_t)
