//===- MangroveFeatures.h - GPU Mangrove's features, as its code has them -===//
//
// GPU Mangrove (Braun et al.) predicts kernel time and power from CUDA
// Flux's per-launch PTX instruction counts. Its processing groups every
// opcode into "<group>.<bits>" columns (int.32, ld.global.128, ...) by an
// ordered list of regular expressions, derives memory volumes from the
// load/store groups, and from those its 12 model features. This file
// applies the same rules to WarpScope's thread-level counts, so its CSVs
// read into GPU Mangrove unchanged. Formulas: docs/report-schema.md.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_MANGROVEFEATURES_H
#define WARPSCOPE_DRIVER_MANGROVEFEATURES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace warpscope::mangrove {

/// GPU Mangrove's group of one PTX opcode as written ("ld.global.v4.b32" ->
/// "ld.global.128", "setp.lt.s32" -> "comp_sel.32", "bra" -> "control"):
/// the first of its expressions that matches the opcode's start, "misc"
/// when none does.
std::string groupOf(llvm::StringRef Opcode);

/// The groups that GPU Mangrove's feature table keeps, in its column order
/// (total_inst is their sum; a group not listed, e.g. float.16, is dropped).
llvm::ArrayRef<const char *> tableGroups();

/// One kernel launch in GPU Mangrove's terms.
struct Launch {
  std::string Name; ///< mangled, as CUDA Flux names kernels
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t SharedBytes = 0; ///< dynamic shared memory of the launch
  std::optional<double> TimeMs;
  std::map<std::string, uint64_t> Groups; ///< thread-level executions
  uint64_t group(llvm::StringRef G) const;
  /// Bytes of the groups named Prefix<bits> (e.g. "ld.global."): each
  /// execution moves bits/8 bytes (V_ldGlobal, V_stShm, ...).
  uint64_t volume(llvm::StringRef Prefix) const;
};

/// Adds Count executions of Opcode to L's groups.
void addOpcode(Launch &L, llvm::StringRef Opcode, uint64_t Count);

/// The header and one row of GPU Mangrove's samples table (its
/// process_features): bench, app, dataset, name, the 12 features, time.
/// Bench, App, Dataset and L.Name go into the CSV as given (quote them).
std::string samplesHeader();
std::string samplesRow(llvm::StringRef Bench, llvm::StringRef App,
                       llvm::StringRef Dataset, const Launch &L);

/// The header and one row of its feature table (fluxfeatures: launch
/// configuration, memory volumes, total_inst and the group counts).
std::string groupsHeader();
std::string groupsRow(llvm::StringRef Bench, llvm::StringRef App,
                      llvm::StringRef Dataset, uint64_t Lseq, const Launch &L);

} // namespace warpscope::mangrove

#endif // WARPSCOPE_DRIVER_MANGROVEFEATURES_H
