// The host reference of the texture suite (ref.h): the CUDA C++
// Programming Guide's "Texture Fetching" formulas, written independently of
// the emulator (runtime/emu/core/Texture.cpp).
#include "ref.h"

HostImage makeImage(Format F, int W, int H, unsigned Seed, int D) {
  HostImage Im{F, W, H, {}, D};
  Im.Bytes.resize((size_t)W * H * D * Im.texelBytes());
  uint32_t S = Seed;
  for (size_t K = 0; K < Im.Bytes.size(); K += F.Bits / 8) {
    S = S * 1664525u + 1013904223u;
    if (F.Kind == cudaChannelFormatKindFloat && F.Bits == 16) {
      uint16_t H = (uint16_t)(S >> 9); // any finite half, subnormals too
      if (((H >> 10) & 31) == 31)
        H ^= 0x4000;
      memcpy(&Im.Bytes[K], &H, 2);
    } else if (F.Kind == cudaChannelFormatKindFloat) {
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

bool refIndex(long I, int N, cudaTextureAddressMode M, bool Norm, long &Out) {
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

float refScale(float X, int N, cudaTextureAddressMode M, bool Norm) {
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

uint32_t refFetchN(const HostImage &Im, const Sampler &S, const float *Coord,
                   int Dims, bool Layered, int Layer, int C) {
  bool FloatOut = Im.F.Kind == cudaChannelFormatKindFloat ||
                  S.Read == cudaReadModeNormalizedFloat;
  const int N[3] = {Im.W, Im.H, Im.D};
  // The layer: a u32 index, beyond the last layer the last one.
  int Z = Layered ? (int)std::min<uint32_t>((uint32_t)Layer, Im.D - 1u) : 0;
  float XS[3];
  for (int D = 0; D < Dims; ++D)
    XS[D] = refScale(Coord[D], N[D], S.Mode, S.Norm);
  // Texel I (Dims indices) addressed into A (x, y, z); false: border.
  auto addr = [&](const long *I, long *A) {
    A[0] = A[1] = 0;
    A[2] = Z;
    for (int D = 0; D < Dims; ++D)
      if (!refIndex(I[D], N[D], S.Mode, S.Norm, A[D]))
        return false;
    return true;
  };
  auto texel = [&](const long *I) -> float {
    long A[3];
    if (!addr(I, A))
      return 0.0f; // the border color
    return Im.asFloat((int)A[0], (int)A[1], C, (int)A[2]);
  };
  float R = 0.0f;
  if (S.Filter == cudaFilterModePoint) {
    long I[3];
    for (int D = 0; D < Dims; ++D)
      I[D] = (long)floorf(XS[D]);
    if (!FloatOut) {
      long A[3];
      if (!addr(I, A))
        return 0;
      return (uint32_t)Im.rawInt((int)A[0], (int)A[1], C, (int)A[2]);
    }
    R = texel(I);
  } else {
    // (1-a)(1-b)(1-c) T[i,j,k] + a(1-b)(1-c) T[i+1,j,k] + ...: corners with
    // x fastest, weights frac(x - 0.5) in 8-bit fixed point.
    long Base[3];
    float Alpha[3];
    for (int D = 0; D < Dims; ++D) {
      float XB = XS[D] - 0.5f;
      Base[D] = (long)floorf(XB);
      Alpha[D] = roundf((XB - floorf(XB)) * 256.0f) / 256.0f;
    }
    for (int K = 0; K < (1 << Dims); ++K) {
      long I[3];
      float Wt = 1.0f;
      for (int D = 0; D < Dims; ++D) {
        bool Up = (K >> D) & 1;
        I[D] = Base[D] + Up;
        float F = Up ? Alpha[D] : 1.0f - Alpha[D];
        Wt = D == 0 ? F : Wt * F;
      }
      float Term = Wt * texel(I);
      R = K == 0 ? Term : R + Term;
    }
  }
  uint32_t Bits;
  memcpy(&Bits, &R, 4);
  return Bits;
}

std::vector<float> coords(int N, bool Norm) {
  std::vector<float> V;
  for (float X = -1.6f * N; X < 2.6f * N; X += 0.37f)
    V.push_back(Norm ? X / N : X);
  for (int K = -2; K <= N + 2; ++K)
    for (float D : {0.0f, 0.5f, 0.999f})
      V.push_back(Norm ? (K + D) / N : K + D);
  return V;
}

cudaChannelFormatDesc descOf(const Format &F) {
  return cudaCreateChannelDesc(F.Bits, F.Channels > 1 ? F.Bits : 0,
                               F.Channels > 2 ? F.Bits : 0,
                               F.Channels > 3 ? F.Bits : 0, F.Kind);
}

void bitsOf(float V, uint32_t *O) { memcpy(O, &V, 4); }
void bitsOf(float4 V, uint32_t *O) {
  bitsOf(V.x, O), bitsOf(V.y, O + 1), bitsOf(V.z, O + 2), bitsOf(V.w, O + 3);
}
void bitsOf(unsigned char V, uint32_t *O) { *O = V; }
void bitsOf(unsigned short V, uint32_t *O) { *O = V; }
void bitsOf(short V, uint32_t *O) { *O = (uint32_t)(int32_t)V; }
void bitsOf(uchar4 V, uint32_t *O) {
  O[0] = V.x, O[1] = V.y, O[2] = V.z, O[3] = V.w;
}

void bitsOf(char4 V, uint32_t *O) {
  O[0] = (uint32_t)(int32_t)V.x, O[1] = (uint32_t)(int32_t)V.y;
  O[2] = (uint32_t)(int32_t)V.z, O[3] = (uint32_t)(int32_t)V.w;
}
void bitsOf(float2 V, uint32_t *O) { bitsOf(V.x, O), bitsOf(V.y, O + 1); }
void bitsOf(ushort2 V, uint32_t *O) { O[0] = V.x, O[1] = V.y; }
void bitsOf(signed char V, uint32_t *O) { *O = (uint32_t)(int32_t)V; }
void bitsOf(int V, uint32_t *O) { *O = (uint32_t)V; }
void bitsOf(unsigned V, uint32_t *O) { *O = V; }

uint32_t narrow(uint32_t V, const Format &F, bool FloatOut) {
  if (FloatOut || F.Bits == 32)
    return V;
  uint32_t M = (1u << F.Bits) - 1;
  if (F.Kind == cudaChannelFormatKindSigned && (V & (1u << (F.Bits - 1))))
    return V | ~M;
  return V & M;
}
