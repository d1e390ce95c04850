//===- MatrixOps.cpp - warp matrix instructions ---------------------------===//
//
// mma.sync, wmma.{load,store,mma}.sync and ldmatrix.sync: each executes once
// for the whole warp (all 32 lanes must execute it, as .aligned requires),
// gathering the lanes' fragments into dense matrices and scattering results.
//
// Fragment layouts: mma and ldmatrix follow the PTX ISA's figures
// (groupID = lane >> 2, threadID_in_group = lane % 4). wmma fragments are
// opaque in the ISA; the emulator's (fragPos below) holds for A and B the
// elements mma.m16n8k16 would (for .f16, whose fragments have 16 elements,
// elements 8..15 repeat 0..7) and for C/D those of two m16n8 accumulators;
// other wmma geometries and types use a plain row-major split (wmmaPos).
//
// Arithmetic: each product of two f16/bf16/tf32 values is exact in f32; D =
// C + A[m][0]*B[0][n] + ... + A[m][K-1]*B[K-1][n] is accumulated in f32 in
// that k order, rounding to nearest even after each addition, and rounded
// once to f16 for an f16 D. f64 accumulates with one fma per k in order.
// tf32 operands use their top 19 bits (the low 13 are ignored). A zero
// f16/bf16/tf32 result is +0 and a NaN the canonical one, as on sm_90. How the
// tensor cores order and round their additions is not documented: this is
// the emulator's documented choice (docs/emulator.md), which a GPU may
// differ from in the last bits. Integer (.s8/.u8) products and sums are
// exact; the s32 result wraps, or saturates with .satfinite.
//
//===----------------------------------------------------------------------===//
#include "MatrixOps.h"
#include "ExecInternal.h"
#include "Lanes.h"

#include <algorithm>
#include <cstdint>

