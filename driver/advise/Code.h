//===- Code.h - One instruction representation for PTX and SASS -*- C++ -*-===//
//
// The advisor's view of a function's machine code (issue 18 item 2), the same
// for both sampling granularities: instructions with an opcode class, the
// registers they define and use (PTX virtual registers; SASS R/P/UR/UP
// registers and, where the listing shows them, the scoreboard barriers
// B0-B5 as virtual registers), guard predicate, source line, basic block,
// loop nest and latency class. PTX comes from our PTX listing
// (warpscope/PTX/PtxListing.h), SASS from the `nvdisasm -c -g` listing the
// run saved next to the cubin (`cubin-<crc>.sass`).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_CODE_H
#define WARPSCOPE_DRIVER_ADVISE_CODE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpscope::advise {

/// What an instruction does, as far as stall attribution cares.
enum class OpClass {
  Arith,     ///< fixed-latency integer / float / move / compare
  LongArith, ///< special function unit, f64, division and square root
  Memory,    ///< loads, stores, atomics (Space says where)
  Branch,    ///< bra, brx, call, ret, exit
  Sync,      ///< barriers, memory fences, warp syncs
  Other,     ///< everything else (S2R, nop, ...)
};

enum class Space { None, Global, Local, Shared, Constant, Generic, Texture };

/// How long the result takes: the upper bound latency-based pruning uses.
/// Chain: a fixed-latency sequence of dependent SASS instructions that one
/// PTX instruction becomes (integer division, IEEE division and square
/// root, f64): its readers wait (`wait`), for longer than one instruction.
enum class LatencyClass { Fixed, Chain, Sfu, Shared, Constant, GlobalLocal };

/// Upper-bound latency of a class in instructions issued in between
/// (GPA prunes an edge whose every path is longer than this).
unsigned latencyBound(LatencyClass C);
const char *opClassName(OpClass C);
const char *spaceName(Space S);

/// Where code inlined from a toolkit header is, when its instruction was put
/// on the user's call site (placeInlined).
struct InlinedFrame {
  std::string File;
  std::string Function; ///< mangled; "" when the listing does not name it
  unsigned Line = 0, Column = 0;
};

struct Instr {
  std::string Opcode; ///< as written, without guard and operands
  std::string Text;   ///< the whole instruction, for evidence
  OpClass Class = OpClass::Other;
  Space Mem = Space::None;
  bool Load = false, Store = false, Atomic = false;
  LatencyClass Latency = LatencyClass::Fixed;
  std::vector<unsigned> Defs, Uses; ///< register ids (Function::RegNames)
  std::vector<unsigned> AddrUses;   ///< the Uses inside an address [...]
  /// Guard: register id, or -1 when unguarded (GPA's "_").
  int Guard = -1;
  bool GuardNegated = false;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0; ///< PTX `.loc`'s; 0 when unknown (SASS listings)
  /// Toolkit-header code on the user's line (File/Line/Column: the nearest
  /// call site in other files): where the code is, innermost first. Empty
  /// for the user's own code.
  std::vector<InlinedFrame> Inlined;
  unsigned Block = 0;
  uint64_t Offset = 0; ///< SASS: pc offset; PTX: index in the function
  std::string Callee;  ///< calls: the called function
  /// SASS control bits, where the listing has encodings (-hex): the
  /// scoreboard barriers written when the result (WriteBarrier) or the
  /// operands (ReadBarrier) are done, -1 for none, and those waited on.
  bool HasControl = false;
  int WriteBarrier = -1, ReadBarrier = -1;
  unsigned WaitMask = 0, StallCycles = 0;
  bool variableLatency() const {
    return Latency != LatencyClass::Fixed && Latency != LatencyClass::Chain;
  }
};

struct BasicBlock {
  unsigned First = 0, End = 0; ///< [First, End) into Function::Instrs
  std::vector<unsigned> Succs, Preds;
  int Loop = -1; ///< innermost loop, -1 outside loops
};

struct Loop {
  unsigned Header = 0; ///< block
  int Parent = -1;
  unsigned Depth = 1;
  std::vector<unsigned> Blocks;
  std::string File; ///< the header's first source line
  unsigned Line = 0;
};

struct Function {
  std::string Name; ///< mangled
  bool Kernel = false;
  std::vector<Instr> Instrs;
  std::vector<BasicBlock> Blocks;
  std::vector<Loop> Loops;
  std::vector<std::string> RegNames;
  std::map<std::string, unsigned> RegIndex;
  /// Instruction index by SASS pc offset (PTX: by index).
  std::map<uint64_t, unsigned> ByOffset;
  /// The loops containing instruction I, innermost first.
  std::vector<int> loopNest(unsigned I) const;
  unsigned regId(const std::string &Name); ///< interns Name
};

/// Functions of one listing, by mangled name.
struct CodeSet {
  std::string Granularity; ///< "sass" or "ptx"
  std::map<std::string, Function> Functions;
  /// SASS: the cubin CRC each function's listing came from.
  std::map<std::string, std::string> CubinOf;
  const Function *find(const std::string &Name) const {
    auto It = Functions.find(Name);
    return It == Functions.end() ? nullptr : &It->second;
  }
};

/// Reads an `nvdisasm -c -g` listing. False with a one-line Error
/// ("line L: what") when the text is not such a listing.
bool parseSassListing(const std::string &Text, std::vector<Function> &Out,
                      std::string &Error);

/// Puts I on the user's line when Chain (innermost first, as
/// warpscope/Support/PtxLoc.h orders it; Files[File] its path) starts in a
/// toolkit header: File/Line/Column become the frame userFrame picks and
/// the frames before it go to I.Inlined. Otherwise the innermost frame.
void placeInlined(Instr &I, const std::vector<InlinedFrame> &Chain);

/// Reads PTX text through PtxListing and adds operands, guards and .loc
/// source lines (inlined_at chains placed by placeInlined). False with a
/// one-line Error.
bool parsePtxCode(const std::string &Text, std::vector<Function> &Out,
                  std::string &Error);

/// Fills Preds, loops (natural loops of back edges to dominators) and
/// Block/Loop of every instruction, once Instrs and Succs are set.
void analyzeControlFlow(Function &F);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_CODE_H
