//===- Texture.cpp - texture/surface registry and texture sampling --------===//
//
// Semantics (CUDA C++ Programming Guide, "Texture Fetching"): a coordinate
// is scaled to texel space (x * N when normalized), wrap and mirror act on
// normalized coordinates only (unnormalized ones clamp, as the hardware
// does); nearest-point filtering takes texel floor(x); linear filtering
// blends texels floor(x - 0.5) and the next with weight frac(x - 0.5) held
// in 9-bit fixed point (8 fractional bits). Each texel index is then
// addressed on its own: clamp to the edge, border gives the border color,
// wrap and mirror repeat. Integer formats read as normalized floats map
// unsigned values to [0, 1] and signed ones to [-1, 1].
//
//===----------------------------------------------------------------------===//
#include "Texture.h"
#include "Round.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace warpscope::emu {

namespace {

struct Registry {
  std::mutex Mu;
  std::unordered_map<uint64_t, core::ImageObject> Objects;
  uint64_t Next = 1;
};

Registry &registry() {
  static Registry *R = new Registry; // outlives static destructors
  return *R;
}

bool validImage(const ImageDesc &I, std::string &Error) {
  if (!I.Data)
    Error = "image has no memory";
  else if (I.Dims < 1 || I.Dims > 3)
    Error = "image must have 1, 2 or 3 dimensions";
  else if (I.Channels != 1 && I.Channels != 2 && I.Channels != 4)
    Error = "image must have 1, 2 or 4 channels";
  else if (I.Kind == ChannelKind::Float
               ? I.ChannelBits != 16 && I.ChannelBits != 32
               : I.ChannelBits != 8 && I.ChannelBits != 16 &&
                     I.ChannelBits != 32)
    Error = "unsupported channel size " + std::to_string(I.ChannelBits);
  else if (I.Width == 0 || I.Height == 0 || I.Depth == 0)
    Error = "image has an empty extent";
  else if ((I.Dims >= 2 && I.Pitch < I.Width * I.texelBytes()) ||
           (I.Dims == 3 && I.SlicePitch < I.Pitch * I.Height))
    Error = "image pitch smaller than a row";
  else if (I.Layers && (I.Dims == 3 || I.Depth != 1))
    Error = "only 1D and 2D images can be layered";
  else if (I.Layers &&
           I.SlicePitch <
               std::max<uint64_t>(I.Pitch, I.Width * I.texelBytes()) * I.Height)
    Error = "layer pitch smaller than a layer";
  else
    return true;
  return false;
}

uint64_t add(const core::ImageObject &O) {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.Mu);
  uint64_t H = R.Next++;
  R.Objects[H] = O;
  return H;
}

} // namespace

uint64_t registerTexture(const ImageDesc &Image, const SamplerDesc &Sampler,
                         std::string &Error) {
  if (!validImage(Image, Error))
    return 0;
  bool IntRead = Image.Kind != ChannelKind::Float && !Sampler.NormalizedFloat;
  if (Sampler.NormalizedFloat && Image.Kind != ChannelKind::Float &&
      Image.ChannelBits == 32) {
    Error = "normalized-float read mode needs 8- or 16-bit integer channels";
    return 0;
  }
  if (Sampler.Filter == FilterMode::Linear && IntRead) {
    Error = "linear filtering needs a float format or the normalized-float "
            "read mode";
    return 0;
  }
  core::ImageObject O;
  O.Image = Image;
  O.Sampler = Sampler;
  return add(O);
}

uint64_t registerSurface(const ImageDesc &Image, std::string &Error) {
  if (!validImage(Image, Error))
    return 0;
  core::ImageObject O;
  O.Image = Image;
  O.IsSurface = true;
  return add(O);
}

bool unregisterImage(uint64_t Handle) {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.Mu);
  return R.Objects.erase(Handle) != 0;
}

namespace core {

bool lookupImage(uint64_t Handle, ImageObject &Out) {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.Mu);
  auto It = R.Objects.find(Handle);
  if (It == R.Objects.end())
    return false;
  Out = It->second;
  return true;
}

