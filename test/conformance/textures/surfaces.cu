// Surfaces (issue 16 item 5): suld.b/sust.b on 1D, 2D, 3D, 1D-layered and
// 2D-layered arrays, for access sizes b8/b16/b32/b64 and vectors v2/v4, in each
// boundary mode. Reads cover the array and, in .clamp and .zero modes, two
// texels beyond every edge (and two layers before and after: a layer index is
// a u32, so -1 is beyond the last layer); writes cover the array and then
// store one value beyond the low and the high corner. The reference: x is
// in bytes; .clamp moves a coordinate to the nearest texel (a layer to the
// last one), .zero reads zeros and drops stores, .trap (the default) stays
// in range here (textures.cu's "trap" mode checks the failure).
#include "ref.h"

namespace {

enum Geometry { S1D, S2D, S3D, S1DLayered, S2DLayered };
const char *GeoName[] = {"1D", "2D", "3D", "1D layered", "2D layered"};
// cudaBoundaryModeZero, Clamp, Trap are 0, 1, 2.
const char *ModeName[] = {"zero", "clamp", "trap"};

__device__ void coord(int i, int nx, int ny, int3 o, int &x, int &y, int &z) {
  x = i % nx - o.x;
  y = i / nx % ny - o.y;
  z = i / (nx * ny) - o.z;
}

template <class T, int G, int M>
__global__ void surfRead(cudaSurfaceObject_t s, T *out, int n, int nx, int ny,
                         int3 o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x, y, z;
  if (i >= n)
    return;
  coord(i, nx, ny, o, x, y, z);
  constexpr auto B = (cudaSurfaceBoundaryMode)M;
  const int X = x * (int)sizeof(T);
  if constexpr (G == S1D)
    out[i] = surf1Dread<T>(s, X, B);
  else if constexpr (G == S2D)
    out[i] = surf2Dread<T>(s, X, y, B);
  else if constexpr (G == S3D)
    out[i] = surf3Dread<T>(s, X, y, z, B);
  else if constexpr (G == S1DLayered)
    out[i] = surf1DLayeredread<T>(s, X, z, B);
  else
    out[i] = surf2DLayeredread<T>(s, X, y, z, B);
}

template <class T, int G, int M>
__global__ void surfWrite(cudaSurfaceObject_t s, const T *in, int n, int nx,
                          int ny, int3 o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, x, y, z;
  if (i >= n)
    return;
  coord(i, nx, ny, o, x, y, z);
  constexpr auto B = (cudaSurfaceBoundaryMode)M;
  const int X = x * (int)sizeof(T);
  if constexpr (G == S1D)
    surf1Dwrite(in[i], s, X, B);
  else if constexpr (G == S2D)
    surf2Dwrite(in[i], s, X, y, B);
  else if constexpr (G == S3D)
    surf3Dwrite(in[i], s, X, y, z, B);
  else if constexpr (G == S1DLayered)
    surf1DLayeredwrite(in[i], s, X, z, B);
  else
    surf2DLayeredwrite(in[i], s, X, y, z, B);
}

// Host and device copies of an array: extent W x H x D (H = 1 for 1D
// geometries, D = 1 for 2D; layers in D).
struct Surf {
  int G, W, H, D;
  size_t Elem;
  cudaArray_t A;
  cudaSurfaceObject_t S;
  size_t texels() const { return (size_t)W * H * D; }
  void copy(void *Host, bool ToArray) {
    cudaMemcpy3DParms P;
    memset(&P, 0, sizeof P);
    cudaPitchedPtr Ptr = make_cudaPitchedPtr(Host, W * Elem, W, H);
    (ToArray ? P.srcPtr : P.dstPtr) = Ptr;
    (ToArray ? P.dstArray : P.srcArray) = A;
    P.extent = make_cudaExtent(W, H, D);
    P.kind = ToArray ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&P));
  }
};

