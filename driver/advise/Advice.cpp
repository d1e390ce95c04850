//===- Advice.cpp - The advisor's shared vocabulary -----------------------===//

#include "Advice.h"
#include <algorithm>
#include <cstdio>

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

llvm::StringRef inputSource(InputKind K) {
  switch (K) {
  case InputKind::Counts:
  case InputKind::Divergence:
  case InputKind::Occupancy:
  case InputKind::LaunchConfig:
    return "an instrumented build (`warpscope config --cflags`) run under "
           "`warpscope run`";
  case InputKind::MemoryCounts:
  case InputKind::ModeledTime:
    return "`warpscope run --emulate`";
  case InputKind::Samples:
  case InputKind::Instructions:
    return "`warpscope run --pc-sampling` (modeled on the emulator, CUPTI's "
           "on a GPU; the listing is saved with the samples)";
  }
  return "";
}

std::string formatNumber(double V, unsigned MaxDecimals) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", int(MaxDecimals), V);
  std::string S(Buf);
  if (S.find('.') != std::string::npos) {
    while (S.back() == '0')
      S.pop_back();
    if (S.back() == '.')
      S.pop_back();
  }
  return S == "-0" ? "0" : S;
}

llvm::StringRef estimateKindName(EstimateKind K) {
  return K == EstimateKind::Resimulated ? "re-simulated" : "formula";
}

bool Inputs::has(InputKind K) const {
  return std::find(Present.begin(), Present.end(), K) != Present.end();
}

} // namespace warpscope::advise