namespace {

// A channel as stored: float value, or integer sign/zero-extended.
struct Channel {
  float F;
  uint32_t I;
};

Channel loadChannel(const ImageDesc &Im, const uint8_t *Texel, int C) {
  Channel R{0, 0};
  const uint8_t *P = Texel + C * (Im.ChannelBits / 8);
  bool S = Im.Kind == ChannelKind::Signed;
  switch (Im.ChannelBits) {
  case 8:
    R.I = S ? (uint32_t)(int32_t)(int8_t)*P : *P;
    break;
  case 16: {
    uint16_t V;
    memcpy(&V, P, 2);
    R.I = S ? (uint32_t)(int32_t)(int16_t)V : V;
    if (Im.Kind == ChannelKind::Float)
      R.F = fromF16(V);
    break;
  }
  default:
    memcpy(&R.I, P, 4);
    memcpy(&R.F, P, 4);
    break;
  }
  return R;
}

// The f32 value of a channel: float formats as stored, integer formats
// normalized (the caller has checked the read mode).
float channelFloat(const ImageDesc &Im, const Channel &C) {
  if (Im.Kind == ChannelKind::Float)
    return C.F;
  if (Im.Kind == ChannelKind::Unsigned)
    return (float)C.I / (float)((1u << Im.ChannelBits) - 1);
  float V = (float)(int32_t)C.I / (float)((1u << (Im.ChannelBits - 1)) - 1);
  return V < -1.0f ? -1.0f : V;
}

// Texel index I of a dimension with N texels, addressed; false: border.
bool addressIndex(int64_t I, int64_t N, AddressMode M, int64_t &Out) {
  switch (M) {
  case AddressMode::Wrap:
    Out = ((I % N) + N) % N;
    return true;
  case AddressMode::Mirror: {
    int64_t P = ((I % (2 * N)) + 2 * N) % (2 * N);
    Out = P < N ? P : 2 * N - 1 - P;
    return true;
  }
  case AddressMode::Border:
    Out = I;
    return I >= 0 && I < N;
  case AddressMode::Clamp:
    Out = I < 0 ? 0 : I >= N ? N - 1 : I;
    return true;
  }
  return true;
}

// floor of a texel-space coordinate as an index; NaN reads texel 0, huge
// values saturate (addressing then clamps or wraps them).
int64_t floorIndex(float X) {
  if (std::isnan(X))
    return 0;
  float F = std::floor(X);
  if (F < -1e15f)
    return -(int64_t)1e15;
  if (F > 1e15f)
    return (int64_t)1e15;
  return (int64_t)F;
}

// Texel-space coordinate of dimension D (scaled, with wrap/mirror folded
// for normalized coordinates), and the addressing mode that remains.
float texelCoord(const ImageObject &T, int D, float X, int64_t N,
                 AddressMode &M) {
  M = T.Sampler.Address[D];
  if (!T.Sampler.NormalizedCoords) {
    if (M == AddressMode::Wrap || M == AddressMode::Mirror)
      M = AddressMode::Clamp;
    return X;
  }
  if (M == AddressMode::Wrap) {
    X = X - std::floor(X);
  } else if (M == AddressMode::Mirror) {
    float F = std::floor(X);
    X = X - F;
    if (std::fmod(F, 2.0f) != 0.0f)
      X = 1.0f - X;
  }
  return X * (float)N;
}

struct Fetcher {
  const ImageObject &T;
  int64_t N[3];
  AddressMode M[3];
  const uint8_t *Base; // texel (0, 0, 0) of the layer fetched from
  // Texel (I, J, K) before addressing: its channels, or the border.
  bool texel(const int64_t *Idx, Channel *Out) const {
    int64_t A[3] = {0, 0, 0};
    for (int D = 0; D < T.Image.Dims; ++D)
      if (!addressIndex(Idx[D], N[D], M[D], A[D]))
        return false;
    const uint8_t *P = Base + A[0] * T.Image.texelBytes() +
                       A[1] * T.Image.Pitch + A[2] * T.Image.SlicePitch;
    for (int C = 0; C < T.Image.Channels; ++C)
      Out[C] = loadChannel(T.Image, P, C);
    return true;
  }
  // Channel values of texel Idx as f32 (border color outside).
  void texelFloat(const int64_t *Idx, float *Out) const {
    Channel Ch[4];
    if (!texel(Idx, Ch)) {
      for (int C = 0; C < T.Image.Channels; ++C)
        Out[C] = T.Sampler.BorderColor[C];
      return;
    }
    for (int C = 0; C < T.Image.Channels; ++C)
      Out[C] = channelFloat(T.Image, Ch[C]);
  }
};

// Weight of the upper texel: frac(X) in 9-bit fixed point, 8 bits of
// fraction, rounded to nearest (so 1.0 is possible).
float fixedWeight(float Frac) {
  return std::floor(Frac * 256.0f + 0.5f) / 256.0f;
}

void linearFilter(const Fetcher &Fe, const float *X, float *Out) {
  int Dims = Fe.T.Image.Dims;
  int64_t Base[3] = {0, 0, 0};
  float W[3] = {0, 0, 0};
  for (int D = 0; D < Dims; ++D) {
    float XB = X[D] - 0.5f;
    Base[D] = floorIndex(XB);
    W[D] = std::isnan(XB) ? 0.0f : fixedWeight(XB - std::floor(XB));
  }
  float Acc[4] = {0, 0, 0, 0};
  // Corners in the Guide's order: x fastest, then y, then z.
  for (int Corner = 0; Corner < (1 << Dims); ++Corner) {
    int64_t Idx[3];
    float Wt = 1.0f;
    for (int D = 0; D < Dims; ++D) {
      bool Up = (Corner >> D) & 1;
      Idx[D] = Base[D] + Up;
      float F = Up ? W[D] : 1.0f - W[D];
      Wt = D == 0 ? F : Wt * F;
    }
    float V[4];
    Fe.texelFloat(Idx, V);
    for (int C = 0; C < Fe.T.Image.Channels; ++C) {
      float Term = Wt * V[C];
      Acc[C] = Corner == 0 ? Term : Acc[C] + Term;
    }
  }
  for (int C = 0; C < 4; ++C)
    Out[C] = Acc[C];
}

uint32_t bitsOf(float F) {
  uint32_t B;
  memcpy(&B, &F, 4);
  return B;
}

// The destination type must match how the texture reads (an .f32 result
// for floats or normalized reads, .s32/.u32 for integers in element mode).
bool resultTypeFits(const ImageObject &T, bool FloatResult, const char *What,
                    std::string &Error) {
  bool IntRead =
      T.Image.Kind != ChannelKind::Float && !T.Sampler.NormalizedFloat;
  if (FloatResult != IntRead)
    return true;
  Error = std::string(What) +
          (FloatResult ? " with an .f32 result on an integer texture read "
                         "in element mode (use .s32/.u32)"
                       : " with an integer result on a texture that reads "
                         "floats (use .f32)");
  return false;
}

} // namespace

