//===- DeviceInstrumentationImpl.h - The device pass's work, in parts -----===//
//
// The device pass works in two phases per module. Planning (per function):
// CountingPlan.cpp decides which blocks and branches get probes, which
// blocks take their counts from a branch record or an equivalent block, and
// which branches are pruned as proven uniform; LoopPromotion.cpp decides
// which probes count in registers inside loops. Both fill in the function's
// database record as they go. Emission: DeviceInstrumentation.cpp lays out
// the counter array and writes the database, ProbePlacement.cpp puts the
// probes into the IR. Private to the device pass.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_PASSES_DEVICEINSTRUMENTATIONIMPL_H
#define WARPSCOPE_PASSES_DEVICEINSTRUMENTATIONIMPL_H

#include "DeviceInstrumentation.h"
#include "Probes.h"
#include "SourceSides.h"
#include "SubprogramNames.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class BasicBlock;
class BranchInst;
class Function;
class Instruction;
class IntrinsicInst;
class Loop;
class Module;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace warpscope::device {

/// Where a planned branch probe goes and what it counts.
struct PlannedBranch {
  llvm::Instruction *Terminator;
  /// Distinct, in probe order.
  llvm::SmallVector<llvm::BasicBlock *, 4> Successors;
  uint64_t Counter;
  std::optional<uint64_t> MergedBlockWord; ///< its block, counted here too
  /// Its block is derived and calls nothing: visits and active threads are
  /// the block's derived counts, not counted here.
  bool VisitsFromDerivedBlock = false;
  bool FeedsDerivedBlock = false; ///< a successor takes its counts from here
  bool CountArrivals = false;     ///< warp arrivals at successor 0 counted
  /// Counts in registers, flushed at this loop's exits.
  llvm::Loop *PromotedIn = nullptr;
};

/// How a block's counts are collected.
enum class BlockCounting {
  OwnProbe,
  ByTerminatorProbe,
  Derived,   ///< from a branch record
  Equivalent ///< from a block that runs exactly when it runs
};

struct PlannedBlock {
  llvm::BasicBlock *BB;
  uint64_t Word;
  BlockCounting How;
  /// Its own probe counts in registers (as PlannedBranch::PromotedIn).
  llvm::Loop *PromotedIn = nullptr;
};

/// A proven-uniform branch whose loop-entry record is counted.
struct PlannedLoopEntry {
  llvm::BranchInst *Terminator;
  uint64_t Counter;
};

/// A loop counting in lane-local registers: whether its flushes sum 16-bit
/// halves (a lane may count 2^27 or more before it leaves), and, where no
/// trip count bound keeps a lane's registers below 2^32, the block whose
/// probe guards them (its thread count, which every other register exceeds
/// by at most 1, spills them all before it wraps).
struct LaneLoop {
  bool SplitHalves = true;
  llvm::BasicBlock *Guard = nullptr;
  /// Two 16-bit counts per register: a lane counts at most 65535 per entry.
  bool Packed = false;
};

struct PlannedFunction {
  llvm::Function *F = nullptr;
  std::vector<PlannedBlock> Blocks;
  std::vector<PlannedBranch> Branches;
  std::vector<PlannedLoopEntry> LoopEntries;
  /// Promoted loops whose probes count in lane-local 32-bit registers
  /// (Probes.h).
  llvm::DenseMap<const llvm::Loop *, LaneLoop> LaneLoops;
};

/// Whether L's header runs at most 2^32 - 1 times per entry (SCEV), so its
/// probes may count in lane-local 32-bit registers without a guard; Split:
/// 32 lanes' sums may reach 2^32; Fits16: at most 65535 (LoopPromotion.cpp).
bool boundedForLanes(llvm::Loop &L, llvm::ScalarEvolution &SE, bool &Split,
                     bool &Fits16);

/// Intrinsics that end the lanes running them (trap or exit).
bool endsLanes(const llvm::IntrinsicInst &II);

using BlockIndex = llvm::DenseMap<const llvm::BasicBlock *, unsigned>;

/// Instruments one device module: plans every defined function, lays out
/// the counter array, places the probes and writes the program database.
class ModuleInstrumenter {
public:
  ModuleInstrumenter(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
                     const DeviceInstrumentationOptions &Opts,
                     const SubprogramSymbols &Symbols, const SourceSides &Sides)
      : M(M), FAM(FAM), Opts(Opts), Symbols(Symbols), Sides(Sides) {}
  /// The plain build's PTX for the database, or why there is none.
  void setPlainPtx(std::string Text, std::string Status) {
    DB.PlainPtx = std::move(Text);
    DB.PlainPtxStatus = std::move(Status);
  }
  bool run();

private:
  llvm::Module &M;
  llvm::FunctionAnalysisManager &FAM;
  const DeviceInstrumentationOptions &Opts;
  const SubprogramSymbols &Symbols;
  const SourceSides &Sides;
  ProgramDatabase DB;
  std::vector<PlannedFunction> Plans;
  uint64_t NextCounter = 0;
  CounterArray Array;

  // CountingPlan.cpp
  void plan(llvm::Function &F);
  void recordControlFlow(llvm::Function &F, FunctionRecord &Rec,
                         const BlockIndex &BlockIds);
  void decideCounting(PlannedFunction &P, FunctionRecord &Rec,
                      const BlockIndex &BlockIds, const BlockIndex &BranchIdOf);
  // LoopPromotion.cpp
  void decidePromotion(PlannedFunction &P, FunctionRecord &Rec,
                       const BlockIndex &BlockIds,
                       const BlockIndex &BranchIdOf);
  void guardUnboundedLoops(
      PlannedFunction &P,
      const llvm::DenseMap<const llvm::Loop *, bool> &Promotable);
  // DeviceInstrumentation.cpp
  bool layOutCounters();
  void writeDatabase();
  // ProbePlacement.cpp
  void instrument(const PlannedFunction &P);
  llvm::Value *successorIndex(const PlannedBranch &Br, ProbeSpec &Spec);
  void countPlaced(const PlannedFunction &P, unsigned NumLoops);
};

} // namespace warpscope::device

#endif // WARPSCOPE_PASSES_DEVICEINSTRUMENTATIONIMPL_H
