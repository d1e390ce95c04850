//===- DecodeArith.cpp - decoding arithmetic, logic, conversions ----------===//
//
// Instruction decoder families that compute in registers: integer and float
// arithmetic, logic and bit fields, float functions, comparisons and
// selects, and conversions (cvt, cvta, isspacep).
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"

namespace warpscope::emu::core::parser {

namespace {

int cmpOf(const std::string &S) {
  static const char *Names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (int K = 0; K < 18; ++K)
    if (S == Names[K])
      return K;
  return -1;
}

} // namespace

// Integer and float arithmetic: add/sub with carry, mul/mad in every width,
// div, rem, abs, neg, min, max, sad, dp4a/dp2a.
bool InstDecoder::arithmetic() {
  if (B == "add" || B == "sub" || B == "addc" || B == "subc") {
    needType();
    simple(B[0] == 'a' ? OpAdd : OpSub, 2);
    if (Md.has("cc"))
      I.Flags |= FCcOut;
    if (B.size() == 4)
      I.Flags |= FCcIn;
    return true;
  }
  if (B == "mul" || B == "mad" || B == "madc" || B == "mul24" || B == "mad24") {
    needType();
    bool IsMad = B[1] == 'a';
    uint16_t Op = B == "mul24"   ? OpMul24
                  : B == "mad24" ? OpMad24
                  : IsMad        ? OpMad
                                 : OpMul;
    simple(Op, IsMad ? 3 : 2);
    if (Md.has("hi"))
      I.Flags |= FHi;
    if (Md.has("wide"))
      I.Flags |= FWide;
    if (Md.has("cc"))
      I.Flags |= FCcOut;
    if (B == "madc")
      I.Flags |= FCcIn;
    if (IsMad && tyFloat(I.T))
      I.Op = OpFma;
    if (I.Flags & FWide) {
      // Sources are narrow; third source of mad.wide is wide.
      if (IsMad) {
        Ty W = tySize(I.T) == 2 ? (tySigned(I.T) ? Ty::S32 : Ty::U32)
                                : (tySigned(I.T) ? Ty::S64 : Ty::U64);
        I.S[2] = P.srcSlot(Ops[3], W);
      }
    }
    return true;
  }
  if (B == "fma") {
    needType();
    simple(OpFma, 3);
    return true;
  }
  if (B == "div") {
    needType();
    simple(OpDiv, 2);
    return true;
  }
  if (B == "rem") {
    needType();
    simple(OpRem, 2);
    return true;
  }
  if (B == "abs") {
    needType();
    simple(OpAbs, 1);
    return true;
  }
  if (B == "neg") {
    needType();
    simple(OpNeg, 1);
    return true;
  }
  if (B == "min" || B == "max") {
    needType();
    if (Md.has("xorsign"))
      throw Unsupported("'" + Opc + "': .xorsign.abs is not emulated");
    simple(B == "min" ? OpMin : OpMax, Ops.size() == 4 ? 3 : 2);
    return true;
  }
  if (B == "sad") {
    needType();
    simple(OpSad, 3);
    return true;
  }
  if (B == "dp4a" || B == "dp2a") {
    I.Op = B == "dp4a" ? OpDp4a : OpDp2a;
    needOps(4);
    setD(0, Ops[0]);
    setS(0, Ops[1], Ty::U32);
    setS(1, Ops[2], Ty::U32);
    setS(2, Ops[3], Ty::U32);
    if (B == "dp2a" && Md.has("hi"))
      I.Flags |= FHi;
    return true;
  }
  return false;
}

// SIMD video instructions on 2 halfwords or 4 bytes (VideoOps.h):
// vadd vsub vabsdiff vmin vmax vavrg .dtype.atype.btype{.sat}{.add} and
// vset .atype.btype.cmp{.add}, d, a, b, c.
bool InstDecoder::video() {
  static const char *Names[] = {"vadd", "vsub",  "vabsdiff", "vmin",
                                "vmax", "vavrg", "vset"};
  if (B.size() < 5 || (B.back() != '2' && B.back() != '4'))
    return false;
  int Kind = -1;
  for (int K = 0; K < 7; ++K)
    if (B.compare(0, B.size() - 1, Names[K]) == 0)
      Kind = K;
  if (Kind < 0)
    return false;
  I.Op = OpVideo;
  I.Vec = (uint8_t)(B.back() - '0');
  size_t NT = Kind == VidSet ? 2 : 3;
  if (Md.Types.size() != NT)
    fail("'" + Opc + "' needs " + std::to_string(NT) + " types");
  for (Ty T : Md.Types)
    if (T != Ty::S32 && T != Ty::U32)
      fail("'" + Opc + "': types must be .s32 or .u32");
  I.T = Md.Types[NT - 2];
  I.T2 = Md.Types[NT - 1];
  I.Bool = NT == 3 && Md.Types[0] == Ty::S32;
  int C = -1;
  for (auto &X : Md.List)
    if (cmpOf(X) >= 0)
      C = cmpOf(X);
  if (Kind == VidSet && (C < 0 || C > CmpGe))
    fail("'" + Opc + "' needs one of eq ne lt le gt ge");
  I.Sub = (uint8_t)(Kind | std::max(C, 0) << 3);
  if (Md.has("add"))
    I.Flags |= FWide;
  needOps(4);
  setD(0, Ops[0]);
  for (size_t K = 0; K < 3; ++K)
    setS(K, Ops[K + 1], Ty::U32);
  return true;
}

// Logic, shifts and bit fields: and/or/xor/not, shl/shr, popc..bfind,
// bfe/bfi, prmt, lop3, shf.
bool InstDecoder::bitOps() {
  if (B == "and" || B == "or" || B == "xor") {
    needType();
    simple(B == "and" ? OpAnd : B == "or" ? OpOr : OpXor, 2);
    return true;
  }
  if (B == "not") {
    needType();
    simple(OpNot, 1);
    return true;
  }
  if (B == "cnot") {
    needType();
    simple(OpCnot, 1);
    return true;
  }
  if (B == "shl" || B == "shr") {
    needType();
    I.Op = B == "shl" ? OpShl : OpShr;
    needOps(3);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], Ty::U32);
    return true;
  }
  if (B == "popc" || B == "clz" || B == "brev" || B == "bfind") {
    needType();
    simple(B == "popc"   ? OpPopc
           : B == "clz"  ? OpClz
           : B == "brev" ? OpBrev
                         : OpBfind,
           1);
    if (Md.has("shiftamt"))
      I.Flags |= FShiftAmt;
    return true;
  }
  if (B == "bfe") {
    needType();
    I.Op = OpBfe;
    needOps(4);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], Ty::U32);
    setS(2, Ops[3], Ty::U32);
    return true;
  }
  if (B == "bfi") {
    needType();
    I.Op = OpBfi;
    needOps(5);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], I.T);
    setS(2, Ops[3], Ty::U32);
    setS(3, Ops[4], Ty::U32);
    return true;
  }
  if (B == "prmt") {
    needType();
    simple(OpPrmt, 3);
    for (auto &X : Md.List) {
      static const char *Modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      for (int K = 0; K < 6; ++K)
        if (X == Modes[K])
          I.Sub = (uint8_t)(K + 1);
    }
    return true;
  }
  if (B == "lop3") {
    needType();
    if (Ops.size() != 5)
      throw Unsupported("lop3 with predicate output unsupported");
    simple(OpLop3, 4);
    return true;
  }
  if (B == "shf") {
    needType();
    simple(OpShf, 3);
    if (Md.has("l"))
      I.Flags |= FLeft;
    if (Md.has("wrap"))
      I.Flags |= FWrap;
    return true;
  }
  return false;
}

