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
// elements 8..15 repeat 0..7) and for C/D those of two m16n8 accumulators.
//
// Arithmetic: each product of two f16/bf16/tf32 values is exact in f32; D =
// C + A[m][0]*B[0][n] + ... + A[m][K-1]*B[K-1][n] is accumulated in f32 in
// that k order, rounding to nearest even after each addition, and rounded
// once to f16 for an f16 D. f64 accumulates with one fma per k in order.
// tf32 operands use their top 19 bits (the low 13 are ignored). How the
// tensor cores order and round their additions is not documented: this is
// the emulator's documented choice (docs/emulator.md), which a GPU may
// differ from in the last bits.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

namespace warpscope::emu::core {

namespace {

struct Pos {
  int R, C;
};

// Where element E (register E / 2, half E % 2 for 16-bit types; register E
// for 32/64-bit) of lane L lies in its matrix, per shape and operand.
Pos fragPos(uint8_t Shape, int Frag, int L, int E) {
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
  case MmaM8N8K4F64:
    if (Frag == FragA)
      return {G, T};
    if (Frag == FragB)
      return {T, G};
    return {G, 2 * T + E};
  default: // wmma m16n16k16: .f16 A/B elements 8..15 repeat 0..7
    E &= 7;
    if (Frag == FragA)
      return {G + 8 * ((E >> 1) & 1), 2 * T + (E & 1) + 8 * (E >> 2)};
    if (Frag == FragB)
      return {2 * T + (E & 1) + 8 * ((E >> 1) & 1), G + 8 * (E >> 2)};
    return {G + 8 * ((E >> 1) & 1), 2 * T + (E & 1) + 8 * (E >> 2)};
  }
}

struct Dims {
  int M, N, K;
};
Dims dimsOf(uint8_t Shape) {
  switch (Shape) {
  case MmaM16N8K16F16:
  case MmaM16N8K16BF16:
    return {16, 8, 16};
  case MmaM16N8K8TF32:
    return {16, 8, 8};
  case MmaM8N8K4F64:
    return {8, 8, 4};
  default:
    return {16, 16, 16};
  }
}

enum Elem { ElF16, ElBF16, ElF32, ElTF32, ElF64 };
unsigned elemsPerReg(Elem T) { return T == ElF16 || T == ElBF16 ? 2 : 1; }

double readElem(const uint64_t *R, const uint32_t *Slots, Elem T, int L,
                int E) {
  unsigned PerReg = elemsPerReg(T);
  uint64_t V = R[(size_t)Slots[E / PerReg] * 32 + L];
  switch (T) {
  case ElF16:
  case ElBF16:
    return halfGet((uint32_t)(V >> (16 * (E % 2))) & 0xffff, T == ElBF16);
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
  case ElF32:
  case ElTF32:
    V = put<float>((float)X);
    break;
  default:
    V = put<double>(X);
  }
}

Elem accElem(Ty T) {
  return T == Ty::F16 ? ElF16 : T == Ty::F64 ? ElF64 : ElF32;
}
Elem inputElem(uint8_t Shape) {
  switch (Shape) {
  case MmaM16N8K16BF16:
  case WmmaM16N16K16BF16:
    return ElBF16;
  case MmaM16N8K8TF32:
    return ElTF32;
  case MmaM8N8K4F64:
    return ElF64;
  default:
    return ElF16;
  }
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
    return execMma(Fr, I);
  case OpLdmatrix:
    return execLdmatrix(W, Fr, I);
  default:
    return execWmmaMem(W, Fr, I);
  }
}

