//===- Textures.cpp - CUDA arrays, texture and surface objects ------------===//
//
// CUDA arrays are host memory with rows packed (pitch = width x texel
// size), slices or layers packed after each other. A texture or surface
// object is described to the core (registerTexture/registerSurface in
// Emulator.h), whose handle is the object; the descriptors the program gave
// are kept to answer cudaGetTextureObject*Desc. Supported: 1D, 2D and 3D
// arrays, 1D and 2D layered arrays (cudaMalloc3DArray, cudaMemcpy3D),
// linear and pitched-2D memory; channel formats of 1, 2 or 4 equal signed,
// unsigned (8/16/32 bits) or float (16/32 bits) channels. Mipmapped and
// cubemap arrays, sRGB and resource views are refused with an error.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstdlib>
#include <cstring>

using namespace warpscope::emu;
using namespace warpscope::emu::cudart;

/// The array behind cudaArray_t (opaque in the CUDA headers).
struct cudaArray {
  cudaChannelFormatDesc Desc;
  ImageDesc Image; // Data, extent, pitch, channel format
  unsigned Flags = 0;
};

namespace {

struct TexRec {
  cudaResourceDesc Res;
  cudaTextureDesc Tex;
  bool Surface = false;
};

struct TexState {
  std::unordered_map<const cudaArray *, std::unique_ptr<cudaArray>> Arrays;
  std::unordered_map<uint64_t, TexRec> Objects;
};

TexState &T() {
  static TexState *St = new TexState; // used by atexit handlers too
  return *St;
}

// Channel format to the core's description; false when unsupported.
bool formatOf(const cudaChannelFormatDesc &D, ImageDesc &Im) {
  int N = D.w ? 4 : D.z ? 3 : D.y ? 2 : 1;
  if (N == 3 || (N >= 2 && D.y != D.x) ||
      (N == 4 && (D.z != D.x || D.w != D.x)))
    return false;
  Im.Channels = (uint8_t)N;
  Im.ChannelBits = (uint8_t)D.x;
  switch (D.f) {
  case cudaChannelFormatKindSigned:
    Im.Kind = ChannelKind::Signed;
    return D.x == 8 || D.x == 16 || D.x == 32;
  case cudaChannelFormatKindUnsigned:
    Im.Kind = ChannelKind::Unsigned;
    return D.x == 8 || D.x == 16 || D.x == 32;
  case cudaChannelFormatKindFloat:
    Im.Kind = ChannelKind::Float;
    return D.x == 16 || D.x == 32;
  default:
    return false;
  }
}

cudaArray *findArray(cudaArray_const_t A) {
  auto It = T().Arrays.find(A);
  return It == T().Arrays.end() ? nullptr : It->second.get();
}

// Bytes WidthBytes x Height at byte offset (WOff, HOff) of the array must
// lie inside it.
bool inside(const cudaArray &A, size_t WOff, size_t HOff, size_t WidthBytes,
            size_t Height) {
  size_t RowBytes = A.Image.Width * A.Image.texelBytes();
  return WOff <= RowBytes && WidthBytes <= RowBytes - WOff &&
         HOff <= A.Image.Height && Height <= A.Image.Height - HOff;
}

cudaError_t copyArray2D(cudaArray *A, size_t WOff, size_t HOff, void *Mem,
                        size_t Pitch, size_t WidthBytes, size_t Height,
                        cudaMemcpyKind Kind, bool ToArray) {
  if (!A)
    return cudaErrorInvalidResourceHandle;
  if (!validKind(Kind) || (Height > 1 && Pitch < WidthBytes) ||
      !inside(*A, WOff, HOff, WidthBytes, Height) ||
      (WidthBytes && Height && !Mem))
    return cudaErrorInvalidValue;
  auto *Base = static_cast<uint8_t *>(A->Image.Data);
  for (size_t Y = 0; Y < Height; ++Y) {
    uint8_t *Row = Base + (HOff + Y) * A->Image.Pitch + WOff;
    uint8_t *M = static_cast<uint8_t *>(Mem) + Y * Pitch;
    if (ToArray)
      memmove(Row, M, WidthBytes);
    else
      memmove(M, Row, WidthBytes);
  }
  return cudaSuccess;
}

// The deprecated linear copies: Count bytes from (WOff, HOff) on, row after
// row.
cudaError_t copyArrayLinear(cudaArray *A, size_t WOff, size_t HOff, void *Mem,
                            size_t Count, cudaMemcpyKind Kind, bool ToArray) {
  if (!A)
    return cudaErrorInvalidResourceHandle;
  size_t RowBytes = A->Image.Width * A->Image.texelBytes();
  size_t Start = HOff * RowBytes + WOff;
  size_t Total = RowBytes * A->Image.Height;
  if (!validKind(Kind) || WOff > RowBytes || Start > Total ||
      Count > Total - Start || (Count && !Mem))
    return cudaErrorInvalidValue;
  uint8_t *P = static_cast<uint8_t *>(A->Image.Data) + Start; // rows packed
  if (ToArray)
    memmove(P, Mem, Count);
  else
    memmove(Mem, P, Count);
  return cudaSuccess;
}

// The image a resource description names; Why set when refused.
cudaError_t imageOf(const cudaResourceDesc &R, ImageDesc &Im,
                    std::string &Why) {
  switch (R.resType) {
  case cudaResourceTypeArray: {
    cudaArray *A = findArray(R.res.array.array);
    if (!A)
      return cudaErrorInvalidResourceHandle;
    Im = A->Image;
    return cudaSuccess;
  }
  case cudaResourceTypeLinear:
    if (!R.res.linear.devPtr || !formatOf(R.res.linear.desc, Im))
      return cudaErrorInvalidValue;
    Im.Data = R.res.linear.devPtr;
    Im.Dims = 1;
    Im.LinearMemory = true;
    Im.Width = R.res.linear.sizeInBytes / Im.texelBytes();
    return cudaSuccess;
  case cudaResourceTypePitch2D:
    if (!R.res.pitch2D.devPtr || !formatOf(R.res.pitch2D.desc, Im))
      return cudaErrorInvalidValue;
    Im.Data = R.res.pitch2D.devPtr;
    Im.Dims = 2;
    Im.Width = R.res.pitch2D.width;
    Im.Height = R.res.pitch2D.height;
    Im.Pitch = R.res.pitch2D.pitchInBytes;
    return cudaSuccess;
  default:
    Why = "mipmapped-array resources are not supported by the emulator";
    return cudaErrorNotSupported;
  }
}

cudaError_t refuse(cudaError_t E, const std::string &What) {
  emuError(What);
  return setErr(E);
}

// Allocates an array of Dims dimensions (Layers > 0: layered), zeroed.
cudaError_t newArray(const char *Fn, cudaArray_t *Array,
                     const cudaChannelFormatDesc &Desc, unsigned Dims,
                     size_t Width, size_t Height, size_t Depth, size_t Layers,
                     unsigned Flags) {
  auto A = std::make_unique<cudaArray>();
  if (!formatOf(Desc, A->Image))
    return refuse(cudaErrorInvalidChannelDescriptor,
                  std::string(Fn) +
                      ": unsupported channel format (use 1, 2 or 4 equal "
                      "signed/unsigned 8/16/32-bit or float 16/32-bit "
                      "channels)");
  A->Desc = Desc;
  A->Flags = Flags;
  A->Image.Dims = (uint8_t)Dims;
  A->Image.Width = Width;
  A->Image.Height = Height;
  A->Image.Depth = Depth;
  A->Image.Layers = (uint32_t)Layers;
  A->Image.Pitch = Width * A->Image.texelBytes();
  A->Image.SlicePitch = A->Image.Pitch * Height;
  size_t Bytes = A->Image.SlicePitch * Depth * (Layers ? Layers : 1);
  size_t Rounded = (Bytes + 255) / 256 * 256;
  A->Image.Data = aligned_alloc(256, Rounded);
  if (!A->Image.Data)
    return setErr(cudaErrorMemoryAllocation);
  memset(A->Image.Data, 0, Rounded);
  *Array = A.get();
  T().Arrays[A.get()] = std::move(A);
  return cudaSuccess;
}

// One side of a cudaMemcpy3D: an array (positions in its elements) or a
// pitched pointer (positions in bytes). W in bytes, H rows, D slices or
// layers (arrays only).
struct Side {
  uint8_t *Base;
  size_t Pitch, Slice, Elem, W, H, D;
};

bool sideOf(cudaArray_t A, const cudaPitchedPtr &Ptr, size_t Rows, Side &Out) {
  if (!A) {
    Out = {static_cast<uint8_t *>(Ptr.ptr),
           Ptr.pitch,
           Ptr.pitch * (Ptr.ysize ? Ptr.ysize : Rows),
           1,
           Ptr.pitch,
           0,
           0};
    return Ptr.ptr != nullptr;
  }
  cudaArray *Arr = findArray(A);
  if (!Arr)
    return false;
  const ImageDesc &I = Arr->Image;
  Out = {static_cast<uint8_t *>(I.Data),
         I.Pitch,
         I.SlicePitch,
         I.texelBytes(),
         I.Width * I.texelBytes(),
         I.Height,
         I.Layers ? I.Layers : I.Depth};
  return true;
}

} // namespace

