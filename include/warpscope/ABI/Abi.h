//===- warpscope/Abi.h - Contract between passes, runtime and tools -------===//
//
// Everything the device instrumentation, the host runtime, the emulator and
// the driver must agree on lives here: symbol names, counter layout and the
// markers the probes leave in PTX. Plain C++17, no LLVM: the runtime libraries
// include it too.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_H
#define WARPSCOPE_ABI_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope {

/// Bumped whenever the counter layout or a symbol name changes (3: switch
/// records end with per-successor arrivals).
constexpr uint32_t AbiVersion = 3;

/// Each instrumented device module owns one array of 64-bit counters in
/// global memory, named CountersSymbolPrefix + <module id as 16 hex digits>.
constexpr const char *CountersSymbolPrefix = "__warpscope_counters_";

/// The most replicas a counter array may have (see ModuleDescriptor), and
/// the size above which the plugin gives a module fewer replicas than asked.
constexpr uint32_t MaxCounterReplicas = 1024;
constexpr uint64_t MaxCounterArrayBytes = 4 << 20;

/// Schema tag of the static program database (docs/database-schema.md).
/// Version 2 added blocks that take another block's counts
/// (`same_counts_as`): a reader of version 1 would show them as never run.
/// Version 3 added branches that share the counts of a derived block (their
/// probe writes neither the block's words nor their visits and active
/// threads): a reader of version 2 would show them as never visited.
/// Version 4 added loop headers derived from their preheader and their
/// latch's branch record (`derived_from.entered_from`): a reader of version 3
/// would count only the back edge's visits. Readers still accept versions 1
/// to 3, which have no such blocks or branches.
constexpr const char *DatabaseSchema = "warpscope-db/4";
constexpr const char *DatabaseSchemaV3 = "warpscope-db/3";
constexpr const char *DatabaseSchemaV2 = "warpscope-db/2";
constexpr const char *DatabaseSchemaV1 = "warpscope-db/1";

/// Block record: two counters.
enum BlockCounter : uint32_t {
  BlockWarpExecutions = 0,   ///< +1 per warp (group of lanes) arriving
  BlockThreadExecutions = 1, ///< + number of active lanes
  BlockRecordWords = 2
};

/// Branch record: three counters, then one per successor except the last
/// (its threads are ActiveThreads minus the others); a two-way branch adds
/// one more word, the warp arrivals at successor 0 (successor 1 gets
/// Visits + Divergent - that), from which single-predecessor successors get
/// their block counts without a probe of their own (written only when a
/// successor does; zero otherwise).
enum BranchCounter : uint32_t {
  BranchVisits = 0,            ///< warp visits
  BranchDivergent = 1,         ///< visits where active lanes disagree
  BranchActiveThreads = 2,     ///< sum of active lanes over visits
  BranchFirstSuccessor = 3,    ///< threads taking successor 0, 1, ...
  BranchSuccessor0Arrivals = 4 ///< two-way only: visits sending >= 1 lane to 0
};

/// A switch record (three or more successors) then has one word per
/// successor: the visits on which every active lane went to it (database:
/// "counts_uniform_visits"). The PTX a switch is lowered to (compare chains,
/// a range check before a jump table) gets its counts from these. Then one
/// word per successor: the visits sending at least one lane to it, from
/// which a case block that only one case value leads to gets its block
/// counts without a probe of its own (written only when one does, database
/// "counts_arrivals"; zero otherwise).
constexpr uint32_t switchUniformVisitsWord(uint32_t NumSuccessors) {
  return BranchFirstSuccessor + NumSuccessors - 1;
}
constexpr uint32_t switchArrivalsWord(uint32_t NumSuccessors) {
  return switchUniformVisitsWord(NumSuccessors) + NumSuccessors;
}

constexpr uint32_t branchRecordWords(uint32_t NumSuccessors) {
  return NumSuccessors == 0 ? BranchFirstSuccessor
         : NumSuccessors == 2
             ? BranchSuccessor0Arrivals + 1
             : switchArrivalsWord(NumSuccessors) + NumSuccessors;
}

