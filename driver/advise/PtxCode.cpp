//===- PtxCode.cpp - PTX functions as advise::Function --------------------===//
//
// Blocks, successors and instruction numbering come from the PTX listing
// (warpscope/PTX/PtxListing.h; probe scopes left out, as modeled samples
// number them); operands, guards and `.loc` lines from the text of each
// instruction's PTX line. A `.loc` is read by the emulator's reader
// (warpscope/Support/PtxLoc.h), so the advisor and the stall view put nvcc's
// inlined header code on the same user lines.
//
//===----------------------------------------------------------------------===//

#include "Code.h"
#include "warpscope/ABI/PtxOpcodes.h"
#include "warpscope/PTX/PtxListing.h"
#include "warpscope/Support/MathHeaders.h"
#include "warpscope/Support/PtxLoc.h"
#include "warpscope/Support/SourcePath.h"
#include "llvm/ADT/StringRef.h"
#include <cctype>

using namespace llvm;

namespace warpscope::advise {
namespace {

Space ptxSpace(StringRef Op) {
  if (Op.contains(".global"))
    return Space::Global;
  if (Op.contains(".local"))
    return Space::Local;
  if (Op.contains(".shared"))
    return Space::Shared;
  if (Op.contains(".const") || Op.contains(".param"))
    return Space::Constant;
  return Space::Generic;
}

// The unit comes from the opcode table (warpscope/ABI/PtxOpcodes.def);
// modifiers refine it as the timing model does (docs/timing-model.md).
void classifyPtx(Instr &I) {
  StringRef Op(I.Opcode);
  StringRef Base = Op.split('.').first;
  auto Mem = [&](Space S, bool Load, bool Store) {
    I.Class = OpClass::Memory;
    I.Mem = S;
    I.Load = Load;
    I.Store = Store;
    I.Latency = S == Space::Shared     ? LatencyClass::Shared
                : S == Space::Constant ? LatencyClass::Constant
                                       : LatencyClass::GlobalLocal;
  };
  // A chain of dependent fixed-latency instructions (CUDA's division and
  // square-root sequences) or the FP64 pipe: readers wait.
  auto Chain = [&] {
    I.Class = OpClass::LongArith;
    I.Latency = LatencyClass::Chain;
  };
  // One MUFU: variable latency (short scoreboard).
  auto Sfu = [&] {
    I.Class = OpClass::LongArith;
    I.Latency = LatencyClass::Sfu;
  };
  I.Class = OpClass::Arith;
  const PtxUnit Unit = ptxOpcodeOf(I.Opcode).Unit;
  switch (Unit) {
  case PtxUnit::Load:
  case PtxUnit::Store:
    if ((Base == "ld" || Base == "st") && Op.contains(".param")) {
      // Parameter passing: register moves in SASS (a kernel's ld.param is
      // a constant-bank operand), fixed latency (docs/timing-model.md).
      I.Load = Base == "ld";
      I.Store = Base == "st";
      return;
    }
    Mem(ptxSpace(Op), Unit == PtxUnit::Load, Unit == PtxUnit::Store);
    return;
  case PtxUnit::Atomic:
    Mem(ptxSpace(Op), Base == "atom", true);
    I.Atomic = true;
    return;
  case PtxUnit::AsyncGroup:
  case PtxUnit::AsyncCopy:
    if (Op.starts_with("cp.async.wait"))
      I.Class = OpClass::Sync;
    else if (Op.starts_with("cp.async") && !Op.contains("group") &&
             !Op.contains("wait"))
      Mem(Space::Global, true, true);
    else
      break;
    return;
  case PtxUnit::Texture:
    Mem(Space::Texture, Base != "sust", Base == "sust");
    return;
  case PtxUnit::Matrix:
    if (Op.contains(".load"))
      Mem(ptxSpace(Op), true, false);
    else if (Op.contains(".store"))
      Mem(ptxSpace(Op), false, true);
    else
      break;
    return;
  case PtxUnit::Barrier:
  case PtxUnit::Fence:
    I.Class = OpClass::Sync;
    return;
  case PtxUnit::Branch:
  case PtxUnit::Exit:
    I.Class = OpClass::Branch;
    return;
  case PtxUnit::Sfu:
    Sfu();
    return;
  case PtxUnit::Root:
    if (Op.contains(".approx") && !Op.ends_with(".f64"))
      Sfu();
    else
      Chain();
    return;
  case PtxUnit::Convert:
    // The conversion pipe: variable latency, as I2F / F2I are in SASS.
    I.Latency = LatencyClass::Sfu;
    return;
  case PtxUnit::Divide:
    Chain();
    return;
  case PtxUnit::Shuffle:
    if (Op.ends_with(".f64"))
      break;
    I.Class = OpClass::Other;
    I.Latency = LatencyClass::Shared;
    return;
  case PtxUnit::Alu:
  case PtxUnit::Free:
  case PtxUnit::Tensor:
    break;
  }
  // The FP64 pipe.
  if (Op.ends_with(".f64"))
    Chain();
}

/// "%r12", "%rd3", "%f1", "%p2": a name then digits, not a special register
/// with a component (%tid.x).
void registers(StringRef S, std::vector<std::string> &Out) {
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '%')
      continue;
    size_t J = I + 1;
    while (J < S.size() &&
           (isalnum(static_cast<unsigned char>(S[J])) || S[J] == '_'))
      ++J;
    StringRef Tok = S.slice(I, J);
    if (Tok.size() > 1 && isdigit(static_cast<unsigned char>(Tok.back())) &&
        (J >= S.size() || S[J] != '.') && !Tok.starts_with("%ws_"))
      Out.push_back(Tok.str());
    I = J - 1;
  }
}

