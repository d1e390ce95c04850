//===- Parser.cpp - PTX text to decoded Functions --------------------------===//
#include "Ptx.h"
#include "warpscope/ABI/Abi.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace warpscope::emu::core {

unsigned tySize(Ty T) {
  switch (T) {
  case Ty::B8: case Ty::U8: case Ty::S8: return 1;
  case Ty::B16: case Ty::U16: case Ty::S16: case Ty::F16: case Ty::BF16: return 2;
  case Ty::B32: case Ty::U32: case Ty::S32: case Ty::F32: case Ty::F16x2:
  case Ty::BF16x2: return 4;
  case Ty::B64: case Ty::U64: case Ty::S64: case Ty::F64: return 8;
  case Ty::B128: return 16;
  case Ty::Pred: return 1;
  default: return 0;
  }
}
bool tySigned(Ty T) { return T == Ty::S8 || T == Ty::S16 || T == Ty::S32 || T == Ty::S64; }
bool tyFloat(Ty T) {
  return T == Ty::F16 || T == Ty::F16x2 || T == Ty::BF16 || T == Ty::BF16x2 ||
         T == Ty::F32 || T == Ty::F64;
}
Ty parseTy(const std::string &S) {
  static const std::unordered_map<std::string, Ty> M = {
      {"b8", Ty::B8}, {"b16", Ty::B16}, {"b32", Ty::B32}, {"b64", Ty::B64},
      {"b128", Ty::B128}, {"u8", Ty::U8}, {"u16", Ty::U16}, {"u32", Ty::U32},
      {"u64", Ty::U64}, {"s8", Ty::S8}, {"s16", Ty::S16}, {"s32", Ty::S32},
      {"s64", Ty::S64}, {"f16", Ty::F16}, {"f16x2", Ty::F16x2},
      {"bf16", Ty::BF16}, {"bf16x2", Ty::BF16x2}, {"f32", Ty::F32},
      {"f64", Ty::F64}, {"pred", Ty::Pred}};
  auto It = M.find(S);
  return It == M.end() ? Ty::None : It->second;
}