/// Loop-entry record: a proven-uniform two-way branch where one side enters a
/// loop over a critical edge (neither side is its target's only way in) gets
/// no divergence probe but this record, so the code generator's preheader on
/// that edge (MachineLICM hoists into it) gets exact counts in instruction
/// histograms. All lanes go the same way, so counting the leader's way is
/// exact (database: an unprobed branch with "counts_arrivals" and a counter).
enum LoopEntryCounter : uint32_t {
  LoopEntrySuccessor0Arrivals = 0, ///< visits sending the warp to successor 0
  LoopEntrySuccessor0Threads = 1,  ///< active lanes on those visits
  LoopEntryRecordWords = 2
};

/// A block that ends in its branch and calls nothing has one probe for both:
/// the branch record's Visits and ActiveThreads words are then not written,
/// they are the block's warp and thread executions (database:
/// "shares_block_counts"). When that block's counts are derived from
/// another branch's record, the branch's probe writes neither the block's
/// words nor those two (schema warpscope-db/3).

/// Each probe's inline PTX opens a scope whose first declaration names it:
///   ".reg .b32 %ws_block_<N>;", ".reg .b32 %ws_branch_<N>;" or, for a merged
///   probe, ".reg .b32 %ws_block_<N>_branch_<M>;"   (N, M: counter indices)
/// (preceded by a "// ws:..." comment for people reading -S output; comments
/// do not survive into a fatbin, declarations do). A block whose counts are
/// derived gets a scope with only that declaration and one dead
/// "mov.u32 %ws_block_<N>, 0;" (ptxas deletes it). Tools
/// that read the PTX (emulator ground truth, histograms) attach the marker
/// "ws:block N", "ws:branch M" or "ws:block N ws:branch M" to the next
/// instruction; a probe's instructions run from there to the closing brace.
/// Loop-entry records are counted in scopes named "%ws_entry_<N>" (no
/// marker). Promoted loop counters (docs/design.md) add scopes named
/// "%ws_init_<N>" (zeroing, at a function's entry) and "%ws_flush_<N>"
/// (at a loop exit); they carry no marker. Every instruction the
/// instrumentation adds is in a scope whose first declaration is a "%ws_"
/// register.
constexpr const char *BlockMarker = "ws:block";
constexpr const char *BranchMarker = "ws:branch";
constexpr const char *BlockMarkerRegister = "%ws_block_";
constexpr const char *BranchMarkerRegister = "%ws_branch_";
/// Every register the instrumentation declares starts so.
constexpr const char *InstrumentationRegisterPrefix = "%ws_";

/// What a probe's marker names: its block record, its branch record, or
/// both (a merged probe). The pass encodes it, the PTX readers decode it.
struct ProbeMarker {
  std::optional<uint64_t> Block, Branch;

  /// "%ws_block_3", "%ws_branch_7" or "%ws_block_3_branch_7".
  std::string registerName() const {
    std::string R = "%ws";
    if (Block)
      R += "_block_" + std::to_string(*Block);
    if (Branch)
      R += "_branch_" + std::to_string(*Branch);
    return R;
  }
  /// "ws:block 3", "ws:branch 7" or "ws:block 3 ws:branch 7".
  std::string text() const {
    std::string T;
    if (Block)
      T = std::string(BlockMarker) + " " + std::to_string(*Block);
    if (Branch)
      T += (T.empty() ? "" : " ") + std::string(BranchMarker) + " " +
           std::to_string(*Branch);
    return T;
  }
  /// Decodes a register name; nullopt for any other name (including the
  /// instrumentation's unmarked scopes, e.g. "%ws_entry_2").
  static std::optional<ProbeMarker> parse(std::string_view Reg) {
    ProbeMarker M;
    std::string_view Rest = Reg;
    auto Take = [&](std::string_view Tag, std::optional<uint64_t> &Word) {
      if (Rest.substr(0, Tag.size()) != Tag)
        return true;
      size_t I = Tag.size(), E = I;
      uint64_t V = 0;
      while (E < Rest.size() && E - I < 19 && Rest[E] >= '0' && Rest[E] <= '9')
        V = V * 10 + uint64_t(Rest[E++] - '0');
      if (E == I)
        return false;
      Word = V;
      Rest.remove_prefix(E);
      return true;
    };
    if (Rest.substr(0, 3) != "%ws")
      return std::nullopt;
    Rest.remove_prefix(3);
    if (!Take("_block_", M.Block) || !Take("_branch_", M.Branch) ||
        !Rest.empty() || (!M.Block && !M.Branch))
      return std::nullopt;
    return M;
  }
};

