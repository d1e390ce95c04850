//===- ResourceReport.h - Registers, spills, shared memory, occupancy -----===//
//
// What a kernel's machine code uses (from ptxas on the emulator, from the
// CUDA runtime on a GPU) and the theoretical occupancy of each launch
// configuration: blocks and warps per SM and the limit that stops one more
// block, computed by the occupancy rules the emulator also answers with.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RESOURCEREPORT_H
#define WARPSCOPE_DRIVER_RESOURCEREPORT_H

#include "ProfileModel.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace warpscope {

/// One launch configuration's theoretical occupancy.
struct LaunchOccupancy {
  const LaunchGroup *Launch = nullptr;
  OccupancyResult Result;
};

/// One entry per launch configuration of F; empty when F's resources are
/// unknown or were not recorded (profiles of schema 1).
std::vector<LaunchOccupancy> launchOccupancy(const ProfileSet &Set,
                                             const FunctionProfile &F);

/// "ptxas (sm_90, emulator)" or "CUDA runtime".
std::string resourceSourceName(const std::string &Source);

void renderResourcesText(const ProfileSet &Set, const FunctionProfile &F,
                         llvm::raw_ostream &OS);
/// The text lines as paragraphs of the HTML page.
void renderResourcesHtml(const ProfileSet &Set, const FunctionProfile &F,
                         llvm::raw_ostream &OS);
/// Adds "resources" and "occupancy" to a kernel's report object.
void addResourcesJson(const ProfileSet &Set, const FunctionProfile &F,
                      llvm::json::Object &K);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RESOURCEREPORT_H
