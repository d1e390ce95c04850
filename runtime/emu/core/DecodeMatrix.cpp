//===- DecodeMatrix.cpp - decoding warp matrix instructions ---------------===//
//
// mma.sync, wmma.{load,store,mma} and ldmatrix: the forms MatrixOps.cpp
// executes. Their register lists do not fit Inst's operand arrays, so they go
// to Function::MatrixSlots from Inst::ArgBegin as [counts..., slots...]: mma
// [nD, nA, nB, nC, D..., A..., B..., C...]; wmma.load/ldmatrix [n, D...];
// wmma.store [n, S...]. Every other form of these instructions (integer,
// sparse, other shapes, wgmma) decodes as unsupported, failing the launch
// that executes it with its name.
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
  if (Md.has("m16n8k16") && Md.Types.size() == 4 && Ta == Md.Types[2] &&
      (Ta == Ty::F16 || (Ta == Ty::BF16 && Td == Ty::F32 && Tc == Ty::F32)) &&
      (Td == Ty::F32 || Td == Ty::F16) && (Tc == Ty::F32 || Tc == Ty::F16))
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

// wmma.{load.{a,b,c},store.d,mma}.sync.aligned m16n16k16 with .f16/.bf16
// inputs and .f32/.f16 accumulators: the forms clang emits for nvcuda::wmma.
void InstDecoder::wmma() {
  auto No = [&](const std::string &Why) {
    throw Unsupported("'" + Opc + "': " + Why + " is not emulated");
  };
  if (!Md.has("m16n16k16"))
    No("this wmma shape (only m16n16k16 is)");
  if (Md.has("satfinite"))
    No("wmma .satfinite");
  auto &MS = P.F->MatrixSlots;
  I.ArgBegin = (uint32_t)MS.size();
  bool Load = Md.has("load"), Store = Md.has("store");
  if (Load || Store) {
    bool FragAB = Md.has("a") || Md.has("b");
    if (Load && !FragAB && !Md.has("c"))
      fail("'" + Opc + "' needs .a, .b or .c");
    if (Store && !Md.has("d"))
      fail("'" + Opc + "' needs .d");
    bool Ok = FragAB ? I.T == Ty::F16 || I.T == Ty::BF16
                     : I.T == Ty::F16 || I.T == Ty::F32;
    if (!Ok)
      No("wmma with this element type");
    if (!Md.has("row") && !Md.has("col"))
      fail("'" + Opc + "' needs .row or .col");
    I.Op = Load ? OpWmmaLoad : OpWmmaStore;
    I.Bool = Md.has("a") ? FragA : Md.has("b") ? FragB : FragC;
    I.Sub = I.T == Ty::BF16 ? WmmaM16N16K16BF16 : WmmaM16N16K16F16;
    if (Md.has("row"))
      I.Flags |= FLeft; // row-major in memory
    I.Space = spaceOf(Md);
    if (Ops.size() != 2 && Ops.size() != 3)
      fail("'" + Opc + "' expects registers, [address] {, stride}");
    size_t N = FragAB ? (I.T == Ty::BF16 ? 4 : 8) : (I.T == Ty::F32 ? 8 : 4);
    MS.push_back((uint32_t)N);
    const RawOp &Regs = Load ? Ops[0] : Ops[1];
    matrixList(Regs, N, Load, Ty::B32);
    P.memOperand(Load ? Ops[1] : Ops[0], I);
    // Without a stride the matrix is packed: 16 elements per row/column.
    if (Ops.size() == 3)
      setS(0, Ops[2], Ty::U32);
    else
      I.S[0] = P.constSlot(16);
    I.NS = 1;
    return;
  }
  if (!Md.has("mma"))
    No("this wmma operation");
  // f16 inputs: .dtype.ctype; bf16: .f32.bf16.bf16.f32.
  Ty Td = I.T, Tc = Md.Types.empty() ? Ty::None : Md.Types.back();
  bool Bf = Md.Types.size() == 4 && Md.Types[1] == Ty::BF16 &&
            Md.Types[2] == Ty::BF16 && Td == Ty::F32 && Tc == Ty::F32;
  bool F16 = Md.Types.size() == 2 && (Td == Ty::F32 || Td == Ty::F16) &&
             (Tc == Ty::F32 || Tc == Ty::F16);
  if (!Bf && !F16)
    No("wmma.mma with these types");
  I.Op = OpMma;
  I.Sub = Bf ? WmmaM16N16K16BF16 : WmmaM16N16K16F16;
  I.T = Td;
  I.T2 = Tc;
  needOps(4);
  size_t NAB = Bf ? 4 : 8;
  size_t ND = Td == Ty::F32 ? 8 : 4, NC = Tc == Ty::F32 ? 8 : 4;
  MS.insert(MS.end(),
            {(uint32_t)ND, (uint32_t)NAB, (uint32_t)NAB, (uint32_t)NC});
  matrixList(Ops[0], ND, true, Ty::None);
  matrixList(Ops[1], NAB, false, Ty::B32);
  matrixList(Ops[2], NAB, false, Ty::B32);
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
