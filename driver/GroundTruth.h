//===- GroundTruth.h - The emulator's ground truth, read back ---*- C++ -*-===//
//
// The one reader of the emulator's ground-truth files (emu-*.json, schema
// "warpscope-emu/1", docs/emulator.md; the writer is
// runtime/emu/core/GroundTruth.cpp). Used by `warpscope validate` (counts
// against instrumentation) and `warpscope report` (memory efficiency).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_GROUNDTRUTH_H
#define WARPSCOPE_DRIVER_GROUNDTRUTH_H

#include "warpscope/Emu/MemoryCounts.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// Memory-efficiency counts of one ld/st/atom/red (zero where the
/// instruction has none of them); the contract's struct.
using TruthMemory = MemoryCounts;

struct TruthInstruction {
  std::string Opcode, Marker;
  std::string File; ///< empty: no .loc before the instruction
  unsigned Line = 0;
  uint64_t Warp = 0, Thread = 0, Active = 0, Visits = 0, Divergent = 0;
  bool Conditional = false, Instrumentation = false;
  bool Memory = false; ///< carries memory-efficiency counts
  TruthMemory Mem;
  /// Its stride between neighbouring lanes (no lane pairs: none known).
  StrideCounts Stride;
};

/// The stride an access's lanes keep (StrideCounts::dominant): "stride 128 B
/// between neighbouring lanes (100% of lane pairs)", "irregular stride (no
/// stride holds for half of the lane pairs: a gather or scatter)", or ""
/// when no two neighbouring lanes ran it.
std::string describeStride(const StrideCounts &S);

/// The stride's share of the lane pairs when one holds for at least half of
/// them (Bytes set); nullopt when irregular or unknown.
std::optional<double> regularStride(const StrideCounts &S, int64_t &Bytes);

/// What a memory instruction does with memory, from its opcode: "load"
/// (ld, ldu), "store" (st) or "atomic" (atom, red); one place for the
/// memory view, diff and the advisor.
llvm::StringRef memoryAccessKind(llvm::StringRef Opcode);

struct TruthFunction {
  bool Kernel = false;
  std::vector<TruthInstruction> Insts;
};

/// The timing model's figures for one launch (`launches[].modeled`,
/// docs/timing-model.md): modeled, never measured.
struct TruthModeled {
  std::string Config;
  uint64_t Cycles = 0;
  double Microseconds = 0;
  uint64_t SmsSimulated = 0;
  bool Scaled = false;
  /// How the model treated the kernel's probe instructions: "free",
  /// "modeled", or "" (a plain build, or an older file).
  std::string Probes;
  /// The timing model's version (timing::fingerprint), "" in files from
  /// before it was recorded.
  std::string Fingerprint;
  /// The clock Microseconds is at ("boost", "base", "set"; "" in an older
  /// file: the configuration's boost clock) and its MHz (0: not given).
  std::string Clock;
  double ClockMhz = 0;
  /// The launch's fixed cost within Cycles (0 in an older file).
  uint64_t LaunchCycles = 0;
  /// The SASS warp instructions the model issued for the launch (ModeledTime
  /// ::Instructions; 0 in an older file).
  uint64_t Instructions = 0;
};

struct TruthLaunch {
  std::string Kernel; ///< mangled
  uint64_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  std::optional<TruthModeled> Modeled;
  /// A signal stopped it (`interrupted`): the blocks stopped part way, whose
  /// probes' counts are partial.
  bool Interrupted = false;
  uint64_t BlocksStopped = 0;
  /// Dynamic shared memory per block, bytes (`shared_bytes`).
  uint64_t DynamicShared = 0;
  /// The shared memory its blocks touched (`shared_touched`, the
  /// contract's SharedTouched); none in files from before it was recorded.
  std::optional<SharedTouched> Touched;
};

/// Ground truth per function name, summed over every emu-*.json of a
/// directory.
struct Truth {
  std::map<std::string, TruthFunction> Functions;
  std::vector<TruthLaunch> Launches; ///< every file's, in file order
  unsigned Files = 0;                ///< emu-*.json files read
};

/// The one reader of ground-truth files: reads each of Paths (a
/// directory's emu-*.json, listed by RunDirectory) into Out; an error names
/// the file and what is wrong with it. Commands use RunDirectory::truth().
llvm::Error readTruth(const std::vector<std::string> &Paths, Truth &Out);

/// The shared-memory hazards (`hazards[]`, written under
/// WARPSCOPE_EMU_RACECHECK) the ground-truth files Paths list, each distinct
/// hazard once; an error names the file and what is wrong with it.
llvm::Expected<uint64_t> countHazards(const std::vector<std::string> &Paths);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_GROUNDTRUTH_H
