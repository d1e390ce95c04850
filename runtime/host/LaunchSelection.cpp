//===- LaunchSelection.cpp - Which launches are profiled ------------------===//

#include "LaunchSelection.h"

using namespace warpscope::rt;

bool LaunchSelection::admit(const std::pair<int, std::string> &Kernel) {
  Seen &N = S.PerKernel ? PerKernel[Kernel] : All;
  uint64_t Index = N.Launches++; // 0-based, within the scope
  if (Index < S.Skip || (S.Count && N.Profiled >= *S.Count))
    return false;
  ++N.Profiled;
  return true;
}
