// 3D textures, layered 1D/2D textures, tex2DLod and the txq/suq queries
// (issue 16 item 5), compared with the host reference of ref.cu. Arrays
// come from cudaMalloc3DArray (cudaArrayLayered for the layered ones) and
// are filled with cudaMemcpy3D. A layer index is a u32 (PTX ISA, tex
// .a1d/.a2d); beyond the last layer (so also for a negative int) the
// reference takes the last layer, the Direct3D rule for texture arrays,
// which the CUDA documentation does not state: assumed until a GPU run
// confirms it.
#include "ref.h"

namespace {

enum Geometry { G3D, G1DLayered, G2DLayered, G2DLod, G2DGrad };

// One fetch per point: (x, y, z) coordinates, w the layer.
template <class T, int G>
__global__ void fetchG(cudaTextureObject_t t, const float4 *c, T *out, int n,
                       float lod) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = c[i];
  if constexpr (G == G3D)
    out[i] = tex3D<T>(t, p.x, p.y, p.z);
  else if constexpr (G == G1DLayered)
    out[i] = tex1DLayered<T>(t, p.x, (int)p.w);
  else if constexpr (G == G2DLayered)
    out[i] = tex2DLayered<T>(t, p.x, p.y, (int)p.w);
  else if constexpr (G == G2DLod)
    out[i] = tex2DLod<T>(t, p.x, p.y, lod);
  else
    out[i] = tex2DGrad<T>(t, p.x, p.y, make_float2(lod, 0.0f),
                          make_float2(0.0f, lod));
}

// The queries clang never emits (no CUDA intrinsic), in inline PTX.
__global__ void texQuery(cudaTextureObject_t t, int *out) {
  asm volatile("txq.width.b32 %0, [%1];" : "=r"(out[0]) : "l"(t));
  asm volatile("txq.height.b32 %0, [%1];" : "=r"(out[1]) : "l"(t));
  asm volatile("txq.depth.b32 %0, [%1];" : "=r"(out[2]) : "l"(t));
  asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(out[3]) : "l"(t));
  asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(out[4]) : "l"(t));
  asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(out[5]) : "l"(t));
}

__global__ void surfQuery(cudaSurfaceObject_t s, int *out) {
  asm volatile("suq.width.b32 %0, [%1];" : "=r"(out[0]) : "l"(s));
  asm volatile("suq.height.b32 %0, [%1];" : "=r"(out[1]) : "l"(s));
  asm volatile("suq.depth.b32 %0, [%1];" : "=r"(out[2]) : "l"(s));
  asm volatile("suq.array_size.b32 %0, [%1];" : "=r"(out[3]) : "l"(s));
}

const char *GeoName[] = {"3D", "1D layered", "2D layered", "2D lod", "2D grad"};

// An array of Im's shape for geometry G, filled from Im.
cudaArray_t makeArray(const HostImage &Im, int G, unsigned Flags = 0) {
  cudaChannelFormatDesc D = descOf(Im.F);
  cudaExtent E =
      make_cudaExtent(Im.W, G == G1DLayered ? 0 : Im.H, G >= G2DLod ? 0 : Im.D);
  if (G == G1DLayered || G == G2DLayered)
    Flags |= cudaArrayLayered;
  cudaArray_t A;
  CK(cudaMalloc3DArray(&A, &D, E, Flags));
  cudaMemcpy3DParms P;
  memset(&P, 0, sizeof P);
  P.srcPtr = make_cudaPitchedPtr(const_cast<uint8_t *>(Im.Bytes.data()),
                                 (size_t)Im.W * Im.texelBytes(), Im.W, Im.H);
  P.dstArray = A;
  P.extent = make_cudaExtent(Im.W, Im.H, Im.D);
  P.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&P));
  return A;
}

// Points walking each axis past both edges (layers: -1, each, and beyond).
std::vector<float4> points(const HostImage &Im, int G, bool Norm) {
  std::vector<float> X = coords(Im.W, Norm), Y = coords(Im.H, Norm), Z;
  if (G == G3D)
    Z = coords(Im.D, Norm);
  else
    for (int L = -1; L <= Im.D + 3; ++L)
      Z.push_back((float)L);
  std::vector<float4> P;
  bool Has2 = G != G1DLayered;
  for (size_t I = 0; I < X.size(); I += Has2 ? 2 : 1)
    for (size_t J = 0; J < (Has2 ? Y.size() : Z.size()); J += Has2 ? 3 : 1) {
      float Y0 = Has2 ? Y[J] : 0.0f;
      float Z0 = Z[(I + J) % Z.size()];
      P.push_back(make_float4(X[I], Y0, G == G3D ? Z0 : 0.0f, Z0));
    }
  return P;
}

