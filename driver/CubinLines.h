//===- CubinLines.h - SASS pc offset -> source line, from a cubin --------===//
//
// A small ELF64 + DWARF .debug_line reader for NVIDIA cubins. No LLVM, no
// CUDA: the driver (which links LLVM) and the collector (which must not)
// share it. ptxas -lineinfo puts the SASS-address -> CUDA-source table in
// .debug_line (.nv_debug_line_sass maps SASS to PTX lines and has no file
// table). Each line sequence starts with a DW_LNE_set_address that a RELA
// relocation points at its kernel's symbol, so rows are keyed by function
// name and the offset inside it - the pc offset PC sampling reports.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_COLLECT_CUBINLINES_H
#define WARPSCOPE_COLLECT_CUBINLINES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::cubin {

struct LineRow {
  std::string Function; ///< symbol the sequence is relocated against
  uint64_t Offset = 0;  ///< from the function's start
  std::string File;
  unsigned Line = 0, Column = 0;
  bool EndSequence = false; ///< first address past the sequence
};

class LineTable {
public:
  /// Rows sorted by (function, offset), end-of-sequence markers included.
  std::vector<LineRow> Rows;
  /// The row covering Offset in Function, or null (no line info there).
  const LineRow *lookup(const std::string &Function, uint64_t Offset) const;
};

/// Parses an in-memory cubin. On failure returns false and sets Error to one
/// line saying what is wrong (never throws, never reads out of bounds).
bool readLineTable(const uint8_t *Data, size_t Size, LineTable &Out,
                   std::string &Error);
/// Same, for a file; Error names the file.
bool readLineTableFile(const std::string &Path, LineTable &Out,
                       std::string &Error);

} // namespace warpscope::cubin

#endif // WARPSCOPE_COLLECT_CUBINLINES_H
