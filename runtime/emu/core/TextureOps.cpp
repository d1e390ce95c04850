//===- TextureOps.cpp - tex, suld and sust on texture/surface objects -----===//
//
// The handle operand names an object the stand-in cudart registered
// (Texture.cpp); each lane looks its own handle up (one lookup while lanes
// agree). Texture fetches go through sampleTexture. Surface accesses are
// byte-addressed in x (rows and slices in y and z) and handle coordinates
// outside the surface by the instruction's boundary mode: .trap fails the
// launch, .clamp moves the access to the nearest location inside, .zero
// loads zeros and drops stores.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Texture.h"

#include <cstring>

namespace warpscope::emu::core {

namespace {

std::string hex(uint64_t V) {
  char B[32];
  snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

std::string geometryName(unsigned Dims, bool Layered) {
  return (Layered ? "a" : "") + std::to_string(Dims) + "d";
}

} // namespace

void Launcher::execTexture(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const char *What = I.Op == OpTex    ? "tex"
                     : I.Op == OpSuld ? "suld"
                     : I.Op == OpSust ? "sust"
                     : I.Bool         ? "suq"
                                      : "txq";
  const bool Query = I.Op == OpTxq;
  const bool Layered = !Query && (I.Sub & SubLayered);
  const unsigned Dims = Query ? 0 : I.Sub & 7, Mode = I.Sub >> 4;
  ImageObject Obj;
  uint64_t Cached = 0;
  for (int L = 0; L < 32; ++L) {
    if (!(EM >> L & 1))
      continue;
    uint64_t H = R[(size_t)I.Addr * 32 + L];
    if (H != Cached || H == 0) {
      if (!lookupImage(H, Obj))
        fail(W, *Fr.F, I, L,
             std::string(What) + ": " + hex(H) +
                 " is not a texture or surface object (destroyed, or never "
                 "created with cudaCreate*Object)");
      Cached = H;
    }
    bool WantSurface = Query ? I.Bool != 0 : I.Op != OpTex;
    if (Obj.IsSurface != WantSurface)
      fail(W, *Fr.F, I, L,
           std::string(What) + ": " + hex(H) + " is a " +
               (Obj.IsSurface ? "surface" : "texture") + " object, not a " +
               (Obj.IsSurface ? "texture" : "surface") + " object");
    if (Query) {
      R[(size_t)I.D[0] * 32 + L] = queryImage(Obj, (ImageQuery)I.Sub);
      continue;
    }
    if (Obj.Image.Dims != Dims || (Obj.Image.Layers != 0) != Layered)
      fail(W, *Fr.F, I, L,
           std::string(What) + ": a " + geometryName(Dims, Layered) +
               " access to a " +
               geometryName(Obj.Image.Dims, Obj.Image.Layers != 0) +
               (Obj.IsSurface ? " surface" : " texture"));
    auto Src = [&](unsigned K) { return R[(size_t)I.S[K] * 32 + L]; };
    const uint32_t Layer = Layered ? (uint32_t)Src(3) : 0;
    if (I.Op == OpTex) {
      float FC[3] = {0, 0, 0};
      int32_t IC[3] = {0, 0, 0};
      for (unsigned D = 0; D < Dims; ++D) {
        uint32_t B = (uint32_t)Src(D);
        memcpy(&FC[D], &B, 4);
        IC[D] = (int32_t)B;
      }
      TexResult Res;
      std::string Err;
      bool Ok = I.Bool ? gatherTexture(Obj, FC, Layer, I.Bool - 1,
                                       I.T == Ty::F32, Res, Err)
                       : sampleTexture(Obj, FC, IC, Layer, I.T2 == Ty::S32,
                                       I.T == Ty::F32, Res, Err);
      if (!Ok)
        fail(W, *Fr.F, I, L, Err);
      for (int C = 0; C < 4; ++C)
        R[(size_t)I.D[C] * 32 + L] = Res.Bits[C];
      continue;
    }
    // Surfaces.
    const ImageDesc &Im = Obj.Image;
    const unsigned Elem = tySize(I.T), Bytes = Elem * I.Vec;
    int64_t C[3] = {0, 0, 0};
    const int64_t Lim[3] = {(int64_t)(Im.Width * Im.texelBytes()) - Bytes,
                            (int64_t)Im.Height - 1, (int64_t)Im.Depth - 1};
    // A layer beyond the last is out of range like a coordinate: .clamp
    // takes the last layer (layerBase), .zero reads zeros, .trap fails.
    bool Out = Layered && Layer >= Im.Layers;
    for (unsigned D = 0; D < Dims; ++D) {
      C[D] = (int32_t)Src(D);
      Out |= C[D] < 0 || C[D] > Lim[D];
    }
    if (Out && Mode == 0)
      fail(W, *Fr.F, I, L,
           std::string(What) + ": coordinate (" +
               (Layered ? "layer " + std::to_string(Layer) + ", " : "") +
               std::to_string(C[0]) +
               (Dims > 1 ? ", " + std::to_string(C[1]) : "") +
               (Dims > 2 ? ", " + std::to_string(C[2]) : "") +
               ") outside the surface (" +
               std::to_string(Im.Width * Im.texelBytes()) + " bytes wide, " +
               std::to_string(Im.Height) + " rows, " +
               (Layered ? std::to_string(Im.Layers) + " layers"
                        : std::to_string(Im.Depth) + " slices") +
               "), boundary mode .trap");
    if (C[0] % Bytes != 0)
      fail(W, *Fr.F, I, L,
           std::string(What) + ": x = " + std::to_string(C[0]) +
               " bytes is not a multiple of the access size " +
               std::to_string(Bytes));
    if (Out && Mode == 2) { // .zero
      if (I.Op == OpSuld)
        for (unsigned V = 0; V < I.Vec; ++V)
          R[(size_t)I.D[V] * 32 + L] = 0;
      continue;
    }
    for (unsigned D = 0; D < Dims; ++D) // .clamp (no-op when inside)
      C[D] = C[D] < 0 ? 0 : C[D] > Lim[D] ? Lim[D] : C[D];
    uint8_t *P = const_cast<uint8_t *>(layerBase(Im, Layer)) + C[0] +
                 C[1] * Im.Pitch + C[2] * Im.SlicePitch;
    for (unsigned V = 0; V < I.Vec; ++V) {
      if (I.Op == OpSuld) {
        uint64_t X = 0;
        memcpy(&X, P + V * Elem, Elem);
        R[(size_t)I.D[V] * 32 + L] = X;
      } else {
        uint64_t X = R[(size_t)I.D[V] * 32 + L]; // sust: values in D
        memcpy(P + V * Elem, &X, Elem);
      }
    }
  }
}

} // namespace warpscope::emu::core
