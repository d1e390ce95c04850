//===- Decode.cpp - PTX instruction decoder: dispatch and operands --------===//
//
// The instruction decoder's shared half: operands to slots (registers,
// immediates, symbol addresses, special registers), opcode modifiers, and the
// dispatch to the instruction families (DecodeArith.cpp,
// DecodeMemoryControl.cpp); mov and the clock special registers live here.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"

namespace warpscope::emu::core::parser {

bool Parser::lookupReg(const std::string &N, uint32_t &Slot) const {
  for (size_t K = Scopes.size(); K-- > 0;) {
    auto It = Scopes[K].Regs.find(N);
    if (It != Scopes[K].Regs.end()) {
      Slot = It->second;
      return true;
    }
  }
  return false;
}

uint32_t Parser::constSlot(uint64_t V) {
  auto It = ConstSlots.find(V);
  if (It != ConstSlots.end())
    return It->second;
  uint32_t S = F->NumSlots++;
  F->Inits.push_back({S, InitValue, V});
  ConstSlots[V] = S;
  return S;
}

uint32_t Parser::specialSlot(int Id) {
  auto It = SpecialSlots.find(Id);
  if (It != SpecialSlots.end())
    return It->second;
  uint32_t S = F->NumSlots++;
  F->Inits.push_back({S, InitSpecial, (uint64_t)Id});
  SpecialSlots[Id] = S;
  return S;
}

int specialId(const std::string &N) {
  static const std::unordered_map<std::string, int> M = {
      {"%tid.x", SrTidX},
      {"%tid.y", SrTidY},
      {"%tid.z", SrTidZ},
      {"%ntid.x", SrNtidX},
      {"%ntid.y", SrNtidY},
      {"%ntid.z", SrNtidZ},
      {"%ctaid.x", SrCtaidX},
      {"%ctaid.y", SrCtaidY},
      {"%ctaid.z", SrCtaidZ},
      {"%nctaid.x", SrNctaidX},
      {"%nctaid.y", SrNctaidY},
      {"%nctaid.z", SrNctaidZ},
      {"%laneid", SrLaneid},
      {"%warpid", SrWarpid},
      {"%nwarpid", SrNwarpid},
      {"%smid", SrSmid},
      {"%nsmid", SrNsmid},
      {"%gridid", SrGridid},
      {"%lanemask_eq", SrLanemaskEq},
      {"%lanemask_lt", SrLanemaskLt},
      {"%lanemask_le", SrLanemaskLe},
      {"%lanemask_gt", SrLanemaskGt},
      {"%lanemask_ge", SrLanemaskGe},
      {"%dynamic_smem_size", SrDynSmem},
      {"%total_smem_size", SrTotalSmem},
      {"%clock", SrClock},
      {"%clock64", SrClock64},
      {"%globaltimer", SrGlobaltimer},
      {"%globaltimer_lo", SrGlobaltimer},
      {"%clusterid.x", SrClusterZero},
      {"%clusterid.y", SrClusterZero},
      {"%clusterid.z", SrClusterZero},
      {"%cluster_ctarank", SrClusterZero},
      {"%cluster_nctarank", SrClusterOne},
      {"%is_explicit_cluster", SrClusterZero},
      {"%nclusterid.x", SrClusterOne},
      {"%nclusterid.y", SrClusterOne},
      {"%nclusterid.z", SrClusterOne}};
  auto It = M.find(N);
  if (It != M.end())
    return It->second;
  if (N.compare(0, 7, "%envreg") == 0)
    return SrEnvreg;
  return -1;
}

bool Parser::symbolValue(const std::string &N, uint64_t &V, bool &IsLocal,
                         uint8_t &Space) {
  IsLocal = false;
  for (size_t K = Scopes.size(); K-- > 0;) {
    auto It = Scopes[K].Params.find(N);
    if (It != Scopes[K].Params.end()) {
      V = It->second;
      Space = SpParam;
      return true;
    }
  }
  auto L = LocalSyms.find(N);
  if (L != LocalSyms.end()) {
    V = L->second;
    IsLocal = true;
    Space = SpLocal;
    return true;
  }
  auto G = M.GlobalIndex.find(N);
  if (G != M.GlobalIndex.end()) {
    GlobalVar &GV = *M.Globals[G->second];
    Space = GV.Space;
    if (GV.Space == SpShared) {
      V = G->second; // variable index; placed per kernel
    } else {
      V = (uint64_t)(uintptr_t)GV.Data;
    }
    return true;
  }
  auto Fn = M.FuncIndex.find(N);
  if (Fn != M.FuncIndex.end()) {
    V = FunctionAddressBase + Fn->second;
    Space = SpGeneric;
    return true;
  }
  return false;
}

uint32_t Parser::srcSlot(const RawOp &O, Ty Context) {
  if (O.Kind == RawOp::Num) {
    uint64_t Bits;
    if (!operandLiteralBits(O.Name, Context, O.Neg, Bits))
      fail("bad literal '" + O.Name + "'");
    return constSlot(Bits);
  }
  if (O.Kind == RawOp::Sink)
    return SlotZero;
  if (O.Kind != RawOp::Reg)
    fail("unexpected operand kind");
  uint32_t S;
  if (lookupReg(O.Name, S))
    return S;
  int Sp = specialId(O.Name);
  if (Sp >= 0)
    return specialSlot(Sp);
  uint64_t V;
  bool IsLocal;
  uint8_t Space;
  if (symbolValue(O.Name, V, IsLocal, Space)) {
    V += (uint64_t)O.Off;
    if (IsLocal) {
      uint32_t Slot = F->NumSlots++;
      F->Inits.push_back({Slot, InitLocalSym, V});
      return Slot;
    }
    if (Space == SpShared) {
      uint32_t Slot = F->NumSlots++;
      SlotInit In{Slot, InitSharedSym, V - (uint64_t)O.Off};
      In.Add = O.Off;
      F->Inits.push_back(In);
      return Slot;
    }
    return constSlot(V);
  }
  fail("unknown register or symbol '" + O.Name + "'");
}

uint32_t Parser::dstSlot(const RawOp &O) {
  if (O.Kind == RawOp::Sink)
    return SlotSink;
  if (O.Kind != RawOp::Reg)
    fail("destination must be a register");
  uint32_t S;
  if (lookupReg(O.Name, S))
    return S;
  fail("unknown destination register '" + O.Name + "'");
}

void Parser::memOperand(const RawOp &O, Inst &I) {
  if (O.Kind != RawOp::Mem || !O.Elems.empty())
    fail("expected address operand [..]");
  I.Off = O.Off;
  if (O.Name.empty()) {
    I.Addr = SlotZero;
    return;
  }
  RawOp R;
  R.Kind = RawOp::Reg;
  R.Name = O.Name;
  I.Addr = srcSlot(R, Ty::U64);
}

namespace {

Mods splitOpcode(const std::string &Opc) {
  Mods M;
  size_t Pos = Opc.find('.');
  M.Base = Opc.substr(0, Pos);
  while (Pos != std::string::npos) {
    size_t Next = Opc.find('.', Pos + 1);
    std::string Part =
        Opc.substr(Pos + 1, Next == std::string::npos ? std::string::npos
                                                      : Next - Pos - 1);
    Ty T = parseTy(Part);
    if (T != Ty::None)
      M.Types.push_back(T);
    else
      M.List.push_back(Part);
    Pos = Next;
  }
  return M;
}

uint8_t rndOf(const Mods &M) {
  for (auto &S : M.List) {
    if (S == "rn")
      return RndRn;
    if (S == "rz")
      return RndRz;
    if (S == "rm")
      return RndRm;
    if (S == "rp")
      return RndRp;
    if (S == "rni")
      return RndRni;
    if (S == "rzi")
      return RndRzi;
    if (S == "rmi")
      return RndRmi;
    if (S == "rpi")
      return RndRpi;
    if (S == "rna")
      return RndRna;
  }
  return RndNone;
}

} // namespace

uint8_t spaceOf(const Mods &M) {
  for (auto &S : M.List) {
    if (S == "global")
      return SpGlobal;
    if (S == "shared" || S.compare(0, 7, "shared:") == 0)
      return SpShared;
    if (S == "local")
      return SpLocal;
    if (S == "param" || S.compare(0, 6, "param:") == 0)
      return SpParam;
    if (S == "const")
      return SpConst;
  }
  return SpGeneric;
}

InstDecoder::InstDecoder(Parser &P, const std::string &Opc,
                         std::vector<RawOp> &Ops, Inst &I)
    : P(P), Opc(Opc), Md(splitOpcode(Opc)), B(Md.Base), Ops(Ops), I(I) {
  I.T = Md.Types.empty() ? Ty::None : Md.Types[0];
  I.T2 = Md.Types.size() > 1 ? Md.Types[1] : Ty::None;
  I.Rnd = rndOf(Md);
  if (Md.has("ftz"))
    I.Flags |= FFtz;
  if (Md.has("sat"))
    I.Flags |= FSat;
  if (Md.has("approx"))
    I.Flags |= FApprox;
  if (Md.has("full"))
    I.Flags |= FFull;
  if (Md.has("NaN"))
    I.Flags |= FNan;
  if (Md.has("relu"))
    I.Flags |= FRelu;
  if (Md.has("uni"))
    I.Flags |= FUni;
  for (auto &X : Md.List) {
    if (X == "v2")
      I.Vec = 2;
    else if (X == "v4")
      I.Vec = 4;
    else if (X == "v8")
      I.Vec = 8;
  }
}

void InstDecoder::needOps(size_t N) {
  if (Ops.size() != N)
    fail("'" + Opc + "' expects " + std::to_string(N) + " operands, got " +
         std::to_string(Ops.size()));
}

void InstDecoder::setD(size_t K, const RawOp &O) {
  I.D[K] = P.dstSlot(O);
  I.ND = std::max<uint8_t>(I.ND, K + 1);
}

void InstDecoder::setS(size_t K, const RawOp &O, Ty Ctx) {
  I.S[K] = P.srcSlot(O, Ctx);
  I.NS = std::max<uint8_t>(I.NS, K + 1);
}

// The common form: one destination, NSrc sources of the instruction's type.
void InstDecoder::simple(uint16_t Op, size_t NSrc) {
  I.Op = Op;
  needOps(NSrc + 1);
  setD(0, Ops[0]);
  for (size_t K = 0; K < NSrc; ++K)
    setS(K, Ops[K + 1], I.T);
}

void InstDecoder::needType() {
  if (I.T == Ty::None)
    fail("'" + Opc + "' needs a type");
}

// The families test disjoint opcode names, so their order does not matter.
void InstDecoder::run() {
  if (move() || arithmetic() || bitOps() || video() || floatMath() ||
      comparison() || conversion() || memory() || texture() || control() ||
      warp() || matrix() || call())
    return;
  throw Unsupported("'" + Opc + "' is not implemented");
}

void Parser::decode(const std::string &Opc, std::vector<RawOp> &Ops, Inst &I) {
  InstDecoder(*this, Opc, Ops, I).run();
}

// mov: copies, vector pack/unpack, and reads of the clock special registers
// (which execute as their own ops rather than a slot read).
bool InstDecoder::move() {
  if (B == "mov") {
    needType();
    needOps(2);
    if (Ops[1].Kind == RawOp::Vec) {
      I.Op = OpPack;
      setD(0, Ops[0]);
      if (Ops[1].Elems.size() > 5)
        fail("vector too wide");
      for (size_t K = 0; K < Ops[1].Elems.size(); ++K)
        setS(K, Ops[1].Elems[K], Ty::None);
      return true;
    }
    if (Ops[0].Kind == RawOp::Vec) {
      I.Op = OpUnpack;
      if (Ops[0].Elems.size() > 4)
        fail("vector too wide");
      for (size_t K = 0; K < Ops[0].Elems.size(); ++K)
        setD(K, Ops[0].Elems[K]);
      setS(0, Ops[1], I.T);
      return true;
    }
    int Sp = Ops[1].Kind == RawOp::Reg ? specialId(Ops[1].Name) : -1;
    uint32_t Tmp;
    if (Sp >= 0 && !P.lookupReg(Ops[1].Name, Tmp) &&
        (Sp == SrClock || Sp == SrClock64 || Sp == SrGlobaltimer)) {
      I.Op = Sp == SrClock     ? OpClock32
             : Sp == SrClock64 ? OpClock64
                               : OpGlobalTimer;
      setD(0, Ops[0]);
      return true;
    }
    simple(OpMov, 1);
    return true;
  }
  return false;
}

} // namespace warpscope::emu::core::parser
