//===- LaunchSelection.cpp - Which launches are profiled ------------------===//

#include "LaunchSelection.h"
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

using namespace warpscope::rt;

std::string warpscope::rt::kernelRegexError(const std::string &Pattern) {
  try {
    std::regex R(Pattern);
    return "";
  } catch (const std::regex_error &E) {
    return E.what();
  }
}

LaunchSelection::LaunchSelection(LaunchSelectionSettings Settings)
    : S(std::move(Settings)) {
  if (!S.KernelRegex.empty() && kernelRegexError(S.KernelRegex).empty())
    Kernels.emplace(S.KernelRegex);
}

bool LaunchSelection::matches(const std::string &Mangled) {
  if (!Kernels)
    return true;
  auto [It, Fresh] = Matched.try_emplace(Mangled, false);
  if (Fresh) {
    int Status = 0;
    std::unique_ptr<char, void (*)(void *)> Demangled(
        abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status),
        std::free);
    It->second = std::regex_search(Mangled, *Kernels) ||
                 (Demangled && std::regex_search(Demangled.get(), *Kernels));
  }
  return It->second;
}

bool LaunchSelection::admit(const std::pair<int, std::string> &Kernel) {
  // Launches of other kernels are left out and not counted, as with ncu -k.
  if (!matches(Kernel.second))
    return false;
  Seen &N = S.PerKernel ? PerKernel[Kernel] : All;
  uint64_t Index = N.Launches++; // 0-based, within the scope
  if (Index < S.Skip || (S.Count && N.Profiled >= *S.Count))
    return false;
  ++N.Profiled;
  return true;
}