namespace warpscope::emu::cudart {

// The extent and an array's positions are in the array's elements (the
// source's when both are arrays, which must then have the same element
// size); a pointer's x position is in bytes.
cudaError_t copy3DArray(const cudaMemcpy3DParms &P) {
  if (!validKind(P.kind))
    return cudaErrorInvalidMemcpyDirection;
  if ((P.srcArray && !findArray(P.srcArray)) ||
      (P.dstArray && !findArray(P.dstArray)))
    return cudaErrorInvalidResourceHandle;
  const cudaExtent &E = P.extent;
  Side Src, Dst;
  if (!sideOf(P.srcArray, P.srcPtr, E.height, Src) ||
      !sideOf(P.dstArray, P.dstPtr, E.height, Dst) ||
      (P.srcArray && P.dstArray && Src.Elem != Dst.Elem))
    return cudaErrorInvalidValue;
  if (!E.width || !E.height || !E.depth)
    return cudaSuccess;
  size_t Bytes = E.width * (P.srcArray ? Src.Elem : Dst.Elem);
  size_t SX = P.srcPos.x * Src.Elem, DX = P.dstPos.x * Dst.Elem;
  auto Fits = [&](const Side &Sd, size_t X, const cudaPos &Pos, bool Arr) {
    return X + Bytes <= Sd.W &&
           (!Arr || (Pos.y + E.height <= Sd.H && Pos.z + E.depth <= Sd.D));
  };
  if (!Fits(Src, SX, P.srcPos, P.srcArray) ||
      !Fits(Dst, DX, P.dstPos, P.dstArray))
    return cudaErrorInvalidValue;
  for (size_t Z = 0; Z < E.depth; ++Z)
    for (size_t Y = 0; Y < E.height; ++Y)
      memmove(Dst.Base + (P.dstPos.z + Z) * Dst.Slice +
                  (P.dstPos.y + Y) * Dst.Pitch + DX,
              Src.Base + (P.srcPos.z + Z) * Src.Slice +
                  (P.srcPos.y + Y) * Src.Pitch + SX,
              Bytes);
  return cudaSuccess;
}

} // namespace warpscope::emu::cudart

