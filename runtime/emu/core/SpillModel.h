//===- SpillModel.h - Where ptxas's register spills run ---------*- C++ -*-===//
//
// The emulator runs PTX, which has unlimited virtual registers: a kernel
// that ptxas compiles under a register cap (__launch_bounds__ with a
// minimum of blocks, -maxrregcount) and that spills shows no spill code.
// `ptxas -v` says how much it spilled (bytes of spill stores and loads) but
// not where. This model places the spill code (docs/timing-model.md,
// "Register spills"): a liveness pass over the kernel's control-flow graph
// gives each instruction its register pressure (live 32-bit values, a
// 64-bit one counting 2, predicates apart: they live in their own
// registers); where it exceeds the cap less Reserve, the values that are
// live there and cheapest to keep in memory (fewest definitions and uses,
// weighted by loop depth) are spilled: a local-memory store after each
// definition, a load before each use. Computed once per kernel and cap,
// and only for kernels ptxas says spill: other kernels cost nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_SPILLMODEL_H
#define WARPSCOPE_EMU_CORE_SPILLMODEL_H

#include "Ptx.h"
#include "warpscope/Emu/Emulator.h"
#include "warpscope/Emu/TimingModel.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace warpscope::emu::core {

/// Registers a capped kernel cannot give to its values: R1, the stack
/// pointer a kernel with a stack frame (its spill area) keeps, and one for
/// the value a spill load or store moves (a reload's destination before
/// its use, a definition before its store).
inline constexpr uint32_t SpillReserve = 2;

/// One spill load or store of one value.
struct SpillOp {
  uint32_t Slot = 0; ///< the PTX register
  uint32_t Word = 0; ///< its first 32-bit word in the thread's spill area
  uint8_t Words = 1; ///< 1 or 2 (a 64-bit value)
};

/// Where the spill code of one function runs, for one register cap.
struct SpillPlan {
  uint32_t Cap = 0;  ///< registers per thread ptxas may use
  uint32_t Peak = 0; ///< the most 32-bit values live at one instruction
  /// The registers the function needs without spilling: Peak + the
  /// reserve the model keeps for its spill code's own use.
  uint32_t Need = 0;
  uint32_t AreaWords = 0; ///< spill area per thread, 32-bit words
  /// Per instruction K: Loads[LoadBegin[K] .. LoadBegin[K+1]) run before
  /// it, Stores[StoreBegin[K] .. StoreBegin[K+1]) after it.
  std::vector<uint32_t> LoadBegin, StoreBegin;
  std::vector<SpillOp> Loads, Stores;
  /// The static bytes of the placed code, per thread: what `ptxas -v`
  /// reports as "bytes spill stores" and "bytes spill loads".
  uint64_t storeBytes() const;
  uint64_t loadBytes() const;
  bool any() const { return !Loads.empty() || !Stores.empty(); }
};

/// Per instruction of F: the 32-bit registers its values hold while it
/// runs (the live values before it, or those after it with its results,
/// whichever is more). Predicates and non-register slots do not count.
std::vector<uint32_t> registerPressure(const Function &F);

/// The spill code of F under a cap of Cap registers per thread (none when
/// the pressure never exceeds Cap - SpillReserve).
SpillPlan planSpills(const Function &F, uint32_t Cap);

/// One launch's spill code as the timing model sees it: a local-memory
/// load or store per SpillOp, each a StaticInst of its own after the
/// module's table, whose modeled samples fold into the PTX instruction it
/// belongs to.
struct SpillCode {
  SpillPlan Plan;
  uint32_t Function = 0; ///< Function::Index of the kernel
  uint32_t FuncBase = 0; ///< the kernel's first id in the table
  uint32_t Base = 0;     ///< the first spill op's id (loads, then stores)
  uint32_t NWarps = 1;
  /// Appends the spill ops' StaticInsts to Table (the module's, copied).
  void extend(std::vector<timing::StaticInst> &Table) const;
  /// Records the spill loads before instruction Pc (Before) or the spill
  /// stores after it in W, for warp Warp of CTA Cta with lanes Exec.
  void record(timing::WarpTrace &W, uint32_t Pc, bool Before, uint64_t Cta,
              uint32_t Warp, uint32_t Exec) const;
  bool at(uint32_t Pc, bool Before) const {
    const auto &B = Before ? Plan.LoadBegin : Plan.StoreBegin;
    return B[Pc + 1] > B[Pc];
  }
  /// Stalls (sized like the launch's table) with the spill ops' entries
  /// folded into their instructions; Stalls itself where S is null.
  template <class Counts>
  static const std::vector<Counts> &folded(const SpillCode *S,
                                           const std::vector<Counts> &Stalls) {
    if (!S)
      return Stalls;
    static thread_local std::vector<Counts> Folded;
    Folded = Stalls;
    S->fold(Folded);
    return Folded;
  }
  /// Folds the spill ops' entries of Stalls into their instructions and
  /// drops them (Stalls then sized like the module's table).
  template <class Counts> void fold(std::vector<Counts> &Stalls) const {
    if (Stalls.size() <= Base)
      return;
    auto Into = [&](uint32_t Id, uint32_t Pc) {
      for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
        Stalls[FuncBase + Pc].All[J] += Stalls[Id].All[J];
        Stalls[FuncBase + Pc].NotIssued[J] += Stalls[Id].NotIssued[J];
      }
    };
    const uint32_t N = (uint32_t)Plan.LoadBegin.size() - 1;
    for (uint32_t Pc = 0; Pc < N; ++Pc) {
      for (uint32_t J = Plan.LoadBegin[Pc]; J < Plan.LoadBegin[Pc + 1]; ++J)
        Into(Base + J, Pc);
      for (uint32_t J = Plan.StoreBegin[Pc]; J < Plan.StoreBegin[Pc + 1]; ++J)
        Into(Base + (uint32_t)Plan.Loads.size() + J, Pc);
    }
    Stalls.resize(Base);
  }
};

class ModuleImpl;
struct LaunchRecord;

/// The spill code of a launch of kernel K (null where ptxas did not spill
/// or the model places none), with Table the module's table and the spill
/// ops after it, and Registers raised to what the kernel needs under a
/// what-if's cap; Rec gets the figures (LaunchRecord::Spills).
std::unique_ptr<SpillCode> launchSpills(ModuleImpl &M, const Function &K,
                                        const LaunchParams &P, uint32_t NWarps,
                                        LaunchRecord &Rec,
                                        std::vector<timing::StaticInst> &Table,
                                        uint32_t &Registers);

} // namespace warpscope::emu::core

#endif // WARPSCOPE_EMU_CORE_SPILLMODEL_H
