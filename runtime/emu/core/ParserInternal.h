//===- ParserInternal.h - the PTX parser's private interface --------------===//
//
// Private to the PTX parser, whose concerns live in separate files:
// Lexer.cpp (tokens, literals), ParseModule.cpp (module directives, variables
// and their initializers, function headers), ParseBody.cpp (function bodies:
// scopes, .reg/.param declarations, labels, instruction statements),
// Decode.cpp (operands to slots; the decoder's dispatch, mov and special
// registers), DecodeArith.cpp and DecodeMemoryControl.cpp (the instruction
// families), Parser.cpp (parsePtx and the per-kernel memory layouts).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_PARSERINTERNAL_H
#define WARPSCOPE_EMU_CORE_PARSERINTERNAL_H

#include "Lexer.h"
#include "Ptx.h"
#include "warpscope/Support/PtxLoc.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace warpscope::emu::core::parser {

// Well-formed instruction the emulator does not implement: decoded as
// OpUnsupported, reported when (if ever) a warp executes it.
struct Unsupported : std::runtime_error {
  explicit Unsupported(const std::string &M) : std::runtime_error(M) {}
};

// Raw operand as written.
struct RawOp {
  enum K { Reg, Num, Vec, Mem, Paren, Sink } Kind = Reg;
  // Reg: identifier; Num: literal text; Mem: base (may be empty).
  std::string Name;
  std::string Name2; // second predicate of %p|%q
  bool Neg = false, Not = false;
  int64_t Off = 0; // Mem offset
  std::vector<RawOp> Elems;
};

struct Scope {
  std::unordered_map<std::string, uint32_t> Regs;
  std::unordered_map<std::string, uint32_t> Labels;
  std::vector<std::pair<uint32_t, std::string>> Pending;    // inst index, label
  std::vector<std::pair<uint32_t, std::string>> PendingBrx; // brx table index
  std::unordered_map<std::string, uint32_t> Params;         // name -> offset
  std::unordered_map<std::string, uint32_t> ParamSize;
  bool Instrumentation = false; // a WarpScope probe's scope (declares %ws_...)
};

class Parser {
public:
  Parser(const std::string &Text, ParsedModule &M)
      : Src(Text), Toks(tokenize(Text)), M(M) {}
  void run();

private:
  const std::string &Src;
  std::vector<Token> Toks;
  size_t P = 0;
  ParsedModule &M;
  // Function body state.
  Function *F = nullptr;
  std::vector<Scope> Scopes;
  std::unordered_map<uint64_t, uint32_t> ConstSlots;
  std::unordered_map<int, uint32_t> SpecialSlots;
  std::unordered_map<std::string, uint32_t> LocalSyms; // depot name -> offset
  std::unordered_set<uint32_t> PredSlots; // slots of .pred registers
  uint32_t CurFile = 0, CurLine = 0, CurCol = 0;
  ptxloc::Tracker Locs; // the chain CurFile/CurLine/CurCol is innermost of
  /// Instructions whose .loc has an inlined_at: placed on the user's line
  /// once the module's .file directives (after the code, in nvcc's PTX) are
  /// all read (placeInlinedCode, ParseBody.cpp).
  struct InlinedInst {
    Function *F;
    uint32_t Index, Chain; // Chain: in LocChains
  };
  std::vector<InlinedInst> InlinedInsts;
  std::vector<ptxloc::Chain> LocChains; // of the .loc lines with inlined_at
  int64_t CurChain = -1;                // the one in force, -1: none
  size_t DebugStrAt = 0; ///< the first `.section .debug_str`'s offset + 1
  int32_t PendingMarker = -1;
  /// Static variables are allocated when the module loads: a size beyond
  /// this (per variable, and for a module's .global and .const together)
  /// is refused with an error rather than tried (real programs put large
  /// data in cudaMalloc'd memory).
  static constexpr uint64_t MaxVariableBytes = uint64_t(256) << 20;
  uint64_t StaticBytes = 0;
  std::unordered_map<std::string, std::vector<uint32_t>> BrxTargets;

