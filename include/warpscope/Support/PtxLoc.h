//===- PtxLoc.h - PTX .loc directives and their inlined-at chains --*- C++
//-*-===//
//
// The one reader of PTX's `.loc` (PTX ISA, "Debugging Directives: .loc"):
//
//   .loc FILE LINE COLUMN
//   .loc FILE LINE COLUMN, function_name LABEL[+N], inlined_at FILE2 LINE2 COL2
//
// The second form (PTX ISA 7.2; nvcc writes it, LLVM 22's NVPTX back end
// does not) says the code is of a function inlined at FILE2:LINE2:COL2, and
// LABEL (+N bytes) names that function: a label of `.section .debug_str`,
// whose `.b8` bytes hold the name, NUL-terminated. The inlined-at location
// must lexically precede, as a `.loc` of its own, and that `.loc` may be
// inlined in turn: a chain is found by following each inlined_at to the
// nearest earlier `.loc` of the same location in the function.
//
// Used by the emulator's PTX parser (fault messages, the ground truth's
// lines, modeled samples) and the advisor's PTX code (driver), so both put
// header code on the user's line by the same rule (userFrame), the rule the
// device pass applies to clang's code (-warpscope-inlined-lines).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_SUPPORT_PTXLOC_H
#define WARPSCOPE_SUPPORT_PTXLOC_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace warpscope::ptxloc {

/// A source position as a `.loc` writes it: FILE is a `.file` index.
struct Position {
  uint32_t File = 0, Line = 0, Column = 0;
  auto key() const { return std::tie(File, Line, Column); }
  bool operator==(const Position &O) const { return key() == O.key(); }
  bool operator<(const Position &O) const { return key() < O.key(); }
};

/// One `.loc` directive as written.
struct Directive {
  Position At;
  /// function_name's label ("" without one) and its + offset.
  std::string FunctionLabel;
  uint64_t FunctionOffset = 0;
  bool Inlined = false; ///< has inlined_at
  Position InlinedAt;
};

/// Parses what follows `.loc` on its line (a trailing `//` comment or `;`
/// allowed). Returns "" or a one-line error that names what was expected.
std::string parseDirective(std::string_view Text, Directive &Out);

/// One frame of a chain: where the code is, and the function_name label of
/// the inlined function it is in ("" for the outermost frame).
struct Frame {
  Position At;
  std::string FunctionLabel;
  uint64_t FunctionOffset = 0;
};

/// The location in force: the innermost frame first, then each call site
/// outward. Empty: no `.loc` yet.
using Chain = std::vector<Frame>;

/// Frames a chain keeps at most; a deeper one (only a malformed or
/// adversarial file makes one) is cut, outermost frames first.
inline constexpr size_t MaxChainDepth = 64;

/// Follows the `.loc` directives of one function body in order.
class Tracker {
public:
  /// At a function's start: no location, no earlier `.loc`s.
  void reset();
  /// Applies a parsed directive: the chain in force becomes its location,
  /// then the chain of the nearest earlier `.loc` at its inlined_at (or
  /// just that position, when there was none).
  void apply(const Directive &D);
  /// Parses Text (after `.loc`) and applies it; returns parseDirective's
  /// error, leaving the location unchanged on one.
  std::string apply(std::string_view Text);
  const Chain &current() const { return Cur; }

private:
  Chain Cur;
  std::map<Position, Chain> Latest; ///< the chain each position last had
};

/// The frame a user reads (llvm-symbolizer --inlining's call site): the
/// innermost frame unless its file is a toolkit header (IsHeader of its
/// `.file` index), else the nearest frame outward whose file is not one
/// and whose line is not 0; the innermost when there is none. The index
/// into C; 0 for an empty chain.
size_t userFrame(const Chain &C,
                 const std::function<bool(uint32_t File)> &IsHeader);

/// The bytes of `.section .debug_str` and where each label points in them.
struct DebugStrings {
  std::string Bytes;
  std::map<std::string, size_t> Labels;
};

/// Reads `.section .debug_str { LABEL: .b8 N, N, ... }` from a whole PTX
/// text. Empty when there is no such section; a byte list stops at the first
/// item that is not a number from 0 to 255.
DebugStrings readDebugStrings(std::string_view Ptx);

/// The name a function_name refers to: the NUL-terminated string at Label +
/// Offset, or "" when the label is unknown, the offset is past the end or
/// no NUL ends the string.
std::string functionName(const DebugStrings &Strings, const std::string &Label,
                         uint64_t Offset);

} // namespace warpscope::ptxloc

#endif // WARPSCOPE_SUPPORT_PTXLOC_H
