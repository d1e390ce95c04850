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

/// One fetch. Coords holds Image.Dims coordinates (f32 values, or s32
/// texel indices when IntCoords). FloatResult: the destination type is
/// .f32 (else .s32/.u32). Returns false with Error set when the
/// destination type does not fit the texture (e.g. .f32 from an integer
/// texture read in element mode).
bool sampleTexture(const ImageObject &T, const float *FCoords,
                   const int32_t *ICoords, bool IntCoords, bool FloatResult,
                   TexResult &Out, std::string &Error);

/// tld4 (tex2Dgather): channel Comp of the four texels a bilinear fetch at
/// FCoords (2D) would weigh, in the order (i, j+1), (i+1, j+1), (i+1, j),
/// (i, j) with (i, j) the lower texel of each dimension, the order of the
/// Direct3D gather that the hardware implements. Point or linear filtering
/// of the sampler does not matter.
bool gatherTexture(const ImageObject &T, const float *FCoords, int Comp,
                   bool FloatResult, TexResult &Out, std::string &Error);

} // namespace warpscope::emu::core

#endif
