//===- DecodeTexture.cpp - decoding tex, suld, sust, txq and suq ----------===//
//
// Texture and surface instructions on object handles (the form clang emits
// for the CUDA object API): tex.{1d,2d,3d,a1d,a2d}.v4.{f32,s32,u32}.{f32,s32}
// (also .level and .grad: images have one level, so the level of detail is
// not needed), tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 (gathers),
// suld.b/sust.b.{1d,2d,3d,a1d,a2d}[.vN].bNN.{trap,clamp,zero}, and the
// queries txq/suq .width/.height/.depth/.array_size (txq also
// .num_mipmap_levels, .normalized_coords). Cube and multisample
// geometries, the other queries, formatted surface access (.p) and sured
// decode as unsupported instructions that name themselves.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"
#include "Texture.h"

namespace warpscope::emu::core::parser {

namespace {

// Dimensions of the geometry modifier (0: none supported); Layered for
// .a1d/.a2d (texture and surface arrays).
unsigned geometry(const Mods &M, bool &Layered) {
  Layered = false;
  for (auto &X : M.List) {
    if (X == "1d" || X == "2d" || X == "3d")
      return (unsigned)(X[0] - '0');
    if (X == "a1d" || X == "a2d") {
      Layered = true;
      return (unsigned)(X[1] - '0');
    }
  }
  return 0;
}

} // namespace

bool InstDecoder::query() {
  bool Surf = B == "suq";
  static const struct {
    const char *Name;
    ImageQuery Q;
  } Queries[] = {{"width", ImageQuery::Width},
                 {"height", ImageQuery::Height},
                 {"depth", ImageQuery::Depth},
                 {"array_size", ImageQuery::ArraySize},
                 {"num_mipmap_levels", ImageQuery::NumMipmapLevels},
                 {"normalized_coords", ImageQuery::NormalizedCoords}};
  int Q = -1;
  for (int K = 0; K < (Surf ? 4 : 6); ++K)
    if (Md.has(Queries[K].Name))
      Q = K;
  if (Q < 0 || Md.has("level"))
    throw Unsupported("'" + Opc +
                      "': only the .width, .height, .depth, .array_size" +
                      (Surf ? "" : ", .num_mipmap_levels, .normalized_coords") +
                      " queries are supported (the values of the others are "
                      "not documented for CUDA objects)");
  if (Ops.size() != 2 || Ops[1].Kind != RawOp::Mem || Ops[1].Name.empty() ||
      Ops[1].Off != 0 || !Ops[1].Elems.empty())
    fail("'" + Opc + "' expects d, [handle]");
  uint32_t HandleSlot;
  if (!P.lookupReg(Ops[1].Name, HandleSlot))
    throw Unsupported("'" + Opc + "' on '" + Ops[1].Name +
                      "': texture and surface references are not supported "
                      "(use texture/surface objects)");
  I.Addr = HandleSlot;
  I.Op = OpTxq;
  I.Sub = (uint8_t)Queries[Q].Q;
  I.Bool = Surf ? 1 : 0;
  setD(0, Ops[0]);
  return true;
}

bool InstDecoder::texture() {
  if (B == "txq" || B == "suq")
    return query();
  if (B == "sured" || B == "istypep")
    throw Unsupported("'" + Opc +
                      "': surface reductions and istypep are not supported");
  bool Gather = B == "tld4";
  if (B != "tex" && B != "suld" && B != "sust" && !Gather)
    return false;
  bool Layered;
  unsigned Dims = geometry(Md, Layered);
  if (!Dims)
    throw Unsupported("'" + Opc +
                      "': only 1d, 2d, 3d, a1d and a2d geometries are "
                      "supported (no cube or multisample textures)");
  int Comp = -1; // tld4's component: r g b a
  for (int C = 0; C < 4 && Gather; ++C)
    if (Md.has(C == 0 ? "r" : C == 1 ? "g" : C == 2 ? "b" : "a"))
      Comp = C;
  if (Gather && (Dims != 2 || Layered || Comp < 0))
    throw Unsupported("'" + Opc +
                      "': only tld4.{r,g,b,a}.2d gathers are supported");
  bool IsTex = B == "tex" || Gather;
  if (!IsTex && !Md.has("b"))
    throw Unsupported("'" + Opc +
                      "': formatted surface access (.p) is not "
                      "supported");
  const RawOp *Mem = nullptr, *Val = nullptr;
  size_t Extra = 0; // tex: operands after [handle, coords]
  if (B == "sust") {
    if (Ops.size() != 2)
      fail("'" + Opc + "' expects 2 operands");
    Mem = &Ops[0];
    Val = &Ops[1];
  } else {
    if (Ops.size() < 2)
      fail("'" + Opc + "' expects at least 2 operands");
    Val = &Ops[0];
    Mem = &Ops[1];
    Extra = Ops.size() - 2;
  }
  if (IsTex) {
    size_t Want = Md.has("level") ? 1 : Md.has("grad") ? 2 : 0;
    if (Extra != Want || !Val->Name2.empty())
      throw Unsupported("'" + Opc +
                        "': texel offsets and depth compare are "
                        "not supported");
    if (I.Vec != 4 || (I.T != Ty::F32 && I.T != Ty::S32 && I.T != Ty::U32) ||
        (I.T2 != Ty::F32 && I.T2 != Ty::S32) || (Gather && I.T2 != Ty::F32))
      throw Unsupported("'" + Opc +
                        "': only .v4 results of .f32/.s32/.u32 "
                        "with .f32/.s32 coordinates are supported");
  } else if (I.T != Ty::B8 && I.T != Ty::B16 && I.T != Ty::B32 &&
             I.T != Ty::B64) {
    fail("'" + Opc + "' needs a .b8/.b16/.b32/.b64 type");
  }
  if (Mem->Kind != RawOp::Mem || Mem->Name.empty() || Mem->Off != 0 ||
      Mem->Elems.size() != 1 || Mem->Elems[0].Kind != RawOp::Vec)
    fail("'" + Opc + "' expects [handle, {coordinates}]");
  const std::vector<RawOp> &Co = Mem->Elems[0].Elems;
  // {x}, {x, y}, {x, y, z, pad}, {layer, x}, {layer, x, y, pad}.
  if (Co.size() != (Dims == 3 || (Layered && Dims == 2) ? 4u : Dims + Layered))
    fail("'" + Opc + "': wrong number of coordinates");
  uint32_t HandleSlot;
  if (!P.lookupReg(Mem->Name, HandleSlot)) // a .texref/.surfref name
    throw Unsupported("'" + Opc + "' on '" + Mem->Name +
                      "': texture and surface references are not supported "
                      "(use texture/surface objects)");
  I.Addr = HandleSlot;
  for (unsigned D = 0; D < Dims; ++D)
    setS(D, Co[D + Layered], IsTex ? I.T2 : Ty::S32);
  if (Layered) // the layer index: a .u32 in front of the coordinates
    setS(3, Co[0], Ty::U32);
  I.Sub = (uint8_t)(Dims | (Layered ? SubLayered : 0));
  I.Op = IsTex ? OpTex : B == "suld" ? OpSuld : OpSust;
  I.Bool = (uint8_t)(Comp + 1); // tex: 0, tld4: 1 + component
  if (!IsTex) {
    unsigned Mode = Md.has("clamp") ? 1 : Md.has("zero") ? 2 : 0;
    I.Sub |= (uint8_t)(Mode << 4);
  }
  std::vector<RawOp> One;
  const std::vector<RawOp> *Vals = &Val->Elems;
  if (Val->Kind != RawOp::Vec) {
    One.push_back(*Val);
    Vals = &One;
  }
  if (Vals->size() != I.Vec)
    fail("'" + Opc + "': vector operand size mismatch");
  if (B == "sust") { // the values go in D: S has no room for 3 + 4 slots
    for (size_t K = 0; K < Vals->size(); ++K)
      I.D[K] = P.srcSlot((*Vals)[K], I.T);
  } else {
    for (size_t K = 0; K < Vals->size(); ++K)
      setD(K, (*Vals)[K]);
  }
  return true;
}

} // namespace warpscope::emu::core::parser
