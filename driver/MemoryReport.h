//===- MemoryReport.h - Memory view: sectors and wavefronts per request ---===//
//
// For a run on the emulator: per function and per access (a source line's
// loads, its stores, its atomics: never added together), the exact
// global/local sectors and shared-memory wavefronts per request with their
// ideals, from the ground truth (GroundTruth.h). Rendered as text, a
// "memory_view" member of the JSON report and an HTML section.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_MEMORYREPORT_H
#define WARPSCOPE_DRIVER_MEMORYREPORT_H

#include "GroundTruth.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace warpscope {

/// One access of a source line: the line's PTX instructions of one kind
/// (memoryAccessKind: load, store or atomic), summed over their copies
/// (unrolled or duplicated code).
struct MemoryLine {
  std::string File; ///< empty: no line information
  unsigned Line = 0;
  std::string Access;        ///< "load", "store" or "atomic"
  unsigned Instructions = 0; ///< PTX instructions summed in this row
  TruthMemory Counts;
  StrideCounts Stride; ///< its instructions' strides, merged
};

struct MemoryFunction {
  std::string Mangled, Name;
  bool Kernel = false;
  TruthMemory Counts;
  std::vector<MemoryLine> Lines; ///< in file, line and access order
};

struct MemoryView {
  std::vector<MemoryFunction> Functions; ///< most requests first
};

/// Functions whose memory instructions ran; Filter (a regex over mangled
/// and demangled names) may be empty.
MemoryView buildMemoryView(const Truth &T, const std::string &Filter);

void renderMemoryText(const MemoryView &V, llvm::raw_ostream &OS);
llvm::json::Value renderMemoryJson(const MemoryView &V);
/// An HTML section (no page around it).
std::string renderMemoryHtml(const MemoryView &V);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_MEMORYREPORT_H
