//===- HtmlSource.h - The HTML report's source view -------------*- C++ -*-===//
//
// Per function and source file, the source with its figures on each line:
// thread executions and PTX instructions (the profile), divergent/visits of
// its branches, and where the directory has them, the memory view's
// sectors and wavefronts per request against their ideal (a line that
// moves more is marked as a conflict), the PC samples and their most
// frequent stall reason, and the line's PTX beside it (the emulator's
// ground truth), as Nsight Compute's source page shows source and
// assembly side by side. An index links every file's view.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_HTMLSOURCE_H
#define WARPSCOPE_DRIVER_HTMLSOURCE_H

#include "GroundTruth.h"
#include "MemoryReport.h"
#include "Report.h"
#include "SourceText.h"
#include "StallReport.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope {

/// What a source line has beyond the profile's counts.
struct LineExtras {
  /// The line's accesses (load, store, atomic: MemoryLine::Access) and
  /// their counts, never summed into one figure; empty without memory.
  std::vector<std::pair<std::string, TruthMemory>> Memory;
  uint64_t Samples = 0;
  std::string TopStall; ///< the most sampled reason, short name
  uint64_t TopStallSamples = 0;
  /// The line's PTX instructions in PTX order: opcode and warp-level
  /// executions (probes left out).
  std::vector<std::pair<std::string, uint64_t>> Ptx;
};

struct SourceExtras {
  /// Mangled function -> (file, line) -> extras.
  std::map<std::string, std::map<std::pair<std::string, unsigned>, LineExtras>>
      Lines;
  bool Memory = false, Stalls = false, Ptx = false; ///< columns shown
  bool ModeledStalls = false; ///< the samples are the timing model's
  const LineExtras *find(const std::string &Function, const std::string &File,
                         unsigned Line) const;
};

/// Any of the three may be null (not in the directory).
SourceExtras buildSourceExtras(const Truth *T, const MemoryView *Memory,
                               const StallView *Stalls);

/// Links to every (function, file) source view the page will show.
void renderSourceIndex(const std::vector<FunctionSummary> &Summaries,
                       SourceText &Sources, llvm::raw_ostream &OS);
/// What the source view's columns and colours mean.
void renderSourceKey(const SourceExtras &X, llvm::raw_ostream &OS);
/// S's source views, one per file with counts.
void renderSourceHtml(const FunctionSummary &S, SourceText &Sources,
                      const SourceExtras &X, llvm::raw_ostream &OS);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_HTMLSOURCE_H
