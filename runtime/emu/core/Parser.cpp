//===- Parser.cpp - PTX text to decoded Functions -------------------------===//
//
// The PTX parser's entry, parsePtx, and what it derives for a module once
// all of it is parsed: each kernel's local stack size and shared memory
// layout; also the Ty helpers of Ptx.h. The parser itself is split by
// concern; ParserInternal.h lists the files.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"
#include "Ptx.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace warpscope::emu::core {

unsigned tySize(Ty T) {
  switch (T) {
  case Ty::B8:
  case Ty::U8:
  case Ty::S8:
    return 1;
  case Ty::B16:
  case Ty::U16:
  case Ty::S16:
  case Ty::F16:
  case Ty::BF16:
    return 2;
  case Ty::B32:
  case Ty::U32:
  case Ty::S32:
  case Ty::F32:
  case Ty::F16x2:
  case Ty::BF16x2:
    return 4;
  case Ty::B64:
  case Ty::U64:
  case Ty::S64:
  case Ty::F64:
    return 8;
  case Ty::B128:
    return 16;
  case Ty::Pred:
    return 1;
  default:
    return 0;
  }
}
bool tySigned(Ty T) {
  return T == Ty::S8 || T == Ty::S16 || T == Ty::S32 || T == Ty::S64;
}
bool tyFloat(Ty T) {
  return T == Ty::F16 || T == Ty::F16x2 || T == Ty::BF16 || T == Ty::BF16x2 ||
         T == Ty::F32 || T == Ty::F64;
}
Ty parseTy(const std::string &S) {
  static const std::unordered_map<std::string, Ty> M = {
      {"b8", Ty::B8},     {"b16", Ty::B16},       {"b32", Ty::B32},
      {"b64", Ty::B64},   {"b128", Ty::B128},     {"u8", Ty::U8},
      {"u16", Ty::U16},   {"u32", Ty::U32},       {"u64", Ty::U64},
      {"s8", Ty::S8},     {"s16", Ty::S16},       {"s32", Ty::S32},
      {"s64", Ty::S64},   {"f16", Ty::F16},       {"f16x2", Ty::F16x2},
      {"bf16", Ty::BF16}, {"bf16x2", Ty::BF16x2}, {"f32", Ty::F32},
      {"f64", Ty::F64},   {"pred", Ty::Pred}};
  auto It = M.find(S);
  return It == M.end() ? Ty::None : It->second;
}

namespace {

// Per-thread local stack: the deepest call chain's depots (16-aligned);
// recursion gets 32 KiB of headroom (deeper recursion is an error).
void layoutLocalStacks(ParsedModule &M) {
  const size_t NF = M.Functions.size();
  std::vector<int> State(NF, 0); // 0 new, 1 on stack, 2 done
  std::vector<uint64_t> Need(NF, 0);
  bool Recursive = false;
  std::function<uint64_t(uint32_t)> Visit = [&](uint32_t Fi) -> uint64_t {
    if (State[Fi] == 2)
      return Need[Fi];
    if (State[Fi] == 1) {
      Recursive = true;
      return 0;
    }
    State[Fi] = 1;
    Function &Fn = *M.Functions[Fi];
    uint64_t Max = 0;
    for (auto &I : Fn.Code) {
      if (I.Op != OpCall)
        continue;
      if (I.Flags & FIndirect) { // may call any function
        for (uint32_t G = 0; G < NF; ++G)
          if (M.Functions[G]->HasBody && !M.Functions[G]->IsKernel)
            Max = std::max(Max, Visit(G));
      } else if (M.Functions[I.Target]->HasBody) {
        Max = std::max(Max, Visit(I.Target));
      }
    }
    State[Fi] = 2;
    return Need[Fi] = (Fn.LocalBytes + 15) / 16 * 16 + Max;
  };
  for (auto &K : M.Functions) {
    if (!K->IsKernel || !K->HasBody)
      continue;
    Recursive = false;
    std::fill(State.begin(), State.end(), 0);
    uint64_t N = Visit(M.FuncIndex[K->Name]);
    if (Recursive)
      N += 32768;
    K->LocalStack =
        (uint32_t)std::min<uint64_t>(std::max<uint64_t>(N, 16), 1u << 20);
  }
}

// Per-kernel shared memory layout over the call graph.
void layoutShared(ParsedModule &M) {
  for (auto &K : M.Functions) {
    if (!K->IsKernel || !K->HasBody)
      continue;
    std::vector<char> Seen(M.Functions.size(), 0), Used(M.Globals.size(), 0);
    std::vector<uint32_t> Work{M.FuncIndex[K->Name]};
    Seen[Work[0]] = 1;
    while (!Work.empty()) {
      Function &Fn = *M.Functions[Work.back()];
      Work.pop_back();
      for (auto &In : Fn.Inits)
        if (In.Kind == InitSharedSym)
          Used[In.Value] = 1;
      for (auto &I : Fn.Code) {
        if (I.Op != OpCall)
          continue;
        if (I.Flags & FIndirect) { // may call any function
          for (uint32_t G = 0; G < M.Functions.size(); ++G)
            if (!Seen[G]) {
              Seen[G] = 1;
              Work.push_back(G);
            }
        } else if (!Seen[I.Target]) {
          Seen[I.Target] = 1;
          Work.push_back(I.Target);
        }
      }
    }
    SharedLayout &L = K->Shared;
    L.Off.assign(M.Globals.size(), 0);
    uint32_t DynAlign = 16;
    for (size_t G = 0; G < M.Globals.size(); ++G) {
      GlobalVar &GV = *M.Globals[G];
      if (!Used[G] || GV.Space != SpShared)
        continue;
      if (GV.Dynamic) {
        DynAlign = std::max(DynAlign, GV.Align);
        continue;
      }
      L.StaticBytes = (L.StaticBytes + GV.Align - 1) / GV.Align * GV.Align;
      L.Off[G] = L.StaticBytes;
      L.StaticBytes += (uint32_t)GV.Size;
    }
    L.DynOff = (L.StaticBytes + DynAlign - 1) / DynAlign * DynAlign;
    for (size_t G = 0; G < M.Globals.size(); ++G)
      if (M.Globals[G]->Space == SpShared && M.Globals[G]->Dynamic)
        L.Off[G] = L.DynOff;
  }
}

} // namespace

std::unique_ptr<ParsedModule>
parsePtx(const std::string &Text, const std::string &Name, std::string &Error) {
  auto M = std::make_unique<ParsedModule>();
  M->Name = Name;
  try {
    parser::Parser P(Text, *M);
    P.run();
  } catch (parser::ParseError &E) {
    Error = Name + ": PTX line " + std::to_string(E.Line) + ": " + E.what();
    return nullptr;
  } catch (std::exception &E) {
    Error = Name + ": " + E.what();
    return nullptr;
  }
  layoutLocalStacks(*M);
  layoutShared(*M);
  return M;
}

} // namespace warpscope::emu::core
