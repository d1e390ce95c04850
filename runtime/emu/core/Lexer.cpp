//===- Lexer.cpp - PTX text to tokens; literal values ---------------------===//
//
// The lexer concern of the PTX parser: tokens (with the probes' "ws:"
// markers) and the values of literals in every syntax PTX allows.
//
//===----------------------------------------------------------------------===//
#include "Lexer.h"
#include "warpscope/ABI/Abi.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace warpscope::emu::core::parser {

namespace {

// Whether the last token is inside a .reg declaration: only there does a
// %ws_ name make a marker (the dead mov of a derived block's scope names the
// register again).
bool inRegDeclaration(const std::vector<Token> &Out) {
  for (size_t T = Out.size(); T-- > 0;) {
    if (Out[T].K == TkPunct &&
        (Out[T].Text == ";" || Out[T].Text == "{" || Out[T].Text == "}"))
      return false;
    if (Out[T].K == TkIdent && Out[T].Text == ".reg")
      return true;
  }
  return false;
}

bool isSpaceDirective(const std::string &D) {
  return D == ".reg" || D == ".param" || D == ".local" || D == ".shared" ||
         D == ".const" || D == ".global";
}

// A probe names itself by declaring %ws_block_<N>, %ws_branch_<M> or
// %ws_block_<N>_branch_<M> (comments do not survive into a fatbin): after
// that declaration's ';' comes the marker "ws:block N", "ws:branch M" or
// "ws:block N ws:branch M" for the next instruction. Returns the marker for
// register Reg ("%ws_..."), or "" when Reg is not such a name.
std::string probeMarker(const std::string &Reg) {
  std::optional<ProbeMarker> M = ProbeMarker::parse(Reg);
  return M ? M->text() : "";
}

// A float literal (0f, 0d or decimal) as the bits of a Context-typed operand.
uint64_t floatLitBits(const std::string &L, Ty Context, bool Neg, bool &Ok) {
  Ok = true;
  uint64_t Bits;
  // A 64-bit context of any kind (b64, u64, s64, f64) holds a double.
  bool F64 = tySize(Context) == 8;
  if (L.size() == 10 && (L[1] == 'f' || L[1] == 'F')) {
    uint32_t B = (uint32_t)std::strtoul(L.c_str() + 2, nullptr, 16);
    if (F64) {
      float Fv;
      std::memcpy(&Fv, &B, 4);
      double D = Fv;
      std::memcpy(&Bits, &D, 8);
    } else
      Bits = B;
  } else if (L.size() == 18 && (L[1] == 'd' || L[1] == 'D')) {
    Bits = std::strtoull(L.c_str() + 2, nullptr, 16);
    if (!F64) {
      double D;
      std::memcpy(&D, &Bits, 8);
      float Fv = (float)D;
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      Bits = B;
    }
  } else {
    double D = std::strtod(L.c_str(), nullptr);
    if (F64)
      std::memcpy(&Bits, &D, 8);
    else {
      float Fv = (float)D;
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      Bits = B;
    }
  }
  if (Neg)
    Bits ^= F64 ? (1ull << 63) : (1ull << 31);
  return Bits;
}

} // namespace

