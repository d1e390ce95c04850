//===- Legend.h - What each number of a report means ----------------------===//
//
// One list of the report's terms and columns with their meaning and unit,
// shown by every format (text, JSON, HTML), so that a reader needs no
// manual to tell "visits" from "divergent" or a basic block from a CUDA
// thread block.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_LEGEND_H
#define WARPSCOPE_DRIVER_LEGEND_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace warpscope {

struct LegendEntry {
  const char *Term;    ///< as the text and HTML reports label it
  const char *Meaning; ///< with its unit
};

const std::vector<LegendEntry> &reportLegend();

void renderLegendText(llvm::raw_ostream &OS);
/// Term -> meaning.
llvm::json::Object legendJson();
/// A <dl> of the terms.
void renderLegendHtml(llvm::raw_ostream &OS);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_LEGEND_H
