//===- MachineModel.h - What the parallelism estimators model ---*- C++ -*-===//
//
// Private to driver/advise. The machine a launch runs on (SM count,
// schedulers, DRAM bandwidth: the timing model's configuration where the
// run had one) and GPA's parallelism estimator (Eq. 11, C_W x C_I x f)
// applied round by round to the busiest SM, shared by block increase,
// thread increase and the occupancy limiter. Formulas:
// docs/advisor-estimators.md "Parallelism".
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_MACHINEMODEL_H
#define WARPSCOPE_DRIVER_ADVISE_MACHINEMODEL_H

#include "Advice.h"
#include "Code.h"
#include <optional>
#include <string>

namespace warpscope::advise {

/// SMs when neither the profile nor the timing model says (the emulated
/// H100 SXM's 132).
inline constexpr unsigned DefaultSms = 132;

/// A timing-model configuration's figures the estimators use.
struct MachineConfig {
  std::string Name;
  double Sms = DefaultSms, Schedulers = 4;
  double DramBytesPerCycle = 0; ///< whole chip, per modeled cycle
  /// An SM's unified L1/shared memory, bytes: the L1 is what the
  /// shared-memory carveout leaves of it (Occupancy.h); 0: unknown.
  double UnifiedL1Bytes = 0;
  /// Per modeled cycle: an SM's L1 (global and local sectors) and the
  /// whole chip's L2; 0: unknown.
  double L1BytesPerCycle = 0, L2BytesPerCycle = 0;
};
/// The built-in configuration Name ("h100-sxm", ...); nullopt when the name
/// is not built in (a `--model-config FILE` run) or the emulator is not
/// built.
std::optional<MachineConfig> machineConfig(const std::string &Name);

/// A launch as the estimators see it.
struct LaunchShape {
  double Blocks = 1, WarpsPerBlock = 1;
  double BlocksPerSM = 1; ///< resident at once (occupancy), >= 1
};

/// What the estimate needs besides the two shapes.
struct ParallelInputs {
  double Sms = DefaultSms, Schedulers = 4;
  /// Eq. 9's R_I, the probability that a warp is ready: the share of the
  /// samples where it issued (selected) or was ready but not picked
  /// (not_selected); 0 without samples (the kernel is then taken as
  /// latency bound).
  double RI = 0;
  /// The samples' share of warp start and drain (no_instructions, drain).
  double FixedShare = 0;
  double Cycles = 0;    ///< modeled cycles of the kernel, 0: unknown
  double MinCycles = 0; ///< DRAM bound of the kernel, 0: unknown
  std::string Config;   ///< the timing model's configuration, if any
};

struct ParallelEstimate {
  double Issue = 1; ///< Eq. 11 over the rounds (1/C_W x C_I)
  double RoundsNow = 1, RoundsNew = 1;
  double Bound = 0; ///< Cycles / MinCycles, 0 when unknown
  double Speedup = 1;
};

/// The relative time of a launch on its busiest SM: per round of k
/// resident blocks, k / Blocks of the work over the p = min(schedulers,
/// warps) busy schedulers at issue rate I(W) (Eq. 9), W = warps / p.
double roundsTime(const ParallelInputs &P, const LaunchShape &S,
                  double *Rounds = nullptr);
/// Now -> New, the kernel's total work unchanged. WorkRatio: New's warp
/// instructions over Now's for that work, below 1 where New packs the same
/// threads into fewer, fuller warps (blocks of 16 threads leave half of
/// each warp's lanes idle; blocks of 256 none).
ParallelEstimate estimateParallelism(const ParallelInputs &P,
                                     const LaunchShape &Now,
                                     const LaunchShape &New,
                                     double WorkRatio = 1);

/// The machine, samples and modeled time for Kernel (mangled) from In.
ParallelInputs parallelInputs(const Inputs &In, const std::string &Kernel);

/// Whether F reads the grid's size (PTX %nctaid): its loops can spread
/// their trips over the grid (a grid-stride loop).
bool readsGridSize(const Function &F);

/// The trips of Kernel's outermost loops per warp launched: the most warp
/// executions of an outermost loop's header over the kernel's first
/// instruction's (exact counts of the ground truth, numbered by the
/// listing). 1 when not known, when the kernel has no loop, or when it
/// does not read the grid's size (a loop that is not over the grid).
double outerTrips(const Inputs &In, const std::string &Kernel);

/// "R_I = 0.08, start/drain 2.3%, rounds 3 -> 2, DRAM bound 3.2x" for
/// evidence.
std::string describe(const ParallelInputs &P, const ParallelEstimate &E);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_MACHINEMODEL_H
