//===- ResourceBound.cpp - Formula estimates bounded by exact counts ------===//

#include "ResourceBound.h"
#include "../GroundTruth.h"
#include "MachineModel.h"
#include "warpscope/ABI/PtxOpcodes.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace llvm;

namespace warpscope::advise {

const char *resourceName(Resource R) {
  switch (R) {
  case Resource::Issue:
    return "issue";
  case Resource::L1:
    return "L1";
  case Resource::Shared:
    return "shared memory";
  case Resource::L2:
    return "L2";
  case Resource::Count:
    break;
  }
  return "?";
}

namespace {

constexpr unsigned bit(Resource R) { return 1u << unsigned(R); }
constexpr unsigned Issue = bit(Resource::Issue), L1 = bit(Resource::L1),
                   Shared = bit(Resource::Shared), L2 = bit(Resource::L2);
constexpr unsigned AllResources = Issue | L1 | Shared | L2;

/// The one table: what each optimizer's change may reduce. Latency hiding
/// (code reordering, loop unrolling, asynchronous copies, branch
/// elimination) moves no byte; the changes that remove instructions
/// (unrolling's loop overhead, a branch, a call's parameter moves, a
/// cheaper operation) reduce issue only; memory-transaction changes reduce
/// sectors (and so L1 and L2 work), bank-conflict changes wavefronts. Where
/// a change could plausibly reduce a resource it is listed, so that no cap
/// binds on work the change may remove. Launch-shape changes (occupancy,
/// block and thread counts) move work between SMs, which the floors per SM
/// assume fixed: never capped here (re-simulated, or the parallelism
/// estimator's own DRAM bound).
struct Reducible {
  const char *Optimizer;
  unsigned Resources;
};
constexpr Reducible Table[] = {
    {"code_reordering", 0},
    {"warp_balance", Issue},
    {"function_split", Issue},
    {"async_memory_copy", Issue},
    {"branch_elimination", Issue},
    {"loop_unrolling", Issue},
    {"strength_reduction", Issue},
    {"fast_math", Issue},
    {"function_inlining", Issue | L1 | L2},
    {"shared_memory_transaction_reduction", Issue | Shared},
    {"shared_memory_access_adjustment", Issue | Shared},
    {"bank_conflicts", Issue | Shared},
    {"uncoalesced_access", Issue | L1 | L2},
    {"global_memory_access_adjustment", Issue | L1 | L2},
    {"global_memory_transaction_reduction", Issue | L1 | L2},
    {"indirect_memory_access_reduction", Issue | L1 | L2},
    {"register_increase", Issue | L1 | L2},
    {"divergence", Issue | L1 | Shared | L2},
    {"occupancy_limiter", AllResources},
    {"block_increase", AllResources},
    {"thread_increase", AllResources},
};

/// Whether the timing model issues a warp instruction for Opcode: not for
/// the unit it charges as free (ptxUnitOf: the opcode table's free rows and
/// free forms, such as bar.warp.sync; cp.async's commit and wait issue),
/// and not counted for branches (the
/// unconditional half of a PTX branch pair is free). Files whose launches
/// carry the model's own count (resourceFloors) need none of it.
bool issues(StringRef Opcode) {
  const PtxUnit Unit = ptxUnitOf(std::string_view(Opcode));
  return Unit != PtxUnit::Free && Unit != PtxUnit::Branch;
}

struct Work {
  double WarpInstructions = 0, Sectors = 0, Wavefronts = 0, L2Sectors = 0;
};

Work kernelWork(const TruthFunction &F) {
  Work W;
  for (const TruthInstruction &I : F.Insts) {
    if (I.Instrumentation)
      continue;
    if (issues(I.Opcode))
      W.WarpInstructions += double(I.Warp);
    const MemoryCounts &M = I.Mem;
    W.Sectors += double(M.GlobalSectors + M.LocalSectors);
    W.Wavefronts += double(M.SharedWavefronts);
    W.L2Sectors += l2Sectors(I);
  }
  return W;
}

/// The chip's L2 at C's throughput: cycles for Sectors of 32 bytes.
double l2CyclesAt(const MachineConfig &C, double Sectors) {
  return C.L2BytesPerCycle > 0 ? 32 * Sectors / C.L2BytesPerCycle : 0;
}

} // namespace

double l2Sectors(const TruthInstruction &I) {
  // Stores write through to L2; an atomic is done there, one transfer per
  // distinct address of the warp. Loads may hit in L1: none counted.
  StringRef Kind = memoryAccessKind(I.Opcode);
  if (Kind == "store")
    return double(I.Mem.GlobalSectors + I.Mem.LocalSectors);
  if (Kind == "atomic")
    return double(I.Mem.AtomicAddresses);
  return 0;
}

double l2Cycles(const Inputs &In, const std::string &Kernel, double Sectors) {
  auto M = In.ModeledTime.find(Kernel);
  if (M == In.ModeledTime.end())
    return 0;
  std::optional<MachineConfig> C = machineConfig(M->second.Config);
  return C ? l2CyclesAt(*C, Sectors) : 0;
}

unsigned reducibleResources(const std::string &Optimizer) {
  for (const Reducible &R : Table)
    if (Optimizer == R.Optimizer)
      return R.Resources;
  return AllResources;
}

std::vector<ResourceFloor> resourceFloors(const Inputs &In,
                                          const std::string &Kernel) {
  std::vector<ResourceFloor> Out;
  auto M = In.ModeledTime.find(Kernel);
  if (M == In.ModeledTime.end() || !In.GroundTruth || !(M->second.Cycles > 0))
    return Out;
  std::optional<MachineConfig> C = machineConfig(M->second.Config);
  auto F = In.GroundTruth->Functions.find(Kernel);
  if (!C || F == In.GroundTruth->Functions.end())
    return Out;
  // The most SMs any launch of the kernel used: the work summed over the
  // launches, spread over that many SMs, is at most what each launch's
  // busiest SM had, so every floor is at most the modeled time. And what
  // the model issued, where every launch says (its SASS-shaped count, which
  // may be below one per PTX instruction: a multiply fused into an add).
  double Sms = 0, Issued = 0;
  bool AllIssued = true;
  for (const TruthLaunch &L : In.GroundTruth->Launches)
    if (L.Kernel == Kernel && L.Modeled) {
      Sms = std::max(
          Sms, std::min(C->Sms, double(L.Grid[0] * L.Grid[1] * L.Grid[2])));
      Issued += double(L.Modeled->Instructions);
      AllIssued &= L.Modeled->Instructions > 0;
    }
  if (!(Sms > 0))
    return Out;
  Work W = kernelWork(F->second);
  if (AllIssued && Issued > 0)
    W.WarpInstructions = Issued;
  auto Add = [&](Resource R, double Cycles, std::string What) {
    if (Cycles > 0)
      Out.push_back({R, Cycles, std::move(What)});
  };
  Add(Resource::Issue, W.WarpInstructions / (C->Schedulers * Sms),
      formatv("{0} warp instructions at one per scheduler per cycle, {1} "
              "schedulers on each of {2} SMs",
              formatNumber(W.WarpInstructions, 0), formatNumber(C->Schedulers),
              formatNumber(Sms))
          .str());
  if (C->L1BytesPerCycle > 0)
    Add(Resource::L1, 32 * W.Sectors / C->L1BytesPerCycle / Sms,
        formatv("{0} global and local sectors at {1} B per cycle per SM, "
                "{2} SMs",
                formatNumber(W.Sectors, 0), formatNumber(C->L1BytesPerCycle),
                formatNumber(Sms))
            .str());
  // The shared pipe serves one wavefront per cycle (the timing model's).
  Add(Resource::Shared, W.Wavefronts / Sms,
      formatv("{0} shared-memory wavefronts at one per cycle per SM, {1} SMs",
              formatNumber(W.Wavefronts, 0), formatNumber(Sms))
          .str());
  if (C->L2BytesPerCycle > 0)
    Add(Resource::L2, l2CyclesAt(*C, W.L2Sectors),
        formatv("{0} sectors that stores and atomics send to L2 at {1} B per "
                "cycle for the chip",
                formatNumber(W.L2Sectors, 0), formatNumber(C->L2BytesPerCycle))
            .str());
  return Out;
}

std::optional<ResourceFloor>
bindingFloor(const std::vector<ResourceFloor> &Floors,
             const std::string &Optimizer) {
  const unsigned Reduced = reducibleResources(Optimizer);
  std::optional<ResourceFloor> Best;
  for (const ResourceFloor &F : Floors)
    if (!(Reduced & bit(F.R)) && (!Best || F.Cycles > Best->Cycles))
      Best = F;
  return Best;
}

void boundByResources(const Inputs &In, std::vector<Advice> &All) {
  std::map<std::string, std::vector<ResourceFloor>> Floors;
  for (Advice &A : All) {
    if (A.Kind != EstimateKind::Formula || !(A.EstimatedSpeedup > 1))
      continue;
    auto M = In.ModeledTime.find(A.Kernel);
    if (M == In.ModeledTime.end() || !(M->second.Cycles > 0))
      continue;
    if (!Floors.count(A.Kernel))
      Floors[A.Kernel] = resourceFloors(In, A.Kernel);
    std::optional<ResourceFloor> F =
        bindingFloor(Floors[A.Kernel], A.Optimizer);
    const double T = M->second.Cycles;
    // A floor at or above the modeled time is no floor of this run (a
    // model that issues or moves less than the counts say): no cap.
    if (!F || !(F->Cycles > 0) || F->Cycles >= T)
      continue;
    const double Bound = T / F->Cycles;
    if (A.EstimatedSpeedup <= Bound)
      continue;
    A.Estimator +=
        formatv("; capped at {0}x (the formula said {1}x): {2}"
                "-bound, {3}% of the modeled {4} cycles are "
                "needed for its {5}, which this change does not "
                "reduce (exact counts, {6})",
                formatNumber(Bound, 2), formatNumber(A.EstimatedSpeedup, 2),
                resourceName(F->R),
                formatNumber(100 * std::min(1.0, F->Cycles / T), 0),
                formatNumber(T, 0), F->Work, M->second.Config)
            .str();
    A.EstimatedSpeedup = Bound;
    A.BoundBy = resourceName(F->R);
  }
}

} // namespace warpscope::advise
