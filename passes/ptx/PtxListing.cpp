//===- PtxListing.cpp - PTX functions as basic blocks of opcodes ----------===//

#include "warpscope/PTX/PtxListing.h"
#include "warpscope/ABI/Abi.h"
#include <cctype>
#include <cstring>
#include <map>
#include <set>

using namespace warpscope::ptx;

namespace {

/// A statement of PTX: text up to ';', a scope brace, or a label.
struct Statement {
  enum KindTy { Plain, Open, Close, Label } Kind;
  std::string Text;
  unsigned Line;
};

bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         C == '%';
}

bool isIdentifier(const std::string &S) {
  if (S.empty())
    return false;
  for (char C : S)
    if (!isIdentChar(C))
      return false;
  return true;
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r\n");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r\n");
  return S.substr(B, E - B + 1);
}

/// Splits PTX into statements. A brace opens or closes a scope only where a
/// statement starts (elsewhere it is a vector operand or an initializer),
/// except the brace after a function header.
bool lex(const std::string &T, std::vector<Statement> &Out,
         std::string &Error) {
  std::string Cur;
  unsigned Line = 1, CurLine = 1, Depth = 0;
  auto AtStart = [&] { return trim(Cur).empty(); };
  auto Emit = [&](Statement::KindTy K) {
    Out.push_back({K, trim(Cur), CurLine});
    Cur.clear();
  };
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (AtStart())
      CurLine = Line;
    if (C == '\n') {
      ++Line;
      // These directives end at the end of their line, without ';'.
      std::string Stmt = trim(Cur);
      for (const char *D :
           {".version", ".target", ".address_size", ".loc", ".file"})
        if (Stmt.compare(0, std::strlen(D), D) == 0 &&
            (Stmt.size() == std::strlen(D) || Stmt[std::strlen(D)] == ' ' ||
             Stmt[std::strlen(D)] == '\t'))
          Emit(Statement::Plain);
      Cur += ' ';
      continue;
    }
    if (C == '/' && I + 1 < T.size() && T[I + 1] == '/') {
      while (I < T.size() && T[I] != '\n')
        ++I;
      --I;
      continue;
    }
    if (C == '/' && I + 1 < T.size() && T[I + 1] == '*') {
      size_t E = T.find("*/", I + 2);
      if (E == std::string::npos) {
        Error = "PTX line " + std::to_string(Line) + ": unterminated comment";
        return false;
      }
      for (size_t K = I; K < E; ++K)
        Line += T[K] == '\n';
      I = E + 1;
      Cur += ' ';
      continue;
    }
    if (C == '"') {
      size_t E = T.find('"', I + 1);
      if (E == std::string::npos) {
        Error = "PTX line " + std::to_string(Line) + ": unterminated string";
        return false;
      }
      Cur.append(T, I, E - I + 1);
      I = E;
      continue;
    }
    if (C == '{') {
      bool Header = Depth == 0 && Cur.find('=') == std::string::npos &&
                    (Cur.find(".entry") != std::string::npos ||
                     Cur.find(".func") != std::string::npos);
      if (AtStart() || Header) {
        if (Header)
          Emit(Statement::Plain);
        Cur.clear();
        Out.push_back({Statement::Open, "", Line});
        ++Depth;
        continue;
      }
    }
    if (C == '}' && AtStart()) {
      if (Depth == 0) {
        Error = "PTX line " + std::to_string(Line) + ": unbalanced '}'";
        return false;
      }
      --Depth;
      Out.push_back({Statement::Close, "", Line});
      continue;
    }
    if (C == ';') {
      Emit(Statement::Plain);
      continue;
    }
    if (C == ':' && Depth > 0 && (I + 1 >= T.size() || T[I + 1] != ':') &&
        isIdentifier(trim(Cur))) {
      Emit(Statement::Label);
      continue;
    }
    Cur += C;
  }
  if (Depth != 0) {
    Error = "PTX line " + std::to_string(Line) + ": unterminated function body";
    return false;
  }
  return true;
}

/// First whitespace-separated word, and the rest.
std::pair<std::string, std::string> firstWord(const std::string &S) {
  size_t E = S.find_first_of(" \t");
  if (E == std::string::npos)
    return {S, ""};
  return {S.substr(0, E), trim(S.substr(E))};
}

