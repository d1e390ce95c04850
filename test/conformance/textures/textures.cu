// Conformance of texture and surface objects (issue 16 item 5). Every
// fetch is compared bit for bit with a host reference that follows the CUDA
// C++ Programming Guide, appendix "Texture Fetching":
//   texel space: x * N for normalized coordinates; wrap uses frac(x),
//   mirror frac(x) or 1 - frac(x) for odd floor(x) (normalized only; with
//   unnormalized coordinates they behave as clamp);
//   point: T[floor(x)]; linear: (1-a) T[i] + a T[i+1], i = floor(x - 0.5),
//   a = frac(x - 0.5) in 9-bit fixed point (8 fractional bits, rounded to
//   nearest); 2D: (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] + (1-a)b T[i,j+1]
//   + ab T[i+1,j+1]; clamp takes the edge texel, border reads 0;
//   normalized-float reads: unsigned v / (2^n - 1), signed
//   max(v / (2^(n-1) - 1), -1).
// Gathers (tex2Dgather, tld4): component c of the texels (i, j+1),
//   (i+1, j+1), (i+1, j), (i, j) with i = floor(x - 0.5), j = floor(y - 0.5)
//   in texel space (the Direct3D gather order, assumed to be the GPU's
//   until a GPU run confirms it), each addressed as above.
// Modes: (none) the whole matrix; "trap" a .trap surface read out of range;
// "layered" tex2DLayered (unsupported). Both of those must fail the launch.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

static int Failures = 0, Checks = 0;

// ---- device side ----------------------------------------------------------

template <class T>
__global__ void fetch1D(cudaTextureObject_t t, const float *x, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1D<T>(t, x[i]);
}

template <class T>
__global__ void fetch2D(cudaTextureObject_t t, const float *x, const float *y,
                        T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2D<T>(t, x[i], y[i]);
}

__global__ void fetchLinear(cudaTextureObject_t t, const int *x, float *out,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(t, x[i]);
}

template <class T>
__global__ void surfCopy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                         int w, int h, cudaSurfaceBoundaryMode m) {
  // Reads around the source (one texel beyond every edge), writes inside.
  int x = threadIdx.x - 1, y = threadIdx.y - 1;
  T v;
  if (m == cudaBoundaryModeClamp)
    v = surf2Dread<T>(src, x * (int)sizeof(T), y, cudaBoundaryModeClamp);
  else
    v = surf2Dread<T>(src, x * (int)sizeof(T), y, cudaBoundaryModeZero);
  surf2Dwrite(v, dst, threadIdx.x * (int)sizeof(T), threadIdx.y);
  (void)w, (void)h;
}

// Out-of-range stores: clamp moves them to the nearest texel, zero drops.
__global__ void surfEdgeStores(cudaSurfaceObject_t s, int w, int h) {
  surf2Dwrite(7.0f, s, -8, 0, cudaBoundaryModeClamp);
  surf2Dwrite(9.0f, s, (w + 3) * 4, h + 5, cudaBoundaryModeClamp);
  surf2Dwrite(5.0f, s, -4, 1, cudaBoundaryModeZero);
  surf2Dwrite(6.0f, s, w * 4, 1, cudaBoundaryModeZero);
}

__global__ void surfTrap(cudaSurfaceObject_t s, float *out) {
  out[0] = surf2Dread<float>(s, -4, 1); // default mode: .trap
}

__global__ void layered(cudaTextureObject_t t, float4 *out) {
  out[0] = tex2DLayered<float4>(t, 0.5f, 0.5f, 0);
}

// tex2Dgather (tld4.{r,g,b,a}): component comp of the four texels of the
// bilinear footprint at each (x[i], y[i]).
__global__ void gather2D(cudaTextureObject_t t, const float *x, const float *y,
                         float4 *out, int n, int comp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2Dgather<float4>(t, x[i], y[i], comp);
}

// ---- host reference -------------------------------------------------------

