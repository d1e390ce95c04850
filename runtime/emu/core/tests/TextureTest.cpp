// Texture and surface objects through the core's own API (ptx/textures.cu,
// clang 22 -O2): 3D fetches, tex.level, 3D surfaces, the registry's checks
// and the launch errors of misused handles. The 1D/2D matrix of modes and
// formats runs end to end in test/conformance/textures.
#include "../Texture.h"
#include "TestUtil.h"

#include <algorithm>

#include <cstring>

using namespace emutest;

namespace {

ImageDesc floatImage(float *Data, uint8_t Dims, uint64_t W, uint64_t H,
                     uint64_t D, uint8_t Channels = 1) {
  ImageDesc I;
  I.Data = Data;
  I.Dims = Dims;
  I.Width = W;
  I.Height = H;
  I.Depth = D;
  I.Channels = Channels;
  I.Pitch = W * 4 * Channels;
  I.SlicePitch = I.Pitch * H;
  return I;
}

// tex3D with linear filtering of T[x,y,z] = x + 10y + 100z: trilinear
// interpolation reproduces a linear function, so at coordinates whose
// weights are quarters the result is exactly (x - 0.5) + 10 (y - 0.5) +
// 100 (z - 0.5) inside the volume; point sampling gives the texel.
TEST(Textures, Fetch3DPointAndLinear) {
  auto M = load("textures_O2.ptx");
  ASSERT_TRUE(M);
  const int W = 4, H = 3, D = 2;
  std::vector<float> Vol(W * H * D);
  for (int Z = 0; Z < D; ++Z)
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        Vol[(Z * H + Y) * W + X] = X + 10.0f * Y + 100.0f * Z;
  const float C[][3] = {{0.5f, 0.5f, 0.5f},
                        {1.75f, 2.25f, 1.0f},
                        {3.5f, 1.0f, 1.5f},
                        {2.0f, 1.75f, 0.75f},
                        {1.25f, 0.75f, 1.25f}};
  const int N = 5;
  std::string Err;
  for (FilterMode F : {FilterMode::Point, FilterMode::Linear}) {
    SamplerDesc S;
    S.Filter = F;
    uint64_t T = registerTexture(floatImage(Vol.data(), 3, W, H, D), S, Err);
    ASSERT_NE(T, 0u) << Err;
    std::vector<float> Out(N, -1.0f);
    const float *CP = &C[0][0];
    float *OP = Out.data();
    ASSERT_TRUE(launch(*M, kernelNamed(*M, "fetch3D"), {1, 1, 1}, {32, 1, 1},
                       Args().add(T).add(CP).add(OP).add(N), &Err))
        << Err;
    for (int K = 0; K < N; ++K) {
      float Want;
      if (F == FilterMode::Point)
        Want = (int)C[K][0] + 10.0f * (int)C[K][1] + 100.0f * (int)C[K][2];
      else
        Want = (C[K][0] - 0.5f) + 10.0f * (C[K][1] - 0.5f) +
               100.0f * (C[K][2] - 0.5f);
      EXPECT_EQ(Out[K], Want) << "filter " << (int)F << " point " << K;
    }
    EXPECT_TRUE(unregisterImage(T));
    EXPECT_FALSE(unregisterImage(T));
  }
}

// Images have one level: tex.level reads level 0 whatever the lod.
TEST(Textures, LevelFetchReadsLevelZero) {
  auto M = load("textures_O2.ptx");
  ASSERT_TRUE(M);
  float Img[2 * 2] = {1.0f, 2.0f, 3.0f, 4.0f};
  std::string Err;
  uint64_t T = registerTexture(floatImage(Img, 2, 2, 2, 1), SamplerDesc(), Err);
  ASSERT_NE(T, 0u) << Err;
  const float C[] = {0.5f, 0.5f, 1.5f, 0.5f, 0.5f, 1.5f, 1.5f, 1.5f};
  float Out[4] = {};
  const float *CP = C;
  float *OP = Out;
  int N = 4;
  ASSERT_TRUE(launch(*M, kernelNamed(*M, "fetch2DLod"), {1, 1, 1}, {4, 1, 1},
                     Args().add(T).add(CP).add(OP).add(N), &Err))
      << Err;
  for (int K = 0; K < 4; ++K)
    EXPECT_EQ(Out[K], Img[K]);
  unregisterImage(T);
}

TEST(Textures, Surface3DReadWrite) {
  auto M = load("textures_O2.ptx");
  ASSERT_TRUE(M);
  const int W = 3, H = 2, D = 2; // float2 texels
  std::vector<float> Src(W * H * D * 2), Dst(Src.size(), 0.0f);
  for (size_t K = 0; K < Src.size(); ++K)
    Src[K] = 0.5f * K;
  std::string Err;
  uint64_t A = registerSurface(floatImage(Src.data(), 3, W, H, D, 2), Err);
  uint64_t B = registerSurface(floatImage(Dst.data(), 3, W, H, D, 2), Err);
  ASSERT_TRUE(A && B) << Err;
  ASSERT_TRUE(launch(*M, kernelNamed(*M, "surf3DCopy"), {1, 1, 1}, {W, H, D},
                     Args().add(A).add(B), &Err))
      << Err;
  for (size_t K = 0; K < Src.size(); ++K)
    EXPECT_EQ(Dst[K], Src[K] + (K % 2 == 0 ? 1.0f : 0.0f)) << K;
  unregisterImage(A);
  unregisterImage(B);
}

TEST(Textures, RegistryRefusesBadDescriptions) {
  float Buf[16] = {};
  std::string Err;
  ImageDesc I = floatImage(Buf, 1, 4, 1, 1);
  I.Channels = 3;
  EXPECT_EQ(registerTexture(I, SamplerDesc(), Err), 0u);
  EXPECT_NE(Err.find("1, 2 or 4 channels"), std::string::npos) << Err;
  I = floatImage(Buf, 2, 4, 2, 1);
  I.Pitch = 8;
  EXPECT_EQ(registerSurface(I, Err), 0u);
  EXPECT_NE(Err.find("pitch"), std::string::npos) << Err;
  I = floatImage(Buf, 1, 4, 1, 1);
  I.Kind = ChannelKind::Unsigned;
  I.ChannelBits = 8;
  SamplerDesc S;
  S.Filter = FilterMode::Linear;
  EXPECT_EQ(registerTexture(I, S, Err), 0u);
  EXPECT_NE(Err.find("linear filtering"), std::string::npos) << Err;
  I.ChannelBits = 32;
  S.Filter = FilterMode::Point;
  S.NormalizedFloat = true;
  EXPECT_EQ(registerTexture(I, S, Err), 0u);
  EXPECT_NE(Err.find("normalized-float"), std::string::npos) << Err;
}

// Layered images: only 1D and 2D, and the layers must not overlap.
TEST(Textures, RegistryChecksLayers) {
  float Buf[64] = {};
  std::string Err;
  ImageDesc I = floatImage(Buf, 3, 2, 2, 2);
  I.Layers = 2;
  EXPECT_EQ(registerTexture(I, SamplerDesc(), Err), 0u);
  EXPECT_NE(Err.find("only 1D and 2D images can be layered"), std::string::npos)
      << Err;
  I = floatImage(Buf, 2, 4, 2, 1);
  I.Layers = 3;
  I.SlicePitch = 16; // half a layer
  EXPECT_EQ(registerSurface(I, Err), 0u);
  EXPECT_NE(Err.find("layer pitch"), std::string::npos) << Err;
  I.SlicePitch = 32;
  uint64_t H = registerSurface(I, Err);
  EXPECT_NE(H, 0u) << Err;
  unregisterImage(H);
}

// The layer of a fetch: a u32, clamped to the last layer.
TEST(Textures, LayerIndexClampsToTheLastLayer) {
  float Buf[12];
  for (int K = 0; K < 12; ++K)
    Buf[K] = (float)K;
  ImageDesc I = floatImage(Buf, 1, 4, 1, 1);
  I.Layers = 3;
  core::ImageObject T;
  T.Image = I;
  for (uint32_t Layer : {0u, 1u, 2u, 3u, 0xffffffffu}) {
    float X = 1.5f;
    core::TexResult R;
    std::string Err;
    ASSERT_TRUE(core::sampleTexture(T, &X, nullptr, Layer, false, true, R, Err))
        << Err;
    EXPECT_EQ(bitsToFloat(R.Bits[0]), 4.0f * std::min(Layer, 2u) + 1.0f)
        << Layer;
  }
}

// Queries no CUDA intrinsic reaches with a documented value, and the cube
// and multisample geometries, fail the launch naming the instruction.
TEST(Textures, UnsupportedQueriesAndGeometriesFailTheLaunch) {
  for (const char *Inst :
       {"txq.channel_order.b32 %r1, [%rd1];",
        "suq.memory_layout.b32 %r1, [%rd1];",
        "txq.level.width.b32 %r1, [%rd1], %r1;",
        "tex.cube.v4.f32.f32 {%f1, %f1, %f1, %f1}, [%rd1, {%f1, %f1, %f1, "
        "%f1}];"}) {
    auto M = loadText(std::string(".visible .entry k(.param .u64 p)\n{\n"
                                  "\t.reg .b64 %rd<2>;\n\t.reg .b32 "
                                  "%r<2>;\n\t.reg .f32 %f<2>;\n"
                                  "\tld.param.u64 %rd1, [p];\n\t") +
                      Inst + "\n\tret;\n}\n");
    ASSERT_TRUE(M) << Inst;
    std::string Err;
    EXPECT_FALSE(
        launch(*M, "k", {1, 1, 1}, {1, 1, 1}, Args().add(uint64_t(1)), &Err));
    std::string Opc(Inst, strchr(Inst, ' '));
    EXPECT_NE(Err.find("unsupported instruction: '" + Opc + "'"),
              std::string::npos)
        << Err;
  }
}

// Misused handles fail the launch with one line naming the problem.
TEST(Textures, MisusedHandlesFailTheLaunch) {
  auto M = load("textures_O2.ptx");
  ASSERT_TRUE(M);
  float Buf[64] = {};
  float *OP = Buf + 32;
  std::string Err;
  auto Run = [&](uint64_t H) {
    Err.clear();
    EXPECT_FALSE(launch(*M, kernelNamed(*M, "fetch1D"), {1, 1, 1}, {2, 1, 1},
                        Args().add(H).add(0.5f).add(OP), &Err));
    EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
  };
  Run(0x1234567);
  EXPECT_NE(Err.find("tex: 0x1234567 is not a texture or surface object"),
            std::string::npos)
      << Err;
  uint64_t S = registerSurface(floatImage(Buf, 1, 8, 1, 1), Err);
  Run(S);
  EXPECT_NE(Err.find("is a surface object, not a texture object"),
            std::string::npos)
      << Err;
  uint64_t T2 =
      registerTexture(floatImage(Buf, 2, 4, 4, 1), SamplerDesc(), Err);
  Run(T2);
  EXPECT_NE(Err.find("a 1d access to a 2d texture"), std::string::npos) << Err;
  ImageDesc L = floatImage(Buf, 1, 4, 1, 1);
  L.Layers = 3;
  uint64_t TL = registerTexture(L, SamplerDesc(), Err);
  ASSERT_NE(TL, 0u) << Err;
  Run(TL);
  EXPECT_NE(Err.find("a 1d access to a a1d texture"), std::string::npos) << Err;
  unregisterImage(TL);
  ImageDesc U = floatImage(Buf, 1, 8, 1, 1);
  U.Kind = ChannelKind::Unsigned;
  uint64_t TU = registerTexture(U, SamplerDesc(), Err);
  Run(TU);
  EXPECT_NE(Err.find(".f32 result on an integer texture"), std::string::npos)
      << Err;
  for (uint64_t H : {S, T2, TU})
    unregisterImage(H);
}

} // namespace