// G a template parameter: the suite's PTX holds only the fetches it runs.
template <class T, int G>
void runVolume(const HostImage &Im, const Sampler &S, float Lod = 0) {
  cudaArray_t A = makeArray(Im, G);
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaTextureDesc TD;
  memset(&TD, 0, sizeof TD);
  TD.addressMode[0] = TD.addressMode[1] = TD.addressMode[2] = S.Mode;
  TD.filterMode = S.Filter;
  TD.readMode = S.Read;
  TD.normalizedCoords = S.Norm;
  cudaTextureObject_t Tex;
  CK(cudaCreateTextureObject(&Tex, &R, &TD, nullptr));
  std::vector<float4> P = points(Im, G, S.Norm);
  int N = (int)P.size();
  float4 *DP;
  T *DOut;
  CK(cudaMalloc(&DP, N * sizeof(float4)));
  CK(cudaMalloc(&DOut, N * sizeof(T)));
  CK(cudaMemcpy(DP, P.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
  fetchG<T, G><<<(N + 127) / 128, 128>>>(Tex, DP, DOut, N, Lod);
  CK(cudaGetLastError());
  std::vector<T> Out(N);
  CK(cudaMemcpy(Out.data(), DOut, N * sizeof(T), cudaMemcpyDeviceToHost));
  bool FloatOut = Im.F.Kind == cudaChannelFormatKindFloat ||
                  S.Read == cudaReadModeNormalizedFloat;
  int Dims = G == G3D ? 3 : G == G1DLayered ? 1 : 2;
  bool Layered = G == G1DLayered || G == G2DLayered;
  int NC = (int)(sizeof(T) / (FloatOut ? 4 : Im.F.Bits / 8)), Bad = 0;
  for (int K = 0; K < N; ++K) {
    uint32_t Got[4];
    bitsOf(Out[K], Got);
    const float C3[3] = {P[K].x, P[K].y, P[K].z};
    dumpResult(fmt("tex %s %s mode=%d filter=%d read=%d norm=%d lod=%a",
                   Im.F.Name, GeoName[G], (int)S.Mode, (int)S.Filter,
                   (int)S.Read, (int)S.Norm, Lod),
               fmt("%a %a %a %d", P[K].x, P[K].y, P[K].z, (int)P[K].w), Got,
               4 * NC);
    for (int C = 0; C < NC; ++C) {
      ++Checks;
      uint32_t Want = narrow(
          refFetchN(Im, S, C3, Dims, Layered, (int)P[K].w, C), Im.F, FloatOut);
      if (Got[C] != Want && Bad++ < 3)
        fprintf(stderr,
                "%s %s mode=%d filter=%d read=%d norm=%d lod=%g: (%.9g, "
                "%.9g, %.9g) layer %d channel %d: got 0x%08x, want 0x%08x\n",
                Im.F.Name, GeoName[G], (int)S.Mode, (int)S.Filter, (int)S.Read,
                (int)S.Norm, Lod, P[K].x, P[K].y, P[K].z, (int)P[K].w, C,
                Got[C], Want);
    }
  }
  Failures += Bad != 0;
  CK(cudaDestroyTextureObject(Tex));
  CK(cudaFree(DP));
  CK(cudaFree(DOut));
  CK(cudaFreeArray(A));
}

// Every sampler on one format and geometry; TElem/TFloat: what the kernel
// reads in element and float modes.
template <class TElem, class TFloat, int G>
void runGeometry(Format F, int W, int H, int D, unsigned Seed) {
  HostImage Im = makeImage(F, W, H, Seed, D);
  eachSampler(F, [&](const Sampler &S) {
    bool FloatOut = F.Kind == cudaChannelFormatKindFloat ||
                    S.Read == cudaReadModeNormalizedFloat;
    if (FloatOut)
      runVolume<TFloat, G>(Im, S);
    else
      runVolume<TElem, G>(Im, S);
  });
}

const Format F32{"f32", cudaChannelFormatKindFloat, 32, 1},
    F16{"f16", cudaChannelFormatKindFloat, 16, 1},
    U8{"u8", cudaChannelFormatKindUnsigned, 8, 1},
    S16{"s16", cudaChannelFormatKindSigned, 16, 1},
    F32x4{"float4", cudaChannelFormatKindFloat, 32, 4},
    U8x4{"uchar4", cudaChannelFormatKindUnsigned, 8, 4};

} // namespace

void volumes() {
  runGeometry<float, float, G3D>(F32, 5, 4, 3, 21);
  runGeometry<unsigned char, float, G3D>(U8, 5, 4, 3, 22);
  runGeometry<short, float, G3D>(S16, 4, 3, 5, 23);
  runGeometry<float4, float4, G3D>(F32x4, 3, 4, 2, 24);
  runGeometry<float, float, G3D>(F16, 4, 3, 3, 25);
}

template <int G> void layeredGeometry() {
  int H = G == G1DLayered ? 1 : 4;
  runGeometry<float, float, G>(F32, 6, H, 3, 31 + G);
  runGeometry<unsigned char, float, G>(U8, 5, H, 4, 33 + G);
  runGeometry<short, float, G>(S16, 5, H, 2, 35 + G);
  runGeometry<uchar4, float4, G>(U8x4, 4, H, 3, 37 + G);
}

void layeredTextures() {
  layeredGeometry<G1DLayered>();
  layeredGeometry<G2DLayered>();
}

// tex2DLod and tex2DGrad (gradients of Lod texels) on an array without
// mipmaps: every level reads level 0.
void levelFetches() {
  HostImage Im = makeImage(F32, 6, 5, 41);
  for (float Lod : {0.0f, 0.5f, 2.0f, -1.0f})
    eachSampler(F32, [&](const Sampler &S) {
      runVolume<float, G2DLod>(Im, S, Lod);
      runVolume<float, G2DGrad>(Im, S, Lod);
    });
}

// txq/suq: extent in texels, layers, normalized coordinates. Only values the
// PTX ISA fixes are compared (not the height/depth of a lower-dimensional
// image, nor the mipmap level count of a plain array).
void textureQueries() {
  struct Case {
    int G, W, H, D;
    bool Norm;
  } Cases[] = {{G3D, 7, 5, 3, true},
               {G1DLayered, 9, 1, 4, false},
               {G2DLayered, 6, 5, 2, true},
               {G2DLod, 8, 3, 1, false}};
  int *DOut, Out[6];
  CK(cudaMalloc(&DOut, sizeof Out));
  for (const Case &C : Cases) {
    HostImage Im = makeImage(F32, C.W, C.H, 51, C.D);
    cudaArray_t A = makeArray(Im, C.G, cudaArraySurfaceLoadStore);
    cudaResourceDesc R;
    memset(&R, 0, sizeof R);
    R.resType = cudaResourceTypeArray;
    R.res.array.array = A;
    cudaTextureDesc TD;
    memset(&TD, 0, sizeof TD);
    TD.normalizedCoords = C.Norm;
    cudaTextureObject_t T;
    cudaSurfaceObject_t S;
    CK(cudaCreateTextureObject(&T, &R, &TD, nullptr));
    CK(cudaCreateSurfaceObject(&S, &R));
    bool Layered = C.G == G1DLayered || C.G == G2DLayered;
    for (int Surf = 0; Surf < 2; ++Surf) {
      CK(cudaMemset(DOut, 0xff, sizeof Out));
      if (Surf)
        surfQuery<<<1, 1>>>(S, DOut);
      else
        texQuery<<<1, 1>>>(T, DOut);
      CK(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
      const struct {
        const char *What;
        int Got, Want;
        bool Fixed;
      } Q[] = {{"width", Out[0], C.W, true},
               {"height", Out[1], C.H, C.G != G1DLayered},
               {"depth", Out[2], C.D, C.G == G3D},
               {"array_size", Out[3], C.D, Layered},
               {"normalized_coords", Out[4], C.Norm, !Surf}};
      for (const auto &X : Q) {
        if (!X.Fixed)
          continue;
        ++Checks;
        dumpResult(fmt("%s.%s", Surf ? "suq" : "txq", X.What),
                   fmt("%s %dx%dx%d norm=%d", GeoName[C.G], C.W, C.H, C.D,
                       (int)C.Norm),
                   &X.Got, 4);
        if (X.Got != X.Want)
          ++Failures, fprintf(stderr, "%s.%s on a %s array: got %d, want %d\n",
                              Surf ? "suq" : "txq", X.What, GeoName[C.G], X.Got,
                              X.Want);
      }
    }
    CK(cudaDestroyTextureObject(T));
    CK(cudaDestroySurfaceObject(S));
    CK(cudaFreeArray(A));
  }
  CK(cudaFree(DOut));
}