const uint8_t *layerBase(const ImageDesc &Im, uint32_t Layer) {
  uint32_t L = Im.Layers ? std::min(Layer, Im.Layers - 1) : 0;
  return static_cast<const uint8_t *>(Im.Data) + L * Im.SlicePitch;
}

bool gatherTexture(const ImageObject &T, const float *FCoords, uint32_t Layer,
                   int Comp, bool FloatResult, TexResult &Out,
                   std::string &Error) {
  const ImageDesc &Im = T.Image;
  if (Im.Dims != 2) {
    Error = "tld4: a 2d gather from a " + std::to_string(Im.Dims) + "d texture";
    return false;
  }
  if (!resultTypeFits(T, FloatResult, "tld4", Error))
    return false;
  Fetcher Fe{
      T, {(int64_t)Im.Width, (int64_t)Im.Height, 1}, {}, layerBase(Im, Layer)};
  int64_t Lo[2];
  for (int D = 0; D < 2; ++D)
    Lo[D] = floorIndex(texelCoord(T, D, FCoords[D], Fe.N[D], Fe.M[D]) - 0.5f);
  static const int Corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (int K = 0; K < 4; ++K) {
    int64_t Idx[3] = {Lo[0] + Corner[K][0], Lo[1] + Corner[K][1], 0};
    if (FloatResult) {
      float V[4] = {0, 0, 0, 1}; // channels the format lacks
      Fe.texelFloat(Idx, V);
      Out.Bits[K] = bitsOf(V[Comp]);
      continue;
    }
    Channel Ch[4];
    uint32_t U[4] = {0, 0, 0, 1};
    bool Inside = Fe.texel(Idx, Ch);
    for (int C = 0; C < Im.Channels; ++C) // outside: the border color
      U[C] = Inside ? Ch[C].I : (uint32_t)(int32_t)T.Sampler.BorderColor[C];
    Out.Bits[K] = U[Comp];
  }
  return true;
}

