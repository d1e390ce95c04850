//===- DecodeMatrix.cpp - decoding warp matrix instructions ---------------===//
//
// mma.sync, wmma.{load,store,mma} and ldmatrix: the forms MatrixOps.cpp
// executes. Their register lists do not fit Inst's operand arrays, so they go
// to Function::MatrixSlots from Inst::ArgBegin as [counts..., slots...]: mma
// [nD, nA, nB, nC, D..., A..., B..., C...]; wmma.load/ldmatrix [n, D...];
// wmma.store [n, S...]. Every other form of these instructions (mma with
// integer types, sparse, other shapes, sub-byte wmma, wgmma) decodes as
// unsupported, failing the launch that executes it with its name.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"

namespace warpscope::emu::core::parser {

bool InstDecoder::matrix() {
  if (B == "mma") {
    mma();
    return true;
  }
  if (B == "wmma") {
    wmma();
    return true;
  }
  if (B == "ldmatrix") {
    ldmatrix();
    return true;
  }
  if (B == "wgmma" || B == "stmatrix" || B == "movmatrix" ||
      B.compare(0, 7, "tcgen05") == 0)
    throw Unsupported("'" + Opc + "': " + B + " is not emulated");
  return false;
}

// Appends a braced register list of N registers (destinations or sources)
// to MatrixSlots.
uint32_t InstDecoder::matrixList(const RawOp &O, size_t N, bool Dst, Ty Ctx) {
  if (N == 1 && O.Kind == RawOp::Reg) { // ldmatrix .x1 d, [a]
    P.F->MatrixSlots.push_back(Dst ? P.dstSlot(O) : P.srcSlot(O, Ctx));
    return 1;
  }
  if (O.Kind != RawOp::Vec || O.Elems.size() != N)
    fail("'" + Opc + "' expects a list of " + std::to_string(N) + " registers");
  for (const RawOp &E : O.Elems)
    P.F->MatrixSlots.push_back(Dst ? P.dstSlot(E) : P.srcSlot(E, Ctx));
  return (uint32_t)N;
}

// mma.sync.aligned.{m16n8k16 f16/bf16, m16n8k8 tf32, m8n8k4 f64}.row.col.
void InstDecoder::mma() {
  auto No = [&](const std::string &Why) {
    throw Unsupported("'" + Opc + "': " + Why + " is not emulated");
  };
  if (Md.has("sp") || Md.has("sp::ordered_metadata"))
    No("sparse mma");
  if (!Md.has("row") || !Md.has("col"))
    No("mma without .row.col");
  bool Tf32 = Md.has("tf32");
  // The types as written: d, a, b, c (tf32 is not a Ty: it stays in List).
  Ty Td = I.T, Tc = Md.Types.empty() ? Ty::None : Md.Types.back();
  Ty Ta = Md.Types.size() == 4 ? Md.Types[1] : Ty::None;
  // m16n8k16: D and C have one type (ptxas rejects .f32 D with .f16 C).
  if (Md.has("m16n8k16") && Md.Types.size() == 4 && Ta == Md.Types[2] &&
      (Ta == Ty::F16 || (Ta == Ty::BF16 && Td == Ty::F32)) && Td == Tc &&
      (Td == Ty::F32 || Td == Ty::F16))
    I.Sub = Ta == Ty::F16 ? MmaM16N8K16F16 : MmaM16N8K16BF16;
  else if (Md.has("m16n8k8") && Tf32 && Md.Types.size() == 2 && Td == Ty::F32 &&
           Tc == Ty::F32)
    I.Sub = MmaM16N8K8TF32;
  else if (Md.has("m8n8k4") && Md.Types.size() == 4 && Td == Ty::F64 &&
           Md.Types[1] == Ty::F64 && Md.Types[2] == Ty::F64 && Tc == Ty::F64)
    I.Sub = MmaM8N8K4F64;
  else
    No("this mma shape/type combination");
  if (Md.has("satfinite"))
    No("mma .satfinite");
  I.Op = OpMma;
  I.T = Td;
  I.T2 = Tc;
  needOps(4);
  auto &MS = P.F->MatrixSlots;
  I.ArgBegin = (uint32_t)MS.size();
  size_t NA = I.Sub == MmaM8N8K4F64 ? 1 : 4;
  size_t NB = I.Sub == MmaM8N8K4F64 ? 1 : 2;
  size_t ND = Td == Ty::F16 ? 2 : 4, NC = Tc == Ty::F16 ? 2 : 4;
  if (I.Sub == MmaM8N8K4F64)
    ND = NC = 2;
  MS.insert(MS.end(), {(uint32_t)ND, (uint32_t)NA, (uint32_t)NB, (uint32_t)NC});
  matrixList(Ops[0], ND, true, Ty::None);
  matrixList(Ops[1], NA, false, Ty::B64);
  matrixList(Ops[2], NB, false, Ty::B64);
  matrixList(Ops[3], NC, false, Td == Ty::F64 ? Ty::F64 : Tc);
}

// M, N, K of each WmmaGeom.
static const int WmmaDims[][3] = {
    {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}, {8, 8, 4}};

// The geometry a wmma opcode names, or false for one not emulated.
static bool wmmaGeom(const Mods &Md, WmmaGeom &G) {
  static const struct {
    const char *Name;
    WmmaGeom G;
  } Geoms[] = {{"m16n16k16", WmM16N16K16},
               {"m32n8k16", WmM32N8K16},
               {"m8n32k16", WmM8N32K16},
               {"m16n16k8", WmM16N16K8},
               {"m8n8k4", WmM8N8K4}};
  for (const auto &X : Geoms)
    if (Md.has(X.Name)) {
      G = X.G;
      return true;
    }
  return false;
}

// Whether multiplicands E go with geometry G and accumulator type Acc (the
// combinations of the PTX ISA's wmma.mma and CUDA's mma.h for sm_90).
static bool wmmaCombo(WmmaGeom G, WmmaElem E, Ty Acc) {
  bool K16 = G == WmM16N16K16 || G == WmM32N8K16 || G == WmM8N32K16;
  switch (E) {
  case WeF16:
    return K16 && (Acc == Ty::F16 || Acc == Ty::F32);
  case WeBF16:
    return K16 && Acc == Ty::F32;
  case WeS8:
  case WeU8:
    return K16 && Acc == Ty::S32;
  case WeTF32:
    return G == WmM16N16K8 && Acc == Ty::F32;
  default:
    return G == WmM8N8K4 && Acc == Ty::F64;
  }
}

// Registers in a wmma fragment (the PTX ISA's fragment sizes): A is M x K,
// B is K x N, C/D M x N, spread over 32 lanes; .f16 A and B fragments always
// hold 16 elements.
static size_t wmmaRegs(WmmaGeom G, int Frag, WmmaElem E, Ty Acc) {
  int M = WmmaDims[G][0], N = WmmaDims[G][1], K = WmmaDims[G][2];
  if (Frag == FragC)
    return Acc == Ty::F16 ? (size_t)M * N / 64 : (size_t)M * N / 32;
  size_t Elems = E == WeF16 ? 16 : (size_t)(Frag == FragA ? M * K : K * N) / 32;
  size_t PerReg = E == WeF16 || E == WeBF16 ? 2
                  : E == WeS8 || E == WeU8  ? 4
                                            : 1;
  return Elems / PerReg;
}

// wmma.{load.{a,b,c},store.d,mma}.sync.aligned: the geometries and types of
// CUDA's nvcuda::wmma for sm_90 (.f16/.bf16/.s8/.u8 m16n16k16, m32n8k16,
// m8n32k16; .tf32 m16n16k8; .f64 m8n8k4). Sub-byte (.s4 .u4 .b1) and
// floating-point .satfinite forms decode as unsupported.
void InstDecoder::wmma() {
  auto No = [&](const std::string &Why) {
    throw Unsupported("'" + Opc + "': " + Why + " is not emulated");
  };
  WmmaGeom G;
  if (!wmmaGeom(Md, G))
    No("this wmma shape (sub-byte .s4/.u4/.b1 wmma)");
  auto Elem = [&](Ty T, bool &Ok) {
    Ok = true;
    switch (T) {
    case Ty::F16:
      return WeF16;
    case Ty::BF16:
      return WeBF16;
    case Ty::S8:
      return WeS8;
    case Ty::U8:
      return WeU8;
    case Ty::F64:
      return WeF64;
    default: // .tf32 is no Ty: it stays in Md.List
      Ok = T == Ty::None && Md.has("tf32");
      return WeTF32;
    }
  };
  auto &MS = P.F->MatrixSlots;
  I.ArgBegin = (uint32_t)MS.size();
  bool Load = Md.has("load"), Store = Md.has("store");
  if (Load || Store) {
    bool FragAB = Md.has("a") || Md.has("b");
    if (Load && !FragAB && !Md.has("c"))
      fail("'" + Opc + "' needs .a, .b or .c");
    if (Store && !Md.has("d"))
      fail("'" + Opc + "' needs .d");
    if (!Md.has("row") && !Md.has("col"))
      fail("'" + Opc + "' needs .row or .col");
    int Frag = Md.has("a") ? FragA : Md.has("b") ? FragB : FragC;
    bool Ok = true;
    WmmaElem E = WeF16;
    Ty Acc = Ty::F32;
    if (FragAB) {
      E = Elem(I.T, Ok);
      Acc = E == WeF16 || E == WeBF16 || E == WeTF32 ? Ty::F32
            : E == WeF64                             ? Ty::F64
                                                     : Ty::S32;
      I.T = E == WeTF32 ? Ty::F32 : I.T; // in memory: f32
    } else {
      Acc = I.T;
      E = G == WmM16N16K8  ? WeTF32
          : G == WmM8N8K4  ? WeF64
          : Acc == Ty::S32 ? WeS8
                           : WeF16;
    }
    if (!Ok || !wmmaCombo(G, E, Acc))
      No("wmma with this shape and element type");
    I.Op = Load ? OpWmmaLoad : OpWmmaStore;
    I.Bool = (uint8_t)Frag;
    I.Sub = wmmaSub(G, E);
    if (Md.has("row"))
      I.Flags |= FLeft; // row-major in memory
    I.Space = spaceOf(Md);
    if (Ops.size() != 2 && Ops.size() != 3)
      fail("'" + Opc + "' expects registers, [address] {, stride}");
    size_t N = wmmaRegs(G, Frag, E, Acc);
    MS.push_back((uint32_t)N);
    const RawOp &Regs = Load ? Ops[0] : Ops[1];
    matrixList(Regs, N, Load, E == WeF64 ? Ty::F64 : Ty::B32);
    P.memOperand(Load ? Ops[1] : Ops[0], I);
    // Without a stride the matrix is packed: a row (.row) or column (.col)
    // of A (M x K), B (K x N) or C/D (M x N) after another.
    if (Ops.size() == 3) {
      setS(0, Ops[2], Ty::U32);
    } else {
      int M = WmmaDims[G][0], N = WmmaDims[G][1], K = WmmaDims[G][2];
      int Rows = Frag == FragB ? K : M, Cols = Frag == FragA ? K : N;
      I.S[0] = P.constSlot((uint64_t)(Md.has("row") ? Cols : Rows));
    }
    I.NS = 1;
    return;
  }
  if (!Md.has("mma"))
    No("this wmma operation");
  // .dtype.ctype for .f16 multiplicands, else .dtype.atype.btype.ctype
  // (.tf32 is no Ty: .f32.tf32.tf32.f32 leaves two types).
  Ty Td = I.T, Tc = Md.Types.empty() ? Ty::None : Md.Types.back();
  bool Ok = false;
  WmmaElem E = WeF16;
  if (Md.Types.size() == 2 && Md.has("tf32"))
    E = Elem(Ty::None, Ok);
  else if (Md.Types.size() == 2)
    Ok = true;
  else if (Md.Types.size() == 4 && Md.Types[1] == Md.Types[2] &&
           Md.Types[1] != Ty::F16)
    E = Elem(Md.Types[1], Ok);
  Ok = Ok && wmmaCombo(G, E, Tc) && wmmaCombo(G, E, Td) &&
       (Td == Tc || E == WeF16);
  if (!Ok)
    No("wmma.mma with these types");
  bool Int = E == WeS8 || E == WeU8;
  if (Md.has("satfinite") && !Int)
    No("floating-point wmma.mma .satfinite");
  if (Md.has("satfinite"))
    I.Flags |= FSat;
  I.Op = OpMma;
  I.Sub = wmmaSub(G, E);
  I.T = Td;
  I.T2 = Tc;
  needOps(4);
  size_t NA = wmmaRegs(G, FragA, E, Tc), NB = wmmaRegs(G, FragB, E, Tc);
  size_t ND = wmmaRegs(G, FragC, E, Td), NC = wmmaRegs(G, FragC, E, Tc);
  MS.insert(MS.end(), {(uint32_t)ND, (uint32_t)NA, (uint32_t)NB, (uint32_t)NC});
  Ty AB = E == WeF64 ? Ty::F64 : Ty::B32;
  matrixList(Ops[0], ND, true, Ty::None);
  matrixList(Ops[1], NA, false, AB);
  matrixList(Ops[2], NB, false, AB);
  matrixList(Ops[3], NC, false, Tc);
}

// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 {d...}, [a].
void InstDecoder::ldmatrix() {
  int N = Md.has("x1") ? 1 : Md.has("x2") ? 2 : Md.has("x4") ? 4 : 0;
  if (!Md.has("m8n8") || I.T != Ty::B16 || N == 0)
    throw Unsupported("'" + Opc +
                      "': only ldmatrix .m8n8.{x1,x2,x4}.b16 is emulated");
  uint8_t Sp = spaceOf(Md);
  if (Sp != SpShared && Sp != SpGeneric)
    fail("'" + Opc + "': ldmatrix reads shared memory");
  I.Op = OpLdmatrix;
  I.Space = Sp;
  I.Vec = (uint8_t)N;
  if (Md.has("trans"))
    I.Flags |= FLeft;
  needOps(2);
  auto &MS = P.F->MatrixSlots;
  I.ArgBegin = (uint32_t)MS.size();
  MS.push_back((uint32_t)N);
  matrixList(Ops[0], (size_t)N, true, Ty::None);
  P.memOperand(Ops[1], I);
}

} // namespace warpscope::emu::core::parser
