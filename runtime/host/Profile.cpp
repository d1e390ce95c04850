//===- Profile.cpp - Profile JSON and crash-safe writes -------------------===//

#include "Profile.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Support/AtomicFile.h"
#include "warpscope/Support/Fnv.h"
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace warpscope;
using namespace warpscope::rt;
using nlohmann::json;

static json dim(const Dim &D) { return json::array({D.X, D.Y, D.Z}); }

static json configJson(const LaunchConfig &C) {
  return {{"grid", dim(C.Grid)},
          {"block", dim(C.Block)},
          {"shared_bytes", C.SharedBytes},
          {"stream", C.Stream}};
}

static json limitsJson(const DeviceLimits &L) {
  return {{"compute_capability", L.ComputeCapability},
          {"sm_count", L.SmCount},
          {"warp_size", L.WarpSize},
          {"registers_per_sm", L.RegistersPerSM},
          {"registers_per_block", L.RegistersPerBlock},
          {"max_threads_per_sm", L.MaxThreadsPerSM},
          {"max_blocks_per_sm", L.MaxBlocksPerSM},
          {"max_threads_per_block", L.MaxThreadsPerBlock},
          {"shared_per_sm", L.SharedPerSM},
          {"shared_per_block_optin", L.SharedPerBlockOptin},
          {"reserved_shared_per_block", L.ReservedSharedPerBlock}};
}

static json optional(const std::optional<uint64_t> &V) {
  return V ? json(*V) : json(nullptr);
}

/// One entry per launched kernel: what its machine code uses, null fields
/// when unknown.
static json kernelsJson(const Registry &R,
                        const std::vector<ModuleState> &Modules) {
  json Out = json::array();
  for (const auto &[Key, A] : R.kernelAttributes()) {
    auto Known = [&](uint64_t V) { return A.Known ? json(V) : json(nullptr); };
    json K = {{"module_id", Modules[Key.first].Desc->ModuleId},
              {"kernel", Key.second},
              {"source", A.Source},
              {"registers", Known(A.Registers)},
              {"local_bytes", Known(A.LocalBytes)},
              {"spill_store_bytes", optional(A.SpillStoreBytes)},
              {"spill_load_bytes", optional(A.SpillLoadBytes)},
              {"static_shared_bytes", Known(A.StaticSharedBytes)},
              {"max_threads_per_block", Known(A.MaxThreadsPerBlock)}};
    if (!A.Error.empty())
      K["error"] = A.Error;
    Out.push_back(std::move(K));
  }
  return Out;
}