namespace warpscope::emu::core {

namespace {

struct Pos {
  int R, C;
};

struct Dims {
  int M, N, K;
};
Dims dimsOf(uint8_t Shape) {
  if (Shape & WmmaBit) {
    static const Dims Geoms[] = {
        {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}, {8, 8, 4}};
    return Geoms[(Shape >> 4) & 7];
  }
  switch (Shape) {
  case MmaM16N8K16F16:
  case MmaM16N8K16BF16:
    return {16, 8, 16};
  case MmaM16N8K8TF32:
    return {16, 8, 8};
  default:
    return {8, 8, 4};
  }
}

// wmma fragment element E of lane L. m16n16k16 keeps the layout of two
// mma.m16n8k16 (A/B for .f16/.bf16 and C/D of every type); the other
// geometries and types hold lane L's n = rows * cols / 32 elements at
// row-major positions L * n .. L * n + n - 1 of their matrix (.f16 A/B
// fragments have 16 elements: element E is E % n).
Pos wmmaPos(uint8_t Shape, int Frag, int L, int E) {
  int G = L >> 2, T = L & 3;
  uint8_t Elem = Shape & 15;
  if (((Shape >> 4) & 7) == WmM16N16K16 &&
      (Frag == FragC || Elem == WeF16 || Elem == WeBF16)) {
    E &= 7;
    if (Frag == FragA)
      return {G + 8 * ((E >> 1) & 1), 2 * T + (E & 1) + 8 * (E >> 2)};
    if (Frag == FragB)
      return {2 * T + (E & 1) + 8 * ((E >> 1) & 1), G + 8 * (E >> 2)};
    return {G + 8 * ((E >> 1) & 1), 2 * T + (E & 1) + 8 * (E >> 2)};
  }
  Dims D = dimsOf(Shape);
  int Rows = Frag == FragB ? D.K : D.M, Cols = Frag == FragA ? D.K : D.N;
  int N = Rows * Cols / 32, Idx = L * N + E % N;
  return {Idx / Cols, Idx % Cols};
}

// Where element E (register E / 2, half E % 2 for 16-bit types; register E
// for 32/64-bit) of lane L lies in its matrix, per shape and operand.
Pos fragPos(uint8_t Shape, int Frag, int L, int E) {
  if (Shape & WmmaBit)
    return wmmaPos(Shape, Frag, L, E);
  int G = L >> 2, T = L & 3;
  switch (Shape) {
  case MmaM16N8K16F16:
  case MmaM16N8K16BF16:
    if (Frag == FragA)
      return {G + 8 * ((E >> 1) & 1), 2 * T + (E & 1) + 8 * (E >> 2)};
    if (Frag == FragB)
      return {2 * T + (E & 1) + 8 * (E >> 1), G};
    return {G + 8 * (E >> 1), 2 * T + (E & 1)};
  case MmaM16N8K8TF32:
    if (Frag == FragA)
      return {G + 8 * (E & 1), T + 4 * (E >> 1)};
    if (Frag == FragB)
      return {T + 4 * E, G};
    return {G + 8 * (E >> 1), 2 * T + (E & 1)};
  default: // MmaM8N8K4F64
    if (Frag == FragA)
      return {G, T};
    if (Frag == FragB)
      return {T, G};
    return {G, 2 * T + E};
  }
}

enum Elem { ElF16, ElBF16, ElF32, ElTF32, ElF64, ElS8, ElU8, ElS32 };
unsigned elemsPerReg(Elem T) {
  return T == ElF16 || T == ElBF16 ? 2 : T == ElS8 || T == ElU8 ? 4 : 1;
}

double readElem(const uint64_t *R, const uint32_t *Slots, Elem T, int L,
                int E) {
  unsigned PerReg = elemsPerReg(T);
  uint64_t V = R[(size_t)Slots[E / PerReg] * 32 + L];
  switch (T) {
  case ElF16:
  case ElBF16:
    return halfGet((uint32_t)(V >> (16 * (E % 2))) & 0xffff, T == ElBF16);
  case ElS8:
    return (int8_t)(V >> (8 * (E % 4)));
  case ElU8:
    return (uint8_t)(V >> (8 * (E % 4)));
  case ElS32:
    return (int32_t)V;
  case ElF32:
    return get<float>(V);
  case ElTF32:
    return get<float>(V & 0xffffe000u);
  default:
    return get<double>(V);
  }
}

void writeElem(uint64_t *R, const uint32_t *Slots, Elem T, int L, int E,
               double X) {
  uint64_t &V = R[(size_t)Slots[E / elemsPerReg(T)] * 32 + L];
  switch (T) {
  case ElF16:
  case ElBF16: {
    unsigned Sh = 16 * (E % 2);
    uint64_t H = halfPut((float)X, T == ElBF16);
    V = (V & ~(0xffffull << Sh) & 0xffffffffull) | (H << Sh);
    break;
  }
  case ElS32: // X is an int32_t value
    V = (uint32_t)(int32_t)X;
    break;
  case ElF32:
  case ElTF32:
    V = put<float>((float)X);
    break;
  default:
    V = put<double>(X);
  }
}

Elem accElem(Ty T) {
  return T == Ty::F16   ? ElF16
         : T == Ty::F64 ? ElF64
         : T == Ty::S32 ? ElS32
                        : ElF32;
}
Elem inputElem(uint8_t Shape) {
  if (Shape & WmmaBit) {
    static const Elem Of[] = {ElF16, ElBF16, ElTF32, ElF64, ElS8, ElU8};
    return Of[Shape & 15];
  }
  switch (Shape) {
  case MmaM16N8K16BF16:
    return ElBF16;
  case MmaM16N8K8TF32:
    return ElTF32;
  case MmaM8N8K4F64:
    return ElF64;
  default:
    return ElF16;
  }
}

// One element of D = C + A * B in the documented order (file comment);
// integers exactly, wrapping to s32 or, with .satfinite, clamped.
double dotAcc(const double (*A)[32], const double (*B)[32], double C, int M,
              int N, int K, Elem In, bool Sat) {
  if (In == ElS8 || In == ElU8) {
    int64_t Acc = (int64_t)C;
    for (int Kk = 0; Kk < K; ++Kk)
      Acc += (int64_t)A[M][Kk] * (int64_t)B[Kk][N];
    if (Sat)
      return (double)std::min<int64_t>(std::max<int64_t>(Acc, INT32_MIN),
                                       INT32_MAX);
    return (double)(int32_t)(uint32_t)(uint64_t)Acc;
  }
  if (In == ElF64) {
    double Acc = C;
    for (int Kk = 0; Kk < K; ++Kk) // NaNs as fma.rn.f64 gives them
      Acc =
          nanPick64(std::fma(A[M][Kk], B[Kk][N], Acc), B[Kk][N], Acc, A[M][Kk]);
    return Acc;
  }
  float Acc = (float)C;
  for (int Kk = 0; Kk < K; ++Kk) // exact product, one rounding per add
    Acc = Acc + (float)(A[M][Kk] * B[Kk][N]);
  // The ISA leaves accumulation open; sm_90 gives +0 for a zero sum (also
  // of -0 terms) and the canonical NaN.
  return Acc == 0 ? 0.0f : canonF32(Acc);
}

} // namespace

void Launcher::execMatrix(Warp &W, Frame &Fr, const Inst &I, uint32_t EM,
                          uint32_t Active) {
  if (EM != 0xffffffffu || Active != 0xffffffffu)
    fail(W, *Fr.F, I, __builtin_ctz(EM),
         "warp matrix instruction executed by " + std::to_string(popc32(EM)) +
             " of 32 lanes; all lanes of the warp must execute it together");
  switch (I.Op) {
  case OpMma:
    return mmaOps(I, Fr.Regs.data(), Fr.F->MatrixSlots.data() + I.ArgBegin);
  case OpLdmatrix:
    return execLdmatrix(W, Fr, I);
  default:
    return execWmmaMem(W, Fr, I);
  }
}

// mma.sync / wmma.mma.sync: D = A * B + C over the warp's fragments.
void mmaOps(const Inst &I, uint64_t *R, const uint32_t *MS) {
  const uint32_t NA = MS[1], NB = MS[2], NC = MS[3];
  const uint32_t *DS = MS + 4, *AS = DS + MS[0], *BS = AS + NA, *CS = BS + NB;
  const Dims Dm = dimsOf(I.Sub);
  const Elem In = inputElem(I.Sub);
  const Elem Ed = accElem(I.T), Ec = accElem(I.T2);
  double A[32][32], B[32][32], C[32][32];
  unsigned AElems = NA * elemsPerReg(In), BElems = NB * elemsPerReg(In);
  unsigned CElems = NC * elemsPerReg(Ec);
  for (int L = 0; L < 32; ++L) {
    for (unsigned E = 0; E < AElems; ++E) {
      Pos P = fragPos(I.Sub, FragA, L, (int)E);
      A[P.R][P.C] = readElem(R, AS, In, L, (int)E);
    }
    for (unsigned E = 0; E < BElems; ++E) {
      Pos P = fragPos(I.Sub, FragB, L, (int)E);
      B[P.R][P.C] = readElem(R, BS, In, L, (int)E);
    }
    for (unsigned E = 0; E < CElems; ++E) {
      Pos P = fragPos(I.Sub, FragC, L, (int)E);
      C[P.R][P.C] = readElem(R, CS, Ec, L, (int)E);
    }
  }
  double D[32][32];
  const bool Sat = I.Flags & FSat;
  for (int M = 0; M < Dm.M; ++M)
    for (int N = 0; N < Dm.N; ++N)
      D[M][N] = dotAcc(A, B, C[M][N], M, N, Dm.K, In, Sat);
  unsigned DElems = MS[0] * elemsPerReg(Ed);
  for (int L = 0; L < 32; ++L)
    for (unsigned E = 0; E < DElems; ++E) {
      Pos P = fragPos(I.Sub, FragC, L, (int)E);
      writeElem(R, DS, Ed, L, (int)E, D[P.R][P.C]);
    }
}

// wmma.load.{a,b,c} / wmma.store.d: element (r, c) of the matrix lies at
// r * stride + c (.row) or c * stride + r (.col) elements from the address.
// Elements of 8 or 16 bits are packed into 32-bit registers, low first.
void Launcher::execWmmaMem(Warp &W, Frame &Fr, const Inst &I) {
  uint64_t *R = Fr.Regs.data();
  const uint32_t *MS = Fr.F->MatrixSlots.data() + I.ArgBegin;
  const uint32_t N = MS[0];
  const uint32_t *Slots = MS + 1;
  const uint64_t *Base = R + (size_t)I.Addr * 32;
  const uint64_t *Stride = R + (size_t)I.S[0] * 32;
  const unsigned Size = tySize(I.T); // f16/bf16 2, s8/u8 1, f32/s32 4, f64 8
  const unsigned PerReg = Size < 4 ? 4 / Size : 1;
  const bool Row = I.Flags & FLeft;
  const int Frag = I.Op == OpWmmaStore ? (int)FragC : (int)I.Bool;
  const unsigned NElems = N * PerReg;
  if (__builtin_expect(Race, 0))
    for (unsigned E = 0; E < NElems; ++E) { // one strided element per call
      uint64_t Ad[32];
      for (int L = 0; L < 32; ++L) {
        Pos P = fragPos(I.Sub, Frag, L, (int)E);
        uint64_t Ld = (uint32_t)Stride[L];
        Ad[L] = Base[L] + (uint64_t)I.Off +
                (Row ? P.R * Ld + P.C : P.C * Ld + P.R) * Size;
      }
      raceAt(W, I, 0xffffffffu, I.Space, Ad, Size,
             I.Op == OpWmmaStore ? RaceWrite : RaceRead);
    }
  for (int L = 0; L < 32; ++L) {
    uint64_t Ld = (uint32_t)Stride[L];
    for (unsigned E = 0; E < NElems; ++E) {
      Pos P = fragPos(I.Sub, Frag, L, (int)E);
      uint64_t Off = Row ? P.R * Ld + P.C : P.C * Ld + P.R;
      uint8_t *H = elemAddr(W, Fr, I, I.Space,
                            Base[L] + (uint64_t)I.Off + Off * Size, L, Size);
      uint64_t &V = R[(size_t)Slots[E / PerReg] * 32 + L];
      unsigned Sh = 8 * Size * (E % PerReg);
      uint64_t Mask = Size == 8 ? ~0ull : ((1ull << (8 * Size)) - 1) << Sh;
      if (I.Op == OpWmmaStore) {
        uint64_t X = (V & Mask) >> Sh;
        std::memcpy(H, &X, Size); // little-endian host
      } else {
        uint64_t X = 0;
        std::memcpy(&X, H, Size);
        V = Size == 8 ? X : ((V & ~Mask & 0xffffffffull) | (X << Sh));
      }
    }
  }
}

// ldmatrix .m8n8 .b16: lanes 8j..8j+7 give the row addresses of matrix j;
// lane L's register j gets row L / 4, columns 2 (L % 4) and 2 (L % 4) + 1
// of matrix j (of its transpose with .trans).
void Launcher::execLdmatrix(Warp &W, Frame &Fr, const Inst &I) {
  uint64_t *R = Fr.Regs.data();
  const uint32_t *MS = Fr.F->MatrixSlots.data() + I.ArgBegin;
  const uint32_t NMat = MS[0];
  const uint64_t *A = R + (size_t)I.Addr * 32;
  if (__builtin_expect(Race, 0)) // lanes 0..8 NMat - 1 give row addresses
    raceAccess(W, Fr, I, NMat == 4 ? 0xffffffffu : (1u << (8 * NMat)) - 1,
               I.Space, 16, RaceRead);
  uint16_t Mat[4][8][8];
  for (uint32_t J = 0; J < NMat; ++J)
    for (int Rw = 0; Rw < 8; ++Rw) {
      int L = 8 * (int)J + Rw;
      uint8_t *H = elemAddr(W, Fr, I, I.Space, A[L] + (uint64_t)I.Off, L, 16);
      std::memcpy(Mat[J][Rw], H, 16);
    }
  const bool Trans = I.Flags & FLeft;
  uint32_t Out[4][32];
  for (uint32_t J = 0; J < NMat; ++J)
    for (int L = 0; L < 32; ++L) {
      int Rw = L >> 2, C = 2 * (L & 3);
      uint32_t Lo = Trans ? Mat[J][C][Rw] : Mat[J][Rw][C];
      uint32_t Hi = Trans ? Mat[J][C + 1][Rw] : Mat[J][Rw][C + 1];
      Out[J][L] = Lo | (Hi << 16);
    }
  for (uint32_t J = 0; J < NMat; ++J)
    for (int L = 0; L < 32; ++L)
      R[(size_t)MS[1 + J] * 32 + L] = Out[J][L];
}

} // namespace warpscope::emu::core
