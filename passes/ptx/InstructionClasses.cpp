//===- InstructionClasses.cpp - What a PTX opcode does --------------------===//

#include "warpscope/PTX/InstructionClasses.h"
#include <set>
#include <vector>

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
  InstructionInfo Info;
  auto Is = [&](std::initializer_list<const char *> Names) {
    for (const char *N : Names)
      if (Base == N)
        return true;
    return false;
  };
  if (Is({"ld", "ldu", "st", "prefetch", "prefetchu", "cp", "stmatrix",
          "ldmatrix"})) {
    Info.Class = "memory";
    Info.Space = Space;
    Info.BytesPerLane = Vector * (typeBits(Type) / 8);
    return Info;
  }
  if (Is({"atom", "red"})) {
    Info.Class = "atomic";
    Info.Space = Space;
    Info.BytesPerLane = Vector * (typeBits(Type) / 8);
    return Info;
  }
  if (Is({"bra", "brx", "call", "ret", "exit", "trap", "brkpt"})) {
    Info.Class = "control";
    return Info;
  }
  if (Is({"bar", "barrier", "membar", "fence", "mbarrier", "griddepcontrol"})) {
    Info.Class = "sync";
    return Info;
  }
  if (Is({"vote", "shfl", "match", "activemask", "redux", "elect"})) {
    Info.Class = "warp";
    return Info;
  }
  if (Is({"and", "or", "xor", "not", "cnot", "shl", "shr", "shf", "lop3",
          "popc", "clz", "brev", "bfe", "bfi", "bfind", "prmt", "fns", "bmsk",
          "szext"})) {
    Info.Class = "logic";
    return Info;
  }
  if (Is({"setp", "set", "selp", "slct", "testp"})) {
    Info.Class = "compare_select";
    return Info;
  }
  if (Is({"cvt", "cvta", "cvt_pack"})) {
    Info.Class = "conversion";
    return Info;
  }
  if (Is({"mov", "isspacep"})) {
    Info.Class = "move";
    return Info;
  }
  bool Float = !Type.empty() && isFloatType(Type);
  unsigned Lanes = Type == "f16x2" || Type == "bf16x2" ? 2 : 1;
  auto FloatKind = [&] {
    unsigned Bits = typeBits(Type) / Lanes;
    return Bits == 64   ? FloatWidth::Double
           : Bits == 32 ? FloatWidth::Single
                        : FloatWidth::Half;
  };
  if (Is({"sin", "cos", "ex2", "lg2", "tanh", "rsqrt", "sqrt", "rcp"}) ||
      (Base == "div" && Float)) {
    Info.Class = "special";
    if (Float && !Is({"sin", "cos", "ex2", "lg2", "tanh"})) {
      Info.Flop = FloatKind();
      Info.FlopsPerLane = Lanes;
    }
    return Info;
  }
  if (Is({"add",      "sub",  "mul",  "mad",  "fma",   "div",   "rem",
          "abs",      "neg",  "min",  "max",  "mul24", "mad24", "sad",
          "copysign", "dp4a", "dp2a", "addc", "subc",  "madc"})) {
    if (Float) {
      FloatWidth W = FloatKind();
      Info.Class = W == FloatWidth::Double   ? "fp64"
                   : W == FloatWidth::Single ? "fp32"
                                             : "fp16";
      if (Is({"add", "sub", "mul", "min", "max"})) {
        Info.Flop = W;
        Info.FlopsPerLane = Lanes;
      } else if (Is({"fma", "mad"})) {
        Info.Flop = W;
        Info.FlopsPerLane = 2 * Lanes;
      }
      return Info;
    }
    unsigned Bits = typeBits(Type);
    Info.Class = Bits == 64   ? "int64"
                 : Bits == 16 ? "int16"
                 : Bits == 8  ? "int8"
                              : "int32";
    return Info;
  }
  Info.Class = "other";
  return Info;
}
