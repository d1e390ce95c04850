//===- KernelQueries.h - What kernels and the device offer ----------------===//
//
// The CUDA runtime's answers about a launched kernel's machine code
// (registers, local and shared memory, spills where the emulator's ptxas
// knows them) and its occupancy, asked once per kernel and configuration;
// and the device's per-SM limits, for the profile.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_RUNTIME_KERNELQUERIES_H
#define WARPSCOPE_RUNTIME_KERNELQUERIES_H

#include "Profile.h"
#include "Registry.h"
#include <optional>

namespace warpscope::rt {

/// Before a launch of Func (kernel K) with configuration C: asks what has
/// not been asked yet and records it in Reg. Leaves the program's last
/// CUDA error as it was.
void queryKernelResources(Registry &Reg, const void *Func, const KernelRef &K,
                          const LaunchConfig &C);

/// The current device's limits, or nullopt when it cannot say.
std::optional<DeviceLimits> currentDeviceLimits();

} // namespace warpscope::rt

#endif // WARPSCOPE_RUNTIME_KERNELQUERIES_H
