//===- Texture.h - texture and surface objects inside the core --*- C++ -*-===//
//
// The registry behind registerTexture/registerSurface (Emulator.h) and the
// texture unit's arithmetic: addressing, nearest-point and linear filtering
// and read modes, as the CUDA C++ Programming Guide's "Texture Fetching"
// appendix defines them. Pure functions of a descriptor and coordinates, so
// tests can call them without a launch; TextureOps.cpp runs them per lane.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_TEXTURE_H
#define WARPSCOPE_EMU_CORE_TEXTURE_H

#include "warpscope/Emu/Emulator.h"

#include <cstdint>
#include <string>

namespace warpscope::emu::core {

struct ImageObject {
  ImageDesc Image;
  SamplerDesc Sampler;
  bool IsSurface = false;
};

/// Copies the object behind Handle into Out; false if none is registered.
bool lookupImage(uint64_t Handle, ImageObject &Out);

/// Result of one texture fetch: four channels, as f32 bits or as 32-bit
/// integers depending on the tex instruction's destination type.
struct TexResult {
  uint32_t Bits[4];
};

/// Texel (0, 0, 0) of layer Layer of a layered image (the image itself
/// when not layered). The PTX ISA reads the layer index as a .u32; an index
/// beyond the last layer selects the last layer (the Direct3D rule for
/// texture arrays, clamp to [0, layers - 1], which the CUDA documentation
/// does not state: an assumption until a GPU run confirms it).
const uint8_t *layerBase(const ImageDesc &Im, uint32_t Layer);

/// One fetch. Coords holds Image.Dims coordinates (f32 values, or s32
/// texel indices when IntCoords), Layer the layer of a layered texture.
/// FloatResult: the destination type is .f32 (else .s32/.u32). Returns
/// false with Error set when the destination type does not fit the
/// texture (e.g. .f32 from an integer texture read in element mode).
bool sampleTexture(const ImageObject &T, const float *FCoords,
                   const int32_t *ICoords, uint32_t Layer, bool IntCoords,
                   bool FloatResult, TexResult &Out, std::string &Error);

/// tld4 (tex2Dgather): channel Comp of the four texels a bilinear fetch at
/// FCoords (2D) would weigh, in the order (i, j+1), (i+1, j+1), (i+1, j),
/// (i, j) with (i, j) the lower texel of each dimension, the order of the
/// Direct3D gather that the hardware implements. Point or linear filtering
/// of the sampler does not matter.
bool gatherTexture(const ImageObject &T, const float *FCoords, uint32_t Layer,
                   int Comp, bool FloatResult, TexResult &Out,
                   std::string &Error);

/// txq/suq: what they query (PTX ISA, txq and suq): the extent in texels,
/// the number of layers and mipmap levels, and whether coordinates are
/// normalized.
enum class ImageQuery : uint8_t {
  Width,
  Height,
  Depth,
  ArraySize,
  NumMipmapLevels,
  NormalizedCoords,
};

/// The value of query Q on object T.
uint32_t queryImage(const ImageObject &T, ImageQuery Q);

} // namespace warpscope::emu::core

#endif
