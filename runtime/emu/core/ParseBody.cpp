//===- ParseBody.cpp - PTX function bodies and statements -----------------===//
//
// The PTX parser's function bodies: nested scopes and label resolution, the
// declarations a body holds (.reg, .param, .loc, labels, .branchtargets),
// and instruction statements as written (guard, opcode, operand syntax),
// which the decoder (Decode.cpp) then turns into an Inst.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"

#include "warpscope/ABI/Abi.h"
#include "warpscope/Support/MathHeaders.h"

#include <cstring>

namespace warpscope::emu::core::parser {

void Parser::parseBody() {
  Scopes.clear();
  ConstSlots.clear();
  SpecialSlots.clear();
  LocalSyms.clear();
  PredSlots.clear();
  BrxTargets.clear();
  PendingMarker = -1;
  CurFile = CurLine = CurCol = 0;
  Locs.reset();
  CurChain = -1;
  // Function-level scope holds parameters.
  Scopes.emplace_back();
  for (auto &PD : F->Params) {
    Scopes.back().Params[PD.Name] = PD.Off;
    Scopes.back().ParamSize[PD.Name] = PD.Size;
  }
  if (F->HasRet) {
    Scopes.back().Params[F->Ret.Name] = F->Ret.Off;
    Scopes.back().ParamSize[F->Ret.Name] = F->Ret.Size;
  }
  expectP("{");
  Scopes.emplace_back();
  while (!(isP("}") && Scopes.size() == 2)) {
    if (cur().K == TkEnd)
      fail("unexpected end of input in function body");
    parseStatement();
  }
  ++P;
  closeScope();
  closeScope();
  F->ParamBytes = (F->ParamBytes + 7) / 8 * 8;
  F->reset(F->Code.size());
  computeReconvergence(*F);
}

void Parser::closeScope() {
  Scope S = std::move(Scopes.back());
  Scopes.pop_back();
  for (auto &PR : S.Pending) {
    auto It = S.Labels.find(PR.second);
    if (It != S.Labels.end())
      F->Code[PR.first].Target = It->second;
    else if (!Scopes.empty())
      Scopes.back().Pending.push_back(PR);
    else
      throw ParseError(F->Code[PR.first].PtxLine,
                       "undefined label '" + PR.second + "'");
  }
  for (auto &PR : S.PendingBrx) {
    auto It = S.Labels.find(PR.second);
    if (It != S.Labels.end()) {
      F->BrxTables[PR.first >> 16][PR.first & 0xffff] = It->second;
    } else if (!Scopes.empty()) {
      Scopes.back().PendingBrx.push_back(PR);
    } else {
      throw ParseError(0,
                       "undefined label '" + PR.second + "' in .branchtargets");
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
    if (T.Text == "{") {
      ++P;
      Scopes.emplace_back();
      return;
    }
    if (T.Text == "}") {
      ++P;
      if (Scopes.size() <= 2)
        fail("unbalanced '}'");
      closeScope();
      return;
    }
    if (T.Text == ";") {
      ++P;
      return;
    }
    if (T.Text == "@") {
      parseInstruction();
      return;
    }
    fail("unexpected '" + T.Text + "'");
  }
  if (T.K != TkIdent)
    fail("unexpected '" + T.Text + "' in function body");
  if (T.Text == ".reg") {
    ++P;
    parseRegDecl();
    return;
  }
  if (T.Text == ".local") {
    ++P;
    parseVarDecl(SpLocal, true);
    return;
  }
  if (T.Text == ".shared") {
    ++P;
    parseVarDecl(SpShared, true);
    return;
  }
  if (T.Text == ".global" || T.Text == ".const") {
    uint8_t Sp = T.Text == ".global" ? SpGlobal : SpConst;
    ++P;
    parseVarDecl(Sp, true);
    return;
  }
  if (T.Text == ".param") {
    ++P;
    parseParamDecl();
    return;
  }
  if (T.Text == ".loc") {
    parseLoc();
    return;
  }
  if (T.Text == ".pragma") {
    ++P;
    while (!isP(";") && cur().K != TkEnd)
      ++P;
    expectP(";");
    return;
  }
  if (T.Text == ".file") {
    ++P;
    number();
    while (cur().K == TkStr)
      ++P;
    return;
  }
  if (peek().K == TkPunct && peek().Text == ":") {
    parseLabel();
    return;
  }
  if (T.Text[0] == '.')
    fail("unsupported directive '" + T.Text + "' in function body");
  parseInstruction();
}

// `.loc`, read from its line's text by the one reader of the directive
// (warpscope/Support/PtxLoc.h). The innermost position is the instruction's
// until placeInlinedCode puts header code on the user's line.
void Parser::parseLoc() {
  uint32_t L = cur().Line;
  // The directive's reader, shared with the advisor, reads text: the rest
  // of the line after the token.
  size_t B = std::min(cur().Off + 4, Src.size());
  size_t E = std::min(Src.find('\n', B), Src.size());
  std::string Error = Locs.apply(std::string_view(Src).substr(B, E - B));
  if (!Error.empty())
    fail(Error);
  CurChain = -1;
  if (Locs.current().size() > 1) {
    LocChains.push_back(Locs.current());
    CurChain = int64_t(LocChains.size() - 1);
  }
  const ptxloc::Position &Pos = Locs.current().front().At;
  CurFile = Pos.File;
  CurLine = Pos.Line;
  CurCol = Pos.Column;
  skipLine(L);
}

// Once every .file is known: code nvcc inlined from a toolkit header
// (clang's, CUDA's, the system's: isToolkitHeader) gets the nearest call
// site outward in other files, as the device pass gives clang's code
// (-warpscope-inlined-lines), so the stall view, the ground truth's lines
// and fault messages name the user's line. The frames it hides stay in
// ParsedModule::Inlined for the messages.
void Parser::placeInlinedCode() {
  if (InlinedInsts.empty())
    return;
  std::unordered_map<uint32_t, bool> Header;
  auto IsHeader = [&](uint32_t File) {
    auto [It, New] = Header.try_emplace(File, false);
    if (New) {
      auto FIt = M.Files.find(File);
      It->second = FIt != M.Files.end() && isToolkitHeader(FIt->second);
    }
    return It->second;
  };
  ptxloc::DebugStrings Names;
  bool NamesRead = false; // read once some code moves
  for (const InlinedInst &II : InlinedInsts) {
    const ptxloc::Chain &Chain = LocChains[II.Chain];
    size_t U = ptxloc::userFrame(Chain, IsHeader);
    if (U == 0)
      continue;
    if (!NamesRead && DebugStrAt)
      Names = ptxloc::readDebugStrings(
          std::string_view(Src).substr(DebugStrAt - 1));
    NamesRead = true;
    Inst &I = II.F->Code[II.Index];
    I.File = Chain[U].At.File;
    I.Line = Chain[U].At.Line;
    I.Col = Chain[U].At.Column;
    std::vector<InlinedFrame> &Frames = M.Inlined[I.PtxLine];
    Frames.clear();
    for (size_t K = 0; K < U; ++K) {
      const ptxloc::Frame &Fr = Chain[K];
      auto FIt = M.Files.find(Fr.At.File);
      Frames.push_back(
          {FIt != M.Files.end() ? FIt->second
                                : "file " + std::to_string(Fr.At.File),
           ptxloc::functionName(Names, Fr.FunctionLabel, Fr.FunctionOffset),
           Fr.At.Line, Fr.At.Column});
    }
  }
}

// A declared register's width, for the spill model's pressure.
void Parser::noteSlotBits(uint32_t Slot, Ty Tp) {
  if (F->SlotBits.size() <= Slot)
    F->SlotBits.resize(Slot + 1, 0);
  F->SlotBits[Slot] = Tp == Ty::Pred ? 1 : (uint8_t)(tySize(Tp) * 8);
}

// After .reg: [.align N] [.v2/.v4] .type names, %r<N> ranges.
void Parser::parseRegDecl() {
  Ty Tp = Ty::None;
  while (cur().K == TkIdent && cur().Text[0] == '.') {
    std::string D = ident();
    Ty X = parseTy(D.substr(1));
    if (X != Ty::None)
      Tp = X;
    else if (D != ".align" && D != ".v2" && D != ".v4")
      fail("unsupported .reg attribute '" + D + "'");
    if (D == ".align")
      number();
  }
  if (Tp == Ty::None)
    fail(".reg without type");
  for (;;) {
    std::string N = ident();
    if (isP("<")) {
      ++P;
      int64_t Cnt = number();
      expectP(">");
      for (int64_t K = 0; K < Cnt; ++K) {
        if (Tp == Ty::Pred)
          PredSlots.insert(F->NumSlots);
        noteSlotBits(F->NumSlots, Tp);
        Scopes.back().Regs[N + std::to_string(K)] = F->NumSlots++;
      }
      F->NumDeclaredRegs += (uint32_t)Cnt;
    } else {
      if (Tp == Ty::Pred)
        PredSlots.insert(F->NumSlots);
      noteSlotBits(F->NumSlots, Tp);
      Scopes.back().Regs[N] = F->NumSlots++;
      F->NumDeclaredRegs++;
      if (N.rfind(InstrumentationRegisterPrefix, 0) == 0 && Scopes.size() > 2)
        Scopes.back().Instrumentation = true;
      // Instrumentation probes name themselves with a marker register
      // ("%ws_block_12" -> "ws:block 12"); comments do not survive into
      // fatbins, declarations do. It marks the next instruction.
      std::optional<ProbeMarker> PM = ProbeMarker::parse(N);
      if (PM && PM->Block.has_value() != PM->Branch.has_value()) {
        PendingMarker = (int32_t)M.Markers.size();
        M.Markers.push_back(PM->text());
      }
    }
    if (isP(",")) {
      ++P;
      continue;
    }
    break;
  }
  expectP(";");
}

// A .param declaration in a body (a call's argument or return space), after
// .param: it gets an offset in the function's parameter area.
void Parser::parseParamDecl() {
  uint32_t Align = 0;
  Ty Tp = Ty::None;
  while (cur().K == TkIdent && cur().Text[0] == '.') {
    std::string D = ident();
    if (D == ".align")
      Align = (uint32_t)number();
    else if (D == ".ptr") {
    } else {
      Ty X = parseTy(D.substr(1));
      if (X == Ty::None)
        fail("bad .param attribute '" + D + "'");
      Tp = X;
    }
  }
  for (;;) {
    std::string N = ident();
    uint32_t Count = 1;
    while (isP("[")) {
      ++P;
      Count *= (uint32_t)number();
      expectP("]");
    }
    uint32_t Size = tySize(Tp) * Count;
    uint32_t A = Align ? Align : std::max(1u, tySize(Tp));
    F->ParamBytes = (F->ParamBytes + A - 1) / A * A;
    Scopes.back().Params[N] = F->ParamBytes;
    Scopes.back().ParamSize[N] = Size;
    F->ParamBytes += Size;
    if (isP(",")) {
      ++P;
      continue;
    }
    break;
  }
  expectP(";");
}

// "name:" then a label, a .branchtargets table or a .callprototype.
void Parser::parseLabel() {
  std::string L = ident();
  ++P;
  if (isI(".branchtargets")) {
    ++P;
    std::vector<std::string> Names;
    for (;;) {
      Names.push_back(ident());
      if (isP(",")) {
        ++P;
        continue;
      }
      break;
    }
    expectP(";");
    std::vector<uint32_t> Idx;
    BrxTargets[L] = {};
    // Store names; resolved at decode time of brx (labels may be forward).
    uint32_t TabIdx = (uint32_t)F->BrxTables.size();
    F->BrxTables.emplace_back(Names.size(), 0u);
    BrxTargets[L].push_back(TabIdx);
    if (Names.size() > 0xffff)
      fail("too many branch targets");
    for (size_t K = 0; K < Names.size(); ++K)
      Scopes.back().PendingBrx.push_back(
          {(TabIdx << 16) | (uint32_t)K, Names[K]});
    return;
  }
  if (isI(".callprototype")) { // only used by indirect calls (unsupported)
    while (!isP(";") && cur().K != TkEnd)
      ++P;
    expectP(";");
    return;
  }
  if (Scopes.back().Labels.count(L))
    fail("duplicate label '" + L + "'");
  Scopes.back().Labels[L] = (uint32_t)F->Code.size();
}

// A comma-separated operand list after its opening token, up to Close:
// vector operands {a, b} and call argument lists (a, b).
RawOp Parser::parseOperandList(RawOp::K Kind, const char *Close,
                               const char *Error) {
  RawOp O;
  O.Kind = Kind;
  ++P;
  while (!isP(Close)) {
    O.Elems.push_back(parseOperand());
    if (isP(","))
      ++P;
    else if (!isP(Close))
      fail(Error);
  }
  ++P;
  return O;
}

RawOp Parser::parseOperand() {
  RawOp O;
  if (isP("{"))
    return parseOperandList(RawOp::Vec, "}",
                            "expected ',' or '}' in vector operand");
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
  if (isP("!")) {
    ++P;
    O.Not = true;
  }
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
    if (O.Name == "_")
      O.Kind = RawOp::Sink;
    if (isP("|")) {
      ++P;
      O.Name2 = ident();
    }
    if (isP("+") && peek().K == TkNum) {
      ++P;
      O.Off = number();
    }
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
    if (isP("!")) {
      GuardNeg = true;
      ++P;
    }
    GuardName = ident();
  }
  std::string Opc = ident();
  std::vector<RawOp> Ops;
  try {
    while (!isP(";")) {
      if (cur().K == TkEnd)
        fail("missing ';'");
      Ops.push_back(parseOperand());
      if (isP(","))
        ++P;
      else if (!isP(";"))
        fail("expected ',' or ';' after operand, found '" + cur().Text + "'");
    }
  } catch (ParseError &E) {
    std::string Where = "in function " + F->Name;
    if (CurFile) {
      auto It = M.Files.find(CurFile);
      Where += " (source " +
               (It != M.Files.end() ? It->second
                                    : "file " + std::to_string(CurFile)) +
               ":" + std::to_string(CurLine) + ")";
    }
    throw ParseError(E.Line, Where + ": '" + Opc + "': " + E.what());
  }
  ++P;
  if (!GuardName.empty()) {
    uint32_t S;
    if (!lookupReg(GuardName, S))
      throw ParseError(I.PtxLine, "unknown predicate '" + GuardName + "'");
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
      Where += " (source " +
               (It != M.Files.end() ? It->second
                                    : "file " + std::to_string(CurFile)) +
               ":" + std::to_string(CurLine) + ")";
    }
    throw ParseError(I.PtxLine, Where + ": " + E.what());
  }
  F->Code.push_back(I);
  if (CurChain >= 0)
    InlinedInsts.push_back(
        {F, uint32_t(F->Code.size() - 1), uint32_t(CurChain)});
  F->Opcodes.push_back(Opc);
  bool Probe = false;
  for (const Scope &Sc : Scopes)
    Probe |= Sc.Instrumentation;
  F->Instrumentation.push_back(Probe);
}

} // namespace warpscope::emu::core::parser
