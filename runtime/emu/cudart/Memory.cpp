//===- Memory.cpp - device and host memory allocation ---------------------===//
//
// Device memory is host memory: cudaMalloc & co. return zeroed blocks of
// the device heap (DeviceHeap.cpp: 2 MiB pages, as a GPU maps them),
// registered with the core, whose launches fail an access outside every
// mapped page (cudaErrorIllegalAddress) and report one outside its
// allocation; pinned host memory is registered too (UVA). Also pointer
// attributes, cudaMemGetInfo against the emulated 80 GiB, and migration hints,
// which have nothing to do.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

namespace {

constexpr size_t AllocAlign = 256;
constexpr size_t PitchAlign = 512;

void *alignedAlloc(size_t Size) {
  size_t Rounded = (Size + AllocAlign - 1) / AllocAlign * AllocAlign;
  void *P = aligned_alloc(AllocAlign, Rounded);
  if (P)
    memset(P, 0, Rounded); // deterministic emulation
  return P;
}

} // namespace

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
  void *P = deviceAllocate(Size);
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
  size_t Size = It->second;
  St.DeviceAllocs.erase(It);
  unregisterAllocation(DevPtr);
  deviceRelease(DevPtr, Size);
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

WS_ALIAS(cudaMallocAsync_ptsz, cudaMallocAsync, cudaError_t, void **, size_t,
         cudaStream_t)
WS_ALIAS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync, cudaError_t,
         const void *, size_t, cudaMemLocation, unsigned int, cudaStream_t)
WS_ALIAS(cudaFreeAsync_ptsz, cudaFreeAsync, cudaError_t, void *, cudaStream_t)