void setPtxOperands(Function &F, Instr &I, StringRef Operands) {
  StringRef Op(I.Opcode);
  bool NoDef = I.Class == OpClass::Branch || I.Class == OpClass::Sync ||
               (I.Store && !I.Load) || Op.starts_with("prefetch") ||
               Op.starts_with("cp.async");
  // The first operand: up to the first top-level comma.
  int Depth = 0;
  size_t Cut = Operands.size();
  for (size_t K = 0; K < Operands.size(); ++K) {
    char C = Operands[K];
    if (C == '{' || C == '[' || C == '(')
      ++Depth;
    else if (C == '}' || C == ']' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Cut = K;
      break;
    }
  }
  std::vector<std::string> Defs, Uses;
  if (NoDef) {
    registers(Operands, Uses);
  } else {
    registers(Operands.take_front(Cut), Defs);
    registers(Operands.drop_front(Cut), Uses);
  }
  for (const std::string &R : Defs)
    I.Defs.push_back(F.regId(R));
  for (const std::string &R : Uses)
    I.Uses.push_back(F.regId(R));
  for (size_t A = Operands.find('['); A != StringRef::npos;
       A = Operands.find('[', A + 1)) {
    std::vector<std::string> Addr;
    registers(Operands.slice(A, Operands.find(']', A)), Addr);
    for (const std::string &R : Addr)
      I.AddrUses.push_back(F.regId(R));
  }
  if (Op.starts_with("call")) {
    // call[.uni] [(ret),] name, (args): the first bare identifier.
    for (StringRef Part : {Operands.take_front(Cut), Operands.drop_front(Cut)})
      for (StringRef T = Part; !T.empty();) {
        auto [Tok, R] = T.split(',');
        Tok = Tok.trim();
        if (!Tok.empty() && Tok.front() != '(' && Tok.front() != '%' &&
            I.Callee.empty())
          I.Callee = Tok.str();
        T = R;
      }
  }
}

/// `.file N "path"` or `.file N "dir" "name"`.
void readFileDirective(StringRef L, std::map<unsigned, std::string> &Files) {
  L = L.drop_front(5).trim();
  unsigned N = 0;
  size_t Sp = L.find_first_of(" \t");
  if (Sp == StringRef::npos || L.take_front(Sp).getAsInteger(10, N))
    return;
  std::vector<std::string> Strs;
  for (StringRef R = L.drop_front(Sp);;) {
    size_t A = R.find('"');
    if (A == StringRef::npos)
      break;
    size_t B = R.find('"', A + 1);
    if (B == StringRef::npos)
      break;
    Strs.push_back(R.slice(A + 1, B).str());
    R = R.drop_front(B + 1);
  }
  if (Strs.size() == 1)
    Files[N] = joinSourcePath("", Strs[0]);
  else if (Strs.size() >= 2)
    Files[N] = joinSourcePath(Strs[0], Strs[1]);
}

/// The `.loc` chain in force at each line of a PTX text (an index into
/// Chains, 0: none) and the `.file` paths.
struct SourceChains {
  std::map<unsigned, std::string> Files;
  std::vector<ptxloc::Chain> Chains{ptxloc::Chain()};
  std::vector<unsigned> At; ///< by line number (1-based)
};

