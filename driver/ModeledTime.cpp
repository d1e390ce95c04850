//===- ModeledTime.cpp - Modeled time per launch and kernel ---------------===//

#include "ModeledTime.h"
#include "Html.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;

std::optional<ModeledTimeView>
warpscope::buildModeledTime(const Truth &T, const std::string &Filter) {
  std::optional<Regex> R;
  if (!Filter.empty())
    R.emplace(Filter);
  ModeledTimeView V;
  std::map<std::string, size_t> KernelAt;
  std::set<std::string> Configs;
  for (const TruthLaunch &L : T.Launches) {
    if (!L.Modeled)
      continue;
    std::string Name = demangle(L.Kernel);
    if (R && !R->match(L.Kernel) && !R->match(Name))
      continue;
    ModeledLaunch ML{L.Kernel, Name, {}, {}, *L.Modeled};
    std::copy(L.Grid, L.Grid + 3, ML.Grid);
    std::copy(L.Block, L.Block + 3, ML.Block);
    V.Launches.push_back(ML);
    // The configuration, and its clock when not the boost clock a user's
    // run sees (e.g. the base clock, to compare with Nsight Compute).
    std::string Config = L.Modeled->Config;
    if (!L.Modeled->Clock.empty() && L.Modeled->Clock != "boost")
      Config += formatv(" at the {0} clock, {1} MHz", L.Modeled->Clock,
                        L.Modeled->ClockMhz)
                    .str();
    if (Configs.insert(Config).second)
      V.Config += (V.Config.empty() ? "" : ", ") + Config;
    if (!L.Modeled->Probes.empty())
      V.Probes = V.Probes.empty() || V.Probes == L.Modeled->Probes
                     ? L.Modeled->Probes
                     : "mixed";
    auto [It, New] = KernelAt.try_emplace(L.Kernel, V.Kernels.size());
    if (New)
      V.Kernels.push_back({L.Kernel, Name});
    ModeledKernel &K = V.Kernels[It->second];
    ++K.Launches;
    K.Cycles += L.Modeled->Cycles;
    K.Microseconds += L.Modeled->Microseconds;
    K.Scaled |= L.Modeled->Scaled;
  }
  if (V.Launches.empty())
    return std::nullopt;
  std::stable_sort(V.Kernels.begin(), V.Kernels.end(),
                   [](const ModeledKernel &A, const ModeledKernel &B) {
                     return A.Cycles > B.Cycles;
                   });
  return V;
}

namespace {

std::string dims(const uint64_t D[3]) {
  return formatv("({0},{1},{2})", D[0], D[1], D[2]).str();
}

const char *Heading = "Modeled time (emulator timing model, not measured)";

// Launch configurations the text report lists before it summarises.
constexpr size_t MaxConfigurationRows = 20;

} // namespace

std::string warpscope::modeledProbesLabel(const std::string &Probes) {
  if (Probes.empty())
    return "";
  if (Probes == "mixed")
    return ", probe instructions free in some launches, modeled in others";
  return ", probe instructions " + Probes;
}