WS_EXPORT cudaError_t cudaMallocArray(cudaArray_t *Array,
                                      const cudaChannelFormatDesc *Desc,
                                      size_t Width, size_t Height,
                                      unsigned Flags) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Array || !Desc || Width == 0)
    return setErr(cudaErrorInvalidValue);
  if (Flags & ~(unsigned)(cudaArraySurfaceLoadStore | cudaArrayTextureGather))
    return refuse(cudaErrorNotSupported,
                  "cudaMallocArray: layered, cubemap and other special arrays "
                  "are not supported by the emulator (layered arrays: use "
                  "cudaMalloc3DArray)");
  return setErr(newArray("cudaMallocArray", Array, *Desc, Height ? 2 : 1, Width,
                         Height ? Height : 1, 1, 0, Flags));
}

// The shapes of cudaMalloc3DArray: 1D (height and depth 0), 2D (depth 0),
// 3D; with cudaArrayLayered 1D layered (height 0) and 2D layered, the depth
// being the number of layers.
WS_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *Array,
                                        const cudaChannelFormatDesc *Desc,
                                        cudaExtent E, unsigned Flags) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Array || !Desc || E.width == 0)
    return setErr(cudaErrorInvalidValue);
  if (Flags & ~(unsigned)(cudaArraySurfaceLoadStore | cudaArrayTextureGather |
                          cudaArrayLayered))
    return refuse(cudaErrorNotSupported,
                  "cudaMalloc3DArray: cubemap, sparse and other special "
                  "arrays are not supported by the emulator");
  if (Flags & cudaArrayLayered) {
    if (E.depth == 0) // the depth is the number of layers
      return setErr(cudaErrorInvalidValue);
    return setErr(newArray("cudaMalloc3DArray", Array, *Desc, E.height ? 2 : 1,
                           E.width, E.height ? E.height : 1, 1, E.depth,
                           Flags));
  }
  if (E.height == 0 && E.depth != 0)
    return setErr(cudaErrorInvalidValue);
  return setErr(newArray("cudaMalloc3DArray", Array, *Desc,
                         E.depth    ? 3
                         : E.height ? 2
                                    : 1,
                         E.width, E.height ? E.height : 1,
                         E.depth ? E.depth : 1, 0, Flags));
}

