//===- TexturesTest.cpp - CUDA arrays, texture and surface objects --------===//
//
// The stand-in runtime's side of textures over the fake core: what it tells
// the core about arrays, samplers and surfaces, and what it refuses.
// Sampling itself is tested end to end in test/conformance/textures.
//
//===----------------------------------------------------------------------===//
#include "FakeCore.h"
#include "Runtime.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>

// cudaMemcpyToArray/FromArray are deprecated but still used, so tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using namespace warpscope::emu;

namespace {

class Textures : public ::testing::Test {
protected:
  void SetUp() override { cudart::resetStateForTesting(); }
  void TearDown() override { cudart::resetStateForTesting(); }
};

cudaResourceDesc arrayResource(cudaArray_t A) {
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  return R;
}

TEST_F(Textures, ArrayCopiesRoundTrip) {
  cudaChannelFormatDesc D = cudaCreateChannelDesc<ushort2>();
  cudaArray_t A;
  ASSERT_EQ(cudaMallocArray(&A, &D, 5, 3), cudaSuccess);
  cudaChannelFormatDesc Back;
  cudaExtent E;
  unsigned Flags = 99;
  ASSERT_EQ(cudaArrayGetInfo(&Back, &E, &Flags, A), cudaSuccess);
  EXPECT_EQ(Back.x, 16);
  EXPECT_EQ(Back.y, 16);
  EXPECT_EQ(Back.z, 0);
  EXPECT_EQ(E.width, 5u);
  EXPECT_EQ(E.height, 3u);
  EXPECT_EQ(Flags, 0u);
  // Rows of 20 bytes; copy a 2x2-texel block from a pitched source at (1, 1).
  uint8_t Src[2][32], Out[3][20];
  for (int K = 0; K < 64; ++K)
    Src[K / 32][K % 32] = (uint8_t)K;
  ASSERT_EQ(cudaMemcpy2DToArray(A, 4, 1, Src, 32, 8, 2, cudaMemcpyDefault),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpy2DFromArray(Out, 20, A, 0, 0, 20, 3, cudaMemcpyDefault),
            cudaSuccess);
  for (int Y = 0; Y < 3; ++Y)
    for (int X = 0; X < 20; ++X) {
      bool In = Y >= 1 && X >= 4 && X < 12;
      EXPECT_EQ(Out[Y][X], In ? Src[Y - 1][X - 4] : 0) << X << "," << Y;
    }
  // The deprecated linear copy runs on into the next row.
  uint8_t Line[24];
  for (int K = 0; K < 24; ++K)
    Line[K] = (uint8_t)(200 + K);
  ASSERT_EQ(cudaMemcpyToArray(A, 16, 0, Line, 24, cudaMemcpyDefault),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpyFromArray(Out, A, 0, 0, 60, cudaMemcpyDefault),
            cudaSuccess);
  EXPECT_EQ(Out[0][16], 200);
  EXPECT_EQ(Out[1][19], 223);
  // Outside the array: refused.
  EXPECT_EQ(cudaMemcpy2DToArray(A, 16, 0, Src, 32, 8, 1, cudaMemcpyDefault),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy2DFromArray(Out, 20, A, 0, 1, 20, 3, cudaMemcpyDefault),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToArray(A, 0, 2, Line, 24, cudaMemcpyDefault),
            cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(cudaFreeArray(A), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(A), cudaErrorInvalidValue);
  cudaGetLastError();
}

// cudaMalloc3DArray's shapes (3D; 1D and 2D layered, the depth giving the
// layers) as the core sees them, cudaArrayGetInfo's extents, and
// cudaMemcpy3D into and out of an array at an offset.
TEST_F(Textures, Malloc3DArrayShapesAndCopies) {
  cudaChannelFormatDesc D = cudaCreateChannelDesc<short>();
  struct Case {
    cudaExtent E;
    unsigned Flags;
    uint8_t Dims;
    uint64_t H, Depth;
    uint32_t Layers;
  } Cases[] = {{make_cudaExtent(5, 0, 0), 0, 1, 1, 1, 0},
               {make_cudaExtent(5, 3, 0), 0, 2, 3, 1, 0},
               {make_cudaExtent(5, 3, 4), 0, 3, 3, 4, 0},
               {make_cudaExtent(5, 0, 4), cudaArrayLayered, 1, 1, 1, 4},
               {make_cudaExtent(5, 3, 4), cudaArrayLayered, 2, 3, 1, 4}};
  for (const Case &C : Cases) {
    cudaArray_t A;
    ASSERT_EQ(
        cudaMalloc3DArray(&A, &D, C.E, C.Flags | cudaArraySurfaceLoadStore),
        cudaSuccess);
    cudaExtent Back;
    ASSERT_EQ(cudaArrayGetInfo(nullptr, &Back, nullptr, A), cudaSuccess);
    EXPECT_EQ(Back.width, C.E.width);
    EXPECT_EQ(Back.height, C.E.height);
    EXPECT_EQ(Back.depth, C.E.depth);
    cudaResourceDesc R = arrayResource(A);
    cudaSurfaceObject_t S;
    ASSERT_EQ(cudaCreateSurfaceObject(&S, &R), cudaSuccess);
    const ImageDesc &I = fake::images()[S].Image;
    EXPECT_EQ(I.Dims, C.Dims);
    EXPECT_EQ(I.Width, 5u);
    EXPECT_EQ(I.Height, C.H);
    EXPECT_EQ(I.Depth, C.Depth);
    EXPECT_EQ(I.Layers, C.Layers);
    EXPECT_EQ(I.Pitch, 10u);
    EXPECT_EQ(I.SlicePitch, 10u * C.H);
    EXPECT_EQ(cudaDestroySurfaceObject(S), cudaSuccess);
    EXPECT_EQ(cudaFreeArray(A), cudaSuccess);
  }
  // A 2x2x2 block of a host volume (rows of 8 shorts, 3 rows a slice) into
  // layers 1..2 at (1, 1) of a 5 x 3 x 4 layered array, and all back.
  cudaArray_t A;
  ASSERT_EQ(
      cudaMalloc3DArray(&A, &D, make_cudaExtent(5, 3, 4), cudaArrayLayered),
      cudaSuccess);
  short Vol[2][3][8], Out[4][3][5];
  for (int K = 0; K < 48; ++K)
    (&Vol[0][0][0])[K] = (short)(K + 1);
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(Vol, 16, 8, 3);
  P.srcPos = make_cudaPos(4, 1, 0); // bytes into a pointer: x = 2 shorts
  P.dstArray = A;
  P.dstPos = make_cudaPos(1, 1, 1); // elements into an array
  P.extent = make_cudaExtent(2, 2, 2);
  P.kind = cudaMemcpyHostToDevice;
  ASSERT_EQ(cudaMemcpy3D(&P), cudaSuccess);
  memset(&P, 0, sizeof P);
  P.srcArray = A;
  P.dstPtr = make_cudaPitchedPtr(Out, 10, 5, 3);
  P.extent = make_cudaExtent(5, 3, 4);
  P.kind = cudaMemcpyDeviceToHost;
  ASSERT_EQ(cudaMemcpy3D(&P), cudaSuccess);
  for (int Z = 0; Z < 4; ++Z)
    for (int Y = 0; Y < 3; ++Y)
      for (int X = 0; X < 5; ++X) {
        bool In = Z >= 1 && Z <= 2 && Y >= 1 && X >= 1 && X <= 2;
        EXPECT_EQ(Out[Z][Y][X], In ? Vol[Z - 1][Y][X + 1] : 0)
            << X << "," << Y << "," << Z;
      }
  // Beyond the layers: refused.
  P.extent = make_cudaExtent(5, 3, 5);
  EXPECT_EQ(cudaMemcpy3D(&P), cudaErrorInvalidValue);
  // Layered without layers, a depth without a height, cubemaps: refused.
  cudaArray_t B;
  EXPECT_EQ(
      cudaMalloc3DArray(&B, &D, make_cudaExtent(5, 3, 0), cudaArrayLayered),
      cudaErrorInvalidValue);
  EXPECT_EQ(cudaMalloc3DArray(&B, &D, make_cudaExtent(5, 0, 3), 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(
      cudaMalloc3DArray(&B, &D, make_cudaExtent(4, 4, 6), cudaArrayCubemap),
      cudaErrorNotSupported);
  cudaGetLastError();
  EXPECT_EQ(cudaFreeArray(A), cudaSuccess);
}

TEST_F(Textures, TextureObjectDescribesArrayAndSampler) {
  cudaChannelFormatDesc D = cudaCreateChannelDesc<uchar4>();
  cudaArray_t A;
  ASSERT_EQ(cudaMallocArray(&A, &D, 7, 4), cudaSuccess);
  cudaResourceDesc R = arrayResource(A);
  cudaTextureDesc T;
  memset(&T, 0, sizeof T);
  T.addressMode[0] = cudaAddressModeMirror;
  T.addressMode[1] = cudaAddressModeBorder;
  T.filterMode = cudaFilterModeLinear;
  T.readMode = cudaReadModeNormalizedFloat;
  T.normalizedCoords = 1;
  T.borderColor[1] = 0.25f;
  cudaTextureObject_t Tex = 0;
  ASSERT_EQ(cudaCreateTextureObject(&Tex, &R, &T, nullptr), cudaSuccess);
  ASSERT_EQ(fake::images().count(Tex), 1u);
  const fake::ImageRecord &I = fake::images()[Tex];
  EXPECT_FALSE(I.Surface);
  EXPECT_EQ(I.Image.Dims, 2);
  EXPECT_EQ(I.Image.Width, 7u);
  EXPECT_EQ(I.Image.Height, 4u);
  EXPECT_EQ(I.Image.Pitch, 28u);
  EXPECT_EQ(I.Image.Channels, 4);
  EXPECT_EQ(I.Image.ChannelBits, 8);
  EXPECT_EQ(I.Image.Kind, ChannelKind::Unsigned);
  EXPECT_FALSE(I.Image.LinearMemory);
  EXPECT_EQ(I.Sampler.Address[0], AddressMode::Mirror);
  EXPECT_EQ(I.Sampler.Address[1], AddressMode::Border);
  EXPECT_EQ(I.Sampler.Filter, FilterMode::Linear);
  EXPECT_TRUE(I.Sampler.NormalizedFloat);
  EXPECT_TRUE(I.Sampler.NormalizedCoords);
  EXPECT_EQ(I.Sampler.BorderColor[1], 0.25f);
  cudaTextureDesc TBack;
  ASSERT_EQ(cudaGetTextureObjectTextureDesc(&TBack, Tex), cudaSuccess);
  EXPECT_EQ(TBack.addressMode[0], cudaAddressModeMirror);
  cudaResourceDesc RBack;
  ASSERT_EQ(cudaGetTextureObjectResourceDesc(&RBack, Tex), cudaSuccess);
  EXPECT_EQ(RBack.res.array.array, A);
  // A texture handle is no surface handle.
  EXPECT_EQ(cudaDestroySurfaceObject(Tex), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDestroyTextureObject(Tex), cudaSuccess);
  EXPECT_EQ(fake::images().count(Tex), 0u);
  EXPECT_EQ(cudaDestroyTextureObject(Tex), cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(cudaFreeArray(A), cudaSuccess);
}

TEST_F(Textures, LinearAndPitchedResources) {
  alignas(16) float Buf[64] = {};
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeLinear;
  R.res.linear.devPtr = Buf;
  R.res.linear.desc = cudaCreateChannelDesc<float2>();
  R.res.linear.sizeInBytes = sizeof Buf;
  cudaTextureDesc T;
  memset(&T, 0, sizeof T);
  cudaTextureObject_t Tex;
  ASSERT_EQ(cudaCreateTextureObject(&Tex, &R, &T, nullptr), cudaSuccess);
  EXPECT_TRUE(fake::images()[Tex].Image.LinearMemory);
  EXPECT_EQ(fake::images()[Tex].Image.Width, 32u); // float2 texels
  EXPECT_EQ(cudaDestroyTextureObject(Tex), cudaSuccess);
  R.resType = cudaResourceTypePitch2D;
  R.res.pitch2D.devPtr = Buf;
  R.res.pitch2D.desc = cudaCreateChannelDesc<short>();
  R.res.pitch2D.width = 10;
  R.res.pitch2D.height = 8;
  R.res.pitch2D.pitchInBytes = 32;
  ASSERT_EQ(cudaCreateTextureObject(&Tex, &R, &T, nullptr), cudaSuccess);
  const ImageDesc &I = fake::images()[Tex].Image;
  EXPECT_EQ(I.Pitch, 32u);
  EXPECT_EQ(I.Kind, ChannelKind::Signed);
  EXPECT_EQ(I.ChannelBits, 16);
  EXPECT_EQ(cudaDestroyTextureObject(Tex), cudaSuccess);
}

TEST_F(Textures, SurfacesNeedLoadStoreArrays) {
  cudaChannelFormatDesc D = cudaCreateChannelDesc<float>();
  cudaArray_t Plain, Surf;
  ASSERT_EQ(cudaMallocArray(&Plain, &D, 4, 4), cudaSuccess);
  ASSERT_EQ(cudaMallocArray(&Surf, &D, 4, 4, cudaArraySurfaceLoadStore),
            cudaSuccess);
  cudaResourceDesc R = arrayResource(Plain);
  cudaSurfaceObject_t S;
  EXPECT_EQ(cudaCreateSurfaceObject(&S, &R), cudaErrorInvalidValue);
  R = arrayResource(Surf);
  ASSERT_EQ(cudaCreateSurfaceObject(&S, &R), cudaSuccess);
  EXPECT_TRUE(fake::images()[S].Surface);
  EXPECT_EQ(cudaDestroyTextureObject(S), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDestroySurfaceObject(S), cudaSuccess);
  cudaGetLastError();
  EXPECT_EQ(cudaFreeArray(Plain), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(Surf), cudaSuccess);
}

TEST_F(Textures, UnsupportedFormatsAndModesAreRefused) {
  cudaArray_t A;
  cudaChannelFormatDesc Three =
      cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  EXPECT_EQ(cudaMallocArray(&A, &Three, 4, 4),
            cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc D = cudaCreateChannelDesc<float>();
  EXPECT_EQ(cudaMallocArray(&A, &D, 4, 4, cudaArrayLayered),
            cudaErrorNotSupported);
  ASSERT_EQ(cudaMallocArray(&A, &D, 4, 4), cudaSuccess);
  cudaResourceDesc R = arrayResource(A);
  cudaTextureDesc T;
  memset(&T, 0, sizeof T);
  T.sRGB = 1;
  cudaTextureObject_t Tex;
  EXPECT_EQ(cudaCreateTextureObject(&Tex, &R, &T, nullptr),
            cudaErrorNotSupported);
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeMipmappedArray;
  T.sRGB = 0;
  EXPECT_EQ(cudaCreateTextureObject(&Tex, &R, &T, nullptr),
            cudaErrorNotSupported);
  cudaGetLastError();
  EXPECT_EQ(cudaFreeArray(A), cudaSuccess);
}

} // namespace
