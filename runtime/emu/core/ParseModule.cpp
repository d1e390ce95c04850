//===- ParseModule.cpp - module-scope PTX declarations --------------------===//
//
// The declarations concern of the PTX parser, at module scope: directives
// (.version, .file, .section, ...), variables in every state space with their
// initializers, and .entry/.func headers with their parameter lists and
// performance directives. Variable declarations inside bodies come here too.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"
#include "warpscope/Support/SourcePath.h"

#include <cstring>

namespace warpscope::emu::core::parser {

void Parser::run() {
  while (cur().K != TkEnd)
    topLevel();
  placeInlinedCode();
}

void Parser::topLevel() {
  if (cur().K == TkMarker) {
    ++P;
    return;
  }
  if (isP(";")) {
    ++P;
    return;
  }
  if (cur().K != TkIdent)
    fail("unexpected '" + cur().Text + "' at module scope");
  const std::string &T = cur().Text;
  if (T == ".version" || T == ".target" || T == ".address_size") {
    skipLine();
    return;
  }
  if (T == ".file") {
    ++P;
    int64_t Idx = number();
    std::string Name;
    if (cur().K == TkStr) {
      Name = cur().Text;
      ++P;
    }
    if (cur().K == TkStr) { // directory, file
      Name = joinSourcePath(Name, cur().Text);
      ++P;
    } else {
      Name = joinSourcePath("", Name);
    }
    M.Files[(uint32_t)Idx] = Name;
    while (isP(",")) {
      ++P;
      ++P;
    }
    return;
  }
  if (T == ".section") {
    if (peek().K == TkIdent && peek().Text == ".debug_str" && !DebugStrAt)
      DebugStrAt = cur().Off + 1; // names of inlined functions: where to read
    ++P;
    while (cur().K != TkEnd && !isP("{"))
      ++P;
    if (isP("{"))
      skipBalanced();
    return;
  }
  if (T == ".pragma") {
    ++P;
    while (!isP(";") && cur().K != TkEnd)
      ++P;
    expectP(";"); // not past the end of a truncated file (found by fuzzing)
    return;
  }
  bool Extern = false;
  while (isI(".visible") || isI(".weak") || isI(".extern") || isI(".common")) {
    if (isI(".extern"))
      Extern = true;
    ++P;
  }
  (void)Extern;
  if (isI(".entry")) {
    ++P;
    parseFunction(true);
    return;
  }
  if (isI(".func")) {
    ++P;
    parseFunction(false);
    return;
  }
  if (isI(".global")) {
    ++P;
    parseVarDecl(SpGlobal, false);
    return;
  }
  if (isI(".const")) {
    ++P;
    parseVarDecl(SpConst, false);
    return;
  }
  if (isI(".shared")) {
    ++P;
    parseVarDecl(SpShared, false);
    return;
  }
  if (isI(".local")) {
    ++P;
    parseVarDecl(SpLocal, false);
    return;
  }
  fail("unsupported module-scope directive '" + cur().Text + "'");
}

// After the state space: [.align N] [.v2/.v4] .type name[N]... [= init];
void Parser::parseVarDecl(uint8_t Space, bool InFunction) {
  uint32_t Align = 0;
  unsigned VecN = 1;
  Ty T = Ty::None;
  while (cur().K == TkIdent && cur().Text[0] == '.') {
    std::string D = ident();
    if (D == ".align") {
      int64_t A = number();
      if (A <= 0 || A > 65536 || (A & (A - 1)))
        fail(".align " + std::to_string(A) +
             " is not a power of two up to 65536");
      Align = (uint32_t)A;
    } else if (D == ".v2")
      VecN = 2;
    else if (D == ".v4")
      VecN = 4;
    else if (D == ".ptr") {
    } else {
      Ty X = parseTy(D.substr(1));
      if (X == Ty::None)
        fail("unsupported variable attribute '" + D + "'");
      T = X;
    }
  }
  if (T == Ty::None)
    fail("variable without type");
  unsigned ES = tySize(T) * VecN;
  if (!Align)
    Align = ES;
  for (;;) {
    std::string Name = ident();
    size_t Count = 1;
    bool Unsized = false;
    while (isP("[")) {
      ++P;
      if (isP("]")) {
        Unsized = true;
        ++P;
        continue;
      }
      int64_t Dim = number();
      // Checked one dimension at a time, so the product cannot overflow.
      if (Dim <= 0 || (uint64_t)Dim > MaxVariableBytes ||
          Count * (uint64_t)Dim > MaxVariableBytes)
        fail("variable '" + Name + "' is larger than the emulator's limit of " +
             std::to_string(MaxVariableBytes >> 20) +
             " MiB (or has a dimension <= 0)");
      Count *= (size_t)Dim;
      expectP("]");
    }
    size_t Size = Count * ES;
    if (Size > MaxVariableBytes)
      fail("variable '" + Name + "' is larger than the emulator's limit of " +
           std::to_string(MaxVariableBytes >> 20) + " MiB");
    if (Space != SpLocal && Space != SpShared) {
      StaticBytes += Size;
      if (StaticBytes > MaxVariableBytes)
        fail("the module's .global and .const variables exceed the emulator's "
             "limit of " +
             std::to_string(MaxVariableBytes >> 20) + " MiB");
    }
    if (Space == SpLocal) {
      if (!InFunction)
        fail("module-scope .local unsupported");
      F->LocalBytes = (F->LocalBytes + Align - 1) / Align * Align;
      LocalSyms[Name] = F->LocalBytes;
      F->LocalBytes += (uint32_t)Size;
      F->LocalAlign = std::max(F->LocalAlign, Align);
    } else {
      auto G = std::make_unique<GlobalVar>();
      G->Name = Name;
      G->Space = Space;
      G->Size = Size;
      G->Align = Align;
      if (Space == SpShared) {
        G->Dynamic = Unsized;
      } else {
        size_t A = std::max<uint32_t>(Align, 16);
        auto Buf = std::unique_ptr<uint8_t[]>(new uint8_t[Size + A]());
        uintptr_t Addr = ((uintptr_t)Buf.get() + A - 1) / A * A;
        G->Data = (uint8_t *)Addr;
        M.Storage.push_back(std::move(Buf));
      }
      if (isP("=")) {
        ++P;
        if (Space == SpShared)
          fail("initializer on .shared variable");
        parseInitializer(*G, T, VecN, Size);
      }
      uint32_t Index = (uint32_t)M.Globals.size();
      M.GlobalIndex[Name] = Index;
      M.Globals.push_back(std::move(G));
    }
    if (isP(",")) {
      ++P;
      continue;
    }
    break;
  }
  expectP(";");
}

// After a variable's '=': a (nested) initializer list or a single value,
// stored flat into G's data.
void Parser::parseInitializer(GlobalVar &G, Ty T, unsigned VecN, size_t Size) {
  size_t Idx = 0;
  int Depth = 0;
  auto StoreOne = [&](uint64_t Bits) {
    if ((Idx + 1) * tySize(T) > Size + (VecN - 1) * 0) {
      if (Idx * tySize(T) >= Size)
        fail("too many initializers");
    }
    std::memcpy(G.Data + Idx * tySize(T), &Bits, tySize(T));
    ++Idx;
  };
  do {
    if (isP("{")) {
      ++Depth;
      ++P;
      continue;
    }
    if (isP("}")) {
      --Depth;
      ++P;
      if (isP(","))
        ++P;
      continue;
    }
    if (isP(",")) {
      ++P;
      continue;
    }
    // element
    bool Neg = false;
    if (isP("-")) {
      Neg = true;
      ++P;
    }
    if (cur().K == TkNum) {
      std::string L = cur().Text;
      ++P;
      uint64_t Bits;
      if (!initializerLiteralBits(L, T, Neg, Bits))
        fail("bad initializer '" + L + "'");
      StoreOne(Bits);
    } else if (cur().K == TkIdent) {
      std::string S = ident();
      bool Paren = false;
      if (S == "generic" || S == "global" || S == "const") {
        expectP("(");
        S = ident();
        Paren = true;
      }
      int64_t Add = 0;
      if (Paren)
        expectP(")");
      if (isP("+")) {
        ++P;
        Add = number();
      }
      if (Paren && isP(")"))
        ++P;
      auto It = M.GlobalIndex.find(S);
      uint64_t V = 0;
      if (It != M.GlobalIndex.end() && M.Globals[It->second]->Data)
        V = (uint64_t)(uintptr_t)M.Globals[It->second]->Data;
      else if (M.FuncIndex.count(S))
        V = FunctionAddressBase + M.FuncIndex[S]; // opaque function "address"
      else
        fail("unknown symbol '" + S + "' in initializer");
      StoreOne(V + (uint64_t)Add);
    } else {
      fail("bad initializer token '" + cur().Text + "'");
    }
  } while (Depth > 0);
}

void Parser::parseParamList(Function &Fn, bool IsRet) {
  expectP("(");
  while (!isP(")")) {
    if (!isI(".param") && !isI(".reg"))
      fail("expected .param in parameter list");
    ++P;
    uint32_t Align = 0;
    Ty T = Ty::None;
    bool Ptr = false;
    while (cur().K == TkIdent && cur().Text[0] == '.') {
      std::string D = ident();
      if (D == ".align") {
        uint32_t A = (uint32_t)number();
        if (!Ptr)
          Align = A; // after .ptr, .align is the pointee's alignment
      } else if (D == ".ptr")
        Ptr = true;
      else if (D == ".global" || D == ".shared" || D == ".local" ||
               D == ".const") {
      } else {
        Ty X = parseTy(D.substr(1));
        if (X == Ty::None)
          fail("unsupported parameter attribute '" + D + "'");
        T = X;
      }
    }
    ParamDecl PD;
    PD.Name = ident();
    uint32_t Count = 1;
    while (isP("[")) {
      ++P;
      Count *= (uint32_t)number();
      expectP("]");
    }
    PD.Size = tySize(T) * Count;
    PD.Align = Align ? Align : std::max(1u, tySize(T));
    Fn.ParamBytes = (Fn.ParamBytes + PD.Align - 1) / PD.Align * PD.Align;
    PD.Off = Fn.ParamBytes;
    Fn.ParamBytes += PD.Size;
    if (IsRet) {
      Fn.HasRet = true;
      Fn.Ret = PD;
    } else
      Fn.Params.push_back(PD);
    if (isP(","))
      ++P;
  }
  expectP(")");
}

void Parser::parseFunction(bool IsKernel) {
  auto Fn = std::make_unique<Function>();
  Fn->IsKernel = IsKernel;
  Function Tmp;
  bool HasRet = false;
  if (!IsKernel && isP("(")) {
    parseParamList(Tmp, true);
    HasRet = true;
  }
  std::string Name = ident();
  Fn->Name = Name;
  Fn->ParamBytes = Tmp.ParamBytes;
  if (HasRet) {
    Fn->HasRet = true;
    Fn->Ret = Tmp.Ret;
  }
  if (isP("("))
    parseParamList(*Fn, false);
  // Performance directives.
  while (cur().K == TkIdent && cur().Text[0] == '.') {
    std::string D = ident();
    if (D == ".maxntid" || D == ".reqntid") {
      uint32_t Prod = 1;
      Prod *= (uint32_t)number();
      while (isP(",")) {
        ++P;
        Prod *= (uint32_t)number();
      }
      (D == ".maxntid" ? Fn->MaxNtid : Fn->ReqNtid) = Prod;
    } else if (D == ".minnctapersm" || D == ".maxnreg" ||
               D == ".maxnctapersm" || D == ".maxclusterrank") {
      number();
    } else if (D == ".noreturn") {
    } else if (D == ".pragma") {
      while (!isP(";") && cur().K != TkEnd)
        ++P;
      expectP(";");
    } else {
      fail("unsupported function directive '" + D + "'");
    }
  }
  uint32_t Index;
  auto It = M.FuncIndex.find(Name);
  if (It != M.FuncIndex.end()) {
    Index = It->second;
    Function &Old = *M.Functions[Index];
    if (isP("{") && Old.HasBody)
      fail("function '" + Name + "' defined twice");
    if (!isP("{")) {
      expectP(";");
      return;
    }
    Fn->Name = Name;
    M.Functions[Index] = std::move(Fn);
  } else {
    Index = (uint32_t)M.Functions.size();
    M.FuncIndex[Name] = Index;
    if (Name == "vprintf")
      Fn->Bi = BiVprintf;
    else if (Name == "malloc")
      Fn->Bi = BiMalloc;
    else if (Name == "free")
      Fn->Bi = BiFree;
    else if (Name == "__assertfail")
      Fn->Bi = BiAssert;
    M.Functions.push_back(std::move(Fn));
    if (!isP("{")) {
      expectP(";");
      M.Functions[Index]->Declared = true;
      return;
    }
  }
  F = M.Functions[Index].get();
  F->HasBody = true;
  F->Bi = BiNone;
  parseBody();
  F = nullptr;
}

} // namespace warpscope::emu::core::parser
