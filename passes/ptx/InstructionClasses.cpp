//===- InstructionClasses.cpp - What a PTX opcode does --------------------===//

#include "warpscope/PTX/InstructionClasses.h"
#include "warpscope/ABI/PtxOpcodes.h"
#include <set>
#include <vector>

using namespace warpscope;
using namespace warpscope::ptx;

namespace {

std::vector<std::string> split(const std::string &Opcode) {
  std::vector<std::string> Parts;
  size_t B = 0;
  for (;;) {
    size_t E = Opcode.find('.', B);
    Parts.push_back(Opcode.substr(B, E == std::string::npos ? E : E - B));
    if (E == std::string::npos)
      return Parts;
    B = E + 1;
  }
}

/// Bits of a PTX type suffix (f32 -> 32, f16x2 -> 32), 0 if not a type.
unsigned typeBits(const std::string &T) {
  static const std::set<std::string> Known = {
      "b8",  "s8",  "u8",  "b16",  "s16",  "u16",   "f16",    "bf16",
      "b32", "s32", "u32", "f32",  "tf32", "f16x2", "bf16x2", "b64",
      "s64", "u64", "f64", "b128", "e4m3", "e5m2",  "pred"};
  if (!Known.count(T))
    return 0;
  if (T == "pred")
    return 1;
  if (T == "f16x2" || T == "bf16x2")
    return 32;
  if (T == "e4m3" || T == "e5m2")
    return 8;
  size_t I = T.find_first_of("0123456789");
  return std::stoul(T.substr(I));
}

bool isFloatType(const std::string &T) {
  return T[0] == 'f' || T.compare(0, 2, "bf") == 0 || T == "tf32";
}

} // namespace

InstructionInfo warpscope::ptx::classify(const std::string &Opcode) {
  std::vector<std::string> P = split(Opcode);
  const std::string &Base = P[0];
  std::string Type; // the last type suffix
  unsigned Vector = 1;
  std::string Space = "generic";
  for (size_t I = 1; I < P.size(); ++I) {
    if (typeBits(P[I]))
      Type = P[I];
    if (P[I] == "v2" || P[I] == "v4" || P[I] == "v8")
      Vector = P[I][1] - '0';
    if (P[I] == "global" || P[I] == "shared" || P[I] == "local" ||
        P[I] == "param" || P[I] == "const")
      Space = P[I];
  }
  const PtxOpcodeInfo &Row = ptxOpcodeInfo(lookupPtxOpcode(Base));
  InstructionInfo Info;
  switch (Row.Mix) {
  case PtxMix::Memory:
  case PtxMix::Atomic:
    Info.Class = Row.Mix == PtxMix::Memory ? "memory" : "atomic";
    Info.Space = Space;
    Info.BytesPerLane = Vector * (typeBits(Type) / 8);
    return Info;
  case PtxMix::Control:
    Info.Class = "control";
    return Info;
  case PtxMix::Sync:
    Info.Class = "sync";
    return Info;
  case PtxMix::Warp:
    Info.Class = "warp";
    return Info;
  case PtxMix::Logic:
    Info.Class = "logic";
    return Info;
  case PtxMix::CompareSelect:
    Info.Class = "compare_select";
    return Info;
  case PtxMix::Conversion:
    Info.Class = "conversion";
    return Info;
  case PtxMix::Move:
    Info.Class = "move";
    return Info;
  case PtxMix::Other:
    Info.Class = "other";
    return Info;
  case PtxMix::Special:
  case PtxMix::Divide:
  case PtxMix::Arith:
    break;
  }
  bool Float = !Type.empty() && isFloatType(Type);
  unsigned Lanes = Type == "f16x2" || Type == "bf16x2" ? 2 : 1;
  FloatWidth W = FloatWidth::None;
  if (Float) {
    unsigned Bits = typeBits(Type) / Lanes;
    W = Bits == 64   ? FloatWidth::Double
        : Bits == 32 ? FloatWidth::Single
                     : FloatWidth::Half;
  }
  if (Float && Row.Flops) {
    Info.Flop = W;
    Info.FlopsPerLane = Row.Flops * Lanes;
  }
  if (Row.Mix == PtxMix::Special || (Row.Mix == PtxMix::Divide && Float)) {
    Info.Class = "special";
    return Info;
  }
  if (Float) {
    Info.Class = W == FloatWidth::Double   ? "fp64"
                 : W == FloatWidth::Single ? "fp32"
                                           : "fp16";
    return Info;
  }
  unsigned Bits = typeBits(Type);
  Info.Class = Bits == 64   ? "int64"
               : Bits == 16 ? "int16"
               : Bits == 8  ? "int8"
                            : "int32";
  return Info;
}
