//===- ResourceBound.h - Formula estimates bounded by exact counts -*- C++
//-*-=//
//
// Issue 35, item 2: a formula estimate (GPA's stall elimination and latency
// hiding, the exact-count optimizers' savings) is capped by what the
// kernel's exact counts allow, roofline style. A change that does not reduce
// a resource's work cannot make the kernel faster than the time that work
// needs at the timing model's throughput: issue slots (one warp instruction
// per scheduler per cycle), the L1's bytes per cycle for global and local
// sectors, the shared pipe's wavefront per cycle, and the L2's bytes per
// cycle for the sectors stores and atomics must send there. Which resources
// each optimizer's change may reduce is one table (ResourceBound.cpp);
// docs/advisor-estimators.md, "Bounds from the exact counts".
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_RESOURCEBOUND_H
#define WARPSCOPE_DRIVER_ADVISE_RESOURCEBOUND_H

#include "Advice.h"
#include <optional>
#include <string>
#include <vector>

namespace warpscope {
struct TruthInstruction;
} // namespace warpscope

namespace warpscope::advise {

/// The resources whose exact work bounds a kernel's modeled time.
enum class Resource { Issue, L1, Shared, L2, Count };
/// "issue", "L1", "shared memory", "L2", as the estimator line says it.
const char *resourceName(Resource R);

/// The sectors an access sends to the L2, the L2 floor's work: a store's
/// (written through) and an atomic's distinct addresses (done there); a
/// load may hit in L1 and counts none.
double l2Sectors(const TruthInstruction &I);

/// The cycles the chip's L2 needs for Sectors at the throughput of
/// Kernel's timing-model configuration; 0 without one.
double l2Cycles(const Inputs &In, const std::string &Kernel, double Sectors);

/// The resources Optimizer's change may reduce the work of (a bit per
/// Resource); every bit for an optimizer the table does not know, whose
/// estimate is then never capped.
unsigned reducibleResources(const std::string &Optimizer);

/// One resource's least time on the busiest SM, in modeled cycles.
struct ResourceFloor {
  Resource R = Resource::Issue;
  double Cycles = 0;
  std::string Work; ///< e.g. "563200 global/local sectors at 128 B per cycle"
};

/// Kernel's floors from In's exact counts and its timing-model
/// configuration; empty without modeled time, ground truth, or a built-in
/// configuration.
std::vector<ResourceFloor> resourceFloors(const Inputs &In,
                                          const std::string &Kernel);

/// The floor of the resources Optimizer's change leaves; nullopt when none
/// of them has work.
std::optional<ResourceFloor>
bindingFloor(const std::vector<ResourceFloor> &Floors,
             const std::string &Optimizer);

/// Caps every formula estimate of All at the kernel's modeled cycles (the
/// SMs', the launches' fixed cost apart) over its binding floor, and says
/// so in the estimator; re-simulated estimates are the model's own figure
/// and stay.
void boundByResources(const Inputs &In, std::vector<Advice> &All);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_RESOURCEBOUND_H