/// Host side. The host pass emits one ModuleDescriptor per translation unit
/// and, in the module's CUDA registration constructor, just before
/// __cudaRegisterFatBinaryEnd, calls
///   __warpscope_register_module(const ModuleDescriptor *, void **handle)
/// which registers CountersShadow as the host key of the device counter
/// array (__cudaRegisterVar) and records the kernels. Calls to
/// cudaLaunchKernel / cudaLaunchKernel_ptsz / cudaDeviceReset in the module
/// are retargeted to the functions below, which have the same C signatures.
constexpr const char *RegisterModuleFunction = "__warpscope_register_module";
constexpr const char *LaunchKernelWrapper = "__warpscope_cudaLaunchKernel";
constexpr const char *LaunchKernelPtszWrapper =
    "__warpscope_cudaLaunchKernel_ptsz";
constexpr const char *DeviceResetWrapper = "__warpscope_cudaDeviceReset";

/// Exported by the emulator's libcudart only. After a kernel faults, a GPU's
/// context is lost and with it the counters of every launch before the
/// fault; the emulator's memory is intact, so the runtime reads the counters
/// through this (a cudaMemcpyFromSymbol that ignores the sticky error) and
/// keeps them. Returns a cudaError_t.
constexpr const char *EmuReadAfterFaultFunction =
    "__warpscope_emu_read_after_fault";
using EmuReadAfterFaultFn = int (*)(const void *Symbol, void *Dst,
                                    size_t Bytes);

/// Exported by the emulator's libcudart only, for the runtime's handler of
/// SIGINT and SIGTERM (async-signal-safe): when a launch is running, asks it
/// to stop at its next branch and returns 1; the launch then returns
/// cudaErrorLaunchFailure with the counts and ground truth of the part that
/// ran (the truth already written), and the runtime ends the process after
/// its flush. Returns 0 when no launch runs.
constexpr const char *EmuInterruptFunction = "__warpscope_emu_interrupt";
using EmuInterruptFn = int (*)(int Signal);

/// Exported by the emulator's libcudart only: writes the ground truth of
/// every module and the modeled PC samples now (a profile flushed by a
/// signal's handler, which ends the process without its exit handlers).
constexpr const char *EmuWriteTruthFunction = "__warpscope_emu_write_truth";
using EmuWriteTruthFn = void (*)();

struct KernelEntry {
  const void *Stub; ///< host stub, the key cudaLaunchKernel receives
  const char *Name; ///< mangled device name
};

/// Field order and types are ABI: the host pass builds this as an IR
/// constant from the same list (ModuleDescriptor.def).
///
/// The device array holds CounterReplicas copies of the NumCounters words,
/// ReplicaStride words apart (word W of replica R at R * ReplicaStride + W).
/// Probes add to any one replica: thousands of warps adding to the same
/// address serialize at the L2, spread over replicas they do not. The
/// runtime sums the replicas, so every count stays exact.
struct ModuleDescriptor {
#define WARPSCOPE_DESCRIPTOR_FIELD(IRKind, CType, Name) CType Name;
#include "warpscope/ABI/ModuleDescriptor.def"
};

/// Each field's C type has the size of its IR kind.
namespace descriptor_kind {
constexpr size_t I32 = 4, I64 = 8, Ptr = sizeof(void *);
} // namespace descriptor_kind
#define WARPSCOPE_DESCRIPTOR_FIELD(IRKind, CType, Name)                        \
  static_assert(sizeof(CType) == descriptor_kind::IRKind,                      \
                "ModuleDescriptor." #Name ": C type and IR kind differ");
#include "warpscope/ABI/ModuleDescriptor.def"

} // namespace warpscope

#endif // WARPSCOPE_ABI_H
