//===- ResourceReport.cpp - Registers, spills, shared memory, occupancy ---===//

#include "ResourceReport.h"
#include "Html.h"
#include "Report.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace llvm;
using namespace warpscope;

namespace {

json::Value optionalBytes(const std::optional<uint64_t> &V) {
  return V ? json::Value(*V) : json::Value(nullptr);
}

std::string spills(const MachineResources &R) {
  if (!R.SpillStoreBytes || !R.SpillLoadBytes)
    return "spills not reported";
  return formatv("{0} B spill stores, {1} B spill loads", *R.SpillStoreBytes,
                 *R.SpillLoadBytes)
      .str();
}

json::Array limiterArray(unsigned Limiters) {
  json::Array Out;
  for (auto [Bit, Name] :
       {std::pair<unsigned, const char *>{LimitRegisters, "registers"},
        {LimitShared, "shared_memory"},
        {LimitThreads, "threads"},
        {LimitBlocks, "blocks"}})
    if (Limiters & Bit)
      Out.push_back(Name);
  return Out;
}

} // namespace

std::string warpscope::resourceSourceName(const std::string &Source) {
  if (Source == "ptxas")
    return "ptxas -v, sm_90, emulator";
  if (Source == "cuda-runtime")
    return "CUDA runtime";
  return Source.empty() ? "?" : Source;
}

std::vector<LaunchOccupancy>
warpscope::launchOccupancy(const ProfileSet &Set, const FunctionProfile &F) {
  std::vector<LaunchOccupancy> Out;
  if (!F.Resources || !F.Resources->Known)
    return Out;
  const SmLimits Limits = Set.Limits ? *Set.Limits : H100Limits;
  for (const LaunchGroup &L : F.Launches) {
    KernelFootprint K;
    K.ThreadsPerBlock = L.Block[0] * L.Block[1] * L.Block[2];
    K.RegistersPerThread = F.Resources->Registers;
    K.StaticSharedBytes = F.Resources->StaticSharedBytes;
    K.DynamicSharedBytes = L.SharedBytes;
    Out.push_back({&L, theoreticalOccupancy(Limits, K)});
  }
  return Out;
}

void warpscope::renderResourcesText(const ProfileSet &Set,
                                    const FunctionProfile &F, raw_ostream &OS) {
  if (!F.Resources)
    return; // recorded from profile schema 2 on
  const MachineResources &R = *F.Resources;
  if (!R.Known) {
    OS << "  resources (" << resourceSourceName(R.Source)
       << "): unknown: " << (R.Error.empty() ? "not reported" : R.Error)
       << "\n";
    return;
  }
  OS << formatv("  resources ({0}): {1} registers/thread, {2} B local/thread "
                "({3}), {4} B static shared/block\n",
                resourceSourceName(R.Source), R.Registers, R.LocalBytes,
                spills(R), R.StaticSharedBytes);
  // Launches that differ only in their grid have the same occupancy: one
  // line for them (the JSON report keeps one entry per launch group).
  std::set<std::string> Shown;
  for (const LaunchOccupancy &O : launchOccupancy(Set, F)) {
    const LaunchGroup &L = *O.Launch;
    std::string Line = formatv(
        "  occupancy (block {0}x{1}x{2}, {3} B dynamic shared): "
        "{4} blocks/SM, {5}/{6} warps/SM = {7} theoretical; "
        "limited by {8}",
        L.Block[0], L.Block[1], L.Block[2], L.SharedBytes, O.Result.BlocksPerSM,
        O.Result.WarpsPerSM, O.Result.MaxWarpsPerSM,
        formatPercent(O.Result.fraction()), limiterNames(O.Result.Limiters));
    if (L.BlocksPerSM && *L.BlocksPerSM != O.Result.BlocksPerSM)
      Line += formatv(" (the CUDA runtime says {0} blocks/SM)", *L.BlocksPerSM);
    if (Shown.insert(Line).second)
      OS << Line << "\n";
  }
}

void warpscope::renderResourcesHtml(const ProfileSet &Set,
                                    const FunctionProfile &F, raw_ostream &OS) {
  std::string Text;
  raw_string_ostream TS(Text);
  renderResourcesText(Set, F, TS);
  SmallVector<StringRef, 4> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    OS << "<p class=\"resources\">" << escapeHtml(Line.trim()) << "</p>\n";
}

void warpscope::addResourcesJson(const ProfileSet &Set,
                                 const FunctionProfile &F, json::Object &K) {
  if (!F.Resources) {
    K["resources"] = nullptr;
    K["occupancy"] = json::Array();
    return;
  }
  const MachineResources &R = *F.Resources;
  auto Known = [&](uint64_t V) {
    return R.Known ? json::Value(V) : json::Value(nullptr);
  };
  json::Object Res{{"source", R.Source},
                   {"registers_per_thread", Known(R.Registers)},
                   {"local_bytes_per_thread", Known(R.LocalBytes)},
                   {"spill_store_bytes", optionalBytes(R.SpillStoreBytes)},
                   {"spill_load_bytes", optionalBytes(R.SpillLoadBytes)},
                   {"static_shared_bytes", Known(R.StaticSharedBytes)}};
  if (!R.Error.empty())
    Res["error"] = R.Error;
  K["resources"] = std::move(Res);
  json::Array Occ;
  for (const LaunchOccupancy &O : launchOccupancy(Set, F)) {
    const LaunchGroup &L = *O.Launch;
    Occ.push_back(json::Object{
        {"block", json::Array{L.Block[0], L.Block[1], L.Block[2]}},
        {"shared_bytes", L.SharedBytes},
        {"blocks_per_sm", O.Result.BlocksPerSM},
        {"warps_per_sm", O.Result.WarpsPerSM},
        {"max_warps_per_sm", O.Result.MaxWarpsPerSM},
        {"theoretical_occupancy", O.Result.fraction()},
        {"limited_by", limiterArray(O.Result.Limiters)},
        {"runtime_blocks_per_sm",
         L.BlocksPerSM ? json::Value(*L.BlocksPerSM) : json::Value(nullptr)}});
  }
  K["occupancy"] = std::move(Occ);
}