WS_EXPORT cudaError_t cudaFreeArray(cudaArray_t Array) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Array)
    return cudaSuccess;
  auto It = T().Arrays.find(Array);
  if (It == T().Arrays.end())
    return setErr(cudaErrorInvalidValue);
  free(It->second->Image.Data);
  T().Arrays.erase(It);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *Desc,
                                       cudaExtent *Extent, unsigned *Flags,
                                       cudaArray_t Array) {
  Lock L(S().Mu);
  cudaArray *A = findArray(Array);
  if (!A)
    return setErr(cudaErrorInvalidResourceHandle);
  if (Desc)
    *Desc = A->Desc;
  if (Extent) // 0 for a dimension the array lacks; layers in the depth
    *Extent =
        cudaExtent{A->Image.Width, A->Image.Dims >= 2 ? A->Image.Height : 0,
                   A->Image.Layers      ? A->Image.Layers
                   : A->Image.Dims == 3 ? A->Image.Depth
                                        : 0};
  if (Flags)
    *Flags = A->Flags;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t Dst, size_t WOff,
                                          size_t HOff, const void *Src,
                                          size_t SPitch, size_t Width,
                                          size_t Height, cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(copyArray2D(findArray(Dst), WOff, HOff, const_cast<void *>(Src),
                            SPitch, Width, Height, Kind, true));
}

WS_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(
    cudaArray_t Dst, size_t WOff, size_t HOff, const void *Src, size_t SPitch,
    size_t Width, size_t Height, cudaMemcpyKind Kind, cudaStream_t Stream) {
  Lock L(S().Mu);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaMemcpy2DToArray(Dst, WOff, HOff, Src, SPitch, Width, Height, Kind);
}

WS_EXPORT cudaError_t cudaMemcpy2DFromArray(void *Dst, size_t DPitch,
                                            cudaArray_const_t Src, size_t WOff,
                                            size_t HOff, size_t Width,
                                            size_t Height,
                                            cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(copyArray2D(findArray(Src), WOff, HOff, Dst, DPitch, Width,
                            Height, Kind, false));
}

WS_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(
    void *Dst, size_t DPitch, cudaArray_const_t Src, size_t WOff, size_t HOff,
    size_t Width, size_t Height, cudaMemcpyKind Kind, cudaStream_t Stream) {
  Lock L(S().Mu);
  if (!validStream(Stream))
    return setErr(cudaErrorInvalidResourceHandle);
  return cudaMemcpy2DFromArray(Dst, DPitch, Src, WOff, HOff, Width, Height,
                               Kind);
}

WS_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t Dst, size_t WOff,
                                        size_t HOff, const void *Src,
                                        size_t Count, cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(copyArrayLinear(findArray(Dst), WOff, HOff,
                                const_cast<void *>(Src), Count, Kind, true));
}

WS_EXPORT cudaError_t cudaMemcpyFromArray(void *Dst, cudaArray_const_t Src,
                                          size_t WOff, size_t HOff,
                                          size_t Count, cudaMemcpyKind Kind) {
  Lock L(S().Mu);
  CHECK_STICKY();
  return setErr(
      copyArrayLinear(findArray(Src), WOff, HOff, Dst, Count, Kind, false));
}

