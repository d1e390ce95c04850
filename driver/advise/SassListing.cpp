//===- SassListing.cpp - nvdisasm -c -g listings as advise::Function ------===//
//
// What nvdisasm 13 prints (test/fixtures/gpu/pcs-reduction/*.sass): a
// `.section .text.<name>` per function, `.other <name>,@"STO_CUDA_ENTRY ..."`
// for kernels, `//## File "<path>", line N[ inlined at "<path>", line M]`
// before the instructions of a line (one such line per inlined frame with
// -gi; header code goes on the user's line, placeInlined), labels `.L_x_N:`,
// and instructions
// `/*<hex offset>*/ [@[!]P] OPCODE operands ;`. Registers: R, UR, P, UP
// (RZ, URZ, PT, UPT are constants). With -hex each instruction is followed
// by its two encoding words; the second holds the control bits (bits
// 105-125: stall, yield, write barrier, read barrier, wait mask, reuse),
// and the six scoreboard barriers become virtual registers SB0-SB5 (GPA
// §4): written by the instruction that sets one, read by those that wait.
//
//===----------------------------------------------------------------------===//

#include "Code.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include <cctype>

using namespace llvm;

namespace warpscope::advise {
namespace {

void classifySass(Instr &I) {
  StringRef Op(I.Opcode);
  StringRef Base = Op.split('.').first;
  auto Mem = [&](Space S, bool Load, bool Store, LatencyClass L) {
    I.Class = OpClass::Memory;
    I.Mem = S;
    I.Load = Load;
    I.Store = Store;
    I.Latency = L;
  };
  const LatencyClass GL = LatencyClass::GlobalLocal;
  if (Base == "LDG")
    Mem(Space::Global, true, false, GL);
  else if (Base == "STG")
    Mem(Space::Global, false, true, GL);
  else if (Base == "LDL")
    Mem(Space::Local, true, false, GL);
  else if (Base == "STL")
    Mem(Space::Local, false, true, GL);
  else if (Base == "LDS" || Base == "LDSM")
    Mem(Space::Shared, true, false, LatencyClass::Shared);
  else if (Base == "STS")
    Mem(Space::Shared, false, true, LatencyClass::Shared);
  else if (Base == "LD")
    Mem(Space::Generic, true, false, GL);
  else if (Base == "ST")
    Mem(Space::Generic, false, true, GL);
  else if (Base == "LDC")
    Mem(Space::Constant, true, false, LatencyClass::Constant);
  else if (Base == "LDGSTS")
    Mem(Space::Global, true, true, GL);
  else if (Base == "ATOMG" || Base == "ATOM" || Base == "RED" ||
           Base == "REDG") {
    Mem(Base == "ATOM" ? Space::Generic : Space::Global, Base.starts_with("A"),
        true, GL);
    I.Atomic = true;
  } else if (Base == "ATOMS") {
    Mem(Space::Shared, true, true, LatencyClass::Shared);
    I.Atomic = true;
  } else if (Base.starts_with("TEX") || Base.starts_with("TLD") ||
             Base.starts_with("SU") || Base == "TXQ")
    Mem(Space::Texture, !Base.starts_with("SUST"), Base.starts_with("SUST"),
        GL);
  else if (Base == "BAR" || Base == "MEMBAR" || Base == "WARPSYNC" ||
           Base == "DEPBAR" || Base == "ERRBAR" || Base == "SYNCS" ||
           Base == "ARRIVES" || Base == "BSYNC" || Base == "LDGDEPBAR")
    I.Class = OpClass::Sync;
  else if (Base == "BRA" || Base == "BRX" || Base == "JMP" || Base == "JMX" ||
           Base == "CALL" || Base == "RET" || Base == "EXIT" ||
           Base == "BREAK" || Base == "KILL")
    I.Class = OpClass::Branch;
  else if (Base == "MUFU" || Base == "I2F" || Base == "F2I" || Base == "F2F" ||
           Base == "FRND" || Base == "I2I" || Base == "F2FP") {
    I.Class = Base == "MUFU" ? OpClass::LongArith : OpClass::Arith;
    I.Latency = LatencyClass::Sfu;
  } else if (Base == "DADD" || Base == "DMUL" || Base == "DFMA" ||
             Base == "DSETP" || Base == "DMNMX") {
    I.Class = OpClass::LongArith;
    I.Latency = LatencyClass::Sfu;
  } else if (Base == "S2R" || Base == "CS2R" || Base == "S2UR" ||
             Base == "SHFL" || Base == "MATCH" || Base == "REDUX" ||
             Base == "POPC" || Base == "FLO" || Base == "BREV") {
    I.Class = OpClass::Other;
    I.Latency = Base == "SHFL" ? LatencyClass::Shared : LatencyClass::Sfu;
    if (Base == "POPC" || Base == "FLO" || Base == "BREV" || Base == "CS2R")
      I.Latency = LatencyClass::Fixed;
  } else if (Base == "NOP" || Base == "BSSY" || Base == "YIELD" ||
             Base == "VOTE" || Base == "VOTEU" || Base == "PMTRIG")
    I.Class = OpClass::Other;
  else
    I.Class = OpClass::Arith;
}

bool isRegisterToken(StringRef T) {
  auto Digits = [](StringRef S) {
    return !S.empty() && S.find_first_not_of("0123456789") == StringRef::npos;
  };
  if (T.consume_front("UR") || T.consume_front("UP"))
    return Digits(T);
  if (T.consume_front("R") || T.consume_front("P") || T.consume_front("B"))
    return Digits(T);
  return false;
}

/// The registers an operand names; a ".64"/".128" suffix on R<n> also names
/// the following registers (the pair or quad an address or value spans).
void operandRegisters(StringRef Op, std::vector<std::string> &Out,
                      unsigned Width = 1) {
  size_t I = 0;
  while (I < Op.size()) {
    if (!isalpha(static_cast<unsigned char>(Op[I]))) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Op.size() &&
           (isalnum(static_cast<unsigned char>(Op[J])) || Op[J] == '_'))
      ++J;
    StringRef Tok = Op.slice(I, J);
    // Bank and descriptor names (c, desc, SR_*) are not registers.
    bool PrevAlnum = I > 0 && (isalnum(static_cast<unsigned char>(Op[I - 1])) ||
                               Op[I - 1] == '_');
    if (!PrevAlnum && isRegisterToken(Tok) && !Tok.starts_with("B")) {
      unsigned N = Width;
      StringRef Rest = Op.substr(J);
      // desc[URn]: a 64-bit memory descriptor in URn, URn+1.
      if (Rest.starts_with(".64") || (I >= 5 && Op.slice(I - 5, I) == "desc["))
        N = 2;
      else if (Rest.starts_with(".128"))
        N = 4;
      bool Uniform = Tok.starts_with("UR");
      unsigned Num = 0;
      Tok.drop_front(Uniform ? 2 : 1).getAsInteger(10, Num);
      if (Tok.starts_with("R") || Uniform)
        for (unsigned K = 0; K < N; ++K)
          Out.push_back((Uniform ? "UR" : "R") + std::to_string(Num + K));
      else
        Out.push_back(Tok.str());
    }
    I = J;
  }
}

/// Splits "A, B, C" at top-level commas.
std::vector<StringRef> splitOperands(StringRef S) {
  std::vector<StringRef> Ops;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '[' || C == '(' || C == '{')
      ++Depth;
    else if (C == ']' || C == ')' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Ops.push_back(S.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (!S.slice(Start, S.size()).trim().empty())
    Ops.push_back(S.slice(Start, S.size()).trim());
  return Ops;
}

bool isPredicateOperand(StringRef Op) {
  Op.consume_front("!");
  return Op == "PT" || Op == "UPT" ||
         ((Op.starts_with("P") || Op.starts_with("UP")) && isRegisterToken(Op));
}

/// Defines: nothing for stores, branches and barriers; otherwise the first
/// operand, and a second one that is a predicate (ISETP's pair, IADD3's
/// carry) or follows a predicate (ATOMG PT, R5, ...).
void setSassOperands(Function &F, Instr &I, StringRef Operands) {
  std::vector<StringRef> Ops = splitOperands(Operands);
  bool NoDef = I.Class == OpClass::Branch || I.Class == OpClass::Sync ||
               (I.Store && !I.Load) || I.Opcode.rfind("BSSY", 0) == 0 ||
               I.Opcode.rfind("NOP", 0) == 0;
  unsigned NDefs = 0;
  if (!NoDef && !Ops.empty()) {
    NDefs = 1;
    if (Ops.size() > 2 &&
        (isPredicateOperand(Ops[1]) || isPredicateOperand(Ops[0])) &&
        !Ops[1].contains('['))
      NDefs = 2;
  }
  StringRef Op = I.Opcode;
  unsigned Width = Op.contains(".128")                            ? 4
                   : (Op.contains(".64") || Op.contains(".WIDE")) ? 2
                                                                  : 1;
  for (unsigned K = 0; K < Ops.size(); ++K) {
    std::vector<std::string> Regs;
    operandRegisters(Ops[K], Regs,
                     K < NDefs && !Ops[K].contains('[') ? Width : 1);
    for (const std::string &R : Regs)
      (K < NDefs ? I.Defs : I.Uses).push_back(F.regId(R));
    if (K >= NDefs && Ops[K].contains('[')) {
      std::vector<std::string> Addr;
      operandRegisters(Ops[K].drop_until([](char C) { return C == '['; }),
                       Addr);
      for (const std::string &R : Addr)
        I.AddrUses.push_back(F.regId(R));
    }
    if (Ops[K].starts_with("`(")) {
      size_t E = Ops[K].find(')');
      I.Callee = Ops[K].slice(2, E).str();
    }
  }
}

/// The control bits of the second encoding word (bits 64-127).
void setControl(Function &F, Instr &I, uint64_t Hi) {
  I.HasControl = true;
  I.StallCycles = unsigned(Hi >> 41) & 0xf;
  unsigned Wr = unsigned(Hi >> 46) & 7, Rd = unsigned(Hi >> 49) & 7;
  I.WaitMask = unsigned(Hi >> 52) & 0x3f;
  I.WriteBarrier = Wr == 7 ? -1 : int(Wr);
  I.ReadBarrier = Rd == 7 ? -1 : int(Rd);
  for (int B : {I.WriteBarrier, I.ReadBarrier})
    if (B >= 0)
      I.Defs.push_back(F.regId("SB" + std::to_string(B)));
  for (unsigned B = 0; B < 6; ++B)
    if (I.WaitMask & (1u << B))
      I.Uses.push_back(F.regId("SB" + std::to_string(B)));
}

/// "/* 0x<16 hex digits> */": an encoding word.
bool encodingWord(StringRef S, uint64_t &W) {
  S = S.trim();
  if (!S.consume_front("/*") || !S.consume_back("*/"))
    return false;
  S = S.trim();
  return S.consume_front("0x") && !S.getAsInteger(16, W);
}

} // namespace

/// Splits Fn's instructions into blocks at Labels (label -> first
/// instruction) and after branches; fills successors from branch targets.
static void buildBlocks(Function &F,
                        const std::map<std::string, unsigned> &Labels) {
  std::vector<char> Leader(F.Instrs.size() + 1, 0);
  Leader[0] = 1;
  for (auto &[L, I] : Labels)
    Leader[I] = 1;
  for (unsigned I = 0; I < F.Instrs.size(); ++I)
    if (F.Instrs[I].Class == OpClass::Branch &&
        F.Instrs[I].Opcode.rfind("CALL", 0) != 0)
      Leader[I + 1] = 1;
  std::vector<unsigned> BlockOf(F.Instrs.size() + 1, 0);
  for (unsigned I = 0; I < F.Instrs.size(); ++I) {
    if (Leader[I]) {
      if (!F.Blocks.empty())
        F.Blocks.back().End = I;
      F.Blocks.push_back({});
      F.Blocks.back().First = I;
    }
    BlockOf[I] = unsigned(F.Blocks.size() - 1);
  }
  if (F.Blocks.empty())
    return;
  F.Blocks.back().End = unsigned(F.Instrs.size());
  for (unsigned B = 0; B < F.Blocks.size(); ++B) {
    const Instr &Last = F.Instrs[F.Blocks[B].End - 1];
    StringRef Op(Last.Opcode);
    bool Guarded = Last.Guard >= 0;
    bool Falls = true;
    if (Op.starts_with("BRA") || Op.starts_with("JMP")) {
      auto It = Labels.find(Last.Callee);
      if (It != Labels.end() && It->second < F.Instrs.size())
        F.Blocks[B].Succs.push_back(BlockOf[It->second]);
      Falls = Guarded;
    } else if (Op.starts_with("EXIT") || Op.starts_with("RET") ||
               Op.starts_with("BRX") || Op.starts_with("JMX") ||
               Op.starts_with("KILL")) {
      Falls = Guarded;
    }
    if (Falls && B + 1 < F.Blocks.size() &&
        std::find(F.Blocks[B].Succs.begin(), F.Blocks[B].Succs.end(), B + 1) ==
            F.Blocks[B].Succs.end())
      F.Blocks[B].Succs.push_back(B + 1);
  }
}

/// Reads `"p", line N` from the front of L.
static bool readFileLine(StringRef &L, InlinedFrame &F) {
  if (!L.consume_front("\""))
    return false;
  size_t Q = L.find('"');
  if (Q == StringRef::npos)
    return false;
  F = InlinedFrame();
  F.File = L.take_front(Q).str();
  L = L.drop_front(Q + 1);
  if (!L.consume_front(", line "))
    return false;
  size_t E = std::min(L.find_first_not_of("0123456789"), L.size());
  if (L.take_front(E).getAsInteger(10, F.Line))
    return false;
  L = L.drop_front(E);
  return true;
}

/// Reads `//## File "p", line N[ inlined at "q", line M]` into Chain:
/// nvdisasm -gi writes one such line per frame, innermost first, each
/// inlined at the next (-g: only the innermost, without "inlined at").
/// Continues Chain when Continues and the line is its last frame.
static bool readFileComment(StringRef L, bool Continues,
                            std::vector<InlinedFrame> &Chain) {
  if (!L.consume_front("//## File "))
    return false;
  InlinedFrame F, At;
  if (!readFileLine(L, F))
    return false;
  bool Inlined = L.consume_front(" inlined at ") && readFileLine(L, At);
  if (!Continues || Chain.empty() || Chain.back().File != F.File ||
      Chain.back().Line != F.Line)
    Chain.assign(1, F);
  if (Inlined)
    Chain.push_back(At);
  return true;
}

bool parseSassListing(const std::string &Text, std::vector<Function> &Out,
                      std::string &Error) {
  StringRef Rest(Text);
  unsigned LineNo = 0;
  Function *F = nullptr;
  std::map<std::string, unsigned> Labels;
  std::vector<std::string> Entries;
  std::vector<InlinedFrame> Chain; // the location in force
  bool InComment = false;          // the line before was a //## File
  auto finish = [&]() {
    if (!F)
      return;
    buildBlocks(*F, Labels);
    analyzeControlFlow(*F);
    Labels.clear();
  };
  while (!Rest.empty()) {
    auto [Raw, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    StringRef L = Raw.trim();
    if (L.consume_front(".section")) {
      L = L.trim();
      if (!L.starts_with(".text."))
        continue;
      finish();
      Out.emplace_back();
      F = &Out.back();
      F->Name = L.drop_front(6).split(',').first.str();
      Chain.clear();
      InComment = false;
      continue;
    }
    if (L.consume_front(".other")) {
      if (L.contains("STO_CUDA_ENTRY"))
        Entries.push_back(L.trim().split(',').first.str());
      continue;
    }
    bool Comment = readFileComment(L, InComment, Chain);
    InComment = Comment;
    if (Comment || !F)
      continue;
    if (L.ends_with(":") && L.starts_with(".L")) {
      Labels[L.drop_back().str()] = unsigned(F->Instrs.size());
      continue;
    }
    if (!L.starts_with("/*"))
      continue;
    uint64_t Word = 0;
    if (encodingWord(L, Word)) {
      // The second word of the instruction before.
      if (!F->Instrs.empty() && !F->Instrs.back().HasControl)
        setControl(*F, F->Instrs.back(), Word);
      continue;
    }
    size_t Close = L.find("*/");
    uint64_t Offset = 0;
    if (Close == StringRef::npos ||
        L.slice(2, Close).getAsInteger(16, Offset)) {
      Error = "line " + std::to_string(LineNo) +
              ": expected /*<hex offset>*/ before an instruction";
      return false;
    }
    StringRef Body = L.drop_front(Close + 2).split(';').first.trim();
    if (Body.empty())
      continue; // a -hex encoding line
    Instr I;
    I.Offset = Offset;
    I.Text = Body.str();
    placeInlined(I, Chain);
    if (Body.consume_front("@")) {
      I.GuardNegated = Body.consume_front("!");
      auto [G, After] = Body.split(' ');
      if (G != "PT")
        I.Guard = int(F->regId(G.str()));
      Body = After.trim();
    }
    auto [Op, Operands] = Body.split(' ');
    I.Opcode = Op.str();
    classifySass(I);
    setSassOperands(*F, I, Operands.trim());
    if (I.Guard >= 0)
      I.Uses.push_back(unsigned(I.Guard));
    F->ByOffset[Offset] = unsigned(F->Instrs.size());
    F->Instrs.push_back(std::move(I));
  }
  finish();
  for (Function &Fn : Out)
    Fn.Kernel =
        std::find(Entries.begin(), Entries.end(), Fn.Name) != Entries.end();
  if (Out.empty()) {
    Error = "no `.section .text.<function>` found; expected the output of "
            "`nvdisasm -c -g`";
    return false;
  }
  return true;
}

} // namespace warpscope::advise
