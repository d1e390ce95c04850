//===- PtxListing.h - PTX functions as basic blocks of opcodes
//-------------===//
//
// A light reading of PTX text, enough to count instructions: functions, their
// basic blocks (split at labels that something branches to and after
// bra/brx/ret/exit/trap; debug-line labels do not split), each instruction's
// opcode as written, and where WarpScope's probes sit. A probe is an inline-asm
// scope whose first declaration is a `%ws_...` register; its instructions are
// instrumentation, and `%ws_block_<N>` / `%ws_block_<N>_branch_<M>` name the IR
// block whose counter record starts at word N. No LLVM: the plugin, the driver
// and tests share it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PTX_PTXLISTING_H
#define WARPSCOPE_PTX_PTXLISTING_H

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::ptx {

/// One entry of a block, in PTX order: a program instruction, or the place
/// of a block marker (a probe naming the IR block it counts).
struct Item {
  enum KindTy { Instruction, BlockMarkerStart, BlockMarkerEnd } Kind;
  std::string Opcode; ///< instructions: full opcode, e.g. ld.global.nc.f32
  uint64_t Word = 0;  ///< markers: first counter word of the IR block
  unsigned Line = 0;  ///< 1-based PTX line
};

struct Block {
  std::vector<Item> Items;
  std::vector<unsigned> Successors; ///< indices into Function::Blocks
  unsigned NumPredecessors = 0;
};

struct Function {
  std::string Name;
  bool Kernel = false;
  std::vector<Block> Blocks;
  /// Instructions inside probe scopes (left out of Blocks).
  uint64_t InstrumentationInstructions = 0;
};

struct Module {
  std::string Target;              ///< from .target, e.g. sm_90
  std::vector<Function> Functions; ///< with bodies, in PTX order
};

/// Reads PTX text. False with a one-line Error ("PTX line L: what") when the
/// text is not PTX this reader understands.
bool parse(const std::string &Text, Module &Out, std::string &Error);

/// Whether Opcode ends a basic block (bra, brx.idx, ret, exit, trap).
bool isTerminator(const std::string &Opcode);

} // namespace warpscope::ptx

#endif // WARPSCOPE_PTX_PTXLISTING_H
