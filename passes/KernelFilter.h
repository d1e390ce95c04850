//===- KernelFilter.h - Which device functions a kernel regex keeps -------===//
//
// -warpscope-kernel-filter=REGEX instruments only the kernels whose mangled
// or demangled name matches, and the device functions they may call. The
// rest compile as if the plugin were not there. A device function that both
// a kept and a left-out kernel may call is instrumented, and its counts then
// include the calls of the left-out kernels: the database says so.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_KERNELFILTER_H
#define WARPSCOPE_PASSES_KERNELFILTER_H

#include "llvm/ADT/SmallPtrSet.h"
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace warpscope {

struct KernelSelection {
  /// Defined functions to instrument: kept kernels and what they may call.
  llvm::SmallPtrSet<const llvm::Function *, 16> Instrument;
  /// Of those, the ones a left-out kernel may call too.
  llvm::SmallPtrSet<const llvm::Function *, 16> SharedWithLeftOut;
  /// Kernels the regex does not match, mangled, in module order.
  std::vector<std::string> LeftOut;
};

/// Regex is an llvm::Regex the caller has checked. Calls through pointers
/// are assumed to reach every function whose address is taken.
KernelSelection selectKernels(const llvm::Module &M, const std::string &Regex);

} // namespace warpscope

#endif // WARPSCOPE_PASSES_KERNELFILTER_H