Surf makeSurf(int G, const cudaChannelFormatDesc &Desc, size_t Elem) {
  Surf S{G,
         5,
         G == S1D || G == S1DLayered ? 1 : 4,
         G == S3D          ? 3
         : G >= S1DLayered ? 3
                           : 1,
         Elem,
         nullptr,
         0};
  bool Layered = G >= S1DLayered;
  cudaExtent E =
      make_cudaExtent(S.W, S.H > 1 ? S.H : 0, G == S3D || Layered ? S.D : 0);
  CK(cudaMalloc3DArray(&S.A, &Desc, E,
                       cudaArraySurfaceLoadStore |
                           (Layered ? cudaArrayLayered : 0)));
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = S.A;
  CK(cudaCreateSurfaceObject(&S.S, &R));
  return S;
}

// Index of the texel coordinate (x, y, z) reaches in mode M; -1: none
// (.zero outside).
long target(const Surf &S, int M, int X, int Y, int Z) {
  bool Layered = S.G >= S1DLayered;
  long C[3] = {X, Y, Z};
  const int N[3] = {S.W, S.H, S.D};
  bool Out = false;
  for (int K = 0; K < 3; ++K) {
    long V = C[K];
    if (K == 2 && Layered) // the layer: a u32
      V = (long)(uint32_t)Z;
    if (V < 0 || V >= N[K]) {
      Out = true;
      V = V < 0 ? 0 : N[K] - 1;
    }
    C[K] = V;
  }
  if (Out && M == cudaBoundaryModeZero)
    return -1;
  return (C[2] * S.H + C[1]) * S.W + C[0];
}

// The channel format of an element type; 64-bit elements are two 32-bit
// channels (CUDA has no 64-bit channel).
template <class T> cudaChannelFormatDesc descFor() {
  return cudaCreateChannelDesc<T>();
}
template <> cudaChannelFormatDesc descFor<long long>() {
  return cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindSigned);
}
template <> cudaChannelFormatDesc descFor<longlong2>() {
  return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindSigned);
}