namespace {

struct ParseError : std::runtime_error {
  uint32_t Line;
  ParseError(uint32_t L, const std::string &M) : std::runtime_error(M), Line(L) {}
};
// Well-formed instruction the emulator does not implement: decoded as
// OpUnsupported, reported when (if ever) a warp executes it.
struct Unsupported : std::runtime_error {
  explicit Unsupported(const std::string &M) : std::runtime_error(M) {}
};

enum TokKind : uint8_t { TkIdent, TkNum, TkStr, TkPunct, TkMarker, TkEnd };
struct Token {
  TokKind K;
  std::string Text;
  uint32_t Line;
};

std::vector<Token> tokenize(const std::string &S) {
  std::vector<Token> Out;
  std::string DeclaredMarker;
  uint32_t Line = 1;
  size_t I = 0, N = S.size();
  auto IsIdStart = [](char C) {
    return std::isalpha((unsigned char)C) || C == '_' || C == '$' || C == '%' || C == '.';
  };
  auto IsId = [](char C) {
    return std::isalnum((unsigned char)C) || C == '_' || C == '$' || C == '.';
  };
  while (I < N) {
    char C = S[I];
    if (C == '\n') { ++Line; ++I; continue; }
    if (std::isspace((unsigned char)C)) { ++I; continue; }
    if (C == '/' && I + 1 < N && S[I + 1] == '/') {
      size_t E = S.find('\n', I);
      if (E == std::string::npos) E = N;
      std::string Body = S.substr(I + 2, E - I - 2);
      size_t B = Body.find_first_not_of(" \t");
      if (B != std::string::npos && Body.compare(B, 3, "ws:") == 0) {
        size_t Z = Body.find_last_not_of(" \t\r");
        Out.push_back({TkMarker, Body.substr(B, Z + 1 - B), Line});
      }
      I = E;
      continue;
    }
    if (C == '/' && I + 1 < N && S[I + 1] == '*') {
      size_t E = S.find("*/", I + 2);
      if (E == std::string::npos) throw ParseError(Line, "unterminated comment");
      Line += std::count(S.begin() + I, S.begin() + E, '\n');
      I = E + 2;
      continue;
    }
    if (C == '"') {
      size_t E = I + 1;
      std::string V;
      while (E < N && S[E] != '"') {
        if (S[E] == '\\' && E + 1 < N) { V += S[E + 1]; E += 2; continue; }
        if (S[E] == '\n') throw ParseError(Line, "unterminated string");
        V += S[E++];
      }
      if (E >= N) throw ParseError(Line, "unterminated string");
      Out.push_back({TkStr, V, Line});
      I = E + 1;
      continue;
    }
    if (std::isdigit((unsigned char)C)) {
      size_t E = I;
      while (E < N && (std::isalnum((unsigned char)S[E]) || S[E] == '.' ||
                       ((S[E] == '-' || S[E] == '+') && E > I &&
                        (S[E - 1] == 'e' || S[E - 1] == 'E') &&
                        !(S[I] == '0' && I + 1 < N && (S[I + 1] == 'x' || S[I + 1] == 'X' ||
                                                   S[I + 1] == 'f' || S[I + 1] == 'F' ||
                                                   S[I + 1] == 'd' || S[I + 1] == 'D')))))
        ++E;
      Out.push_back({TkNum, S.substr(I, E - I), Line});
      I = E;
      continue;
    }
    if (IsIdStart(C)) {
      size_t E = I + 1;
      while (E < N) {
        if (IsId(S[E])) { ++E; continue; }
        if (S[E] == ':' && E + 1 < N && S[E + 1] == ':') { E += 2; continue; }
        break;
      }
      Out.push_back({TkIdent, S.substr(I, E - I), Line});
      // A probe names itself by declaring %ws_block_<N>, %ws_branch_<M> or
      // %ws_block_<N>_branch_<M> (comments do not survive into a fatbin):
      // after that declaration's ';' comes the marker "ws:block N",
      // "ws:branch M" or "ws:block N ws:branch M" for the next instruction.
      // Only in a .reg declaration: the dead mov of a derived block's scope
      // names the register again.
      auto InRegDeclaration = [&] {
        for (size_t T = Out.size(); T-- > 0;) {
          if (Out[T].K == TkPunct && (Out[T].Text == ";" || Out[T].Text == "{" ||
                                      Out[T].Text == "}"))
            return false;
          if (Out[T].K == TkIdent && Out[T].Text == ".reg")
            return true;
        }
        return false;
      };
      if (Out.back().Text.compare(0, 4, "%ws_") == 0 && InRegDeclaration()) {
        std::string Rest = Out.back().Text.substr(4), Marker;
        while (!Rest.empty()) {
          size_t Kind = Rest.find('_');
          if (Kind == std::string::npos) break;
          std::string Name = Rest.substr(0, Kind);
          size_t End = Rest.find_first_not_of("0123456789", Kind + 1);
          std::string Num = Rest.substr(Kind + 1, End == std::string::npos ? End : End - Kind - 1);
          if ((Name != "block" && Name != "branch") || Num.empty()) break;
          Marker += (Marker.empty() ? "ws:" : " ws:") + Name + " " + Num;
          if (End == std::string::npos) { Rest.clear(); break; }
          if (Rest[End] != '_') break;
          Rest = Rest.substr(End + 1);
        }
        if (Rest.empty() && !Marker.empty())
          DeclaredMarker = Marker;
      }
      I = E;
      continue;
    }
    if (std::strchr("{}[](),;:+-@!|<>=", C)) {
      Out.push_back({TkPunct, std::string(1, C), Line});
      if (C == ';' && !DeclaredMarker.empty()) {
        Out.push_back({TkMarker, DeclaredMarker, Line});
        DeclaredMarker.clear();
      }
      ++I;
      continue;
    }
    throw ParseError(Line, std::string("unexpected character '") + C + "'");
  }
  Out.push_back({TkEnd, "", Line});
  return Out;
}

bool parseIntLit(const std::string &S, int64_t &V) {
  const char *P = S.c_str();
  char *End = nullptr;
  errno = 0;
  if (S.size() > 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X'))
    V = (int64_t)std::strtoull(P + 2, &End, 16);
  else if (S.size() > 1 && S[0] == '0' && std::isdigit((unsigned char)S[1]))
    V = (int64_t)std::strtoull(P, &End, 8);
  else if (S.size() > 2 && S[0] == '0' && (S[1] == 'b' || S[1] == 'B'))
    V = (int64_t)std::strtoull(P + 2, &End, 2);
  else
    V = (int64_t)std::strtoull(P, &End, 10);
  if (End && (*End == 'U' || *End == 'u')) ++End;
  return End && *End == 0;
}

// Raw operand as written.
struct RawOp {
  enum K { Reg, Num, Vec, Mem, Paren, Sink } Kind = Reg;
  std::string Name;  // Reg: identifier; Num: literal text; Mem: base (may be empty)
  std::string Name2; // second predicate of %p|%q
  bool Neg = false, Not = false;
  int64_t Off = 0; // Mem offset
  std::vector<RawOp> Elems;
};

struct Scope {
  std::unordered_map<std::string, uint32_t> Regs;
  std::unordered_map<std::string, uint32_t> Labels;
  std::vector<std::pair<uint32_t, std::string>> Pending; // inst index, label
  std::vector<std::pair<uint32_t, std::string>> PendingBrx; // brx table index
  std::unordered_map<std::string, uint32_t> Params;         // name -> offset
  std::unordered_map<std::string, uint32_t> ParamSize;
  bool Instrumentation = false; // a WarpScope probe's scope (declares %ws_...)
};

class Parser {
public:
  Parser(const std::string &Text, ParsedModule &M) : Toks(tokenize(Text)), M(M) {}
  void run();

private:
  std::vector<Token> Toks;
  size_t P = 0;
  ParsedModule &M;
  // Function body state.
  Function *F = nullptr;
  std::vector<Scope> Scopes;
  std::unordered_map<uint64_t, uint32_t> ConstSlots;
  std::unordered_map<int, uint32_t> SpecialSlots;
  std::unordered_map<std::string, uint32_t> LocalSyms; // depot name -> offset
  uint32_t CurFile = 0, CurLine = 0, CurCol = 0;
  int32_t PendingMarker = -1;
  /// Static variables are allocated when the module loads: a size beyond
  /// this (per variable, and for a module's .global and .const together)
  /// is refused with an error rather than tried (real programs put large
  /// data in cudaMalloc'd memory).
  static constexpr uint64_t MaxVariableBytes = uint64_t(256) << 20;
  uint64_t StaticBytes = 0;
  std::unordered_map<std::string, std::vector<uint32_t>> BrxTargets;

  const Token &cur() const { return Toks[P]; }
  const Token &peek(size_t K = 1) const { return Toks[std::min(P + K, Toks.size() - 1)]; }
  bool isP(const char *S) const { return cur().K == TkPunct && cur().Text == S; }
  bool isI(const char *S) const { return cur().K == TkIdent && cur().Text == S; }
  [[noreturn]] void fail(const std::string &Msg) { throw ParseError(cur().Line, Msg); }
  void expectP(const char *S) {
    if (!isP(S)) fail(std::string("expected '") + S + "' but found '" + cur().Text + "'");
    ++P;
  }
  std::string ident() {
    if (cur().K != TkIdent) fail("expected identifier, found '" + cur().Text + "'");
    return Toks[P++].Text;
  }
  int64_t number() {
    bool Neg = false;
    if (isP("-")) { Neg = true; ++P; }
    if (cur().K != TkNum) fail("expected number, found '" + cur().Text + "'");
    int64_t V;
    if (!parseIntLit(cur().Text, V)) fail("bad integer '" + cur().Text + "'");
    ++P;
    return Neg ? -V : V;
  }
  void skipLine(uint32_t L) {
    while (cur().K != TkEnd && cur().Line == L) ++P;
  }
  void skipLine() { skipLine(cur().Line); }
  void skipBalanced() { // at '{'
    int Depth = 0;
    do {
      if (cur().K == TkEnd) fail("unterminated block");
      if (isP("{")) ++Depth;
      else if (isP("}")) --Depth;
      ++P;
    } while (Depth > 0);
  }

  void topLevel();
  void parseVarDecl(uint8_t Space, bool InFunction);
  void parseFunction(bool IsKernel);
  void parseParamList(Function &Fn, bool IsRet);
  void parseBody();
  void parseStatement();
  void parseInstruction();
  RawOp parseOperand();
  RawOp parseOperandList(RawOp::K Kind, const char *Close, const char *Error);
  void closeScope();

  uint32_t constSlot(uint64_t V);
  uint32_t specialSlot(int Id);
  uint32_t srcSlot(const RawOp &O, Ty Context);
  uint32_t dstSlot(const RawOp &O);
  bool lookupReg(const std::string &N, uint32_t &Slot) const;
  bool symbolValue(const std::string &N, uint64_t &V, bool &IsLocal, uint8_t &Space);
  void memOperand(const RawOp &O, Inst &I);
  void decode(const std::string &Opc, std::vector<RawOp> &Ops, Inst &I);
};

void Parser::run() {
  while (cur().K != TkEnd) topLevel();
}

void Parser::topLevel() {
  if (cur().K == TkMarker) { ++P; return; }
  if (isP(";")) { ++P; return; }
  if (cur().K != TkIdent) fail("unexpected '" + cur().Text + "' at module scope");
  const std::string &T = cur().Text;
  if (T == ".version" || T == ".target" || T == ".address_size") { skipLine(); return; }
  if (T == ".file") {
    ++P;
    int64_t Idx = number();
    std::string Name;
    if (cur().K == TkStr) { Name = cur().Text; ++P; }
    if (cur().K == TkStr) { // directory, file
      std::string F2 = cur().Text; ++P;
      if (!F2.empty() && F2[0] != '/' && !Name.empty()) Name = Name + "/" + F2;
      else Name = F2;
    }
    M.Files[(uint32_t)Idx] = Name;
    while (isP(",")) { ++P; ++P; }
    return;
  }
  if (T == ".section") {
    ++P;
    while (cur().K != TkEnd && !isP("{")) ++P;
    if (isP("{")) skipBalanced();
    return;
  }
  if (T == ".pragma") { ++P; while (!isP(";") && cur().K != TkEnd) ++P; ++P; return; }
  bool Extern = false;
  while (isI(".visible") || isI(".weak") || isI(".extern") || isI(".common")) {
    if (isI(".extern")) Extern = true;
    ++P;
  }
  (void)Extern;
  if (isI(".entry")) { ++P; parseFunction(true); return; }
  if (isI(".func")) { ++P; parseFunction(false); return; }
  if (isI(".global")) { ++P; parseVarDecl(SpGlobal, false); return; }
  if (isI(".const")) { ++P; parseVarDecl(SpConst, false); return; }
  if (isI(".shared")) { ++P; parseVarDecl(SpShared, false); return; }
  if (isI(".local")) { ++P; parseVarDecl(SpLocal, false); return; }
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
        fail(".align " + std::to_string(A) + " is not a power of two up to 65536");
      Align = (uint32_t)A;
    } else if (D == ".v2") VecN = 2;
    else if (D == ".v4") VecN = 4;
    else if (D == ".ptr") {}
    else {
      Ty X = parseTy(D.substr(1));
      if (X == Ty::None) fail("unsupported variable attribute '" + D + "'");
      T = X;
    }
  }
  if (T == Ty::None) fail("variable without type");
  unsigned ES = tySize(T) * VecN;
  if (!Align) Align = ES;
  for (;;) {
    std::string Name = ident();
    size_t Count = 1;
    bool Unsized = false;
    while (isP("[")) {
      ++P;
      if (isP("]")) { Unsized = true; ++P; continue; }
      int64_t Dim = number();
      // Checked one dimension at a time, so the product cannot overflow.
      if (Dim <= 0 || (uint64_t)Dim > MaxVariableBytes ||
          Count * (uint64_t)Dim > MaxVariableBytes)
        fail("variable '" + Name + "' is larger than the emulator's limit of " +
             std::to_string(MaxVariableBytes >> 20) + " MiB (or has a dimension <= 0)");
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
             "limit of " + std::to_string(MaxVariableBytes >> 20) + " MiB");
    }
    if (Space == SpLocal) {
      if (!InFunction) fail("module-scope .local unsupported");
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
        if (Space == SpShared) fail("initializer on .shared variable");
        // Flatten the initializer list.
        size_t Idx = 0;
        int Depth = 0;
        auto StoreOne = [&](uint64_t Bits) {
          if ((Idx + 1) * tySize(T) > Size + (VecN - 1) * 0) {
            if (Idx * tySize(T) >= Size) fail("too many initializers");
          }
          std::memcpy(G->Data + Idx * tySize(T), &Bits, tySize(T));
          ++Idx;
        };
        do {
          if (isP("{")) { ++Depth; ++P; continue; }
          if (isP("}")) { --Depth; ++P; if (isP(",")) ++P; continue; }
          if (isP(",")) { ++P; continue; }
          // element
          bool Neg = false;
          if (isP("-")) { Neg = true; ++P; }
          if (cur().K == TkNum) {
            std::string L = cur().Text;
            ++P;
            uint64_t Bits = 0;
            if (L.size() == 10 && (L[1] == 'f' || L[1] == 'F')) {
              uint32_t B = (uint32_t)std::strtoul(L.c_str() + 2, nullptr, 16);
              if (T == Ty::F64) { float Fv; std::memcpy(&Fv, &B, 4); double Dv = Fv; std::memcpy(&Bits, &Dv, 8); }
              else Bits = B;
              if (Neg) Bits ^= (T == Ty::F64) ? (1ull << 63) : (1ull << 31);
            } else if (L.size() == 18 && (L[1] == 'd' || L[1] == 'D')) {
              Bits = std::strtoull(L.c_str() + 2, nullptr, 16);
              if (Neg) Bits ^= 1ull << 63;
            } else if (L.find_first_of(".eE") != std::string::npos &&
                       !(L.size() > 1 && (L[1] == 'x' || L[1] == 'X'))) {
              double Dv = std::strtod(L.c_str(), nullptr);
              if (Neg) Dv = -Dv;
              if (T == Ty::F32) { float Fv = (float)Dv; uint32_t B; std::memcpy(&B, &Fv, 4); Bits = B; }
              else std::memcpy(&Bits, &Dv, 8);
            } else {
              int64_t V;
              if (!parseIntLit(L, V)) fail("bad initializer '" + L + "'");
              if (T == Ty::F32) { float Fv = (float)(Neg ? -V : V); uint32_t B; std::memcpy(&B, &Fv, 4); Bits = B; }
              else if (T == Ty::F64) { double Dv = (double)(Neg ? -V : V); std::memcpy(&Bits, &Dv, 8); }
              else Bits = (uint64_t)(Neg ? -V : V);
            }
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
            if (Paren) expectP(")");
            if (isP("+")) { ++P; Add = number(); }
            if (Paren && isP(")")) ++P;
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
      uint32_t Index = (uint32_t)M.Globals.size();
      M.GlobalIndex[Name] = Index;
      M.Globals.push_back(std::move(G));
    }
    if (isP(",")) { ++P; continue; }
    break;
  }
  expectP(";");
}

void Parser::parseParamList(Function &Fn, bool IsRet) {
  expectP("(");
  while (!isP(")")) {
    if (!isI(".param") && !isI(".reg")) fail("expected .param in parameter list");
    ++P;
    uint32_t Align = 0;
    Ty T = Ty::None;
    bool Ptr = false;
    while (cur().K == TkIdent && cur().Text[0] == '.') {
      std::string D = ident();
      if (D == ".align") {
        uint32_t A = (uint32_t)number();
        if (!Ptr) Align = A; // after .ptr, .align is the pointee's alignment
      } else if (D == ".ptr") Ptr = true;
      else if (D == ".global" || D == ".shared" || D == ".local" || D == ".const") {}
      else {
        Ty X = parseTy(D.substr(1));
        if (X == Ty::None) fail("unsupported parameter attribute '" + D + "'");
        T = X;
      }
    }
    ParamDecl PD;
    PD.Name = ident();
    uint32_t Count = 1;
    while (isP("[")) { ++P; Count *= (uint32_t)number(); expectP("]"); }
    PD.Size = tySize(T) * Count;
    PD.Align = Align ? Align : std::max(1u, tySize(T));
    Fn.ParamBytes = (Fn.ParamBytes + PD.Align - 1) / PD.Align * PD.Align;
    PD.Off = Fn.ParamBytes;
    Fn.ParamBytes += PD.Size;
    if (IsRet) { Fn.HasRet = true; Fn.Ret = PD; }
    else Fn.Params.push_back(PD);
    if (isP(",")) ++P;
  }
  expectP(")");
}

void Parser::parseFunction(bool IsKernel) {
  auto Fn = std::make_unique<Function>();
  Fn->IsKernel = IsKernel;
  Function Tmp;
  bool HasRet = false;
  if (!IsKernel && isP("(")) { parseParamList(Tmp, true); HasRet = true; }
  std::string Name = ident();
  Fn->Name = Name;
  Fn->ParamBytes = Tmp.ParamBytes;
  if (HasRet) { Fn->HasRet = true; Fn->Ret = Tmp.Ret; }
  if (isP("(")) parseParamList(*Fn, false);
  // Performance directives.
  while (cur().K == TkIdent && cur().Text[0] == '.') {
    std::string D = ident();
    if (D == ".maxntid" || D == ".reqntid") {
      uint32_t Prod = 1;
      Prod *= (uint32_t)number();
      while (isP(",")) { ++P; Prod *= (uint32_t)number(); }
      (D == ".maxntid" ? Fn->MaxNtid : Fn->ReqNtid) = Prod;
    } else if (D == ".minnctapersm" || D == ".maxnreg" || D == ".maxnctapersm" ||
               D == ".maxclusterrank") {
      number();
    } else if (D == ".noreturn") {
    } else if (D == ".pragma") {
      while (!isP(";")) ++P;
      ++P;
    } else {
      fail("unsupported function directive '" + D + "'");
    }
  }
  uint32_t Index;
  auto It = M.FuncIndex.find(Name);
  if (It != M.FuncIndex.end()) {
    Index = It->second;
    Function &Old = *M.Functions[Index];
    if (isP("{") && Old.HasBody) fail("function '" + Name + "' defined twice");
    if (!isP("{")) { expectP(";"); return; }
    Fn->Name = Name;
    M.Functions[Index] = std::move(Fn);
  } else {
    Index = (uint32_t)M.Functions.size();
    M.FuncIndex[Name] = Index;
    if (Name == "vprintf") Fn->Bi = BiVprintf;
    else if (Name == "malloc") Fn->Bi = BiMalloc;
    else if (Name == "free") Fn->Bi = BiFree;
    else if (Name == "__assertfail") Fn->Bi = BiAssert;
    M.Functions.push_back(std::move(Fn));
    if (!isP("{")) { expectP(";"); M.Functions[Index]->Declared = true; return; }
  }
  F = M.Functions[Index].get();
  F->HasBody = true;
  F->Bi = BiNone;
  parseBody();
  F = nullptr;
}

void Parser::parseBody() {
  Scopes.clear();
  ConstSlots.clear();
  SpecialSlots.clear();
  LocalSyms.clear();
  BrxTargets.clear();
  PendingMarker = -1;
  CurFile = CurLine = CurCol = 0;
  // Function-level scope holds parameters.
  Scopes.emplace_back();
  for (auto &PD : F->Params) { Scopes.back().Params[PD.Name] = PD.Off; Scopes.back().ParamSize[PD.Name] = PD.Size; }
  if (F->HasRet) { Scopes.back().Params[F->Ret.Name] = F->Ret.Off; Scopes.back().ParamSize[F->Ret.Name] = F->Ret.Size; }
  expectP("{");
  Scopes.emplace_back();
  while (!(isP("}") && Scopes.size() == 2)) {
    if (cur().K == TkEnd) fail("unexpected end of input in function body");
    parseStatement();
  }
  ++P;
  closeScope();
  closeScope();
  F->ParamBytes = (F->ParamBytes + 7) / 8 * 8;
  F->WarpExec.assign(F->Code.size(), 0);
  F->ThreadExec.assign(F->Code.size(), 0);
  F->ActiveExec.assign(F->Code.size(), 0);
  F->Visits.assign(F->Code.size(), 0);
  F->Divergent.assign(F->Code.size(), 0);
  computeReconvergence(*F);
}

void Parser::closeScope() {
  Scope S = std::move(Scopes.back());
  Scopes.pop_back();
  for (auto &PR : S.Pending) {
    auto It = S.Labels.find(PR.second);
    if (It != S.Labels.end()) F->Code[PR.first].Target = It->second;
    else if (!Scopes.empty()) Scopes.back().Pending.push_back(PR);
    else throw ParseError(F->Code[PR.first].PtxLine, "undefined label '" + PR.second + "'");
  }
  for (auto &PR : S.PendingBrx) {
    auto It = S.Labels.find(PR.second);
    if (It != S.Labels.end()) {
      F->BrxTables[PR.first >> 16][PR.first & 0xffff] = It->second;
    } else if (!Scopes.empty()) {
      Scopes.back().PendingBrx.push_back(PR);
    } else {
      throw ParseError(0, "undefined label '" + PR.second + "' in .branchtargets");
    }
  }
}

void Parser::parseStatement() {
  const Token &T = cur();
  if (T.K == TkMarker) {
    PendingMarker = (int32_t)M.Markers.size();
    M.Markers.push_back(T.Text);
    ++P;
    return;
  }
  if (T.K == TkPunct) {
    if (T.Text == "{") { ++P; Scopes.emplace_back(); return; }
    if (T.Text == "}") { ++P; if (Scopes.size() <= 2) fail("unbalanced '}'"); closeScope(); return; }
    if (T.Text == ";") { ++P; return; }
    if (T.Text == "@") { parseInstruction(); return; }
    fail("unexpected '" + T.Text + "'");
  }
  if (T.K != TkIdent) fail("unexpected '" + T.Text + "' in function body");
  if (T.Text == ".reg") {
    ++P;
    Ty Tp = Ty::None;
    while (cur().K == TkIdent && cur().Text[0] == '.') {
      std::string D = ident();
      Ty X = parseTy(D.substr(1));
      if (X != Ty::None) Tp = X;
      else if (D != ".align" && D != ".v2" && D != ".v4") fail("unsupported .reg attribute '" + D + "'");
      if (D == ".align") number();
    }
    if (Tp == Ty::None) fail(".reg without type");
    for (;;) {
      std::string N = ident();
      if (isP("<")) {
        ++P;
        int64_t Cnt = number();
        expectP(">");
        for (int64_t K = 0; K < Cnt; ++K) Scopes.back().Regs[N + std::to_string(K)] = F->NumSlots++;
        F->NumDeclaredRegs += (uint32_t)Cnt;
      } else {
        Scopes.back().Regs[N] = F->NumSlots++;
        F->NumDeclaredRegs++;
        if (N.compare(0, 4, "%ws_") == 0 && Scopes.size() > 2)
          Scopes.back().Instrumentation = true;
        // Instrumentation probes name themselves with a marker register
        // ("%ws_block_12" -> "ws:block 12"); comments do not survive into
        // fatbins, declarations do. It marks the next instruction.
        for (const char *Pre : {BlockMarkerRegister, BranchMarkerRegister}) {
          size_t L = std::strlen(Pre);
          if (N.compare(0, L, Pre) == 0 && N.size() > L &&
              N.find_first_not_of("0123456789", L) == std::string::npos) {
            std::string Kind = Pre == BlockMarkerRegister ? BlockMarker : BranchMarker;
            PendingMarker = (int32_t)M.Markers.size();
            M.Markers.push_back(Kind + " " + N.substr(L));
          }
        }
      }
      if (isP(",")) { ++P; continue; }
      break;
    }
    expectP(";");
    return;
  }
  if (T.Text == ".local") { ++P; parseVarDecl(SpLocal, true); return; }
  if (T.Text == ".shared") { ++P; parseVarDecl(SpShared, true); return; }
  if (T.Text == ".global" || T.Text == ".const") {
    uint8_t Sp = T.Text == ".global" ? SpGlobal : SpConst;
    ++P;
    parseVarDecl(Sp, true);
    return;
  }
  if (T.Text == ".param") {
    ++P;
    uint32_t Align = 0;
    Ty Tp = Ty::None;
    while (cur().K == TkIdent && cur().Text[0] == '.') {
      std::string D = ident();
      if (D == ".align") Align = (uint32_t)number();
      else if (D == ".ptr") {}
      else { Ty X = parseTy(D.substr(1)); if (X == Ty::None) fail("bad .param attribute '" + D + "'"); Tp = X; }
    }
    for (;;) {
      std::string N = ident();
      uint32_t Count = 1;
      while (isP("[")) { ++P; Count *= (uint32_t)number(); expectP("]"); }
      uint32_t Size = tySize(Tp) * Count;
      uint32_t A = Align ? Align : std::max(1u, tySize(Tp));
      F->ParamBytes = (F->ParamBytes + A - 1) / A * A;
      Scopes.back().Params[N] = F->ParamBytes;
      Scopes.back().ParamSize[N] = Size;
      F->ParamBytes += Size;
      if (isP(",")) { ++P; continue; }
      break;
    }
    expectP(";");
    return;
  }
  if (T.Text == ".loc") {
    uint32_t LocLine = T.Line;
    ++P;
    CurFile = (uint32_t)number();
    CurLine = (uint32_t)number();
    CurCol = (uint32_t)number();
    skipLine(LocLine);
    return;
  }
  if (T.Text == ".pragma") { ++P; while (!isP(";") && cur().K != TkEnd) ++P; expectP(";"); return; }
  if (T.Text == ".file") { ++P; number(); while (cur().K == TkStr) ++P; return; }
  if (peek().K == TkPunct && peek().Text == ":") {
    std::string L = ident();
    ++P;
    if (isI(".branchtargets")) {
      ++P;
      std::vector<std::string> Names;
      for (;;) { Names.push_back(ident()); if (isP(",")) { ++P; continue; } break; }
      expectP(";");
      std::vector<uint32_t> Idx;
      BrxTargets[L] = {};
      // Store names; resolved at decode time of brx (labels may be forward).
      uint32_t TabIdx = (uint32_t)F->BrxTables.size();
      F->BrxTables.emplace_back(Names.size(), 0u);
      BrxTargets[L].push_back(TabIdx);
      if (Names.size() > 0xffff) fail("too many branch targets");
      for (size_t K = 0; K < Names.size(); ++K)
        Scopes.back().PendingBrx.push_back({(TabIdx << 16) | (uint32_t)K, Names[K]});
      return;
    }
    if (isI(".callprototype")) { // only used by indirect calls (unsupported)
      while (!isP(";") && cur().K != TkEnd) ++P;
      expectP(";");
      return;
    }
    if (Scopes.back().Labels.count(L)) fail("duplicate label '" + L + "'");
    Scopes.back().Labels[L] = (uint32_t)F->Code.size();
    return;
  }
  if (T.Text[0] == '.') fail("unsupported directive '" + T.Text + "' in function body");
  parseInstruction();
}

// A comma-separated operand list after its opening token, up to Close:
// vector operands {a, b} and call argument lists (a, b).
RawOp Parser::parseOperandList(RawOp::K Kind, const char *Close, const char *Error) {
  RawOp O;
  O.Kind = Kind;
  ++P;
  while (!isP(Close)) {
    O.Elems.push_back(parseOperand());
    if (isP(",")) ++P;
    else if (!isP(Close)) fail(Error);
  }
  ++P;
  return O;
}

RawOp Parser::parseOperand() {
  RawOp O;
  if (isP("{"))
    return parseOperandList(RawOp::Vec, "}", "expected ',' or '}' in vector operand");
  if (isP("("))
    return parseOperandList(RawOp::Paren, ")", "expected ',' or ')'");
  if (isP("[")) {
    ++P;
    O.Kind = RawOp::Mem;
    if (cur().K == TkIdent) {
      O.Name = ident();
      if (isP("+")) {
        ++P;
        O.Off = number();
      } else if (isP("-")) {
        O.Off = number();
      }
    } else {
      O.Off = number();
    }
    while (isP(",")) { // e.g. tex [tex, {coords}]: kept for the error only
      ++P;
      O.Elems.push_back(parseOperand());
    }
    expectP("]");
    return O;
  }
  if (isP("!")) { ++P; O.Not = true; }
  if (isP("-")) {
    ++P;
    O.Neg = true;
  }
  if (cur().K == TkNum) {
    O.Kind = RawOp::Num;
    O.Name = cur().Text;
    ++P;
    return O;
  }
  if (cur().K == TkIdent) {
    O.Name = ident();
    if (O.Name == "_") O.Kind = RawOp::Sink;
    if (isP("|")) { ++P; O.Name2 = ident(); }
    if (isP("+") && peek().K == TkNum) { ++P; O.Off = number(); }
    return O;
  }
  fail("bad operand '" + cur().Text + "'");
}

void Parser::parseInstruction() {
  Inst I;
  I.PtxLine = cur().Line;
  std::string GuardName;
  bool GuardNeg = false;
  if (isP("@")) {
    ++P;
    if (isP("!")) { GuardNeg = true; ++P; }
    GuardName = ident();
  }
  std::string Opc = ident();
  std::vector<RawOp> Ops;
  try {
    while (!isP(";")) {
      if (cur().K == TkEnd) fail("missing ';'");
      Ops.push_back(parseOperand());
      if (isP(",")) ++P;
      else if (!isP(";")) fail("expected ',' or ';' after operand, found '" + cur().Text + "'");
    }
  } catch (ParseError &E) {
    std::string Where = "in function " + F->Name;
    if (CurFile) {
      auto It = M.Files.find(CurFile);
      Where += " (source " + (It != M.Files.end() ? It->second : "file " + std::to_string(CurFile)) +
               ":" + std::to_string(CurLine) + ")";
    }
    throw ParseError(E.Line, Where + ": '" + Opc + "': " + E.what());
  }
  ++P;
  if (!GuardName.empty()) {
    uint32_t S;
    if (!lookupReg(GuardName, S)) throw ParseError(I.PtxLine, "unknown predicate '" + GuardName + "'");
    I.Guard = (int32_t)S;
    I.GuardNeg = GuardNeg;
  }
  I.File = CurFile;
  I.Line = CurLine;
  I.Col = CurCol;
  I.Marker = PendingMarker;
  PendingMarker = -1;
  try {
    decode(Opc, Ops, I);
  } catch (Unsupported &E) {
    Inst U;
    U.Op = OpUnsupported;
    U.Guard = I.Guard;
    U.GuardNeg = I.GuardNeg;
    U.PtxLine = I.PtxLine;
    U.File = I.File;
    U.Line = I.Line;
    U.Col = I.Col;
    U.Marker = I.Marker;
    U.Target = (uint32_t)F->UnsupportedWhy.size();
    F->UnsupportedWhy.push_back(E.what());
    I = U;
  } catch (ParseError &E) {
    std::string Where = "in function " + F->Name;
    if (CurFile) {
      auto It = M.Files.find(CurFile);
      Where += " (source " + (It != M.Files.end() ? It->second : "file " + std::to_string(CurFile)) +
               ":" + std::to_string(CurLine) + ")";
    }
    throw ParseError(I.PtxLine, Where + ": " + E.what());
  }
  F->Code.push_back(I);
  F->Opcodes.push_back(Opc);
  bool Probe = false;
  for (const Scope &Sc : Scopes)
    Probe |= Sc.Instrumentation;
  F->Instrumentation.push_back(Probe);
}

bool Parser::lookupReg(const std::string &N, uint32_t &Slot) const {
  for (size_t K = Scopes.size(); K-- > 0;) {
    auto It = Scopes[K].Regs.find(N);
    if (It != Scopes[K].Regs.end()) { Slot = It->second; return true; }
  }
  return false;
}

uint32_t Parser::constSlot(uint64_t V) {
  auto It = ConstSlots.find(V);
  if (It != ConstSlots.end()) return It->second;
  uint32_t S = F->NumSlots++;
  F->Inits.push_back({S, InitValue, V});
  ConstSlots[V] = S;
  return S;
}

uint32_t Parser::specialSlot(int Id) {
  auto It = SpecialSlots.find(Id);
  if (It != SpecialSlots.end()) return It->second;
  uint32_t S = F->NumSlots++;
  F->Inits.push_back({S, InitSpecial, (uint64_t)Id});
  SpecialSlots[Id] = S;
  return S;
}

int specialId(const std::string &N) {
  static const std::unordered_map<std::string, int> M = {
      {"%tid.x", SrTidX}, {"%tid.y", SrTidY}, {"%tid.z", SrTidZ},
      {"%ntid.x", SrNtidX}, {"%ntid.y", SrNtidY}, {"%ntid.z", SrNtidZ},
      {"%ctaid.x", SrCtaidX}, {"%ctaid.y", SrCtaidY}, {"%ctaid.z", SrCtaidZ},
      {"%nctaid.x", SrNctaidX}, {"%nctaid.y", SrNctaidY}, {"%nctaid.z", SrNctaidZ},
      {"%laneid", SrLaneid}, {"%warpid", SrWarpid}, {"%nwarpid", SrNwarpid},
      {"%smid", SrSmid}, {"%nsmid", SrNsmid}, {"%gridid", SrGridid},
      {"%lanemask_eq", SrLanemaskEq}, {"%lanemask_lt", SrLanemaskLt},
      {"%lanemask_le", SrLanemaskLe}, {"%lanemask_gt", SrLanemaskGt},
      {"%lanemask_ge", SrLanemaskGe}, {"%dynamic_smem_size", SrDynSmem},
      {"%total_smem_size", SrTotalSmem}, {"%clock", SrClock},
      {"%clock64", SrClock64}, {"%globaltimer", SrGlobaltimer},
      {"%globaltimer_lo", SrGlobaltimer},
      {"%clusterid.x", SrClusterZero}, {"%clusterid.y", SrClusterZero},
      {"%clusterid.z", SrClusterZero}, {"%cluster_ctarank", SrClusterZero},
      {"%cluster_nctarank", SrClusterOne}, {"%is_explicit_cluster", SrClusterZero},
      {"%nclusterid.x", SrClusterOne}, {"%nclusterid.y", SrClusterOne},
      {"%nclusterid.z", SrClusterOne},
  };
  auto It = M.find(N);
  if (It != M.end()) return It->second;
  if (N.compare(0, 7, "%envreg") == 0) return SrEnvreg;
  return -1;
}

bool Parser::symbolValue(const std::string &N, uint64_t &V, bool &IsLocal, uint8_t &Space) {
  IsLocal = false;
  for (size_t K = Scopes.size(); K-- > 0;) {
    auto It = Scopes[K].Params.find(N);
    if (It != Scopes[K].Params.end()) { V = It->second; Space = SpParam; return true; }
  }
  auto L = LocalSyms.find(N);
  if (L != LocalSyms.end()) { V = L->second; IsLocal = true; Space = SpLocal; return true; }
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
  if (Fn != M.FuncIndex.end()) { V = FunctionAddressBase + Fn->second; Space = SpGeneric; return true; }
  return false;
}

uint64_t floatLitBits(const std::string &L, Ty Context, bool Neg, bool &Ok) {
  Ok = true;
  uint64_t Bits;
  // A 64-bit context of any kind (b64, u64, s64, f64) holds a double.
  bool F64 = tySize(Context) == 8;
  if (L.size() == 10 && (L[1] == 'f' || L[1] == 'F')) {
    uint32_t B = (uint32_t)std::strtoul(L.c_str() + 2, nullptr, 16);
    if (F64) { float Fv; std::memcpy(&Fv, &B, 4); double D = Fv; std::memcpy(&Bits, &D, 8); }
    else Bits = B;
  } else if (L.size() == 18 && (L[1] == 'd' || L[1] == 'D')) {
    Bits = std::strtoull(L.c_str() + 2, nullptr, 16);
    if (!F64) { double D; std::memcpy(&D, &Bits, 8); float Fv = (float)D; uint32_t B; std::memcpy(&B, &Fv, 4); Bits = B; }
  } else {
    double D = std::strtod(L.c_str(), nullptr);
    if (F64) std::memcpy(&Bits, &D, 8);
    else { float Fv = (float)D; uint32_t B; std::memcpy(&B, &Fv, 4); Bits = B; }
  }
  if (Neg) Bits ^= F64 ? (1ull << 63) : (1ull << 31);
  return Bits;
}

uint32_t Parser::srcSlot(const RawOp &O, Ty Context) {
  if (O.Kind == RawOp::Num) {
    const std::string &L = O.Name;
    bool IsHexFloat = L.size() > 2 && L[0] == '0' &&
                      (L[1] == 'f' || L[1] == 'F' || L[1] == 'd' || L[1] == 'D');
    bool IsDecFloat = !(L.size() > 1 && (L[1] == 'x' || L[1] == 'X')) &&
                      L.find_first_of(".eE") != std::string::npos;
    if (IsHexFloat || IsDecFloat) {
      bool Ok;
      return constSlot(floatLitBits(L, Context, O.Neg, Ok));
    }
    int64_t V;
    if (!parseIntLit(L, V)) fail("bad literal '" + L + "'");
    if (O.Neg) V = -V;
    if (Context == Ty::F32) { float Fv = (float)V; uint32_t B; std::memcpy(&B, &Fv, 4); return constSlot(B); }
    if (Context == Ty::F64) { double Dv = (double)V; uint64_t B; std::memcpy(&B, &Dv, 8); return constSlot(B); }
    return constSlot((uint64_t)V);
  }
  if (O.Kind == RawOp::Sink) return SlotZero;
  if (O.Kind != RawOp::Reg) fail("unexpected operand kind");
  uint32_t S;
  if (lookupReg(O.Name, S)) return S;
  int Sp = specialId(O.Name);
  if (Sp >= 0) return specialSlot(Sp);
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
  if (O.Kind == RawOp::Sink) return SlotSink;
  if (O.Kind != RawOp::Reg) fail("destination must be a register");
  uint32_t S;
  if (lookupReg(O.Name, S)) return S;
  fail("unknown destination register '" + O.Name + "'");
}

void Parser::memOperand(const RawOp &O, Inst &I) {
  if (O.Kind != RawOp::Mem || !O.Elems.empty()) fail("expected address operand [..]");
  I.Off = O.Off;
  if (O.Name.empty()) { I.Addr = SlotZero; return; }
  RawOp R;
  R.Kind = RawOp::Reg;
  R.Name = O.Name;
  I.Addr = srcSlot(R, Ty::U64);
}

struct Mods {
  std::string Base;
  std::vector<std::string> List;
  std::vector<Ty> Types;
  bool has(const char *S) const {
    for (auto &X : List) if (X == S) return true;
    return false;
  }
};

Mods splitOpcode(const std::string &Opc) {
  Mods M;
  size_t Pos = Opc.find('.');
  M.Base = Opc.substr(0, Pos);
  while (Pos != std::string::npos) {
    size_t Next = Opc.find('.', Pos + 1);
    std::string Part = Opc.substr(Pos + 1, Next == std::string::npos ? std::string::npos : Next - Pos - 1);
    Ty T = parseTy(Part);
    if (T != Ty::None) M.Types.push_back(T);
    else M.List.push_back(Part);
    Pos = Next;
  }
  return M;
}

int cmpOf(const std::string &S) {
  static const char *Names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (int K = 0; K < 18; ++K) if (S == Names[K]) return K;
  return -1;
}

uint8_t spaceOf(const Mods &M) {
  for (auto &S : M.List) {
    if (S == "global") return SpGlobal;
    if (S == "shared" || S.compare(0, 7, "shared:") == 0) return SpShared;
    if (S == "local") return SpLocal;
    if (S == "param" || S.compare(0, 6, "param:") == 0) return SpParam;
    if (S == "const") return SpConst;
  }
  return SpGeneric;
}

uint8_t rndOf(const Mods &M) {
  for (auto &S : M.List) {
    if (S == "rn") return RndRn;
    if (S == "rz") return RndRz;
    if (S == "rm") return RndRm;
    if (S == "rp") return RndRp;
    if (S == "rni") return RndRni;
    if (S == "rzi") return RndRzi;
    if (S == "rmi") return RndRmi;
    if (S == "rpi") return RndRpi;
    if (S == "rna") return RndRna;
  }
  return RndNone;
}

void Parser::decode(const std::string &Opc, std::vector<RawOp> &Ops, Inst &I) {
  Mods Md = splitOpcode(Opc);
  const std::string &B = Md.Base;
  I.T = Md.Types.empty() ? Ty::None : Md.Types[0];
  I.T2 = Md.Types.size() > 1 ? Md.Types[1] : Ty::None;
  I.Rnd = rndOf(Md);
  if (Md.has("ftz")) I.Flags |= FFtz;
  if (Md.has("sat")) I.Flags |= FSat;
  if (Md.has("approx")) I.Flags |= FApprox;
  if (Md.has("full")) I.Flags |= FFull;
  if (Md.has("NaN")) I.Flags |= FNan;
  if (Md.has("relu")) I.Flags |= FRelu;
  if (Md.has("uni")) I.Flags |= FUni;
  for (auto &X : Md.List) {
    if (X == "v2") I.Vec = 2;
    else if (X == "v4") I.Vec = 4;
    else if (X == "v8") I.Vec = 8;
  }
  auto NeedOps = [&](size_t N) {
    if (Ops.size() != N)
      fail("'" + Opc + "' expects " + std::to_string(N) + " operands, got " + std::to_string(Ops.size()));
  };
  auto SetD = [&](size_t K, const RawOp &O) { I.D[K] = dstSlot(O); I.ND = std::max<uint8_t>(I.ND, K + 1); };
  auto SetS = [&](size_t K, const RawOp &O, Ty Ctx) { I.S[K] = srcSlot(O, Ctx); I.NS = std::max<uint8_t>(I.NS, K + 1); };
  auto Simple = [&](uint16_t Op, size_t NSrc) {
    I.Op = Op;
    NeedOps(NSrc + 1);
    SetD(0, Ops[0]);
    for (size_t K = 0; K < NSrc; ++K) SetS(K, Ops[K + 1], I.T);
  };
  auto NeedType = [&]() { if (I.T == Ty::None) fail("'" + Opc + "' needs a type"); };

  if (B == "mov") {
    NeedType();
    NeedOps(2);
    if (Ops[1].Kind == RawOp::Vec) {
      I.Op = OpPack;
      SetD(0, Ops[0]);
      if (Ops[1].Elems.size() > 5) fail("vector too wide");
      for (size_t K = 0; K < Ops[1].Elems.size(); ++K) SetS(K, Ops[1].Elems[K], Ty::None);
      return;
    }
    if (Ops[0].Kind == RawOp::Vec) {
      I.Op = OpUnpack;
      if (Ops[0].Elems.size() > 4) fail("vector too wide");
      for (size_t K = 0; K < Ops[0].Elems.size(); ++K) SetD(K, Ops[0].Elems[K]);
      SetS(0, Ops[1], I.T);
      return;
    }
    int Sp = Ops[1].Kind == RawOp::Reg ? specialId(Ops[1].Name) : -1;
    uint32_t Tmp;
    if (Sp >= 0 && !lookupReg(Ops[1].Name, Tmp) &&
        (Sp == SrClock || Sp == SrClock64 || Sp == SrGlobaltimer)) {
      I.Op = Sp == SrClock ? OpClock32 : Sp == SrClock64 ? OpClock64 : OpGlobalTimer;
      SetD(0, Ops[0]);
      return;
    }
    Simple(OpMov, 1);
    return;
  }
  if (B == "add" || B == "sub" || B == "addc" || B == "subc") {
    NeedType();
    Simple(B[0] == 'a' ? OpAdd : OpSub, 2);
    if (Md.has("cc")) I.Flags |= FCcOut;
    if (B.size() == 4) I.Flags |= FCcIn;
    return;
  }
  if (B == "mul" || B == "mad" || B == "madc" || B == "mul24" || B == "mad24") {
    NeedType();
    bool IsMad = B[1] == 'a';
    uint16_t Op = B == "mul24" ? OpMul24 : B == "mad24" ? OpMad24 : IsMad ? OpMad : OpMul;
    Simple(Op, IsMad ? 3 : 2);
    if (Md.has("hi")) I.Flags |= FHi;
    if (Md.has("wide")) I.Flags |= FWide;
    if (Md.has("cc")) I.Flags |= FCcOut;
    if (B == "madc") I.Flags |= FCcIn;
    if (IsMad && tyFloat(I.T)) I.Op = OpFma;
    if (I.Flags & FWide) {
      // Sources are narrow; third source of mad.wide is wide.
      if (IsMad) {
        Ty W = tySize(I.T) == 2 ? (tySigned(I.T) ? Ty::S32 : Ty::U32) : (tySigned(I.T) ? Ty::S64 : Ty::U64);
        I.S[2] = srcSlot(Ops[3], W);
      }
    }
    return;
  }
  if (B == "fma") { NeedType(); Simple(OpFma, 3); return; }
  if (B == "div") { NeedType(); Simple(OpDiv, 2); return; }
  if (B == "rem") { NeedType(); Simple(OpRem, 2); return; }
  if (B == "abs") { NeedType(); Simple(OpAbs, 1); return; }
  if (B == "neg") { NeedType(); Simple(OpNeg, 1); return; }
  if (B == "min" || B == "max") { NeedType(); Simple(B == "min" ? OpMin : OpMax, Ops.size() == 4 ? 3 : 2); return; }
  if (B == "and" || B == "or" || B == "xor") {
    NeedType();
    Simple(B == "and" ? OpAnd : B == "or" ? OpOr : OpXor, 2);
    return;
  }
  if (B == "not") { NeedType(); Simple(OpNot, 1); return; }
  if (B == "cnot") { NeedType(); Simple(OpCnot, 1); return; }
  if (B == "shl" || B == "shr") {
    NeedType();
    I.Op = B == "shl" ? OpShl : OpShr;
    NeedOps(3);
    SetD(0, Ops[0]);
    SetS(0, Ops[1], I.T);
    SetS(1, Ops[2], Ty::U32);
    return;
  }
  if (B == "popc" || B == "clz" || B == "brev" || B == "bfind") {
    NeedType();
    Simple(B == "popc" ? OpPopc : B == "clz" ? OpClz : B == "brev" ? OpBrev : OpBfind, 1);
    if (Md.has("shiftamt")) I.Flags |= FShiftAmt;
    return;
  }
  if (B == "bfe") {
    NeedType(); I.Op = OpBfe; NeedOps(4); SetD(0, Ops[0]); SetS(0, Ops[1], I.T);
    SetS(1, Ops[2], Ty::U32); SetS(2, Ops[3], Ty::U32); return;
  }
  if (B == "bfi") {
    NeedType(); I.Op = OpBfi; NeedOps(5); SetD(0, Ops[0]); SetS(0, Ops[1], I.T); SetS(1, Ops[2], I.T);
    SetS(2, Ops[3], Ty::U32); SetS(3, Ops[4], Ty::U32); return;
  }
  if (B == "prmt") {
    NeedType(); Simple(OpPrmt, 3);
    for (auto &X : Md.List) {
      static const char *Modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      for (int K = 0; K < 6; ++K) if (X == Modes[K]) I.Sub = (uint8_t)(K + 1);
    }
    return;
  }
  if (B == "lop3") {
    NeedType();
    if (Ops.size() != 5) throw Unsupported("lop3 with predicate output unsupported");
    Simple(OpLop3, 4);
    return;
  }
  if (B == "shf") {
    NeedType(); Simple(OpShf, 3);
    if (Md.has("l")) I.Flags |= FLeft;
    if (Md.has("wrap")) I.Flags |= FWrap;
    return;
  }
  if (B == "sad") { NeedType(); Simple(OpSad, 3); return; }
  if (B == "dp4a" || B == "dp2a") {
    I.Op = B == "dp4a" ? OpDp4a : OpDp2a;
    NeedOps(4);
    SetD(0, Ops[0]);
    SetS(0, Ops[1], Ty::U32); SetS(1, Ops[2], Ty::U32); SetS(2, Ops[3], Ty::U32);
    if (B == "dp2a" && Md.has("hi")) I.Flags |= FHi;
    return;
  }
  if (B == "rcp" || B == "sqrt" || B == "rsqrt" || B == "ex2" || B == "lg2" ||
      B == "sin" || B == "cos" || B == "tanh") {
    NeedType();
    uint16_t Op = B == "rcp" ? OpRcp : B == "sqrt" ? OpSqrt : B == "rsqrt" ? OpRsqrt
                : B == "ex2" ? OpEx2 : B == "lg2" ? OpLg2 : B == "sin" ? OpSin
                : B == "cos" ? OpCos : OpTanh;
    Simple(Op, 1);
    return;
  }
  if (B == "testp") {
    NeedType(); I.Op = OpTestp; NeedOps(2); SetD(0, Ops[0]); SetS(0, Ops[1], I.T);
    static const char *Modes[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
    bool Found = false;
    for (int K = 0; K < 6; ++K) if (Md.has(Modes[K])) { I.Sub = (uint8_t)K; Found = true; }
    if (!Found) fail("testp without mode");
    return;
  }
  if (B == "copysign") { NeedType(); Simple(OpCopysign, 2); return; }
  if (B == "setp" || B == "set") {
    NeedType();
    int C = -1;
    for (auto &X : Md.List) { int K = cmpOf(X); if (K >= 0) C = K; }
    if (C < 0) fail("'" + Opc + "' without comparison");
    I.Sub = (uint8_t)C;
    if (Md.has("and")) I.Bool = BoolAnd;
    else if (Md.has("or")) I.Bool = BoolOr;
    else if (Md.has("xor")) I.Bool = BoolXor;
    // set: dtype first, then stype.
    Ty SrcT = B == "set" ? I.T2 : I.T;
    I.Op = B == "setp" ? OpSetp : OpSet;
    size_t Need = I.Bool ? 4 : 3;
    NeedOps(Need);
    I.D[0] = dstSlot(Ops[0]);
    I.ND = 1;
    if (!Ops[0].Name2.empty()) {
      RawOp Q; Q.Name = Ops[0].Name2;
      I.D[1] = dstSlot(Q);
      I.ND = 2;
    }
    SetS(0, Ops[1], SrcT);
    SetS(1, Ops[2], SrcT);
    if (I.Bool) { SetS(2, Ops[3], Ty::Pred); if (Ops[3].Not) I.Flags |= FNegC; }
    return;
  }
  if (B == "selp") {
    NeedType(); I.Op = OpSelp; NeedOps(4); SetD(0, Ops[0]); SetS(0, Ops[1], I.T); SetS(1, Ops[2], I.T);
    SetS(2, Ops[3], Ty::Pred); if (Ops[3].Not) I.Flags |= FNegC; return;
  }
  if (B == "slct") {
    NeedType(); I.Op = OpSlct; NeedOps(4); SetD(0, Ops[0]); SetS(0, Ops[1], I.T); SetS(1, Ops[2], I.T);
    SetS(2, Ops[3], I.T2); return;
  }
  if (B == "cvt") {
    if (Md.Types.size() == 3 || (Md.Types.size() == 2 && Ops.size() == 3)) {
      // cvt.rn.f16x2.f32 d, a, b  (pack)
      I.Op = OpCvtPack;
      NeedOps(3); SetD(0, Ops[0]); SetS(0, Ops[1], Ty::F32); SetS(1, Ops[2], Ty::F32);
      return;
    }
    if (Md.Types.size() != 2) fail("cvt needs two types");
    I.Op = OpCvt; NeedOps(2); SetD(0, Ops[0]); SetS(0, Ops[1], I.T2);
    return;
  }
  if (B == "cvta") {
    I.Op = OpCvta; I.Space = spaceOf(Md);
    if (Md.has("to")) I.Flags |= FToSpace;
    if (I.T == Ty::None) I.T = Ty::U64;
    NeedOps(2); SetD(0, Ops[0]); SetS(0, Ops[1], Ty::U64);
    return;
  }
  if (B == "isspacep") {
    I.Op = OpIsspacep; I.Space = spaceOf(Md); NeedOps(2); SetD(0, Ops[0]); SetS(0, Ops[1], Ty::U64);
    return;
  }
  if (B == "ld" || B == "ldu" || B == "st") {
    NeedType();
    bool IsSt = B == "st";
    I.Op = IsSt ? OpSt : OpLd;
    I.Space = spaceOf(Md);
    NeedOps(2);
    const RawOp &Mem = IsSt ? Ops[0] : Ops[1];
    const RawOp &Val = IsSt ? Ops[1] : Ops[0];
    memOperand(Mem, I);
    if (I.Vec > 4) throw Unsupported("ld/st .v8 unsupported");
    if (Val.Kind == RawOp::Vec) {
      if (Val.Elems.size() != I.Vec) fail("vector operand size mismatch");
      for (size_t K = 0; K < Val.Elems.size(); ++K) {
        if (IsSt) SetS(K, Val.Elems[K], I.T); else SetD(K, Val.Elems[K]);
      }
    } else {
      if (I.Vec != 1) fail("vector ld/st needs a vector operand");
      if (IsSt) SetS(0, Val, I.T); else SetD(0, Val);
    }
    return;
  }
  if (B == "atom" || B == "red") {
    NeedType();
    I.Op = B == "atom" ? OpAtom : OpRed;
    I.Space = spaceOf(Md);
    static const char *Names[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};
    int AO = -1;
    for (auto &X : Md.List) for (int K = 0; K < 10; ++K) if (X == Names[K]) AO = K;
    if (AO < 0) throw Unsupported("'" + Opc + "': unsupported atomic operation");
    if (I.Vec != 1) throw Unsupported("vector atomics unsupported");
    I.Sub = (uint8_t)AO;
    size_t Base = I.Op == OpAtom ? 1 : 0;
    NeedOps(Base + (AO == AtCas ? 3 : 2));
    if (I.Op == OpAtom) SetD(0, Ops[0]);
    memOperand(Ops[Base], I);
    SetS(0, Ops[Base + 1], I.T);
    if (AO == AtCas) SetS(1, Ops[Base + 2], I.T);
    return;
  }
  if (B == "bra") {
    I.Op = OpBra;
    NeedOps(1);
    if (Ops[0].Kind != RawOp::Reg) fail("bra target must be a label");
    Scopes.back().Pending.push_back({(uint32_t)F->Code.size(), Ops[0].Name});
    return;
  }
  if (B == "brx") {
    I.Op = OpBrx;
    NeedOps(2);
    SetS(0, Ops[0], Ty::U32);
    auto It = BrxTargets.find(Ops[1].Name);
    if (It == BrxTargets.end()) fail("unknown .branchtargets '" + Ops[1].Name + "'");
    I.Target = It->second[0];
    return;
  }
  if (B == "ret") { I.Op = OpRet; return; }
  if (B == "exit") { I.Op = OpExit; return; }
  if (B == "trap" || B == "brkpt") { I.Op = OpTrap; return; }
  if (B == "bar" || B == "barrier") {
    if (Md.has("arrive") || Md.has("red")) throw Unsupported("'" + Opc + "' unsupported");
    if (Md.has("warp")) { I.Op = OpNop; return; }
    I.Op = OpBar;
    if (!Ops.empty()) SetS(0, Ops[0], Ty::U32);
    if (Ops.size() > 1) SetS(1, Ops[1], Ty::U32);
    return;
  }
  if (B == "membar" || B == "fence" || B == "prefetch" || B == "prefetchu" ||
      B == "nanosleep" || B == "pmevent" || B == "discard" || B == "griddepcontrol") {
    I.Op = OpNop;
    return;
  }
  if (B == "shfl") {
    NeedType();
    I.Op = OpShfl;
    if (Md.has("up")) I.Sub = ShUp;
    else if (Md.has("down")) I.Sub = ShDown;
    else if (Md.has("bfly")) I.Sub = ShBfly;
    else if (Md.has("idx")) I.Sub = ShIdx;
    else fail("shfl without mode");
    if (Ops.size() == 4) { // non-.sync form
      RawOp All;
      All.Kind = RawOp::Num;
      All.Name = "-1";
      SetS(3, All, Ty::U32);
    } else {
      NeedOps(5);
      SetS(3, Ops[4], Ty::U32);
    }
    I.D[0] = dstSlot(Ops[0]);
    I.ND = 1;
    if (!Ops[0].Name2.empty()) {
      RawOp Q; Q.Name = Ops[0].Name2;
      I.D[1] = dstSlot(Q); I.ND = 2; I.Flags |= FHasPredOut;
    }
    SetS(0, Ops[1], I.T); SetS(1, Ops[2], Ty::U32); SetS(2, Ops[3], Ty::U32);
    return;
  }
  if (B == "vote") {
    I.Op = OpVote;
    if (Md.has("all")) I.Sub = VoAll;
    else if (Md.has("any")) I.Sub = VoAny;
    else if (Md.has("uni")) I.Sub = VoUni;
    else if (Md.has("ballot")) I.Sub = VoBallot;
    else fail("vote without mode");
    if (Ops.size() < 2) fail("vote needs operands");
    SetD(0, Ops[0]);
    SetS(0, Ops[1], Ty::Pred);
    if (Ops[1].Not) I.Flags |= FNegC;
    if (Ops.size() > 2) SetS(1, Ops[2], Ty::U32);
    return;
  }
  if (B == "activemask") { I.Op = OpActivemask; NeedOps(1); SetD(0, Ops[0]); return; }
  if (B == "elect") { // elect.sync d|p, membermask (d may be the sink '_')
    I.Op = OpElect;
    if (Ops.size() < 2 || Ops[0].Name2.empty()) fail("elect needs d|p, membermask");
    I.D[0] = dstSlot(Ops[0]); I.ND = 1;
    RawOp Q; Q.Name = Ops[0].Name2; I.D[1] = dstSlot(Q); I.ND = 2; I.Flags |= FHasPredOut;
    SetS(0, Ops[1], Ty::U32);
    return;
  }
  if (B == "match") {
    NeedType();
    I.Op = OpMatch;
    I.Sub = Md.has("all") ? 1 : 0;
    if (Ops.size() < 2) fail("match needs operands");
    I.D[0] = dstSlot(Ops[0]); I.ND = 1;
    if (!Ops[0].Name2.empty()) { RawOp Q; Q.Name = Ops[0].Name2; I.D[1] = dstSlot(Q); I.ND = 2; I.Flags |= FHasPredOut; }
    SetS(0, Ops[1], I.T);
    if (Ops.size() > 2) SetS(1, Ops[2], Ty::U32);
    return;
  }
  if (B == "redux") {
    NeedType();
    I.Op = OpRedux;
    static const char *Names[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
    int AO = -1;
    for (auto &X : Md.List) for (int K = 0; K < 8; ++K) if (X == Names[K]) AO = K;
    if (AO < 0 || AO == AtInc || AO == AtDec) fail("bad redux op");
    I.Sub = (uint8_t)AO;
    if (Ops.size() < 2) fail("redux needs operands");
    SetD(0, Ops[0]); SetS(0, Ops[1], I.T);
    if (Ops.size() > 2) SetS(1, Ops[2], Ty::U32);
    return;
  }
  if (B == "call") {
    I.Op = OpCall;
    size_t K = 0;
    const RawOp *Rets = nullptr, *Args = nullptr;
    if (K < Ops.size() && Ops[K].Kind == RawOp::Paren) Rets = &Ops[K++];
    if (K >= Ops.size() || Ops[K].Kind != RawOp::Reg) fail("call without callee");
    std::string Callee = Ops[K++].Name;
    uint32_t CalleeReg;
    if (lookupReg(Callee, CalleeReg)) {
      // call (ret), %rd, (args), prototype: target chosen per lane at run time
      I.Flags |= FIndirect;
      I.S[0] = CalleeReg;
      I.NS = 1;
    } else {
      auto It = M.FuncIndex.find(Callee);
      if (It == M.FuncIndex.end()) fail("call to undeclared function '" + Callee + "'");
      I.Target = It->second;
    }
    if (K < Ops.size() && Ops[K].Kind == RawOp::Paren) Args = &Ops[K++];
    auto ParamOf = [&](const RawOp &O, uint32_t &Off, uint32_t &Size) {
      for (size_t S = Scopes.size(); S-- > 0;) {
        auto P2 = Scopes[S].Params.find(O.Name);
        if (P2 != Scopes[S].Params.end()) { Off = P2->second; Size = Scopes[S].ParamSize[O.Name]; return; }
      }
      fail("call operand '" + O.Name + "' is not a .param");
    };
    if (Rets) {
      if (Rets->Elems.size() > 1) throw Unsupported("multiple return values unsupported");
      if (Rets->Elems.size() == 1) { ParamOf(Rets->Elems[0], I.RetOff, I.RetSize); I.HasRet = true; }
    }
    I.ArgBegin = (uint32_t)F->CallArgs.size();
    if (Args) {
      for (auto &A : Args->Elems) {
        uint32_t Off, Size;
        ParamOf(A, Off, Size);
        F->CallArgs.push_back(Off);
        F->CallArgs.push_back(Size);
      }
      I.NArgs = (uint32_t)Args->Elems.size();
    }
    return;
  }
  throw Unsupported("unsupported instruction '" + Opc + "'");
}

} // namespace

std::unique_ptr<ParsedModule> parsePtx(const std::string &Text, const std::string &Name,
                                       std::string &Error) {
  auto M = std::make_unique<ParsedModule>();
  M->Name = Name;
  try {
    Parser P(Text, *M);
    P.run();
  } catch (ParseError &E) {
    Error = Name + ": PTX line " + std::to_string(E.Line) + ": " + E.what();
    return nullptr;
  } catch (std::exception &E) {
    Error = Name + ": " + E.what();
    return nullptr;
  }
  // Per-thread local stack: the deepest call chain's depots (16-aligned);
  // recursion gets 32 KiB of headroom (deeper recursion is an error).
  {
    const size_t NF = M->Functions.size();
    std::vector<int> State(NF, 0); // 0 new, 1 on stack, 2 done
    std::vector<uint64_t> Need(NF, 0);
    bool Recursive = false;
    std::function<uint64_t(uint32_t)> Visit = [&](uint32_t Fi) -> uint64_t {
      if (State[Fi] == 2) return Need[Fi];
      if (State[Fi] == 1) { Recursive = true; return 0; }
      State[Fi] = 1;
      Function &Fn = *M->Functions[Fi];
      uint64_t Max = 0;
      for (auto &I : Fn.Code) {
        if (I.Op != OpCall) continue;
        if (I.Flags & FIndirect) { // may call any function
          for (uint32_t G = 0; G < NF; ++G)
            if (M->Functions[G]->HasBody && !M->Functions[G]->IsKernel) Max = std::max(Max, Visit(G));
        } else if (M->Functions[I.Target]->HasBody) {
          Max = std::max(Max, Visit(I.Target));
        }
      }
      State[Fi] = 2;
      return Need[Fi] = (Fn.LocalBytes + 15) / 16 * 16 + Max;
    };
    for (auto &K : M->Functions) {
      if (!K->IsKernel || !K->HasBody) continue;
      Recursive = false;
      std::fill(State.begin(), State.end(), 0);
      uint64_t N = Visit(M->FuncIndex[K->Name]);
      if (Recursive) N += 32768;
      K->LocalStack = (uint32_t)std::min<uint64_t>(std::max<uint64_t>(N, 16), 1u << 20);
    }
  }
  // Per-kernel shared memory layout over the call graph.
  for (auto &K : M->Functions) {
    if (!K->IsKernel || !K->HasBody) continue;
    std::vector<char> Seen(M->Functions.size(), 0), Used(M->Globals.size(), 0);
    std::vector<uint32_t> Work{M->FuncIndex[K->Name]};
    Seen[Work[0]] = 1;
    while (!Work.empty()) {
      Function &Fn = *M->Functions[Work.back()];
      Work.pop_back();
      for (auto &In : Fn.Inits)
        if (In.Kind == InitSharedSym) Used[In.Value] = 1;
      for (auto &I : Fn.Code) {
        if (I.Op != OpCall) continue;
        if (I.Flags & FIndirect) { // may call any function
          for (uint32_t G = 0; G < M->Functions.size(); ++G)
            if (!Seen[G]) { Seen[G] = 1; Work.push_back(G); }
        } else if (!Seen[I.Target]) {
          Seen[I.Target] = 1;
          Work.push_back(I.Target);
        }
      }
    }
    SharedLayout &L = K->Shared;
    L.Off.assign(M->Globals.size(), 0);
    uint32_t DynAlign = 16;
    for (size_t G = 0; G < M->Globals.size(); ++G) {
      GlobalVar &GV = *M->Globals[G];
      if (!Used[G] || GV.Space != SpShared) continue;
      if (GV.Dynamic) { DynAlign = std::max(DynAlign, GV.Align); continue; }
      L.StaticBytes = (L.StaticBytes + GV.Align - 1) / GV.Align * GV.Align;
      L.Off[G] = L.StaticBytes;
      L.StaticBytes += (uint32_t)GV.Size;
    }
    L.DynOff = (L.StaticBytes + DynAlign - 1) / DynAlign * DynAlign;
    for (size_t G = 0; G < M->Globals.size(); ++G)
      if (M->Globals[G]->Space == SpShared && M->Globals[G]->Dynamic) L.Off[G] = L.DynOff;
  }
  return M;
}

} // namespace warpscope::emu::core
