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
// 3D (trilinear: the 2D sum extended by the z weight), layered textures,
//   tex2DLod, txq/suq queries: volume.cu; surfaces of every geometry,
//   access size and boundary mode: surfaces.cu. The reference: ref.cu.
// Modes: (none) the whole matrix, [--dump FILE] writing every checked
// result so that a GPU run can be diffed with the emulator's; "trap" a .trap
// surface read out of range and "cubemap" texCubemap (tex.cube, which the
// emulator does not support; a GPU does): both must fail the launch.
#include "ref.h"

#include <cstdarg>
#include <map>

int Failures = 0, Checks = 0;
static FILE *Dump = nullptr;

std::string fmt(const char *F, ...) {
  char Buf[256];
  va_list A;
  va_start(A, F);
  vsnprintf(Buf, sizeof Buf, F, A);
  va_end(A);
  return Buf;
}

void dumpResult(const std::string &Form, const std::string &In, const void *Got,
                size_t Bytes) {
  static std::map<std::string, size_t> Cases;
  if (!Dump)
    return;
  std::string Hex;
  for (size_t K = 0; K < Bytes; ++K)
    Hex += fmt("%02x", ((const uint8_t *)Got)[K]);
  fprintf(Dump, "%s\t%zu\t%s\t%s\n", Form.c_str(), Cases[Form]++, In.c_str(),
          Hex.c_str());
}

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

// A cubemap fetch (tex.cube): not supported by the emulator, so the
// launch must fail naming the instruction.
__global__ void cubemap(cudaTextureObject_t t, float4 *out) {
  out[0] = texCubemap<float4>(t, 0.5f, -1.0f, 0.25f);
}

// tex2Dgather (tld4.{r,g,b,a}): component comp of the four texels of the
// bilinear footprint at each (x[i], y[i]).
template <class T>
__global__ void gather2D(cudaTextureObject_t t, const float *x, const float *y,
                         T *out, int n, int comp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex2Dgather<T>(t, x[i], y[i], comp);
}

// ---- the matrix -------------------------------------------------------------

