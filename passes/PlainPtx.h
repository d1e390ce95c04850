//===- PlainPtx.h - The PTX the module compiles to without the plugin -----===//
//
// The device pass calls this before it changes anything: the module then is
// what the code generator gets in a build without the plugin, so compiling a
// copy of it gives the plain build's PTX. The host compile attributes that
// PTX to the instrumented build's blocks (PtxHistograms.h), so reports can
// say how far the instrumented build's instructions are from the plain
// program's (docs/design.md, "The plain build's histogram").
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_PLAINPTX_H
#define WARPSCOPE_PASSES_PLAINPTX_H

#include "llvm/Support/Error.h"
#include <string>

namespace llvm {
class Module;
}

namespace warpscope {

/// The PTX the NVPTX code generator makes of a copy of M, with a target
/// machine set up as clang's (triple, CPU and features from the functions'
/// attributes, OptLevel 0-3 as clang's -O), or why it cannot.
llvm::Expected<std::string> plainPtx(const llvm::Module &M, unsigned OptLevel);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_PLAINPTX_H
