//===- Profile.cpp - Profile JSON and crash-safe writes -------------------===//

#include "Profile.h"
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

json warpscope::rt::profileJson(const Registry &R, const ProcessInfo &P) {
  std::vector<ModuleState> Modules = R.modules();
  auto ModuleId = [&](int M) -> json {
    return M >= 0 ? json(Modules[M].Desc->ModuleId) : json(nullptr);
  };
  json J;
  J["schema"] = ProfileSchema;
  J["pid"] = P.Pid;
  J["rank"] = P.Rank ? json(*P.Rank) : json(nullptr);
  J["program"] = P.Program;
  J["device"] = P.Device;
  J["mode"] = P.CollectionMode == Mode::PerLaunch ? "per-launch" : "aggregate";
  J["modules"] = json::array();
  for (const ModuleState &M : Modules) {
    json O;
    O["module_id"] = M.Desc->ModuleId;
    O["database"] = M.Desc->DatabaseSize
                        ? json(std::string("db-") + M.Desc->ModuleId + ".json")
                        : json(nullptr);
    O["num_counters"] = M.Desc->NumCounters;
    O["counters"] = M.Totals;
    O["complete"] = M.Error.empty();
    if (!M.Error.empty())
      O["error"] = M.Error;
    J["modules"].push_back(std::move(O));
  }
  J["launches"] = json::array();
  if (P.CollectionMode == Mode::Aggregate) {
    for (const auto &[Key, Count] : R.launchGroups()) {
      json L = configJson(Key.Config);
      L["module_id"] = ModuleId(Key.Module);
      L["kernel"] = Key.Kernel;
      L["count"] = Count;
      J["launches"].push_back(std::move(L));
    }
  } else {
    for (const LaunchRecord &Rec : R.launchRecords()) {
      json L = configJson(Rec.Config);
      L["sequence"] = Rec.Sequence;
      L["module_id"] = ModuleId(Rec.Kernel.Module);
      L["kernel"] = Rec.Kernel.Name;
      L["count"] = 1;
      L["time_ms"] = Rec.TimeMs >= 0 ? json(Rec.TimeMs) : json(nullptr);
      json C = json::array();
      for (const auto &[Index, Value] : Rec.Counters)
        C.push_back(json::array({Index, Value}));
      L["counters"] = std::move(C);
      if (!Rec.Error.empty())
        L["error"] = Rec.Error;
      J["launches"].push_back(std::move(L));
    }
  }
  return J;
}

std::string warpscope::rt::writeFileAtomically(const std::string &Dir,
                                               const std::string &Name,
                                               const std::string &Text) {
  // mkdir -p
  for (size_t Pos = 1; Pos <= Dir.size(); ++Pos)
    if (Pos == Dir.size() || Dir[Pos] == '/') {
      std::string Prefix = Dir.substr(0, Pos);
      if (mkdir(Prefix.c_str(), 0777) && errno != EEXIST)
        return "cannot create directory '" + Prefix + "': " + strerror(errno);
    }
  std::string Final = Dir + "/" + Name;
  std::string Temp = Final + ".tmp." + std::to_string(getpid());
  FILE *F = std::fopen(Temp.c_str(), "w");
  if (!F)
    return "cannot write '" + Temp + "': " + strerror(errno);
  bool Ok = std::fwrite(Text.data(), 1, Text.size(), F) == Text.size();
  Ok &= std::fclose(F) == 0;
  if (!Ok) {
    std::remove(Temp.c_str());
    return "cannot write '" + Temp + "': " + strerror(errno);
  }
  if (std::rename(Temp.c_str(), Final.c_str()))
    return "cannot rename '" + Temp + "' to '" + Final + "': " + strerror(errno);
  return "";
}

std::string warpscope::rt::writeProfile(const Registry &R, const ProcessInfo &P,
                                        const std::string &Dir,
                                        std::string &Error) {
  for (const ModuleState &M : R.modules()) {
    if (!M.Desc->DatabaseSize)
      continue;
    Error = writeFileAtomically(
        Dir, std::string("db-") + M.Desc->ModuleId + ".json",
        std::string(M.Desc->Database, M.Desc->DatabaseSize));
    if (!Error.empty())
      return "";
  }
  std::string Name = profileFileName(P.Pid, P.Rank);
  Error = writeFileAtomically(Dir, Name, profileJson(R, P).dump(1) + "\n");
  return Error.empty() ? Dir + "/" + Name : "";
}
