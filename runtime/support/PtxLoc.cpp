//===- PtxLoc.cpp - PTX .loc directives and their inlined-at chains -------===//

#include "warpscope/Support/PtxLoc.h"

#include <cctype>

namespace warpscope::ptxloc {
namespace {

/// A cursor over one directive's text; PTX separates with blanks and tabs.
struct Cursor {
  std::string_view S;

  void blanks() {
    while (!S.empty() && (S.front() == ' ' || S.front() == '\t' ||
                          S.front() == '\r' || S.front() == '\n'))
      S.remove_prefix(1);
  }
  bool atEnd() {
    blanks();
    return S.empty() || S.front() == ';' || S.substr(0, 2) == "//";
  }
  bool punct(char C) {
    blanks();
    if (S.empty() || S.front() != C)
      return false;
    S.remove_prefix(1);
    return true;
  }
  /// A decimal or 0x hex number, at most 2^32 - 1 (a .loc's fields are
  /// 32-bit in DWARF's line table).
  bool number(uint64_t &V, uint64_t Max = UINT32_MAX) {
    blanks();
    bool Hex = S.size() > 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X');
    if (Hex)
      S.remove_prefix(2);
    const uint64_t Base = Hex ? 16 : 10;
    size_t N = 0;
    V = 0;
    for (; N < S.size(); ++N) {
      char C = S[N];
      uint64_t D;
      if (C >= '0' && C <= '9')
        D = uint64_t(C - '0');
      else if (Hex && C >= 'a' && C <= 'f')
        D = uint64_t(C - 'a' + 10);
      else if (Hex && C >= 'A' && C <= 'F')
        D = uint64_t(C - 'A' + 10);
      else
        break;
      if (V > (Max - D) / Base)
        return false;
      V = V * Base + D;
    }
    if (N == 0)
      return false;
    S.remove_prefix(N);
    return true;
  }
  /// A PTX identifier: [A-Za-z_$%][A-Za-z0-9_$]*, or a label such as
  /// `$L__info_string0`.
  std::string_view word() {
    blanks();
    size_t N = 0;
    while (N < S.size() && (std::isalnum((unsigned char)S[N]) || S[N] == '_' ||
                            S[N] == '$' || S[N] == '%' || S[N] == '.'))
      ++N;
    std::string_view W = S.substr(0, N);
    S.remove_prefix(N);
    return W;
  }
  bool position(Position &P) {
    uint64_t F, L, C;
    if (!number(F) || !number(L) || !number(C))
      return false;
    P = {uint32_t(F), uint32_t(L), uint32_t(C)};
    return true;
  }
};

const char *const Grammar =
    "expected `.loc FILE LINE COLUMN[, function_name LABEL[+N], inlined_at "
    "FILE LINE COLUMN]`";

} // namespace

std::string parseDirective(std::string_view Text, Directive &Out) {
  Cursor C{Text};
  Directive D;
  auto Bad = [&](const std::string &What) {
    // The directive as written, on one line.
    std::string_view Shown = Text.substr(0, Text.find_first_of("\r\n"));
    while (!Shown.empty() && (Shown.front() == ' ' || Shown.front() == '\t'))
      Shown.remove_prefix(1);
    while (!Shown.empty() && (Shown.back() == ' ' || Shown.back() == '\t'))
      Shown.remove_suffix(1);
    return "bad .loc '" + std::string(Shown.substr(0, 100)) + "': " + What +
           "; " + Grammar;
  };
  if (!C.position(D.At))
    return Bad("three numbers below 2^32 must follow .loc");
  while (!C.atEnd()) {
    if (!C.punct(','))
      return Bad("unexpected '" + std::string(C.S.substr(0, 20)) + "'");
    std::string_view Attr = C.word();
    if (Attr == "function_name") {
      std::string_view Label = C.word();
      if (Label.empty())
        return Bad("function_name needs a label");
      D.FunctionLabel = std::string(Label);
      if (C.punct('+') && !C.number(D.FunctionOffset, UINT64_MAX))
        return Bad("function_name's offset must be a number");
    } else if (Attr == "inlined_at") {
      if (!C.position(D.InlinedAt))
        return Bad("three numbers must follow inlined_at");
      D.Inlined = true;
    } else {
      return Bad("unknown attribute '" + std::string(Attr) + "'");
    }
  }
  if (!D.FunctionLabel.empty() && !D.Inlined)
    return Bad("function_name without inlined_at");
  Out = std::move(D);
  return "";
}

void Tracker::reset() {
  Cur.clear();
  Latest.clear();
}

void Tracker::apply(const Directive &D) {
  auto Outer = D.Inlined ? Latest.find(D.InlinedAt) : Latest.end();
  Cur.clear(); // keeps its storage: most .loc lines are plain
  Cur.push_back({D.At, D.FunctionLabel, D.FunctionOffset});
  if (D.Inlined && Outer == Latest.end())
    Cur.push_back({D.InlinedAt, "", 0});
  else if (D.Inlined)
    for (const Frame &F : Outer->second) {
      if (Cur.size() == MaxChainDepth)
        break;
      Cur.push_back(F);
    }
  // A one-frame chain is what a later inlined_at finds without an entry:
  // keep only inlined ones (clang's PTX, every .loc plain, then costs no
  // map). An earlier inlined chain at the same position is now outdated.
  if (Cur.size() > 1)
    Latest[D.At] = Cur;
  else if (!Latest.empty())
    Latest.erase(D.At);
}

std::string Tracker::apply(std::string_view Text) {
  Directive D;
  std::string Error = parseDirective(Text, D);
  if (Error.empty())
    apply(D);
  return Error;
}

size_t userFrame(const Chain &C,
                 const std::function<bool(uint32_t File)> &IsHeader) {
  if (C.size() < 2 || !IsHeader(C.front().At.File))
    return 0;
  for (size_t K = 1; K < C.size(); ++K)
    if (C[K].At.Line != 0 && !IsHeader(C[K].At.File))
      return K;
  return 0;
}

DebugStrings readDebugStrings(std::string_view Ptx) {
  DebugStrings Out;
  for (size_t At = Ptx.find(".section"); At != std::string_view::npos;
       At = Ptx.find(".section", At + 1)) {
    Cursor C{Ptx.substr(At + 8)};
    if (C.word() != ".debug_str" || !C.punct('{'))
      continue;
    // `LABEL:` starts a string's place; `.b8` lists bytes, each an item
    // up to the next ',' or line end; '}' closes the section.
    while (!C.punct('}') && !C.S.empty()) {
      std::string_view W = C.word();
      if (W == ".b8") {
        uint64_t V;
        do {
          if (!C.number(V, 255))
            break;
          Out.Bytes.push_back(char(V));
        } while (C.punct(','));
      } else if (!W.empty() && C.punct(':')) {
        Out.Labels[std::string(W)] = Out.Bytes.size();
      } else if (W.empty() && !C.S.empty()) {
        C.S.remove_prefix(1); // what no rule reads
      }
    }
  }
  return Out;
}

std::string functionName(const DebugStrings &Strings, const std::string &Label,
                         uint64_t Offset) {
  auto It = Strings.Labels.find(Label);
  if (It == Strings.Labels.end() || Offset >= Strings.Bytes.size() ||
      It->second > Strings.Bytes.size() - Offset)
    return "";
  size_t Start = It->second + size_t(Offset);
  size_t End = Strings.Bytes.find('\0', Start);
  if (End == std::string::npos)
    return ""; // unterminated: not a name the section states
  return Strings.Bytes.substr(Start, End - Start);
}

} // namespace warpscope::ptxloc