bool readSourceChains(const std::vector<StringRef> &Lines, SourceChains &S,
                      std::string &Error) {
  S.At.assign(Lines.size() + 1, 0);
  ptxloc::Tracker Locs;
  unsigned Cur = 0;
  for (size_t K = 0; K < Lines.size(); ++K) {
    StringRef L = Lines[K].trim();
    if (L.starts_with(".file")) {
      readFileDirective(L, S.Files);
    } else if (L.size() > 4 && L.starts_with(".loc") &&
               (L[4] == ' ' || L[4] == '\t')) { // not .local
      L = L.drop_front(4);
      std::string E = Locs.apply(std::string_view(L.data(), L.size()));
      if (!E.empty()) {
        Error = "line " + std::to_string(K + 1) + ": " + E;
        return false;
      }
      S.Chains.push_back(Locs.current());
      Cur = unsigned(S.Chains.size() - 1);
    } else if (L.starts_with(".entry") || L.starts_with(".func") ||
               L.contains(" .entry ") || L.contains(" .func ")) {
      Locs.reset();
      Cur = 0;
    }
    S.At[K + 1] = Cur;
  }
  return true;
}

/// The chain at PTX line N with paths and function names.
std::vector<InlinedFrame>
framesAt(const SourceChains &S, const ptxloc::DebugStrings &Names, unsigned N) {
  std::vector<InlinedFrame> Out;
  if (N == 0 || N >= S.At.size())
    return Out;
  for (const ptxloc::Frame &F : S.Chains[S.At[N]]) {
    auto It = S.Files.find(F.At.File);
    Out.push_back(
        {It != S.Files.end() ? It->second : std::string(),
         ptxloc::functionName(Names, F.FunctionLabel, F.FunctionOffset),
         F.At.Line, F.At.Column});
  }
  return Out;
}

} // namespace

void placeInlined(Instr &I, const std::vector<InlinedFrame> &Chain) {
  if (Chain.empty())
    return;
  ptxloc::Chain C;
  for (size_t K = 0; K < Chain.size(); ++K)
    C.push_back({{uint32_t(K), Chain[K].Line, Chain[K].Column}, "", 0});
  size_t U = ptxloc::userFrame(C, [&](uint32_t K) {
    return !Chain[K].File.empty() && isToolkitHeader(Chain[K].File);
  });
  I.File = Chain[U].File;
  I.Line = Chain[U].Line;
  I.Column = Chain[U].Column;
  I.Inlined.assign(Chain.begin(), Chain.begin() + U);
}

bool parsePtxCode(const std::string &Text, std::vector<Function> &Out,
                  std::string &Error) {
  ptx::Module M;
  if (!ptx::parse(Text, M, Error))
    return false;
  // Lines, and the source location in force at each (.loc persists).
  std::vector<StringRef> Lines;
  for (StringRef R(Text); !R.empty();) {
    auto [L, N] = R.split('\n');
    Lines.push_back(L);
    R = N;
  }
  SourceChains Src;
  if (!readSourceChains(Lines, Src, Error))
    return false;
  ptxloc::DebugStrings Names;
  if (Src.Chains.size() > 1)
    Names = ptxloc::readDebugStrings(Text);
  for (const ptx::Function &PF : M.Functions) {
    Out.emplace_back();
    Function &F = Out.back();
    F.Name = PF.Name;
    F.Kernel = PF.Kernel;
    for (const ptx::Block &PB : PF.Blocks) {
      BasicBlock B;
      B.First = unsigned(F.Instrs.size());
      for (const ptx::Item &It : PB.Items) {
        if (It.Kind != ptx::Item::Instruction)
          continue;
        Instr I;
        I.Opcode = It.Opcode;
        I.Offset = F.Instrs.size();
        StringRef L =
            It.Line && It.Line <= Lines.size() ? Lines[It.Line - 1] : "";
        L = L.split(';').first.trim();
        I.Text = L.str();
        if (L.consume_front("@")) {
          I.GuardNegated = L.consume_front("!");
          auto [G, After] = L.split(' ');
          I.Guard = int(F.regId(G.trim().str()));
          L = After.trim();
        }
        auto [Op, Operands] = L.split(' ');
        (void)Op;
        classifyPtx(I);
        setPtxOperands(F, I, Operands.trim());
        if (I.Guard >= 0)
          I.Uses.push_back(unsigned(I.Guard));
        placeInlined(I, framesAt(Src, Names, It.Line));
        F.ByOffset[I.Offset] = unsigned(F.Instrs.size());
        F.Instrs.push_back(std::move(I));
      }
      B.End = unsigned(F.Instrs.size());
      B.Succs = PB.Successors;
      F.Blocks.push_back(std::move(B));
    }
    // Blocks with no instruction (marker-only) stay, as PtxListing made
    // them; the control flow goes through them.
    analyzeControlFlow(F);
  }
  return true;
}

} // namespace warpscope::advise