/// Name of the function a header declares; empty if it declares none.
bool functionHeader(const std::string &H, std::string &Name, bool &Kernel) {
  size_t At = H.find(".entry");
  Kernel = At != std::string::npos;
  if (!Kernel)
    At = H.find(".func");
  if (At == std::string::npos)
    return false;
  size_t I = H.find_first_not_of(" \t", At + (Kernel ? 6 : 5));
  if (I != std::string::npos && H[I] == '(') { // .func return parameter
    int Nest = 0;
    for (; I < H.size(); ++I) {
      Nest += H[I] == '(';
      Nest -= H[I] == ')';
      if (Nest == 0)
        break;
    }
    I = H.find_first_not_of(" \t", I + 1);
  }
  if (I == std::string::npos)
    return false;
  size_t E = I;
  while (E < H.size() && isIdentChar(H[E]))
    ++E;
  Name = H.substr(I, E - I);
  return !Name.empty();
}

/// "%ws_block_12" -> start marker 12; "%ws_block_12_branch_3" -> end marker.
bool blockMarker(const std::string &Reg, Item &Out) {
  std::optional<warpscope::ProbeMarker> M = warpscope::ProbeMarker::parse(Reg);
  if (!M || !M->Block)
    return false;
  Out.Word = *M->Block;
  Out.Kind = M->Branch ? Item::BlockMarkerEnd : Item::BlockMarkerStart;
  return true;
}

/// Splits a comma-separated operand list (no nesting needed here).
std::vector<std::string> operands(const std::string &S) {
  std::vector<std::string> Out;
  std::string Cur;
  int Nest = 0;
  for (char C : S) {
    Nest += C == '{' || C == '(' || C == '[';
    Nest -= C == '}' || C == ')' || C == ']';
    if (C == ',' && Nest == 0) {
      Out.push_back(trim(Cur));
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!trim(Cur).empty())
    Out.push_back(trim(Cur));
  return Out;
}

/// Builds one function's blocks from its body statements [B, E).
class BodyReader {
public:
  BodyReader(Function &F) : F(F) {}
  bool read(const std::vector<Statement> &S, size_t B, size_t E,
            std::string &Error);

private:
  Function &F;
  std::map<std::string, unsigned> LabelBlock;
  std::map<std::string, std::vector<std::string>> BranchTables;
  struct PendingEdge {
    unsigned From;
    std::string Label; ///< a label, or a .branchtargets table (IsTable)
    bool IsTable;
    unsigned Line;
  };
  std::vector<PendingEdge> Edges;
  std::vector<bool> FallsThrough;
  bool BlockOpen = false;

  Block &current() {
    if (!BlockOpen) {
      F.Blocks.emplace_back();
      FallsThrough.push_back(true);
      BlockOpen = true;
    }
    return F.Blocks.back();
  }
  void instruction(const std::string &Text, unsigned Line);
};

void BodyReader::instruction(const std::string &Text, unsigned Line) {
  std::string Rest = Text;
  bool Guarded = false;
  if (!Rest.empty() && Rest[0] == '@') {
    Guarded = true;
    Rest = firstWord(Rest).second;
  }
  auto [Opcode, Args] = firstWord(Rest);
  Block &Blk = current();
  unsigned Index = F.Blocks.size() - 1;
  Blk.Items.push_back({Item::Instruction, Opcode, 0, Line});
  if (!isTerminator(Opcode))
    return;
  std::vector<std::string> Ops = operands(Args);
  std::string Base = Opcode.substr(0, Opcode.find('.'));
  if (Base == "bra" && !Ops.empty())
    Edges.push_back({Index, Ops.back(), false, Line});
  else if (Base == "brx" && Ops.size() >= 2)
    Edges.push_back({Index, Ops[1], true, Line});
  FallsThrough[Index] = Guarded;
  BlockOpen = false;
}

bool BodyReader::read(const std::vector<Statement> &S, size_t B, size_t E,
                      std::string &Error) {
  // Only labels something branches to start a block: debug-line labels
  // ($L__tmp...) must not cut straight code into pieces.
  std::set<std::string> Targets;
  for (size_t I = B; I < E; ++I) {
    if (S[I].Kind != Statement::Plain || S[I].Text.empty())
      continue;
    auto [Word, Rest] = firstWord(S[I].Text);
    if (!Word.empty() && Word[0] == '@')
      std::tie(Word, Rest) = firstWord(Rest);
    std::string Base = Word.substr(0, Word.find('.'));
    if (Base == "bra" || Base == "brx" || Word == ".branchtargets")
      for (const std::string &Op : operands(Rest))
        Targets.insert(Op);
  }
  // Per open scope: whether it is a probe's.
  std::vector<bool> Probe = {false};
  std::string LastLabel;
  for (size_t I = B; I < E; ++I) {
    const Statement &St = S[I];
    bool InProbe = false;
    for (bool P : Probe)
      InProbe |= P;
    switch (St.Kind) {
    case Statement::Open:
      Probe.push_back(false);
      continue;
    case Statement::Close:
      Probe.pop_back();
      continue;
    case Statement::Label:
      // A probe's own labels (its leader region) start no block.
      if (InProbe)
        continue;
      LastLabel = St.Text;
      if (!Targets.count(St.Text))
        continue;
      BlockOpen = false;
      current();
      LabelBlock[St.Text] = F.Blocks.size() - 1;
      LastLabel = St.Text;
      continue;
    case Statement::Plain:
      break;
    }
    if (St.Text.empty())
      continue;
    auto [Word, Rest] = firstWord(St.Text);
    if (Word == ".branchtargets") {
      BranchTables[LastLabel] = operands(Rest);
      continue;
    }
    if (Word == ".reg") {
      // ".reg .b32 %ws_block_3;": a probe's scope starts here.
      for (const std::string &Op : operands(Rest)) {
        std::string Reg = firstWord(Op).first;
        size_t Sp = Op.find_last_of(" \t");
        if (Sp != std::string::npos)
          Reg = Op.substr(Sp + 1);
        if (Reg.compare(0, 4, "%ws_") != 0 || Probe.size() < 2)
          continue;
        Probe.back() = true;
        Item M;
        if (blockMarker(Reg, M)) {
          M.Line = St.Line;
          current().Items.push_back(M);
        }
      }
      continue;
    }
    if (Word[0] == '.')
      continue; // other directives: .loc, .local, .shared, .param, ...
    if (InProbe) {
      ++F.InstrumentationInstructions;
      continue;
    }
    instruction(St.Text, St.Line);
  }
  // Edges, now that every label is known.
  for (unsigned K = 0; K < F.Blocks.size(); ++K)
    if (FallsThrough[K] && K + 1 < F.Blocks.size())
      F.Blocks[K].Successors.push_back(K + 1);
  for (const PendingEdge &Ed : Edges) {
    std::vector<std::string> Targets = {Ed.Label};
    if (Ed.IsTable) {
      auto It = BranchTables.find(Ed.Label);
      if (It == BranchTables.end()) {
        Error = "PTX line " + std::to_string(Ed.Line) + ": in " + F.Name +
                ": unknown .branchtargets '" + Ed.Label + "'";
        return false;
      }
      Targets = It->second;
    }
    for (const std::string &L : Targets) {
      auto It = LabelBlock.find(L);
      if (It == LabelBlock.end()) {
        Error = "PTX line " + std::to_string(Ed.Line) + ": in " + F.Name +
                ": unknown label '" + L + "'";
        return false;
      }
      std::vector<unsigned> &Succ = F.Blocks[Ed.From].Successors;
      bool Seen = false;
      for (unsigned X : Succ)
        Seen |= X == It->second;
      if (!Seen)
        Succ.push_back(It->second);
    }
  }
  for (Block &Blk : F.Blocks)
    for (unsigned X : Blk.Successors)
      ++F.Blocks[X].NumPredecessors;
  return true;
}

} // namespace