WS_EXPORT cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *Obj, const cudaResourceDesc *Res,
    const cudaTextureDesc *Tex, const cudaResourceViewDesc *View) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Obj || !Res || !Tex)
    return setErr(cudaErrorInvalidValue);
  if (View)
    return refuse(cudaErrorNotSupported, "cudaCreateTextureObject: resource "
                                         "views are not supported by the "
                                         "emulator");
  if (Tex->sRGB)
    return refuse(cudaErrorNotSupported, "cudaCreateTextureObject: sRGB "
                                         "textures are not supported by the "
                                         "emulator");
  ImageDesc Im;
  std::string Why;
  cudaError_t E = imageOf(*Res, Im, Why);
  if (E != cudaSuccess)
    return Why.empty() ? setErr(E)
                       : refuse(E, "cudaCreateTextureObject: " + Why);
  SamplerDesc Sa;
  for (int D = 0; D < 3; ++D) {
    switch (Tex->addressMode[D]) {
    case cudaAddressModeWrap:
      Sa.Address[D] = AddressMode::Wrap;
      break;
    case cudaAddressModeClamp:
      Sa.Address[D] = AddressMode::Clamp;
      break;
    case cudaAddressModeMirror:
      Sa.Address[D] = AddressMode::Mirror;
      break;
    case cudaAddressModeBorder:
      Sa.Address[D] = AddressMode::Border;
      break;
    default:
      return setErr(cudaErrorInvalidValue);
    }
    Sa.BorderColor[D] = Tex->borderColor[D];
  }
  Sa.BorderColor[3] = Tex->borderColor[3];
  if (Tex->filterMode != cudaFilterModePoint &&
      Tex->filterMode != cudaFilterModeLinear)
    return setErr(cudaErrorInvalidValue);
  Sa.Filter = Tex->filterMode == cudaFilterModeLinear ? FilterMode::Linear
                                                      : FilterMode::Point;
  Sa.NormalizedFloat = Tex->readMode == cudaReadModeNormalizedFloat;
  Sa.NormalizedCoords = Tex->normalizedCoords != 0;
  std::string Err;
  uint64_t H = registerTexture(Im, Sa, Err);
  if (!H)
    return refuse(cudaErrorInvalidValue, "cudaCreateTextureObject: " + Err);
  T().Objects[H] = TexRec{*Res, *Tex, false};
  *Obj = H;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *Obj,
                                              const cudaResourceDesc *Res) {
  Lock L(S().Mu);
  CHECK_STICKY();
  if (!Obj || !Res)
    return setErr(cudaErrorInvalidValue);
  if (Res->resType != cudaResourceTypeArray)
    return setErr(cudaErrorInvalidValue); // as CUDA: surfaces need an array
  cudaArray *A = findArray(Res->res.array.array);
  if (!A)
    return setErr(cudaErrorInvalidResourceHandle);
  if (!(A->Flags & cudaArraySurfaceLoadStore))
    return refuse(cudaErrorInvalidValue,
                  "cudaCreateSurfaceObject: the array was not allocated with "
                  "cudaArraySurfaceLoadStore");
  std::string Err;
  uint64_t H = registerSurface(A->Image, Err);
  if (!H)
    return refuse(cudaErrorInvalidValue, "cudaCreateSurfaceObject: " + Err);
  T().Objects[H] = TexRec{*Res, cudaTextureDesc{}, true};
  *Obj = H;
  return cudaSuccess;
}

static cudaError_t destroyObject(uint64_t H, bool Surface) {
  Lock L(S().Mu);
  auto It = T().Objects.find(H);
  if (It == T().Objects.end() || It->second.Surface != Surface)
    return setErr(cudaErrorInvalidValue);
  T().Objects.erase(It);
  unregisterImage(H);
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t Obj) {
  return destroyObject(Obj, false);
}

WS_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t Obj) {
  return destroyObject(Obj, true);
}

static const TexRec *findObject(uint64_t H, bool Surface) {
  auto It = T().Objects.find(H);
  return It == T().Objects.end() || It->second.Surface != Surface ? nullptr
                                                                  : &It->second;
}

WS_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *Res,
                                                       cudaTextureObject_t H) {
  Lock L(S().Mu);
  const TexRec *R = findObject(H, false);
  if (!R || !Res)
    return setErr(cudaErrorInvalidValue);
  *Res = R->Res;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *Tex,
                                                      cudaTextureObject_t H) {
  Lock L(S().Mu);
  const TexRec *R = findObject(H, false);
  if (!R || !Tex)
    return setErr(cudaErrorInvalidValue);
  *Tex = R->Tex;
  return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *Res,
                                                       cudaSurfaceObject_t H) {
  Lock L(S().Mu);
  const TexRec *R = findObject(H, true);
  if (!R || !Res)
    return setErr(cudaErrorInvalidValue);
  *Res = R->Res;
  return cudaSuccess;
}

WS_ALIAS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray, cudaError_t,
         cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t,
         cudaMemcpyKind)
WS_ALIAS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray, cudaError_t, void *,
         size_t, cudaArray_const_t, size_t, size_t, size_t, size_t,
         cudaMemcpyKind)
WS_ALIAS(cudaMemcpyToArray_ptds, cudaMemcpyToArray, cudaError_t, cudaArray_t,
         size_t, size_t, const void *, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray, cudaError_t, void *,
         cudaArray_const_t, size_t, size_t, size_t, cudaMemcpyKind)
WS_ALIAS(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync, cudaError_t,
         cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t,
         cudaMemcpyKind, cudaStream_t)
WS_ALIAS(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync,
         cudaError_t, void *, size_t, cudaArray_const_t, size_t, size_t, size_t,
         size_t, cudaMemcpyKind, cudaStream_t)
