//===- PtxHistograms.h - Per-block PTX histograms from the embedded fatbin ===//
//
// The host compile of a CUDA file embeds the fatbin its device compile made:
// the very PTX the program runs. The host pass reads it from there, so the
// histograms come from the same code generation as the program (same target
// CPU, features and options), and maps each PTX instruction to an IR block
// through the probes' markers (runtime/ptx/BlockHistograms.h), never through
// block names.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PTXHISTOGRAMS_H
#define WARPSCOPE_PASSES_PTXHISTOGRAMS_H

#include "warpscope/Database/ProgramDatabase.h"
#include <string>

namespace llvm {
class Module;
}

namespace warpscope {

/// Fills DB's per-block histograms from the PTX in HostModule's fatbin and
/// sets DB.PtxStatus ("ok" or a one-line reason there are none).
void addPtxHistograms(const llvm::Module &HostModule, ProgramDatabase &DB);

/// Fills DB's per-block histograms from PTX text (also used by tests and
/// `warpscope static`). Returns the status, as above.
std::string addPtxHistograms(const std::string &Ptx, ProgramDatabase &DB);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PTXHISTOGRAMS_H