// Float functions (rcp, sqrt, ex2, sin, ...), testp and copysign.
bool InstDecoder::floatMath() {
  if (B == "rcp" || B == "sqrt" || B == "rsqrt" || B == "ex2" || B == "lg2" ||
      B == "sin" || B == "cos" || B == "tanh") {
    needType();
    uint16_t Op = B == "rcp"     ? OpRcp
                  : B == "sqrt"  ? OpSqrt
                  : B == "rsqrt" ? OpRsqrt
                  : B == "ex2"   ? OpEx2
                  : B == "lg2"   ? OpLg2
                  : B == "sin"   ? OpSin
                  : B == "cos"   ? OpCos
                                 : OpTanh;
    simple(Op, 1);
    return true;
  }
  if (B == "testp") {
    needType();
    I.Op = OpTestp;
    needOps(2);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    static const char *Modes[] = {"finite",     "infinite", "number",
                                  "notanumber", "normal",   "subnormal"};
    bool Found = false;
    for (int K = 0; K < 6; ++K)
      if (Md.has(Modes[K])) {
        I.Sub = (uint8_t)K;
        Found = true;
      }
    if (!Found)
      fail("testp without mode");
    return true;
  }
  if (B == "copysign") {
    needType();
    simple(OpCopysign, 2);
    return true;
  }
  return false;
}