std::vector<Token> tokenize(const std::string &S) {
  std::vector<Token> Out;
  std::string DeclaredMarker;
  uint32_t Line = 1;
  size_t I = 0, N = S.size();
  auto IsIdStart = [](char C) {
    return std::isalpha((unsigned char)C) || C == '_' || C == '$' || C == '%' ||
           C == '.';
  };
  auto IsId = [](char C) {
    return std::isalnum((unsigned char)C) || C == '_' || C == '$' || C == '.';
  };
  while (I < N) {
    char C = S[I];
    if (C == '\n') {
      ++Line;
      ++I;
      continue;
    }
    if (std::isspace((unsigned char)C)) {
      ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && S[I + 1] == '/') {
      size_t E = S.find('\n', I);
      if (E == std::string::npos)
        E = N;
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
      if (E == std::string::npos)
        throw ParseError(Line, "unterminated comment");
      Line += std::count(S.begin() + I, S.begin() + E, '\n');
      I = E + 2;
      continue;
    }
    if (C == '"') {
      size_t E = I + 1;
      std::string V;
      while (E < N && S[E] != '"') {
        if (S[E] == '\\' && E + 1 < N) {
          V += S[E + 1];
          E += 2;
          continue;
        }
        if (S[E] == '\n')
          throw ParseError(Line, "unterminated string");
        V += S[E++];
      }
      if (E >= N)
        throw ParseError(Line, "unterminated string");
      Out.push_back({TkStr, V, Line});
      I = E + 1;
      continue;
    }
    if (std::isdigit((unsigned char)C)) {
      size_t E = I;
      while (E < N &&
             (std::isalnum((unsigned char)S[E]) || S[E] == '.' ||
              ((S[E] == '-' || S[E] == '+') && E > I &&
               (S[E - 1] == 'e' || S[E - 1] == 'E') &&
               !(S[I] == '0' && I + 1 < N &&
                 (S[I + 1] == 'x' || S[I + 1] == 'X' || S[I + 1] == 'f' ||
                  S[I + 1] == 'F' || S[I + 1] == 'd' || S[I + 1] == 'D')))))
        ++E;
      Out.push_back({TkNum, S.substr(I, E - I), Line});
      I = E;
      continue;
    }
    if (IsIdStart(C)) {
      size_t E = I + 1;
      while (E < N) {
        if (IsId(S[E])) {
          ++E;
          continue;
        }
        if (S[E] == ':' && E + 1 < N && S[E + 1] == ':') {
          E += 2;
          continue;
        }
        break;
      }
      std::string Id = S.substr(I, E - I);
      // A state-space directive written together with its type, as the CUDA
      // headers' inline asm does (`.reg.b32 f;` in cuda_fp16.hpp), is two
      // directives: `.reg .b32`.
      size_t Dot = Id.find('.', 1);
      if (Id[0] == '.' && Dot != std::string::npos &&
          isSpaceDirective(Id.substr(0, Dot))) {
        Out.push_back({TkIdent, Id.substr(0, Dot), Line, I});
        Id = Id.substr(Dot);
      }
      Out.push_back({TkIdent, Id, Line, E - Id.size()});
      // A probe names itself in a .reg declaration (see probeMarker).
      if (Out.back().Text.rfind(InstrumentationRegisterPrefix, 0) == 0 &&
          inRegDeclaration(Out)) {
        std::string Marker = probeMarker(Out.back().Text);
        if (!Marker.empty())
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
  if (End && (*End == 'U' || *End == 'u'))
    ++End;
  return End && *End == 0;
}

bool operandLiteralBits(const std::string &L, Ty Context, bool Neg,
                        uint64_t &Bits) {
  bool IsHexFloat = L.size() > 2 && L[0] == '0' &&
                    (L[1] == 'f' || L[1] == 'F' || L[1] == 'd' || L[1] == 'D');
  bool IsDecFloat = !(L.size() > 1 && (L[1] == 'x' || L[1] == 'X')) &&
                    L.find_first_of(".eE") != std::string::npos;
  if (IsHexFloat || IsDecFloat) {
    bool Ok;
    Bits = floatLitBits(L, Context, Neg, Ok);
    return true;
  }
  int64_t V;
  if (!parseIntLit(L, V))
    return false;
  if (Neg)
    V = -V;
  if (Context == Ty::F32) {
    float Fv = (float)V;
    uint32_t B;
    std::memcpy(&B, &Fv, 4);
    Bits = B;
    return true;
  }
  if (Context == Ty::F64) {
    double Dv = (double)V;
    uint64_t B;
    std::memcpy(&B, &Dv, 8);
    Bits = B;
    return true;
  }
  Bits = (uint64_t)V;
  return true;
}

// By the variable's type T, unlike an operand's literal: a 0f pattern widens
// for .f64, a decimal float rounds for .f32, an integer converts for .f32 and
// .f64; otherwise the bits are kept (the caller stores tySize(T) bytes).
bool initializerLiteralBits(const std::string &L, Ty T, bool Neg,
                            uint64_t &Bits) {
  Bits = 0;
  if (L.size() == 10 && (L[1] == 'f' || L[1] == 'F')) {
    uint32_t B = (uint32_t)std::strtoul(L.c_str() + 2, nullptr, 16);
    if (T == Ty::F64) {
      float Fv;
      std::memcpy(&Fv, &B, 4);
      double Dv = Fv;
      std::memcpy(&Bits, &Dv, 8);
    } else
      Bits = B;
    if (Neg)
      Bits ^= (T == Ty::F64) ? (1ull << 63) : (1ull << 31);
  } else if (L.size() == 18 && (L[1] == 'd' || L[1] == 'D')) {
    Bits = std::strtoull(L.c_str() + 2, nullptr, 16);
    if (Neg)
      Bits ^= 1ull << 63;
  } else if (L.find_first_of(".eE") != std::string::npos &&
             !(L.size() > 1 && (L[1] == 'x' || L[1] == 'X'))) {
    double Dv = std::strtod(L.c_str(), nullptr);
    if (Neg)
      Dv = -Dv;
    if (T == Ty::F32) {
      float Fv = (float)Dv;
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      Bits = B;
    } else
      std::memcpy(&Bits, &Dv, 8);
  } else {
    int64_t V;
    if (!parseIntLit(L, V))
      return false;
    if (T == Ty::F32) {
      float Fv = (float)(Neg ? -V : V);
      uint32_t B;
      std::memcpy(&B, &Fv, 4);
      Bits = B;
    } else if (T == Ty::F64) {
      double Dv = (double)(Neg ? -V : V);
      std::memcpy(&Bits, &Dv, 8);
    } else
      Bits = (uint64_t)(Neg ? -V : V);
  }
  return true;
}

} // namespace warpscope::emu::core::parser
