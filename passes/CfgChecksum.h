//===- CfgChecksum.h - A function's control-flow shape as a number --------===//
//
// Block count and every block's successor list, hashed: the instrumented
// build stores it with its counts; a profile-guided rebuild attaches weights
// only to functions whose CFG still has the same checksum.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_CFGCHECKSUM_H
#define WARPSCOPE_PASSES_CFGCHECKSUM_H

#include <cstdint>

namespace llvm {
class Function;
}

namespace warpscope {
uint64_t cfgChecksum(const llvm::Function &F);
}

#endif // WARPSCOPE_PASSES_CFGCHECKSUM_H