void warpscope::renderModeledText(const ModeledTimeView &V, raw_ostream &OS) {
  OS << "\n"
     << Heading << ", configuration " << V.Config
     << modeledProbesLabel(V.Probes) << "\n";
  OS << "  per kernel:\n";
  for (const ModeledKernel &K : V.Kernels)
    OS << formatv("    {0} : {1} launch(es), {2} modeled cycles, {3:F2} "
                  "modeled us{4}\n",
                  K.Name, K.Launches, K.Cycles, K.Microseconds,
                  K.Scaled ? " (scaled from a subset of SMs)" : "");
  // A program that launches one configuration a thousand times gets one
  // row for them, not a thousand (the JSON report keeps every launch).
  struct Row {
    const ModeledLaunch *First;
    uint64_t Launches = 0, MinCycles = UINT64_MAX, MaxCycles = 0, Cycles = 0;
    double Microseconds = 0;
  };
  std::vector<Row> Rows;
  std::map<std::tuple<std::string, std::string, std::string, uint64_t, bool>,
           size_t>
      RowOf;
  for (const ModeledLaunch &L : V.Launches) {
    auto [It, New] = RowOf.try_emplace({L.Mangled, dims(L.Grid), dims(L.Block),
                                        L.Time.SmsSimulated, L.Time.Scaled},
                                       Rows.size());
    if (New)
      Rows.push_back({&L});
    Row &R = Rows[It->second];
    ++R.Launches;
    R.MinCycles = std::min(R.MinCycles, L.Time.Cycles);
    R.MaxCycles = std::max(R.MaxCycles, L.Time.Cycles);
    R.Cycles += L.Time.Cycles;
    R.Microseconds += L.Time.Microseconds;
  }
  OS << "  per launch configuration:\n";
  const size_t Shown = std::min<size_t>(Rows.size(), MaxConfigurationRows);
  for (size_t I = 0; I < Shown; ++I) {
    const Row &R = Rows[I];
    const ModeledLaunch &L = *R.First;
    std::string Time;
    if (R.Launches == 1)
      Time = formatv("{0} modeled cycles, {1:F2} modeled us", R.Cycles,
                     R.Microseconds);
    else if (R.MinCycles == R.MaxCycles)
      Time = formatv("{0} launches, {1} modeled cycles and {2:F2} modeled us "
                     "each",
                     R.Launches, R.MinCycles, R.Microseconds / R.Launches);
    else
      Time = formatv("{0} launches, {1} to {2} modeled cycles ({3} in all, "
                     "{4:F2} modeled us)",
                     R.Launches, R.MinCycles, R.MaxCycles, R.Cycles,
                     R.Microseconds);
    OS << formatv("    {0} grid {1} block {2}: {3}, {4} SM(s) simulated{5}\n",
                  L.Name, dims(L.Grid), dims(L.Block), Time,
                  L.Time.SmsSimulated, L.Time.Scaled ? ", scaled" : "");
  }
  if (Rows.size() > Shown)
    OS << formatv("    ... and {0} more launch configurations (the JSON "
                  "report lists every launch)\n",
                  Rows.size() - Shown);
}

json::Value warpscope::renderModeledJson(const ModeledTimeView &V) {
  json::Array Kernels, Launches;
  for (const ModeledKernel &K : V.Kernels)
    Kernels.push_back(json::Object{{"name", K.Name},
                                   {"mangled", K.Mangled},
                                   {"launches", K.Launches},
                                   {"modeled_cycles", K.Cycles},
                                   {"modeled_microseconds", K.Microseconds},
                                   {"scaled", K.Scaled}});
  for (const ModeledLaunch &L : V.Launches) {
    Launches.push_back(
        json::Object{{"name", L.Name},
                     {"mangled", L.Mangled},
                     {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
                     {"block", json::Array{L.Block[0], L.Block[1], L.Block[2]}},
                     {"config", L.Time.Config},
                     {"modeled_cycles", L.Time.Cycles},
                     {"modeled_microseconds", L.Time.Microseconds},
                     {"sms_simulated", L.Time.SmsSimulated},
                     {"scaled", L.Time.Scaled}});
    if (!L.Time.Probes.empty())
      (*Launches.back().getAsObject())["probes"] = L.Time.Probes;
  }
  json::Object O{{"source", "model"},
                 {"config", V.Config},
                 {"kernels", std::move(Kernels)},
                 {"launches", std::move(Launches)}};
  if (!V.Probes.empty())
    O["probes"] = V.Probes;
  return O;
}

std::string warpscope::renderModeledHtml(const ModeledTimeView &V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "<h2>" << Heading << "</h2>\n<p>Configuration " << escapeHtml(V.Config)
     << escapeHtml(modeledProbesLabel(V.Probes)) << ".</p>\n";
  OS << "<table class=\"modeled\"><thead><tr><th>kernel</th><th>launches</th>"
        "<th>modeled cycles</th><th>modeled &micro;s</th><th>scaled</th>"
        "</tr></thead><tbody>\n";
  for (const ModeledKernel &K : V.Kernels)
    OS << "<tr><td>" << escapeHtml(K.Name) << "</td><td>" << K.Launches
       << "</td><td>" << K.Cycles << "</td><td>"
       << formatv("{0:F2}", K.Microseconds) << "</td><td>"
       << (K.Scaled ? "yes" : "no") << "</td></tr>\n";
  OS << "</tbody></table>\n";
  return S;
}
