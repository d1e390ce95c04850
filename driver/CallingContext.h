//===- CallingContext.h - Who calls whom, and totals with callees ---------===//
//
// A device function that is not inlined has counters of its own, merged
// over every call. The database names the functions each block calls, and
// a call runs once per execution of its block, so the calls per call site
// are exact. A callee's own counts belong to one call site only when it has
// one; a kernel's totals with its callees are exact only when no function
// it reaches is also reached from elsewhere (and no call is indirect).
// Where that does not hold, the report says why instead of splitting.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_CALLINGCONTEXT_H
#define WARPSCOPE_DRIVER_CALLINGCONTEXT_H

#include "InstructionMix.h"
#include "ProfileModel.h"
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct CallSite {
  const FunctionProfile *Caller = nullptr;
  const BlockCounts *Block = nullptr; ///< the calling block
  std::string CalleeName;             ///< mangled; "" when indirect
  /// The callee's profile; null for an indirect call or an uninstrumented
  /// function (e.g. vprintf).
  const FunctionProfile *Callee = nullptr;
  /// Calls made here: the block's executions times its calls of the callee.
  uint64_t WarpCalls = 0, ThreadCalls = 0;
  /// Call sites of the callee in the program: with one, all its own counts
  /// are this site's.
  unsigned CalleeSites = 0;
  /// Those of them that made a call in this run: with one, all the
  /// callee's counts are that site's too.
  unsigned ActiveCalleeSites = 0;
};

struct CallingContext {
  /// The database records calls for this function and its callees.
  bool Known = false;
  std::vector<CallSite> Sites;    ///< calls this function makes
  std::vector<CallSite> CalledBy; ///< calls of this function
  /// Functions it reaches through calls (instrumented ones), for kernels.
  std::vector<const FunctionProfile *> Callees;
  /// Totals with every callee's own counts; set when exact.
  std::optional<WarpThread> InclusiveExecutions, InclusiveInstructions;
  std::string Why; ///< why there are no exact totals, or what they leave out
};

/// F's calling context within Set.
CallingContext callingContext(const ProfileSet &Set, const FunctionProfile &F);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_CALLINGCONTEXT_H
