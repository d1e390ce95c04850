//===- ReduceLoops.h - The code generator's loop strength reduction, early ===//
//
// The NVPTX code generator runs IR passes of its own before instruction
// selection: address space inference, straight-line scalar optimizations,
// then loop strength reduction (LSR). With probes in the code they choose
// differently than for the plain program: a probe that reads an exit compare
// keeps the original compare alive beside the rewritten one, an exit branch
// that takes its condition from a probe has no compare left for LSR to rewrite,
// and a probe makes a block too long for speculative execution to hoist from.
// Run before the probes are placed, these passes make the plain program's
// choices and probes read the values the plain program computes. The code
// generator's own LSR is then turned off for the instrumented module: with
// probes hiding the exit compares it would rewrite the reduced loops again (its
// other passes find nothing left to do).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_REDUCELOOPS_H
#define WARPSCOPE_PASSES_REDUCELOOPS_H

#include "llvm/IR/PassManager.h"

namespace warpscope {

/// Those passes over F (nothing for an optnone function), after casting a
/// kernel's pointer parameters to the global space as the code generator
/// does, then a CSE, then folds the empty blocks LSR's loop canonicalization
/// added. The
/// instrumenting build and a profile-guided rebuild both call it before they
/// read F's CFG, so its checksum is the same in both.
void reduceLoops(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// Turns the code generator's LSR off for this compilation (LLVM's
/// -disable-lsr): an instrumented module's loops were reduced before the
/// probes went in.
void disableCodeGeneratorLoopReduction();

} // namespace warpscope

#endif // WARPSCOPE_PASSES_REDUCELOOPS_H