json warpscope::rt::profileJson(const Registry &R, const ProcessInfo &P) {
  std::vector<ModuleState> Modules = R.modules();
  auto ModuleId = [&](int M) -> json {
    return M >= 0 ? json(Modules[M].Desc->ModuleId) : json(nullptr);
  };
  json J;
  J["schema"] = schema::Profile;
  J["pid"] = P.Pid;
  J["rank"] = P.Rank ? json(*P.Rank) : json(nullptr);
  if (P.WorldSize)
    J["world_size"] = *P.WorldSize;
  J["program"] = P.Program;
  J["device"] = P.Device;
  J["device_limits"] = P.Limits ? limitsJson(*P.Limits) : json(nullptr);
  J["mode"] = P.CollectionMode == Mode::PerLaunch ? "per-launch" : "aggregate";
  if (P.EndedBySignal)
    J["ended_by_signal"] = P.EndedBySignal;
  J["modules"] = json::array();
  for (const ModuleState &M : Modules) {
    json O;
    O["module_id"] = M.Desc->ModuleId;
    O["database"] = M.Desc->DatabaseSize
                        ? json(files::Database.named(M.Desc->ModuleId))
                        : json(nullptr);
    O["num_counters"] = M.Desc->NumCounters;
    if (M.Desc->DatabaseSize) {
      // The build: a rebuild keeps the module id (cwd and source file).
      char Hex[17];
      std::snprintf(Hex, sizeof Hex, "%016llx",
                    (unsigned long long)fnv1a64(std::string_view(
                        M.Desc->Database, M.Desc->DatabaseSize)));
      O["build"] = Hex;
    }
    O["counters"] = M.Totals;
    O["complete"] = M.Error.empty();
    if (!M.Error.empty())
      O["error"] = M.Error;
    if (M.ReadAfterFault)
      O["read_after_fault"] = true;
    J["modules"].push_back(std::move(O));
  }
  // Launches grouped by kernel and configuration in both modes; per-launch
  // mode sums their times here and lists each launch in launchesJsonLines.
  std::map<LaunchGroupKey, std::pair<uint64_t, double>> Groups;
  for (const auto &[Key, Count] : R.launchGroups())
    Groups[Key].first += Count;
  std::map<LaunchGroupKey, bool> Untimed;
  for (const LaunchRecord &Rec : R.launchRecords()) {
    LaunchGroupKey Key{Rec.Kernel.Module, Rec.Kernel.Name, Rec.Config};
    Groups[Key].first += 1;
    if (Rec.TimeMs >= 0)
      Groups[Key].second += Rec.TimeMs;
    else
      Untimed[Key] = true;
  }
  J["kernels"] = kernelsJson(R, Modules);
  std::map<OccupancyKey, std::optional<uint32_t>> BlocksPerSM = R.blocksPerSM();
  J["launches"] = json::array();
  for (const auto &[Key, CountAndTime] : Groups) {
    json L = configJson(Key.Config);
    L["module_id"] = ModuleId(Key.Module);
    L["kernel"] = Key.Kernel;
    L["count"] = CountAndTime.first;
    const Dim &B = Key.Config.Block;
    auto Blocks = BlocksPerSM.find(
        {{Key.Module, Key.Kernel}, B.X * B.Y * B.Z, Key.Config.SharedBytes});
    L["blocks_per_sm"] = Blocks != BlocksPerSM.end() && Blocks->second
                             ? json(*Blocks->second)
                             : json(nullptr);
    if (P.CollectionMode == Mode::PerLaunch)
      L["time_ms"] =
          Untimed.count(Key) ? json(nullptr) : json(CountAndTime.second);
    J["launches"].push_back(std::move(L));
  }
  if (P.CollectionMode == Mode::PerLaunch)
    J["launch_records"] = launchesFileName(P.Pid, P.Rank);
  if (P.Selection.active()) {
    json Left = json::array();
    for (const auto &[Key, Count] : R.leftOut())
      Left.push_back({{"module_id", ModuleId(Key.first)},
                      {"kernel", Key.second},
                      {"launches", Count}});
    J["launch_selection"] = {
        {"skip", P.Selection.Skip},
        {"count", P.Selection.Count ? json(*P.Selection.Count) : json(nullptr)},
        {"scope", P.Selection.PerKernel ? "per-kernel" : "overall"},
        {"kernel_regex", P.Selection.KernelRegex.empty()
                             ? json(nullptr)
                             : json(P.Selection.KernelRegex)},
        {"left_out", std::move(Left)}};
  }
  if (std::optional<InterruptedLaunch> I = R.interrupted()) {
    json O = configJson(I->Config);
    O["module_id"] = ModuleId(I->Kernel.Module);
    O["kernel"] = I->Kernel.Name;
    O["launch"] = I->Launch;
    O["signal"] = I->Signal;
    J["interrupted_launch"] = std::move(O);
  }
  if (std::optional<FailedLaunch> F = R.failure()) {
    json O = configJson(F->Config);
    O["module_id"] = ModuleId(F->Kernel.Module);
    O["kernel"] = F->Attributed && !F->Kernel.Name.empty()
                      ? json(F->Kernel.Name)
                      : json(nullptr);
    if (!F->Attributed && !F->Kernel.Name.empty())
      O["surfaced_at"] = F->Kernel.Name;
    O["error"] = F->Error;
    J["kernel_fault"] = std::move(O);
  }
  return J;
}

std::string warpscope::rt::launchesJsonLines(const Registry &R) {
  std::vector<ModuleState> Modules = R.modules();
  std::string Out;
  for (const LaunchRecord &Rec : R.launchRecords()) {
    json L = configJson(Rec.Config);
    L["sequence"] = Rec.Sequence;
    L["module_id"] = Rec.Kernel.Module >= 0
                         ? json(Modules[Rec.Kernel.Module].Desc->ModuleId)
                         : json(nullptr);
    L["kernel"] = Rec.Kernel.Name;
    L["time_ms"] = Rec.TimeMs >= 0 ? json(Rec.TimeMs) : json(nullptr);
    json C = json::array();
    for (const auto &[Index, Value] : Rec.Counters)
      C.push_back(json::array({Index, Value}));
    L["counters"] = std::move(C);
    if (!Rec.Error.empty())
      L["error"] = Rec.Error;
    Out += L.dump() + "\n";
  }
  return Out;
}

std::string warpscope::rt::writeProfile(const Registry &R, const ProcessInfo &P,
                                        const std::string &Dir,
                                        std::string &Error) {
  for (const ModuleState &M : R.modules()) {
    if (!M.Desc->DatabaseSize)
      continue;
    Error = support::writeFileInDirectory(
        Dir, files::Database.named(M.Desc->ModuleId),
        std::string_view(M.Desc->Database, M.Desc->DatabaseSize));
    if (!Error.empty())
      return "";
  }
  if (P.CollectionMode == Mode::PerLaunch) {
    Error = support::writeFileInDirectory(Dir, launchesFileName(P.Pid, P.Rank),
                                          launchesJsonLines(R));
    if (!Error.empty())
      return "";
  }
  std::string Name = profileFileName(P.Pid, P.Rank);
  Error = support::writeFileInDirectory(Dir, Name,
                                        profileJson(R, P).dump(1) + "\n");
  return Error.empty() ? Dir + "/" + Name : "";
}