struct Format {
  const char *Name;
  cudaChannelFormatKind Kind;
  int Bits, Channels;
};

struct HostImage {
  Format F;
  int W, H; // H = 1 for 1D
  std::vector<uint8_t> Bytes;
  int texelBytes() const { return F.Bits / 8 * F.Channels; }
  // Raw channel as an integer (sign-extended) or float bits.
  int64_t rawInt(int X, int Y, int C) const {
    const uint8_t *P =
        &Bytes[((size_t)Y * W + X) * texelBytes() + C * F.Bits / 8];
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
  float asFloat(int X, int Y, int C) const {
    if (F.Kind == cudaChannelFormatKindFloat) {
      float V;
      memcpy(&V, &Bytes[((size_t)Y * W + X) * texelBytes() + C * 4], 4);
      return V;
    }
    int64_t V = rawInt(X, Y, C);
    if (F.Kind == cudaChannelFormatKindUnsigned)
      return (float)V / (float)((1 << F.Bits) - 1);
    float N = (float)V / (float)((1 << (F.Bits - 1)) - 1);
    return N < -1.0f ? -1.0f : N;
  }
};

// Texel index after addressing; false: outside (border).
static bool refIndex(long I, int N, cudaTextureAddressMode M, bool Norm,
                     long &Out) {
  if (!Norm && (M == cudaAddressModeWrap || M == cudaAddressModeMirror))
    M = cudaAddressModeClamp;
  if (M == cudaAddressModeBorder) {
    Out = I;
    return I >= 0 && I < N;
  }
  if (M == cudaAddressModeClamp) {
    Out = I < 0 ? 0 : (I > N - 1 ? N - 1 : I);
    return true;
  }
  if (M == cudaAddressModeWrap) {
    Out = I % N;
    if (Out < 0)
      Out += N;
    return true;
  }
  long P = I % (2L * N); // mirror: ... 1 0 | 0 1 .. N-1 | N-1 .. 0 | 0 ...
  if (P < 0)
    P += 2L * N;
  Out = P < N ? P : 2L * N - 1 - P;
  return true;
}

// Coordinate in texel space per the Guide.
static float refScale(float X, int N, cudaTextureAddressMode M, bool Norm) {
  if (!Norm)
    return X;
  if (M == cudaAddressModeWrap)
    X = X - floorf(X);
  else if (M == cudaAddressModeMirror) {
    float Fl = floorf(X);
    X = ((long)Fl % 2 == 0) ? X - Fl : 1.0f - (X - Fl);
  }
  return X * (float)N;
}

struct Sampler {
  cudaTextureAddressMode Mode;
  cudaTextureFilterMode Filter;
  cudaTextureReadMode Read;
  bool Norm;
};

// Reference value of channel C at (X, Y): floats (as bits) or integers.
static uint32_t refFetch(const HostImage &Im, const Sampler &S, float X,
                         float Y, int C, bool Is2D) {
  bool FloatOut = Im.F.Kind == cudaChannelFormatKindFloat ||
                  S.Read == cudaReadModeNormalizedFloat;
  float XS = refScale(X, Im.W, S.Mode, S.Norm);
  float YS = Is2D ? refScale(Y, Im.H, S.Mode, S.Norm) : 0.0f;
  auto texel = [&](long I, long J) -> float {
    long A, B = 0;
    if (!refIndex(I, Im.W, S.Mode, S.Norm, A))
      return 0.0f;
    if (Is2D && !refIndex(J, Im.H, S.Mode, S.Norm, B))
      return 0.0f;
    return Im.asFloat((int)A, (int)B, C);
  };
  float R;
  if (S.Filter == cudaFilterModePoint) {
    long I = (long)floorf(XS), J = Is2D ? (long)floorf(YS) : 0;
    if (!FloatOut) {
      long A, B = 0;
      if (!refIndex(I, Im.W, S.Mode, S.Norm, A) ||
          (Is2D && !refIndex(J, Im.H, S.Mode, S.Norm, B)))
        return 0;
      return (uint32_t)Im.rawInt((int)A, (int)B, C);
    }
    R = texel(I, J);
  } else {
    float XB = XS - 0.5f, YB = YS - 0.5f;
    long I = (long)floorf(XB), J = (long)floorf(YB);
    float Alpha = roundf((XB - floorf(XB)) * 256.0f) / 256.0f;
    if (!Is2D) {
      R = (1.0f - Alpha) * texel(I, 0) + Alpha * texel(I + 1, 0);
    } else {
      float Beta = roundf((YB - floorf(YB)) * 256.0f) / 256.0f;
      float W00 = (1.0f - Alpha) * (1.0f - Beta), W10 = Alpha * (1.0f - Beta);
      float W01 = (1.0f - Alpha) * Beta, W11 = Alpha * Beta;
      R = W00 * texel(I, J);
      R = R + W10 * texel(I + 1, J);
      R = R + W01 * texel(I, J + 1);
      R = R + W11 * texel(I + 1, J + 1);
    }
  }
  uint32_t Bits;
  memcpy(&Bits, &R, 4);
  return Bits;
}

// ---- result decoding --------------------------------------------------------

static void bitsOf(float V, uint32_t *O) { memcpy(O, &V, 4); }
static void bitsOf(float4 V, uint32_t *O) {
  bitsOf(V.x, O), bitsOf(V.y, O + 1), bitsOf(V.z, O + 2), bitsOf(V.w, O + 3);
}
static void bitsOf(unsigned char V, uint32_t *O) { *O = V; }
static void bitsOf(unsigned short V, uint32_t *O) { *O = V; }
static void bitsOf(short V, uint32_t *O) { *O = (uint32_t)(int32_t)V; }
static void bitsOf(uchar4 V, uint32_t *O) {
  O[0] = V.x, O[1] = V.y, O[2] = V.z, O[3] = V.w;
}
// Integer results of the reference are full 32-bit values; the kernel's
// narrow types keep their low bits (sign-extended for short).
static uint32_t narrow(uint32_t V, const Format &F, bool FloatOut) {
  if (FloatOut || F.Bits == 32)
    return V;
  uint32_t M = (1u << F.Bits) - 1;
  if (F.Kind == cudaChannelFormatKindSigned && (V & (1u << (F.Bits - 1))))
    return V | ~M;
  return V & M;
}

// ---- the matrix -------------------------------------------------------------

static HostImage makeImage(Format F, int W, int H, unsigned Seed) {
  HostImage Im{F, W, H, {}};
  Im.Bytes.resize((size_t)W * H * Im.texelBytes());
  uint32_t S = Seed;
  for (size_t K = 0; K < Im.Bytes.size(); K += F.Bits / 8) {
    S = S * 1664525u + 1013904223u;
    if (F.Kind == cudaChannelFormatKindFloat) {
      float V =
          (float)(int)((S >> 8) % 2001) / 64.0f - 15.0f + (float)(S & 7) / 3.0f;
      memcpy(&Im.Bytes[K], &V, 4);
    } else {
      memcpy(&Im.Bytes[K], &S, F.Bits / 8);
    }
  }
  if (F.Kind != cudaChannelFormatKindFloat) { // the extremes of the range
    int B = F.Bits / 8;
    memset(&Im.Bytes[0], 0, B);
    Im.Bytes[B - 1] = 0x80; // most negative when signed
    memset(&Im.Bytes[Im.texelBytes()], 0xff, B);
  }
  return Im;
}

// Sample coordinates: well outside the extent on both sides, texel centers,
// edges and in between.
static std::vector<float> coords(int N, bool Norm) {
  std::vector<float> V;
  for (float X = -1.6f * N; X < 2.6f * N; X += 0.37f)
    V.push_back(Norm ? X / N : X);
  for (int K = -2; K <= N + 2; ++K)
    for (float D : {0.0f, 0.5f, 0.999f})
      V.push_back(Norm ? (K + D) / N : K + D);
  return V;
}

template <class T>
static void runCase(const HostImage &Im, bool Is2D, const Sampler &S,
                    bool Pitched) {
  cudaChannelFormatDesc D =
      cudaCreateChannelDesc(Im.F.Bits, Im.F.Channels > 1 ? Im.F.Bits : 0,
                            Im.F.Channels > 2 ? Im.F.Bits : 0,
                            Im.F.Channels > 3 ? Im.F.Bits : 0, Im.F.Kind);
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  cudaArray_t Arr = nullptr;
  void *Mem = nullptr;
  size_t RowBytes = (size_t)Im.W * Im.texelBytes();
  if (Pitched) {
    size_t Pitch;
    CK(cudaMallocPitch(&Mem, &Pitch, RowBytes, Im.H));
    CK(cudaMemcpy2D(Mem, Pitch, Im.Bytes.data(), RowBytes, RowBytes, Im.H,
                    cudaMemcpyHostToDevice));
    R.resType = cudaResourceTypePitch2D;
    R.res.pitch2D.devPtr = Mem;
    R.res.pitch2D.desc = D;
    R.res.pitch2D.width = Im.W;
    R.res.pitch2D.height = Im.H;
    R.res.pitch2D.pitchInBytes = Pitch;
  } else {
    CK(cudaMallocArray(&Arr, &D, Im.W, Is2D ? Im.H : 0));
    if (Is2D)
      CK(cudaMemcpy2DToArray(Arr, 0, 0, Im.Bytes.data(), RowBytes, RowBytes,
                             Im.H, cudaMemcpyHostToDevice));
    else
      CK(cudaMemcpyToArray(Arr, 0, 0, Im.Bytes.data(), RowBytes,
                           cudaMemcpyHostToDevice));
    R.resType = cudaResourceTypeArray;
    R.res.array.array = Arr;
  }
  cudaTextureDesc TD;
  memset(&TD, 0, sizeof TD);
  TD.addressMode[0] = TD.addressMode[1] = S.Mode;
  TD.filterMode = S.Filter;
  TD.readMode = S.Read;
  TD.normalizedCoords = S.Norm;
  cudaTextureObject_t Tex = 0;
  bool FloatOut = Im.F.Kind == cudaChannelFormatKindFloat ||
                  S.Read == cudaReadModeNormalizedFloat;
  cudaError_t E = cudaCreateTextureObject(&Tex, &R, &TD, nullptr);
  ++Checks;
  if (S.Filter == cudaFilterModeLinear && !FloatOut) {
    // Linear filtering of integers read as integers: refused.
    if (E == cudaSuccess) {
      ++Failures;
      fprintf(stderr, "%s: linear filter with element reads was accepted\n",
              Im.F.Name);
      CK(cudaDestroyTextureObject(Tex));
    }
    cudaGetLastError();
  } else {
    CK(E);
    std::vector<float> X = coords(Im.W, S.Norm), Y;
    if (Is2D) { // pair every x with a y that walks its own range
      std::vector<float> Ys = coords(Im.H, S.Norm);
      std::vector<float> X2;
      for (size_t A = 0; A < X.size(); A += 3)
        for (size_t B = 0; B < Ys.size(); B += 2)
          X2.push_back(X[A]), Y.push_back(Ys[B]);
      X = X2;
    }
    int N = (int)X.size();
    float *DX, *DY = nullptr;
    T *DOut;
    CK(cudaMalloc(&DX, N * sizeof(float)));
    CK(cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    if (Is2D) {
      CK(cudaMalloc(&DY, N * sizeof(float)));
      CK(cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    }
    CK(cudaMalloc(&DOut, N * sizeof(T)));
    if (Is2D)
      fetch2D<T><<<(N + 127) / 128, 128>>>(Tex, DX, DY, DOut, N);
    else
      fetch1D<T><<<(N + 127) / 128, 128>>>(Tex, DX, DOut, N);
    CK(cudaGetLastError());
    std::vector<T> Out(N);
    CK(cudaMemcpy(Out.data(), DOut, N * sizeof(T), cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int K = 0; K < N; ++K) {
      uint32_t Got[4];
      bitsOf(Out[K], Got);
      int NC = (int)(sizeof(T) / (FloatOut ? 4 : Im.F.Bits / 8));
      for (int C = 0; C < NC; ++C) {
        ++Checks;
        uint32_t Want = narrow(refFetch(Im, S, X[K], Is2D ? Y[K] : 0, C, Is2D),
                               Im.F, FloatOut);
        if (Got[C] != Want && Bad++ < 3)
          fprintf(stderr,
                  "%s %s %s mode=%d filter=%d read=%d norm=%d: (%.9g, %.9g) "
                  "channel %d: got 0x%08x, want 0x%08x\n",
                  Im.F.Name, Is2D ? "2D" : "1D", Pitched ? "pitch2D" : "array",
                  (int)S.Mode, (int)S.Filter, (int)S.Read, (int)S.Norm, X[K],
                  Is2D ? Y[K] : 0.0f, C, Got[C], Want);
      }
    }
    Failures += Bad != 0;
    CK(cudaDestroyTextureObject(Tex));
    CK(cudaFree(DX));
    CK(cudaFree(DY));
    CK(cudaFree(DOut));
  }
  if (Arr)
    CK(cudaFreeArray(Arr));
  if (Mem)
    CK(cudaFree(Mem));
}

// Every sampler for one format; T is what the kernel reads.
template <class TElem, class TFloat>
static void runFormat(Format F, unsigned Seed) {
  for (int Dim = 1; Dim <= 2; ++Dim) {
    HostImage Im = makeImage(F, 7, Dim == 2 ? 5 : 1, Seed + Dim);
    for (auto Mode : {cudaAddressModeWrap, cudaAddressModeClamp,
                      cudaAddressModeMirror, cudaAddressModeBorder})
      for (auto Filter : {cudaFilterModePoint, cudaFilterModeLinear})
        for (auto Read : {cudaReadModeElementType, cudaReadModeNormalizedFloat})
          for (bool Norm : {false, true}) {
            Sampler S{Mode, Filter, Read, Norm};
            bool FloatOut = F.Kind == cudaChannelFormatKindFloat ||
                            Read == cudaReadModeNormalizedFloat;
            if (FloatOut)
              runCase<TFloat>(Im, Dim == 2, S, false);
            else
              runCase<TElem>(Im, Dim == 2, S, false);
          }
  }
}

static void linearMemory() {
  const int N = 10;
  float Host[N];
  for (int K = 0; K < N; ++K)
    Host[K] = 1.5f * K - 4.0f;
  float *Dev;
  CK(cudaMalloc(&Dev, sizeof Host));
  CK(cudaMemcpy(Dev, Host, sizeof Host, cudaMemcpyHostToDevice));
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeLinear;
  R.res.linear.devPtr = Dev;
  R.res.linear.desc = cudaCreateChannelDesc<float>();
  R.res.linear.sizeInBytes = sizeof Host;
  cudaTextureDesc TD;
  memset(&TD, 0, sizeof TD);
  cudaTextureObject_t Tex;
  CK(cudaCreateTextureObject(&Tex, &R, &TD, nullptr));
  cudaResourceDesc Back;
  CK(cudaGetTextureObjectResourceDesc(&Back, Tex));
  ++Checks;
  if (Back.resType != cudaResourceTypeLinear || Back.res.linear.devPtr != Dev)
    ++Failures, fprintf(stderr, "resource description not returned\n");
  int Idx[16];
  for (int K = 0; K < 16; ++K)
    Idx[K] = K - 3; // -3 .. 12: outside reads zero
  int *DIdx;
  float *DOut, Out[16];
  CK(cudaMalloc(&DIdx, sizeof Idx));
  CK(cudaMalloc(&DOut, sizeof Out));
  CK(cudaMemcpy(DIdx, Idx, sizeof Idx, cudaMemcpyHostToDevice));
  fetchLinear<<<1, 16>>>(Tex, DIdx, DOut, 16);
  CK(cudaMemcpy(Out, DOut, sizeof Out, cudaMemcpyDeviceToHost));
  for (int K = 0; K < 16; ++K) {
    float Want = Idx[K] >= 0 && Idx[K] < N ? Host[Idx[K]] : 0.0f;
    ++Checks;
    if (memcmp(&Want, &Out[K], 4) != 0)
      ++Failures, fprintf(stderr, "tex1Dfetch(%d): got %g want %g\n", Idx[K],
                          Out[K], Want);
  }
  CK(cudaDestroyTextureObject(Tex));
  CK(cudaFree(Dev));
  CK(cudaFree(DIdx));
  CK(cudaFree(DOut));
}

template <class T>
static void surfaces(cudaChannelFormatDesc D, const char *Name) {
  const int W = 6, H = 4;
  std::vector<T> Src(W * H), Got(W * H), Zero(W * H);
  for (int K = 0; K < W * H; ++K)
    memset(&Src[K], 0x11 * (K % 15 + 1), sizeof(T));
  for (auto M : {cudaBoundaryModeClamp, cudaBoundaryModeZero}) {
    cudaArray_t A, B;
    CK(cudaMallocArray(&A, &D, W, H, cudaArraySurfaceLoadStore));
    // Destination covers the reads one texel beyond each edge.
    CK(cudaMallocArray(&B, &D, W + 2, H + 2, cudaArraySurfaceLoadStore));
    CK(cudaMemcpy2DToArray(A, 0, 0, Src.data(), W * sizeof(T), W * sizeof(T), H,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc R;
    memset(&R, 0, sizeof R);
    R.resType = cudaResourceTypeArray;
    R.res.array.array = A;
    cudaSurfaceObject_t SA, SB;
    CK(cudaCreateSurfaceObject(&SA, &R));
    R.res.array.array = B;
    CK(cudaCreateSurfaceObject(&SB, &R));
    surfCopy<T><<<1, dim3(W + 2, H + 2)>>>(SA, SB, W, H, M);
    CK(cudaGetLastError());
    std::vector<T> Out((W + 2) * (H + 2));
    CK(cudaMemcpy2DFromArray(Out.data(), (W + 2) * sizeof(T), B, 0, 0,
                             (W + 2) * sizeof(T), H + 2,
                             cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int Y = 0; Y < H + 2; ++Y)
      for (int X = 0; X < W + 2; ++X) {
        int SX = X - 1, SY = Y - 1;
        bool Out1 = SX < 0 || SX >= W || SY < 0 || SY >= H;
        T Want;
        memset(&Want, 0, sizeof Want);
        if (!Out1 || M == cudaBoundaryModeClamp) {
          SX = SX < 0 ? 0 : SX >= W ? W - 1 : SX;
          SY = SY < 0 ? 0 : SY >= H ? H - 1 : SY;
          Want = Src[SY * W + SX];
        }
        ++Checks;
        if (memcmp(&Want, &Out[Y * (W + 2) + X], sizeof(T)) != 0 && !Bad++)
          fprintf(stderr, "surface %s mode %d: wrong texel at (%d, %d)\n", Name,
                  (int)M, X - 1, Y - 1);
      }
    Failures += Bad != 0;
    CK(cudaDestroySurfaceObject(SA));
    CK(cudaDestroySurfaceObject(SB));
    CK(cudaFreeArray(A));
    CK(cudaFreeArray(B));
  }
}

static void edgeStores() {
  const int W = 5, H = 3;
  cudaChannelFormatDesc D = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  CK(cudaMallocArray(&A, &D, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  cudaSurfaceObject_t S;
  CK(cudaCreateSurfaceObject(&S, &R));
  surfEdgeStores<<<1, 1>>>(S, W, H);
  float Out[W * H];
  CK(cudaMemcpy2DFromArray(Out, W * 4, A, 0, 0, W * 4, H,
                           cudaMemcpyDeviceToHost));
  for (int K = 0; K < W * H; ++K) {
    float Want = K == 0 ? 7.0f : K == W * H - 1 ? 9.0f : 0.0f;
    ++Checks;
    if (Out[K] != Want)
      ++Failures, fprintf(stderr, "edge store: texel %d is %g, want %g\n", K,
                          Out[K], Want);
  }
  CK(cudaDestroySurfaceObject(S));
  CK(cudaFreeArray(A));
}

// Every component of tex2Dgather on a float4 array, for each address mode
// (point and linear samplers alike) with normalized and unnormalized
// coordinates, at coordinates walking past both edges.
static void gathers() {
  Format F{"float4", cudaChannelFormatKindFloat, 32, 4};
  HostImage Im = makeImage(F, 6, 5, 11);
  cudaChannelFormatDesc D = cudaCreateChannelDesc<float4>();
  cudaArray_t Arr;
  CK(cudaMallocArray(&Arr, &D, Im.W, Im.H));
  size_t RowBytes = (size_t)Im.W * Im.texelBytes();
  CK(cudaMemcpy2DToArray(Arr, 0, 0, Im.Bytes.data(), RowBytes, RowBytes, Im.H,
                         cudaMemcpyHostToDevice));
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = Arr;
  for (cudaTextureAddressMode M :
       {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror,
        cudaAddressModeBorder})
    for (bool Norm : {false, true})
      for (cudaTextureFilterMode Filter :
           {cudaFilterModePoint, cudaFilterModeLinear}) {
        cudaTextureDesc TD;
        memset(&TD, 0, sizeof TD);
        TD.addressMode[0] = TD.addressMode[1] = M;
        TD.filterMode = Filter;
        TD.normalizedCoords = Norm;
        cudaTextureObject_t Tex;
        CK(cudaCreateTextureObject(&Tex, &R, &TD, nullptr));
        std::vector<float> X, Y, Xs = coords(Im.W, Norm),
                                 Ys = coords(Im.H, Norm);
        for (size_t K = 0; K < Xs.size(); ++K)
          for (size_t L = 0; L < Ys.size(); L += 2) {
            X.push_back(Xs[K]);
            Y.push_back(Ys[(L + K) % Ys.size()]);
          }
        int N = (int)X.size();
        float *DX, *DY;
        float4 *DO;
        CK(cudaMalloc(&DX, N * sizeof(float)));
        CK(cudaMalloc(&DY, N * sizeof(float)));
        CK(cudaMalloc(&DO, N * sizeof(float4)));
        CK(cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice));
        std::vector<float4> Out(N);
        for (int C = 0; C < 4; ++C) {
          gather2D<<<(N + 127) / 128, 128>>>(Tex, DX, DY, DO, N, C);
          CK(cudaDeviceSynchronize());
          CK(cudaMemcpy(Out.data(), DO, N * sizeof(float4),
                        cudaMemcpyDeviceToHost));
          for (int K = 0; K < N; ++K) {
            float XB = refScale(X[K], Im.W, M, Norm) - 0.5f;
            float YB = refScale(Y[K], Im.H, M, Norm) - 0.5f;
            long I = (long)floorf(XB), J = (long)floorf(YB);
            const long Corner[4][2] = {
                {I, J + 1}, {I + 1, J + 1}, {I + 1, J}, {I, J}};
            uint32_t Got[4];
            bitsOf(Out[K], Got);
            for (int Q = 0; Q < 4; ++Q) {
              long A, B;
              float Want = 0.0f; // border
              if (refIndex(Corner[Q][0], Im.W, M, Norm, A) &&
                  refIndex(Corner[Q][1], Im.H, M, Norm, B))
                Want = Im.asFloat((int)A, (int)B, C);
              uint32_t WantBits;
              memcpy(&WantBits, &Want, 4);
              ++Checks;
              if (Got[Q] != WantBits)
                ++Failures,
                    fprintf(stderr,
                            "gather mode %d norm %d comp %d at (%g, %g) "
                            "texel %d: got %08x want %08x\n",
                            (int)M, (int)Norm, C, X[K], Y[K], Q, Got[Q],
                            WantBits);
            }
          }
        }
        CK(cudaFree(DX));
        CK(cudaFree(DY));
        CK(cudaFree(DO));
        CK(cudaDestroyTextureObject(Tex));
      }
  CK(cudaFreeArray(Arr));
}

static int expectLaunchFailure(bool Trap) {
  cudaChannelFormatDesc D = cudaCreateChannelDesc<float>();
  cudaArray_t A;
  CK(cudaMallocArray(&A, &D, 4, 4,
                     Trap ? cudaArraySurfaceLoadStore : cudaArrayDefault));
  cudaResourceDesc R;
  memset(&R, 0, sizeof R);
  R.resType = cudaResourceTypeArray;
  R.res.array.array = A;
  float4 *Out;
  CK(cudaMalloc(&Out, sizeof(float4)));
  if (Trap) {
    cudaSurfaceObject_t S;
    CK(cudaCreateSurfaceObject(&S, &R));
    surfTrap<<<1, 1>>>(S, (float *)Out);
  } else {
    cudaTextureDesc TD;
    memset(&TD, 0, sizeof TD);
    cudaTextureObject_t T;
    CK(cudaCreateTextureObject(&T, &R, &TD, nullptr));
    layered<<<1, 1>>>(T, Out);
  }
  cudaError_t E = cudaDeviceSynchronize();
  if (E == cudaSuccess) {
    fprintf(stderr, "the launch should have failed\n");
    return 1;
  }
  printf("launch failed as expected: %s\n", cudaGetErrorString(E));
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1)
    return expectLaunchFailure(strcmp(argv[1], "trap") == 0);
  runFormat<unsigned char, float>({"u8", cudaChannelFormatKindUnsigned, 8, 1},
                                  1);
  runFormat<unsigned short, float>(
      {"u16", cudaChannelFormatKindUnsigned, 16, 1}, 2);
  runFormat<short, float>({"s16", cudaChannelFormatKindSigned, 16, 1}, 3);
  runFormat<float, float>({"f32", cudaChannelFormatKindFloat, 32, 1}, 4);
  runFormat<float4, float4>({"float4", cudaChannelFormatKindFloat, 32, 4}, 5);
  runFormat<uchar4, float4>({"uchar4", cudaChannelFormatKindUnsigned, 8, 4}, 6);
  // Pitched 2D memory, one sampler of each filter.
  HostImage P = makeImage({"f32", cudaChannelFormatKindFloat, 32, 1}, 9, 6, 7);
  runCase<float>(P, true,
                 {cudaAddressModeClamp, cudaFilterModeLinear,
                  cudaReadModeElementType, false},
                 true);
  runCase<float>(
      P, true,
      {cudaAddressModeWrap, cudaFilterModePoint, cudaReadModeElementType, true},
      true);
  linearMemory();
  surfaces<float>(cudaCreateChannelDesc<float>(), "float");
  surfaces<uchar4>(cudaCreateChannelDesc<uchar4>(), "uchar4");
  surfaces<short>(cudaCreateChannelDesc<short>(), "short");
  surfaces<float4>(cudaCreateChannelDesc<float4>(), "float4");
  edgeStores();
  gathers();
  printf("textures: %d checks, %d failed\n", Checks, Failures);
  return Failures ? 1 : 0;
}
