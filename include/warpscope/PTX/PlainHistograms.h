//===- PlainHistograms.h - The plain build's PTX on the instrumented blocks ==//
//
// Where probes still change code generation (docs/design.md, "The plain
// build's histogram"), the plain build's PTX (the same device IR compiled
// without the plugin) is attributed to the instrumented build's IR blocks:
// when both functions have the same PTX blocks with the same successors, in
// order, plain block K runs exactly when instrumented block K does, so it
// takes the owner (IR block, branch edge or switch part) that
// BlockHistograms.h gives block K. Its instructions all go to the block's
// first owner: the code generator merges only IR blocks that run equally
// often into one PTX block, so which of them gets them does not change any
// count.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PTX_PLAINHISTOGRAMS_H
#define WARPSCOPE_PTX_PLAINHISTOGRAMS_H

#include "warpscope/PTX/BlockHistograms.h"
#include <set>
#include <string>

namespace warpscope::ptx {

struct PlainAttribution {
  enum StatusTy {
    /// Without the probes, every instrumented PTX block holds the plain
    /// block's instructions (in any order): the instrumented histograms give
    /// the plain program's counts.
    Same,
    /// The instructions differ, the blocks map one to one: Histograms.
    Mapped,
    /// The blocks do not map one to one: Why says where.
    NotMapped
  } Status = NotMapped;
  std::string Why;
  FunctionHistograms Histograms; ///< Mapped: the plain PTX's
};

/// The plain build's Plain attributed through the instrumented build's
/// Instrumented (the same function); SwitchBlocks as for attribute().
PlainAttribution attributePlain(const Function &Instrumented,
                                const Function &Plain,
                                const std::set<uint64_t> &SwitchBlocks = {});

} // namespace warpscope::ptx

#endif // WARPSCOPE_PTX_PLAINHISTOGRAMS_H