template <class T>
static void runCase(const HostImage &Im, bool Is2D, const Sampler &S,
                    bool Pitched) {
  cudaChannelFormatDesc D = descOf(Im.F);
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
      float XY[2] = {X[K], Is2D ? Y[K] : 0.0f};
      dumpResult(fmt("tex %s %s %s mode=%d filter=%d read=%d norm=%d",
                     Im.F.Name, Is2D ? "2D" : "1D",
                     Pitched ? "pitch2D" : "array", (int)S.Mode, (int)S.Filter,
                     (int)S.Read, (int)S.Norm),
                 fmt("%a %a", XY[0], XY[1]), Got, 4 * NC);
      for (int C = 0; C < NC; ++C) {
        ++Checks;
        uint32_t Want = narrow(refFetchN(Im, S, XY, Is2D ? 2 : 1, false, 0, C),
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
            if (Read == cudaReadModeNormalizedFloat &&
                F.Kind != cudaChannelFormatKindFloat && F.Bits == 32)
              continue; // normalized reads need 8- or 16-bit integers
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
    dumpResult("tex1Dfetch f32 linear", fmt("i=%d", Idx[K]), &Out[K], 4);
    if (memcmp(&Want, &Out[K], 4) != 0)
      ++Failures, fprintf(stderr, "tex1Dfetch(%d): got %g want %g\n", Idx[K],
                          Out[K], Want);
  }
  CK(cudaDestroyTextureObject(Tex));
  CK(cudaFree(Dev));
  CK(cudaFree(DIdx));
  CK(cudaFree(DOut));
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
    dumpResult("surf2Dwrite f32 edges", fmt("texel=%d", K), &Out[K], 4);
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
// T: what the kernel reads (float4 for float formats and normalized reads,
// uchar4/char4 for element reads of integers: tld4's .u32/.s32 forms).
template <class T>
static void gathers(Format F, cudaTextureReadMode Read, unsigned Seed) {
  HostImage Im = makeImage(F, 6, 5, Seed);
  cudaChannelFormatDesc D = descOf(F);
  bool FloatOut = F.Kind == cudaChannelFormatKindFloat ||
                  Read == cudaReadModeNormalizedFloat;
  cudaArray_t Arr;
  CK(cudaMallocArray(&Arr, &D, Im.W, Im.H, cudaArrayTextureGather));
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
        if (Filter == cudaFilterModeLinear && !FloatOut)
          continue; // refused (checked by runCase)
        cudaTextureDesc TD;
        memset(&TD, 0, sizeof TD);
        TD.addressMode[0] = TD.addressMode[1] = M;
        TD.filterMode = Filter;
        TD.readMode = Read;
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
        T *DO;
        CK(cudaMalloc(&DX, N * sizeof(float)));
        CK(cudaMalloc(&DY, N * sizeof(float)));
        CK(cudaMalloc(&DO, N * sizeof(T)));
        CK(cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice));
        std::vector<T> Out(N);
        for (int C = 0; C < 4; ++C) {
          gather2D<T><<<(N + 127) / 128, 128>>>(Tex, DX, DY, DO, N, C);
          CK(cudaDeviceSynchronize());
          CK(cudaMemcpy(Out.data(), DO, N * sizeof(T), cudaMemcpyDeviceToHost));
          for (int K = 0; K < N; ++K) {
            float XB = refScale(X[K], Im.W, M, Norm) - 0.5f;
            float YB = refScale(Y[K], Im.H, M, Norm) - 0.5f;
            long I = (long)floorf(XB), J = (long)floorf(YB);
            const long Corner[4][2] = {
                {I, J + 1}, {I + 1, J + 1}, {I + 1, J}, {I, J}};
            uint32_t Got[4];
            bitsOf(Out[K], Got);
            dumpResult(fmt("tex2Dgather %s read=%d mode=%d norm=%d filter=%d "
                           "comp=%d",
                           F.Name, (int)Read, (int)M, (int)Norm, (int)Filter,
                           C),
                       fmt("%a %a", X[K], Y[K]), Got, 16);
            for (int Q = 0; Q < 4; ++Q) {
              long A, B;
              uint32_t WantBits = 0; // border: 0 (0.0f)
              if (refIndex(Corner[Q][0], Im.W, M, Norm, A) &&
                  refIndex(Corner[Q][1], Im.H, M, Norm, B)) {
                float Want = Im.asFloat((int)A, (int)B, C);
                if (FloatOut)
                  memcpy(&WantBits, &Want, 4);
                else
                  WantBits =
                      narrow((uint32_t)Im.rawInt((int)A, (int)B, C), F, false);
              }
              ++Checks;
              if (Got[Q] != WantBits)
                ++Failures,
                    fprintf(stderr,
                            "gather %s read %d mode %d norm %d comp %d at "
                            "(%g, %g) texel %d: got %08x want %08x\n",
                            F.Name, (int)Read, (int)M, (int)Norm, C, X[K], Y[K],
                            Q, Got[Q], WantBits);
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
    cubemap<<<1, 1>>>(T, Out);
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
  if (argc == 2 && (!strcmp(argv[1], "trap") || !strcmp(argv[1], "cubemap")))
    return expectLaunchFailure(strcmp(argv[1], "trap") == 0);
  if (argc == 3 && !strcmp(argv[1], "--dump")) {
    if (!(Dump = fopen(argv[2], "w"))) {
      fprintf(stderr, "textures: cannot write '%s'\n", argv[2]);
      return 2;
    }
  } else if (argc != 1) {
    fprintf(stderr, "textures: use no argument, --dump FILE, trap or "
                    "cubemap\n");
    return 2;
  }
  runFormat<unsigned char, float>({"u8", cudaChannelFormatKindUnsigned, 8, 1},
                                  1);
  runFormat<unsigned short, float>(
      {"u16", cudaChannelFormatKindUnsigned, 16, 1}, 2);
  runFormat<short, float>({"s16", cudaChannelFormatKindSigned, 16, 1}, 3);
  runFormat<float, float>({"f32", cudaChannelFormatKindFloat, 32, 1}, 4);
  runFormat<float4, float4>({"float4", cudaChannelFormatKindFloat, 32, 4}, 5);
  runFormat<uchar4, float4>({"uchar4", cudaChannelFormatKindUnsigned, 8, 4}, 6);
  runFormat<signed char, float>({"s8", cudaChannelFormatKindSigned, 8, 1}, 10);
  runFormat<int, float>({"s32", cudaChannelFormatKindSigned, 32, 1}, 11);
  runFormat<unsigned, float>({"u32", cudaChannelFormatKindUnsigned, 32, 1}, 12);
  runFormat<float2, float2>({"float2", cudaChannelFormatKindFloat, 32, 2}, 13);
  runFormat<ushort2, float2>({"ushort2", cudaChannelFormatKindUnsigned, 16, 2},
                             14);
  runFormat<float, float>({"f16", cudaChannelFormatKindFloat, 16, 1}, 8);
  runFormat<float4, float4>({"half4", cudaChannelFormatKindFloat, 16, 4}, 9);
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
  edgeStores();
  gathers<float4>({"float4", cudaChannelFormatKindFloat, 32, 4},
                  cudaReadModeElementType, 11);
  gathers<uchar4>({"uchar4", cudaChannelFormatKindUnsigned, 8, 4},
                  cudaReadModeElementType, 15);
  gathers<char4>({"char4", cudaChannelFormatKindSigned, 8, 4},
                 cudaReadModeElementType, 16);
  gathers<float4>({"uchar4", cudaChannelFormatKindUnsigned, 8, 4},
                  cudaReadModeNormalizedFloat, 17);
  volumes();
  layeredTextures();
  levelFetches();
  textureQueries();
  surfaceMatrix();
  if (Dump)
    fclose(Dump);
  printf("textures: %d checks, %d failed\n", Checks, Failures);
  return Failures ? 1 : 0;
}