bool warpscope::ptx::isTerminator(const std::string &Opcode) {
  std::string Base = Opcode.substr(0, Opcode.find('.'));
  return Base == "bra" || Base == "brx" || Base == "ret" || Base == "exit" ||
         Base == "trap";
}

bool warpscope::ptx::parse(const std::string &Text, Module &Out,
                           std::string &Error) {
  std::vector<Statement> S;
  if (!lex(Text, S, Error))
    return false;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I].Kind != Statement::Plain)
      continue;
    auto [Word, Rest] = firstWord(S[I].Text);
    if (Word == ".target")
      Out.Target = trim(Rest.substr(0, Rest.find(',')));
    std::string Name;
    bool Kernel = false;
    if (I + 1 >= S.size() || S[I + 1].Kind != Statement::Open ||
        !functionHeader(S[I].Text, Name, Kernel))
      continue;
    // The body: from the brace after the header to its match.
    size_t B = I + 2, E = B;
    for (int Nest = 1; E < S.size(); ++E) {
      Nest += S[E].Kind == Statement::Open;
      Nest -= S[E].Kind == Statement::Close;
      if (Nest == 0)
        break;
    }
    Function F;
    F.Name = Name;
    F.Kernel = Kernel;
    if (!BodyReader(F).read(S, B, E, Error))
      return false;
    Out.Functions.push_back(std::move(F));
    I = E;
  }
  return true;
}
