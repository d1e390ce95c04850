//===- InstructionMix.h - Dynamic PTX instructions from counts x histograms ==//
//
// A function's dynamic PTX instructions are its blocks' (and branch edges')
// warp and thread executions times their static histograms. Thread level
// counts active lanes (the guard predicate is ignored, as in ncu's
// thread_inst_executed). From those: the mix by class, FLOPs, and bytes per
// memory space (per active lane, so a guarded access counts its guard-false
// lanes too: an upper bound).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_INSTRUCTIONMIX_H
#define WARPSCOPE_DRIVER_INSTRUCTIONMIX_H

#include "ProfileModel.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct WarpThread {
  uint64_t Warp = 0, Thread = 0;
  WarpThread &operator+=(const WarpThread &O) {
    Warp += O.Warp;
    Thread += O.Thread;
    return *this;
  }
};

struct InstructionMix {
  bool Available = false; ///< the database has histograms
  std::string Why;        ///< when not available
  std::map<std::string, WarpThread> ByOpcode;
  std::map<std::string, WarpThread> ByClass;
  WarpThread Total;
  /// Thread-level FLOPs (fma = 2) by precision: half, single, double.
  uint64_t FlopsHalf = 0, FlopsSingle = 0, FlopsDouble = 0;
  /// Bytes moved by loads, stores and atomics, per state space.
  std::map<std::string, uint64_t> BytesBySpace;
  /// Per opcode, static PTX instructions whose executions the counts cannot
  /// give; when any, every total above is a lower bound.
  std::map<std::string, uint64_t> Unknown;

  uint64_t unknownStatic() const;
  uint64_t flops() const { return FlopsHalf + FlopsSingle + FlopsDouble; }
};

InstructionMix instructionMix(const FunctionProfile &F);

/// Executions of the PTX on one side of a branch, when the counts give them.
std::optional<WarpThread> edgeExecutions(const FunctionProfile &F,
                                         const PtxEdge &E);

/// Executions of PTX inside a switch's lowering, when the counts give them.
std::optional<WarpThread> switchPartExecutions(const FunctionProfile &F,
                                               const PtxSwitchPart &P);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_INSTRUCTIONMIX_H