// Comparisons and selects: setp/set (with a boolean combine), selp, slct.
bool InstDecoder::comparison() {
  if (B == "setp" || B == "set") {
    needType();
    int C = -1;
    for (auto &X : Md.List) {
      int K = cmpOf(X);
      if (K >= 0)
        C = K;
    }
    if (C < 0)
      fail("'" + Opc + "' without comparison");
    I.Sub = (uint8_t)C;
    if (Md.has("and"))
      I.Bool = BoolAnd;
    else if (Md.has("or"))
      I.Bool = BoolOr;
    else if (Md.has("xor"))
      I.Bool = BoolXor;
    // set: dtype first, then stype.
    Ty SrcT = B == "set" ? I.T2 : I.T;
    I.Op = B == "setp" ? OpSetp : OpSet;
    size_t Need = I.Bool ? 4 : 3;
    needOps(Need);
    I.D[0] = P.dstSlot(Ops[0]);
    I.ND = 1;
    if (!Ops[0].Name2.empty()) {
      RawOp Q;
      Q.Name = Ops[0].Name2;
      I.D[1] = P.dstSlot(Q);
      I.ND = 2;
    }
    setS(0, Ops[1], SrcT);
    setS(1, Ops[2], SrcT);
    if (I.Bool) {
      setS(2, Ops[3], Ty::Pred);
      if (Ops[3].Not)
        I.Flags |= FNegC;
    }
    return true;
  }
  if (B == "selp") {
    needType();
    I.Op = OpSelp;
    needOps(4);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], I.T);
    setS(2, Ops[3], Ty::Pred);
    if (Ops[3].Not)
      I.Flags |= FNegC;
    return true;
  }
  if (B == "slct") {
    needType();
    I.Op = OpSlct;
    needOps(4);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], I.T);
    setS(2, Ops[3], I.T2);
    return true;
  }
  return false;
}

// Conversions: cvt (and its two-source packing form), cvta, isspacep.
bool InstDecoder::conversion() {
  if (B == "cvt") {
    if (Md.Types.size() == 3 || (Md.Types.size() == 2 && Ops.size() == 3)) {
      // cvt.rn.f16x2.f32 d, a, b  (pack)
      I.Op = OpCvtPack;
      needOps(3);
      setD(0, Ops[0]);
      setS(0, Ops[1], Ty::F32);
      setS(1, Ops[2], Ty::F32);
      return true;
    }
    if (Md.has("tf32")) { // cvt.rna.tf32.f32 d, a: d holds a tf32 as .b32
      if (I.Rnd != RndRna || Md.has("satfinite") || Md.has("relu"))
        throw Unsupported("'" + Opc + "': only cvt.rna.tf32.f32 supported");
      I.Op = OpCvtTf32;
      needOps(2);
      setD(0, Ops[0]);
      setS(0, Ops[1], Ty::F32);
      return true;
    }
    if (Md.Types.size() != 2)
      fail("cvt needs two types");
    I.Op = OpCvt;
    needOps(2);
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T2);
    return true;
  }
  if (B == "cvta") {
    I.Op = OpCvta;
    I.Space = spaceOf(Md);
    if (Md.has("to"))
      I.Flags |= FToSpace;
    if (I.T == Ty::None)
      I.T = Ty::U64;
    needOps(2);
    setD(0, Ops[0]);
    setS(0, Ops[1], Ty::U64);
    return true;
  }
  if (B == "isspacep") {
    I.Op = OpIsspacep;
    I.Space = spaceOf(Md);
    needOps(2);
    setD(0, Ops[0]);
    setS(0, Ops[1], Ty::U64);
    return true;
  }
  return false;
}

} // namespace warpscope::emu::core::parser