// mma.sync / wmma.mma.sync: D = A * B + C over the warp's fragments.
void Launcher::execMma(Frame &Fr, const Inst &I) {
  uint64_t *R = Fr.Regs.data();
  const uint32_t *MS = Fr.F->MatrixSlots.data() + I.ArgBegin;
  const uint32_t NA = MS[1], NB = MS[2], NC = MS[3];
  const uint32_t *DS = MS + 4, *AS = DS + MS[0], *BS = AS + NA, *CS = BS + NB;
  const Dims Dm = dimsOf(I.Sub);
  const Elem In = inputElem(I.Sub);
  const Elem Ed = accElem(I.T), Ec = accElem(I.T2);
  double A[16][16], B[16][16], C[16][16];
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
  double D[16][16];
  for (int M = 0; M < Dm.M; ++M)
    for (int N = 0; N < Dm.N; ++N) {
      if (In == ElF64) {
        double Acc = C[M][N];
        for (int K = 0; K < Dm.K; ++K)
          Acc = std::fma(A[M][K], B[K][N], Acc);
        D[M][N] = Acc;
      } else {
        float Acc = (float)C[M][N];
        for (int K = 0; K < Dm.K; ++K) // exact product, one rounding per add
          Acc = Acc + (float)(A[M][K] * B[K][N]);
        D[M][N] = Acc;
      }
    }
  unsigned DElems = MS[0] * elemsPerReg(Ed);
  for (int L = 0; L < 32; ++L)
    for (unsigned E = 0; E < DElems; ++E) {
      Pos P = fragPos(I.Sub, FragC, L, (int)E);
      writeElem(R, DS, Ed, L, (int)E, D[P.R][P.C]);
    }
}

// wmma.load.{a,b,c} / wmma.store.d: element (r, c) of the 16x16 matrix lies
// at r * stride + c (.row) or c * stride + r (.col) elements from the
// address.
void Launcher::execWmmaMem(Warp &W, Frame &Fr, const Inst &I) {
  uint64_t *R = Fr.Regs.data();
  const uint32_t *MS = Fr.F->MatrixSlots.data() + I.ArgBegin;
  const uint32_t N = MS[0];
  const uint32_t *Slots = MS + 1;
  const uint64_t *Base = R + (size_t)I.Addr * 32;
  const uint64_t *Stride = R + (size_t)I.S[0] * 32;
  const Elem T = I.T == Ty::F32 ? ElF32 : I.T == Ty::BF16 ? ElBF16 : ElF16;
  const unsigned Size = T == ElF32 ? 4 : 2;
  const bool Row = I.Flags & FLeft;
  const unsigned NElems = N * elemsPerReg(T);
  if (__builtin_expect(Race, 0))
    for (unsigned E = 0; E < NElems; ++E) { // one strided element per call
      uint64_t Ad[32];
      for (int L = 0; L < 32; ++L) {
        Pos P = fragPos(I.Sub, I.Op == OpWmmaStore ? (int)FragC : (int)I.Bool,
                        L, (int)E);
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
      Pos P = fragPos(I.Sub, I.Op == OpWmmaStore ? (int)FragC : (int)I.Bool, L,
                      (int)E);
      uint64_t Off = Row ? P.R * Ld + P.C : P.C * Ld + P.R;
      uint8_t *H = elemAddr(W, Fr, I, I.Space,
                            Base[L] + (uint64_t)I.Off + Off * Size, L, Size);
      uint64_t &V = R[(size_t)Slots[E / elemsPerReg(T)] * 32 + L];
      if (I.Op == OpWmmaStore && Size == 4) {
        uint32_t X = (uint32_t)V;
        std::memcpy(H, &X, 4);
      } else if (I.Op == OpWmmaStore) {
        uint16_t X = (uint16_t)(V >> (16 * (E & 1)));
        std::memcpy(H, &X, 2);
      } else if (Size == 4) {
        uint32_t X;
        std::memcpy(&X, H, 4);
        V = X;
      } else {
        uint16_t X;
        std::memcpy(&X, H, 2);
        unsigned Sh = 16 * (E & 1);
        V = (V & ~(0xffffull << Sh) & 0xffffffffull) | ((uint64_t)X << Sh);
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
