//===- BlockHistograms.h - PTX instructions per IR block ------------------===//
//
// Attributes every program instruction of a function's PTX to the IR block
// whose counts it executes with, through the probes' block markers:
//  - in a PTX block, an instruction belongs to the last marker before it, or
//    (before the first) to the block's first marker: the code generator only
//    merges IR blocks that run equally often into one PTX block;
//  - a PTX block without a marker (made by the code generator) takes the IR
//    block of its only predecessor when that predecessor always goes on to
//    it, or of its only successor when it is that successor's only way in;
//  - one that sits on one side of a two-way branch, whose other side is a
//    block entered only from that branch, runs on the edge "IR block X, not
//    towards V": threads T(X) - T(V), warps W(X) + divergent(X) - arrivals
//    at V (docs/database-schema.md, `ptx_edges`);
//  - one inside the code a switch is lowered to (compare chains, a jump
//    table's block) runs for the lanes going to the IR blocks it leads to,
//    when every way from the switch to those passes it (`ptx_switch_parts`).
// What cannot be attributed that way is kept apart, never guessed.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PTX_BLOCKHISTOGRAMS_H
#define WARPSCOPE_PTX_BLOCKHISTOGRAMS_H

#include "warpscope/PTX/PtxListing.h"
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace warpscope::ptx {

/// Opcode (as written) -> static instruction count.
using Histogram = std::map<std::string, uint64_t>;

/// A PTX block on one side of IR block From's two-way branch (blocks named
/// by their first counter word). Toward: the side that leads to Other, whose
/// counts the branch record gives (threads to that successor, warp
/// arrivals). Otherwise: the side that does not lead to Other, a block
/// entered only from this branch; OtherReconverges says Other post-dominates
/// the branch (lanes reach it on several visits and run it together);
/// SelfReconverges says the same of this side.
struct Edge {
  uint64_t From = 0, Other = 0;
  bool Toward = false;
  bool OtherReconverges = false, SelfReconverges = false;
  bool operator<(const Edge &E) const {
    return std::tie(From, Other, Toward, OtherReconverges, SelfReconverges) <
           std::tie(E.From, E.Other, E.Toward, E.OtherReconverges,
                    E.SelfReconverges);
  }
};

/// A marker-less PTX block inside the code a switch of IR block From is
/// lowered to (a compare of a chain or tree, a jump table's block): the lanes
/// that run it are exactly those going to the IR blocks in Reaches, since
/// every way from the switch to those passes it and no other lane's does.
struct SwitchPart {
  uint64_t From = 0;
  std::vector<uint64_t> Reaches; ///< sorted
  bool operator<(const SwitchPart &P) const {
    return std::tie(From, Reaches) < std::tie(P.From, P.Reaches);
  }
};

struct FunctionHistograms {
  /// Keyed by the IR block's first counter word (its marker).
  std::map<uint64_t, Histogram> Blocks;
  std::map<Edge, Histogram> Edges;
  std::map<SwitchPart, Histogram> SwitchParts;
  Histogram Unattributed;
  std::vector<unsigned> UnattributedLines; ///< PTX lines, for diagnostics
  unsigned UnattributedBlocks = 0;
  uint64_t InstrumentationInstructions = 0;
};

/// SwitchBlocks: the words of IR blocks that end in a switch (three or more
/// successors), whose lowering is attributed as SwitchParts.
FunctionHistograms attribute(const Function &F,
                             const std::set<uint64_t> &SwitchBlocks = {});

} // namespace warpscope::ptx

#endif // WARPSCOPE_PTX_BLOCKHISTOGRAMS_H
