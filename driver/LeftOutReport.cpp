//===- LeftOutReport.cpp - What a run left out, in every format -----------===//

#include "LeftOutReport.h"
#include "Html.h"

using namespace llvm;
using namespace warpscope;

static std::string launches(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " launch" : " launches");
}

std::vector<std::string> warpscope::leftOutLines(const LeftOut &L) {
  std::vector<std::string> Out;
  if (!L.KernelFilters.empty()) {
    std::string Filters;
    for (const std::string &F : L.KernelFilters)
      Filters += (Filters.empty() ? "'" : ", '") + F + "'";
    std::string Kernels;
    for (const auto &[Name, N] : L.NotInstrumented)
      Kernels +=
          (Kernels.empty() ? "" : "; ") + Name + " (" + launches(N) + ")";
    Out.push_back("kernels not instrumented (-warpscope-kernel-filter=" +
                  Filters + "): " + (Kernels.empty() ? "none" : Kernels));
  }
  if (!L.SharedWithLeftOut.empty()) {
    std::string Names;
    for (const std::string &N : L.SharedWithLeftOut)
      Names += (Names.empty() ? "" : "; ") + N;
    Out.push_back("counts include calls from kernels not instrumented: " +
                  Names);
  }
  if (!L.Selection.empty()) {
    std::string Kernels;
    uint64_t Total = 0;
    for (const auto &[Name, N] : L.LaunchesLeftOut) {
      Kernels +=
          (Kernels.empty() ? "" : "; ") + Name + " (" + launches(N) + ")";
      Total += N;
    }
    Out.push_back("launches left out (" + L.Selection +
                  "): " + (Total ? launches(Total) + ": " + Kernels : "none"));
  }
  return Out;
}

json::Value warpscope::leftOutJson(const LeftOut &L) {
  json::Array Filters, NotInstrumented, Shared, Launches;
  for (const std::string &F : L.KernelFilters)
    Filters.push_back(F);
  for (const auto &[Name, N] : L.NotInstrumented)
    NotInstrumented.push_back(json::Object{{"kernel", Name}, {"launches", N}});
  for (const std::string &N : L.SharedWithLeftOut)
    Shared.push_back(N);
  for (const auto &[Name, N] : L.LaunchesLeftOut)
    Launches.push_back(json::Object{{"kernel", Name}, {"launches", N}});
  return json::Object{{"kernel_filters", std::move(Filters)},
                      {"kernels_not_instrumented", std::move(NotInstrumented)},
                      {"shared_with_left_out", std::move(Shared)},
                      {"launch_selection", L.Selection.empty()
                                               ? json::Value(nullptr)
                                               : json::Value(L.Selection)},
                      {"launches_left_out", std::move(Launches)}};
}

std::string warpscope::leftOutHtml(const LeftOut &L) {
  std::vector<std::string> Lines = leftOutLines(L);
  if (Lines.empty())
    return "";
  std::string Out = "<h2 id=\"left-out\">Left out of this profile</h2><ul>";
  for (const std::string &Line : Lines)
    Out += "<li>" + escapeHtml(Line) + "</li>";
  return Out + "</ul>\n";
}