bool sampleTexture(const ImageObject &T, const float *FCoords,
                   const int32_t *ICoords, uint32_t Layer, bool IntCoords,
                   bool FloatResult, TexResult &Out, std::string &Error) {
  const ImageDesc &Im = T.Image;
  if (!resultTypeFits(T, FloatResult, "tex", Error))
    return false;
  Fetcher Fe{T,
             {(int64_t)Im.Width, (int64_t)Im.Height, (int64_t)Im.Depth},
             {},
             layerBase(Im, Layer)};
  // Channels the format lacks read as 0, and the fourth as 1.
  float F[4] = {0, 0, 0, 1};
  uint32_t U[4] = {0, 0, 0, 1};
  int64_t Idx[3] = {0, 0, 0};
  if (IntCoords) {
    // Integer coordinates: texel indices, no filtering; linear memory reads
    // zero outside its width (tex1Dfetch).
    for (int D = 0; D < Im.Dims; ++D) {
      Idx[D] = ICoords[D];
      Fe.M[D] = T.Sampler.Address[D];
      if (Fe.M[D] == AddressMode::Wrap || Fe.M[D] == AddressMode::Mirror)
        Fe.M[D] = AddressMode::Clamp;
    }
    if (Im.LinearMemory && (Idx[0] < 0 || Idx[0] >= (int64_t)Im.Width)) {
      for (int C = 0; C < 4; ++C)
        Out.Bits[C] = 0;
      return true;
    }
  } else {
    float X[3];
    for (int D = 0; D < Im.Dims; ++D)
      X[D] = texelCoord(T, D, FCoords[D], Fe.N[D], Fe.M[D]);
    if (T.Sampler.Filter == FilterMode::Linear) {
      linearFilter(Fe, X, F);
      for (int C = Im.Channels; C < 4; ++C)
        F[C] = C == 3 ? 1.0f : 0.0f;
      for (int C = 0; C < 4; ++C)
        Out.Bits[C] = bitsOf(F[C]);
      return true;
    }
    for (int D = 0; D < Im.Dims; ++D)
      Idx[D] = floorIndex(X[D]);
  }
  if (FloatResult) {
    Fe.texelFloat(Idx, F);
    for (int C = 0; C < 4; ++C)
      Out.Bits[C] = bitsOf(F[C]);
    return true;
  }
  Channel Ch[4];
  if (Fe.texel(Idx, Ch)) {
    for (int C = 0; C < Im.Channels; ++C)
      U[C] = Ch[C].I;
  } else {
    for (int C = 0; C < Im.Channels; ++C) // border color, as an integer
      U[C] = (uint32_t)(int32_t)T.Sampler.BorderColor[C];
  }
  for (int C = 0; C < 4; ++C)
    Out.Bits[C] = U[C];
  return true;
}

uint32_t queryImage(const ImageObject &T, ImageQuery Q) {
  const ImageDesc &Im = T.Image;
  switch (Q) {
  case ImageQuery::Width:
    return (uint32_t)Im.Width;
  case ImageQuery::Height: // 1 for a 1D image, like Depth for 1D/2D
    return (uint32_t)Im.Height;
  case ImageQuery::Depth:
    return (uint32_t)Im.Depth;
  case ImageQuery::ArraySize: // 0: not layered
    return Im.Layers;
  case ImageQuery::NumMipmapLevels: // mipmaps are not supported
    return 1;
  case ImageQuery::NormalizedCoords:
    return T.Sampler.NormalizedCoords ? 1 : 0;
  }
  return 0;
}

} // namespace core
} // namespace warpscope::emu
