//===- Blame.h - GPA's instruction blamer -----------------------*- C++ -*-===//
//
// Issue 18 item 3, after GPA (CGO'21 §4, TPDS'21 §3.2): memory- and
// execution-dependency stalls are caused by the instruction that produced
// an operand, not by the one that waits. Intra-function backward slicing
// finds each stalled instruction's immediate dependency sources (past
// predicated definitions until their guards cover the use's), three rules
// prune cold edges (opcode, dominator, latency), and Eq. 1 apportions the
// stalls over the edges left by issued samples x 1/path length. Sources are
// classified as global / local / constant memory and shared / arithmetic /
// write-after-read execution dependencies.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_BLAME_H
#define WARPSCOPE_DRIVER_ADVISE_BLAME_H

#include "Code.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <map>
#include <string>
#include <vector>

namespace warpscope::advise {

/// Stall reasons grouped the way GPA's optimizers match them.
enum class StallKind {
  Active,      ///< selected: the warp issued (GPA's active samples)
  MemoryDep,   ///< long_scoreboard: waits on an L1TEX result
  ExecDep,     ///< short_scoreboard, wait: an MIO or fixed-latency result
  Sync,        ///< barrier, membar
  InstFetch,   ///< no_instructions (GH100's name)
  MemThrottle, ///< lg_throttle, mio_throttle, tex_throttle, drain
  Other,       ///< everything else (math_pipe_throttle, not_selected, ...)
  Count
};
/// The kind of a full CUPTI / model reason name (with or without the
/// smsp__pcsamp_warps_issue_stalled_ prefix).
StallKind stallKind(llvm::StringRef Reason);
/// "long_scoreboard" for "smsp__pcsamp_warps_issue_stalled_long_scoreboard".
llvm::StringRef shortReason(llvm::StringRef Reason);

/// The samples at one instruction (not-issued twins left out).
struct InstrStalls {
  double Total = 0;
  std::array<double, size_t(StallKind::Count)> ByKind{};
  std::map<std::string, double> ByReason; ///< short names
  double of(StallKind K) const { return ByKind[size_t(K)]; }
  void add(llvm::StringRef Reason, double N);
};

enum class DepClass {
  GlobalMemory,
  LocalMemory,
  ConstantMemory,
  SharedMemory,
  Arithmetic,
  WriteAfterRead,
};
const char *depClassName(DepClass C);

/// One def -> use edge of the dependency graph.
struct BlameEdge {
  unsigned Def = 0, Use = 0; ///< instruction indices
  StallKind Kind = StallKind::MemoryDep;
  DepClass Class = DepClass::Arithmetic;
  unsigned MinDistance = 0, MaxDistance = 0; ///< instructions in between
  double Samples = 0; ///< blamed by Eq. 1 (0 for pruned edges)
  /// "" when kept, else "opcode", "dominator", "latency" or "not executed".
  const char *PrunedBy = "";
};

struct FunctionBlame {
  const Function *Code = nullptr;
  std::vector<InstrStalls> Stalls; ///< per instruction
  std::vector<BlameEdge> Edges;    ///< every edge found, pruned ones too
  /// Dependency stalls no kept edge explains: they stay where observed.
  std::vector<double> Unexplained;
  /// T, and the samples of warps that issued ("selected").
  double Total = 0, Active = 0;
  /// The samples in which the warp's scheduler issued (T less the
  /// not-issued ones): GPA's active samples A, which latency hiding is
  /// bounded by; negative where the samples do not say (then Active).
  double Issued = -1;
  double active() const { return Issued >= 0 ? Issued : Active; }
  /// Exact warp executions per instruction (hybrid mode), else empty.
  std::vector<double> Executed;
  /// Nodes (instructions with dependency stalls) and how many are single
  /// dependency nodes before and after pruning (GPA Fig. 7).
  unsigned Nodes = 0, SingleBefore = 0, SingleAfter = 0;
};

/// Blames the dependency stalls of F. Stalls has one entry per instruction.
/// Executed, when given (GPA's hybrid mode; exact warp executions per
/// instruction from the emulator), drops edges from instructions that never
/// ran and replaces Eq. 1's issued samples by the executions.
FunctionBlame blame(const Function &F, std::vector<InstrStalls> Stalls,
                    const std::vector<double> *Executed = nullptr);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_BLAME_H