  const Token &cur() const { return Toks[P]; }
  const Token &peek(size_t K = 1) const {
    return Toks[std::min(P + K, Toks.size() - 1)];
  }
  bool isP(const char *S) const {
    return cur().K == TkPunct && cur().Text == S;
  }
  bool isI(const char *S) const {
    return cur().K == TkIdent && cur().Text == S;
  }
  [[noreturn]] void fail(const std::string &Msg) {
    throw ParseError(cur().Line, Msg);
  }
  void expectP(const char *S) {
    if (!isP(S))
      fail(std::string("expected '") + S + "' but found '" + cur().Text + "'");
    ++P;
  }
  std::string ident() {
    if (cur().K != TkIdent)
      fail("expected identifier, found '" + cur().Text + "'");
    return Toks[P++].Text;
  }
  int64_t number() {
    bool Neg = false;
    if (isP("-")) {
      Neg = true;
      ++P;
    }
    if (cur().K != TkNum)
      fail("expected number, found '" + cur().Text + "'");
    int64_t V;
    if (!parseIntLit(cur().Text, V))
      fail("bad integer '" + cur().Text + "'");
    ++P;
    return Neg ? -V : V;
  }
  void skipLine(uint32_t L) {
    while (cur().K != TkEnd && cur().Line == L)
      ++P;
  }
  void skipLine() { skipLine(cur().Line); }
  void skipBalanced() { // at '{'
    int Depth = 0;
    do {
      if (cur().K == TkEnd)
        fail("unterminated block");
      if (isP("{"))
        ++Depth;
      else if (isP("}"))
        --Depth;
      ++P;
    } while (Depth > 0);
  }

  friend class InstDecoder;

  // Module scope (ParseModule.cpp).
  void topLevel();
  void parseVarDecl(uint8_t Space, bool InFunction);
  void parseInitializer(GlobalVar &G, Ty T, unsigned VecN, size_t Size);
  void parseFunction(bool IsKernel);
  void parseParamList(Function &Fn, bool IsRet);
  // Function bodies (ParseBody.cpp).
  void parseBody();
  void parseStatement();
  void parseRegDecl();
  void noteSlotBits(uint32_t Slot, Ty Tp);
  void parseParamDecl();
  void parseLabel();
  void parseLoc();
  void placeInlinedCode();
  void parseInstruction();
  RawOp parseOperand();
  RawOp parseOperandList(RawOp::K Kind, const char *Close, const char *Error);
  void closeScope();

  // Operands to slots, and the decoder's entry (Decode.cpp).
  uint32_t constSlot(uint64_t V);
  uint32_t specialSlot(int Id);
  uint32_t srcSlot(const RawOp &O, Ty Context);
  uint32_t dstSlot(const RawOp &O);
  bool lookupReg(const std::string &N, uint32_t &Slot) const;
  bool symbolValue(const std::string &N, uint64_t &V, bool &IsLocal,
                   uint8_t &Space);
  void memOperand(const RawOp &O, Inst &I);
  void decode(const std::string &Opc, std::vector<RawOp> &Ops, Inst &I);
};

/// A special register's id (Sr*), or -1 when N names none.
int specialId(const std::string &N);

/// An opcode split at its dots: base name, type suffixes, other modifiers.
struct Mods {
  std::string Base;
  std::vector<std::string> List;
  std::vector<Ty> Types;
  bool has(const char *S) const {
    for (auto &X : List)
      if (X == S)
        return true;
    return false;
  }
};

/// The state space an instruction's modifiers name (SpGeneric when none).
uint8_t spaceOf(const Mods &M);

/// Decodes one instruction: opcode, modifiers and operands into an Inst. The
/// family helpers each return false when the opcode is not theirs.
class InstDecoder {
public:
  InstDecoder(Parser &P, const std::string &Opc, std::vector<RawOp> &Ops,
              Inst &I);
  void run();

private:
  Parser &P;
  const std::string &Opc;
  Mods Md;
  const std::string &B; // Md.Base
  std::vector<RawOp> &Ops;
  Inst &I;

  [[noreturn]] void fail(const std::string &Msg) { P.fail(Msg); }
  void needOps(size_t N);
  void setD(size_t K, const RawOp &O);
  void setS(size_t K, const RawOp &O, Ty Ctx);
  void simple(uint16_t Op, size_t NSrc);
  void needType();

  // Decode.cpp.
  bool move();
  // DecodeArith.cpp.
  bool arithmetic();
  bool bitOps();
  bool video();
  bool floatMath();
  bool comparison();
  bool conversion();
  // DecodeMemoryControl.cpp.
  bool memory();
  bool texture(); // DecodeTexture.cpp
  bool query();   // txq, suq
  bool control();
  bool barrier();
  bool call();
  bool warp();
  void memberMask(const RawOp *Mask);
  // DecodeMatrix.cpp: mma, wmma, ldmatrix.
  bool matrix();
  void mma();
  void wmma();
  void ldmatrix();
  uint32_t matrixList(const RawOp &O, size_t N, bool Dst, Ty Ctx);
  bool asyncCopy(); // DecodeMemoryControl.cpp: cp.async
};

} // namespace warpscope::emu::core::parser

#endif
