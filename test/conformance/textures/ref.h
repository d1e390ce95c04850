// Host side of the texture/surface conformance suite (issue 16 item 5),
// shared by textures.cu, volume.cu and surfaces.cu: the failure counters,
// images on the host and the reference fetch written from the CUDA C++
// Programming Guide, appendix "Texture Fetching" (see textures.cu's header
// for the formulas). Nothing here comes from the emulator.
#ifndef CONFORMANCE_TEXTURES_REF_H
#define CONFORMANCE_TEXTURES_REF_H

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(X)                                                                  \
  do {                                                                         \
    cudaError_t E_ = (X);                                                      \
    if (E_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #X,               \
              cudaGetErrorString(E_));                                         \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

extern int Failures, Checks; // textures.cu

// --dump FILE (textures.cu): one checked result, as the line
// `form<TAB>case<TAB>inputs<TAB>bytes in hex` (case: the form's count).
void dumpResult(const std::string &Form, const std::string &In, const void *Got,
                size_t Bytes);
// printf into a std::string (the dump's form and input fields).
std::string fmt(const char *F, ...) __attribute__((format(printf, 1, 2)));

struct Format {
  const char *Name;
  cudaChannelFormatKind Kind;
  int Bits, Channels;
};

// IEEE binary16 to float, exactly (16-bit float textures are widened
// before filtering, Programming Guide "16-Bit Floating-Point Textures").
inline float halfToFloat(uint16_t H) {
  int E = (H >> 10) & 31, M = H & 1023;
  float V = E == 0    ? ldexpf((float)M, -24)
            : E == 31 ? (M ? NAN : INFINITY)
                      : ldexpf((float)(M | 1024), E - 25);
  return (H >> 15) ? -V : V;
}

// W x H x D texels (H = 1 for 1D, D = 1 for 1D/2D; for layered images D is
// the number of layers), rows packed, then slices.
struct HostImage {
  Format F;
  int W, H; // H = 1 for 1D
  std::vector<uint8_t> Bytes;
  int D = 1;
  int texelBytes() const { return F.Bits / 8 * F.Channels; }
  const uint8_t *at(int X, int Y, int Z, int C) const {
    return &Bytes[(((size_t)Z * H + Y) * W + X) * texelBytes() +
                  C * F.Bits / 8];
  }
  // Raw channel as an integer (sign-extended) or float bits.
  int64_t rawInt(int X, int Y, int C, int Z = 0) const {
    const uint8_t *P = at(X, Y, Z, C);
    bool S = F.Kind == cudaChannelFormatKindSigned;
    if (F.Bits == 8)
      return S ? (int64_t)(int8_t)*P : (int64_t)*P;
    if (F.Bits == 16) {
      uint16_t V;
      memcpy(&V, P, 2);
      return S ? (int64_t)(int16_t)V : (int64_t)V;
    }
    uint32_t V;
    memcpy(&V, P, 4);
    return S ? (int64_t)(int32_t)V : (int64_t)V;
  }
  float asFloat(int X, int Y, int C, int Z = 0) const {
    if (F.Kind == cudaChannelFormatKindFloat && F.Bits == 16) {
      uint16_t H;
      memcpy(&H, at(X, Y, Z, C), 2);
      return halfToFloat(H);
    }
    if (F.Kind == cudaChannelFormatKindFloat) {
      float V;
      memcpy(&V, at(X, Y, Z, C), 4);
      return V;
    }
    int64_t V = rawInt(X, Y, C, Z);
    if (F.Kind == cudaChannelFormatKindUnsigned)
      return (float)V / (float)((1 << F.Bits) - 1);
    float N = (float)V / (float)((1 << (F.Bits - 1)) - 1);
    return N < -1.0f ? -1.0f : N;
  }
};

// Pseudo-random texels; integer images start with the extremes of the range.
HostImage makeImage(Format F, int W, int H, unsigned Seed, int D = 1);

// Texel index after addressing; false: outside (border).
bool refIndex(long I, int N, cudaTextureAddressMode M, bool Norm, long &Out);

// Coordinate in texel space per the Guide.
float refScale(float X, int N, cudaTextureAddressMode M, bool Norm);

struct Sampler {
  cudaTextureAddressMode Mode;
  cudaTextureFilterMode Filter;
  cudaTextureReadMode Read;
  bool Norm;
};

// Reference value of channel C at Coord (Dims coordinates) of layer Layer
// (Layered: the layer index is a u32 clamped to the last layer, the
// Direct3D rule the emulator assumes; else Layer is ignored): f32 bits,
// or the integer for element reads of integer formats.
uint32_t refFetchN(const HostImage &Im, const Sampler &S, const float *Coord,
                   int Dims, bool Layered, int Layer, int C);

// Sample coordinates: well outside the extent on both sides, texel centers,
// edges and in between.
std::vector<float> coords(int N, bool Norm);

// The channel description of a format.
cudaChannelFormatDesc descOf(const Format &F);

void bitsOf(float V, uint32_t *O);
void bitsOf(float4 V, uint32_t *O);
void bitsOf(unsigned char V, uint32_t *O);
void bitsOf(unsigned short V, uint32_t *O);
void bitsOf(short V, uint32_t *O);
void bitsOf(uchar4 V, uint32_t *O);
void bitsOf(char4 V, uint32_t *O);
void bitsOf(float2 V, uint32_t *O);
void bitsOf(ushort2 V, uint32_t *O);
void bitsOf(signed char V, uint32_t *O);
void bitsOf(int V, uint32_t *O);
void bitsOf(unsigned V, uint32_t *O);
// Integer results of the reference are full 32-bit values; the kernel's
// narrow types keep their low bits (sign-extended for short).
uint32_t narrow(uint32_t V, const Format &F, bool FloatOut);

// Every sampler of the matrix (address mode x filter x read mode x
// normalized coordinates); Fn(Sampler) for those a format allows.
template <class Fn> void eachSampler(const Format &F, Fn &&Do) {
  for (auto Mode : {cudaAddressModeWrap, cudaAddressModeClamp,
                    cudaAddressModeMirror, cudaAddressModeBorder})
    for (auto Filter : {cudaFilterModePoint, cudaFilterModeLinear})
      for (auto Read : {cudaReadModeElementType, cudaReadModeNormalizedFloat})
        for (bool Norm : {false, true}) {
          bool FloatOut = F.Kind == cudaChannelFormatKindFloat ||
                          Read == cudaReadModeNormalizedFloat;
          if (F.Kind == cudaChannelFormatKindFloat &&
              Read == cudaReadModeNormalizedFloat)
            continue; // the same as element reads for floats
          if (Filter == cudaFilterModeLinear && !FloatOut)
            continue; // refused (checked in textures.cu)
          Do(Sampler{Mode, Filter, Read, Norm});
        }
}

// Suites in volume.cu and surfaces.cu.
void volumes();
void layeredTextures();
void levelFetches();
void textureQueries();
void surfaceMatrix();

#endif
