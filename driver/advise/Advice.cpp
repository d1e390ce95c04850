//===- Advice.cpp - The advisor's shared vocabulary -----------------------===//

#include "Advice.h"
#include <algorithm>

namespace warpscope::advise {

llvm::StringRef inputName(InputKind K) {
  switch (K) {
  case InputKind::Counts:
    return "block counts";
  case InputKind::Divergence:
    return "divergence map";
  case InputKind::Samples:
    return "PC samples";
  case InputKind::MemoryCounts:
    return "memory-efficiency counts";
  case InputKind::Occupancy:
    return "occupancy";
  case InputKind::LaunchConfig:
    return "launch configurations";
  case InputKind::ModeledTime:
    return "modeled time";
  case InputKind::Instructions:
    return "instruction listing";
  }
  return "unknown input";
}

bool Inputs::has(InputKind K) const {
  return std::find(Present.begin(), Present.end(), K) != Present.end();
}

} // namespace warpscope::advise