template <class T, int G, int M> void surfCase(const char *TName) {
  Surf S = makeSurf(G, descFor<T>(), sizeof(T));
  size_t N = S.texels();
  std::vector<uint8_t> Src(N * sizeof(T)), Got;
  uint32_t R = 0x9e3779b9u * (G + 3) + M;
  for (auto &B : Src)
    R = R * 1664525u + 1013904223u, B = (uint8_t)(R >> 24);
  S.copy(Src.data(), true);
  // Reads: one texel beyond every edge except in .trap mode.
  int O = M == cudaBoundaryModeTrap ? 0 : 2;
  int3 Off = make_int3(O, S.H > 1 ? O : 0, S.D > 1 ? O : 0);
  int NX = S.W + 2 * Off.x, NY = S.H + 2 * Off.y, NZ = S.D + 2 * Off.z;
  int NR = NX * NY * NZ, Bad = 0;
  T *DOut;
  CK(cudaMalloc(&DOut, NR * sizeof(T)));
  surfRead<T, G, M><<<(NR + 127) / 128, 128>>>(S.S, DOut, NR, NX, NY, Off);
  CK(cudaGetLastError());
  Got.resize(NR * sizeof(T));
  CK(cudaMemcpy(Got.data(), DOut, NR * sizeof(T), cudaMemcpyDeviceToHost));
  for (int I = 0; I < NR; ++I) {
    int X = I % NX - Off.x, Y = I / NX % NY - Off.y, Z = I / (NX * NY) - Off.z;
    long T0 = target(S, M, X, Y, Z);
    uint8_t Want[16] = {0};
    if (T0 >= 0)
      memcpy(Want, &Src[T0 * sizeof(T)], sizeof(T));
    ++Checks;
    dumpResult(fmt("suld %s %s %s", TName, GeoName[G], ModeName[M]),
               fmt("x=%d y=%d z=%d", X, Y, Z), &Got[I * sizeof(T)], sizeof(T));
    if (memcmp(Want, &Got[I * sizeof(T)], sizeof(T)) != 0 && Bad++ < 3)
      fprintf(stderr, "surface read %s %s .%s at (%d, %d, %d): wrong\n", TName,
              GeoName[G], ModeName[M], X, Y, Z);
  }
  // Writes: every texel of a zeroed array, then beyond both corners.
  std::vector<uint8_t> Val(N * sizeof(T)), Zero(N * sizeof(T), 0);
  for (auto &B : Val)
    R = R * 1664525u + 1013904223u, B = (uint8_t)(R >> 24);
  S.copy(Zero.data(), true);
  T *DIn;
  CK(cudaMalloc(&DIn, N * sizeof(T)));
  CK(cudaMemcpy(DIn, Val.data(), N * sizeof(T), cudaMemcpyHostToDevice));
  surfWrite<T, G, M><<<((int)N + 127) / 128, 128>>>(S.S, DIn, (int)N, S.W, S.H,
                                                    make_int3(0, 0, 0));
  std::vector<uint8_t> Want = Val;
  if (M != cudaBoundaryModeTrap) {
    // One thread each: (-1, -1, -1) and (W, H, D) (the dimensions there).
    int3 Lo = make_int3(1, S.H > 1, S.D > 1);
    int3 Hi = make_int3(-S.W, S.H > 1 ? -S.H : 0, S.D > 1 ? -S.D : 0);
    surfWrite<T, G, M><<<1, 1>>>(S.S, DIn + 1, 1, 1, 1, Lo);
    surfWrite<T, G, M><<<1, 1>>>(S.S, DIn + 2, 1, 1, 1, Hi);
    long TL = target(S, M, -1, -Lo.y, -Lo.z);
    long TH = target(S, M, S.W, -Hi.y, -Hi.z);
    if (TL >= 0)
      memcpy(&Want[TL * sizeof(T)], &Val[1 * sizeof(T)], sizeof(T));
    if (TH >= 0)
      memcpy(&Want[TH * sizeof(T)], &Val[2 * sizeof(T)], sizeof(T));
  }
  CK(cudaGetLastError());
  Got.assign(N * sizeof(T), 0);
  S.copy(Got.data(), false);
  for (size_t I = 0; I < N; ++I) {
    ++Checks;
    dumpResult(fmt("sust %s %s %s", TName, GeoName[G], ModeName[M]),
               fmt("texel=%zu", I), &Got[I * sizeof(T)], sizeof(T));
    if (memcmp(&Want[I * sizeof(T)], &Got[I * sizeof(T)], sizeof(T)) != 0 &&
        Bad++ < 3)
      fprintf(stderr, "surface write %s %s .%s: texel %zu wrong\n", TName,
              GeoName[G], ModeName[M], I);
  }
  Failures += Bad != 0;
  CK(cudaFree(DOut));
  CK(cudaFree(DIn));
  CK(cudaDestroySurfaceObject(S.S));
  CK(cudaFreeArray(S.A));
}

template <class T, int G> void eachMode(const char *TName) {
  surfCase<T, G, cudaBoundaryModeTrap>(TName);
  surfCase<T, G, cudaBoundaryModeClamp>(TName);
  surfCase<T, G, cudaBoundaryModeZero>(TName);
}

template <int G> void commonTypes() {
  eachMode<short, G>("short");
  eachMode<float, G>("float");
  eachMode<float2, G>("float2");
  eachMode<uchar4, G>("uchar4");
}

} // namespace

void surfaceMatrix() {
  commonTypes<S1D>();
  commonTypes<S2D>();
  eachMode<unsigned char, S2D>("uchar");
  eachMode<short2, S2D>("short2");
  eachMode<float4, S2D>("float4");
  eachMode<uchar2, S2D>("uchar2");
  eachMode<short4, S2D>("short4");
  eachMode<long long, S2D>("long long");
  eachMode<longlong2, S2D>("longlong2");
  commonTypes<S3D>();
  commonTypes<S1DLayered>();
  commonTypes<S2DLayered>();
}
