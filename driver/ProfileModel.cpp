//===- ProfileModel.cpp - Load and join profiles and databases ------------===//

#include "ProfileModel.h"
#include "ClusterReport.h"
#include "JsonFiles.h"
#include "ProfileFormat.h"
#include "RunLog.h"
#include "SourceText.h"
#include "warpscope/ABI/Abi.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/Database/ProgramDatabase.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::profile;

uint64_t FunctionProfile::launches() const {
  uint64_t N = 0;
  for (const LaunchGroup &L : Launches)
    N += L.Count;
  return N;
}

uint64_t ProfileSet::launches() const {
  uint64_t N = 0;
  for (const FunctionProfile &F : Functions)
    N += F.launches();
  return N;
}

namespace {

/// Reads a profile directory: every profile-*.json in order, the databases
/// they name (once per module), the per-launch records; sums the counts.
class ProfileLoader {
public:
  ProfileLoader(const std::string &Dir, bool KeepLaunches) : Dir(Dir) {
    Set.Directory = Dir;
    ConfigSums.KeepLaunches = KeepLaunches;
  }
  Expected<ProfileSet>
  load(const std::vector<std::string> &Files, std::error_code EC,
       function_ref<std::optional<std::string>()> MergedNote);

private:
  Error readProfile(const std::string &Path);
  Error readModule(Fields &F, const json::Object &MO, const std::string &Path);
  Error readKernelFault(const json::Object &Top, const std::string &Path);
  void readLaunchSelection(Fields &F, const json::Value &V);
  Error loadModuleDatabase(const std::string &Id, StringRef Name, uint64_t N);
  /// false when the record is malformed (the problem is in F).
  bool readLaunch(Fields &F, const json::Object &LO);
  /// Schema 2: a kernel's machine resources, the device's limits.
  void readKernel(Fields &F, const json::Object &KO);
  void readLimits(Fields &F, const json::Object &LO);
  /// The rank a profile names (its RankProfile made current), and the
  /// job's size; false when the fields are malformed (in F).
  bool readRank(Fields &F, const json::Object &Top, const std::string &Path);
  /// Profiles of more than one program or build: the one-line error.
  Error mixedBuilds() const;
  Error finish();

  std::string Dir;
  ProfileSet Set;
  std::map<std::string, Database> Databases;
  std::map<std::string, std::vector<FunctionProfile>> ByModule;
  ConfigurationSums ConfigSums;
  std::vector<std::string> ModuleOrder;
  /// (module id, mangled name) -> index in ByModule[module id]
  std::map<std::pair<std::string, std::string>, size_t> FunctionIndex;
  /// (module id, mangled name) -> demangled, of kernels the plugin's
  /// kernel filter left uninstrumented.
  std::map<std::pair<std::string, std::string>, std::string> NotInstrumented;
  /// (function's launch list, grid, block, shared bytes) -> its group
  std::map<std::tuple<const void *, uint32_t, uint32_t, uint32_t, uint32_t,
                      uint32_t, uint32_t, uint64_t>,
           size_t>
      GroupIndex;
  /// What the first profile was of: its program and modules; the profiles
  /// of each (program, modules), in order, to name them when they differ.
  std::string Build;
  std::map<std::string, std::vector<std::string>> ProfilesOfBuild;
  std::vector<std::string> BuildOrder;
  /// Index in Set.Ranks of the rank of the profile being read, or -1.
  long CurrentRank = -1;
  std::map<int, size_t> RankIndex;
};

/// A profile's program and its modules' builds (the hash of each embedded
/// database; the module id where an older runtime wrote none): what a build
/// of the program is, as "program\nbuild\nbuild...".
std::string buildOf(const json::Object &Top) {
  std::string Build = Top.getString("program").value_or("").str();
  if (const json::Array *Mods = Top.getArray("modules"))
    for (const json::Value &MV : *Mods)
      if (const json::Object *MO = MV.getAsObject())
        Build += "\n" + MO->getString("build")
                            .value_or(MO->getString("module_id").value_or(""))
                            .str();
  return Build;
}

Expected<ProfileSet>
ProfileLoader::load(const std::vector<std::string> &Files, std::error_code EC,
                    function_ref<std::optional<std::string>()> MergedNote) {
  if (!sys::fs::is_directory(Dir))
    return fail(Dir, "is not a profile directory", RerunHint);
  Set.ProfileFiles = Files;
  if (EC)
    return fail(Dir, "cannot be listed (" + EC.message() + ")", RerunHint);
  if (Set.ProfileFiles.empty())
    return fail(Dir, "holds no profile-*.json",
                "run the program under `warpscope run -o DIR`, built with "
                "$(warpscope config --cflags) and $(warpscope config "
                "--ldflags) (an uninstrumented program leaves no profile)");
  // Said first: every count below is a sum over those runs.
  if (std::optional<std::string> Merged = MergedNote())
    Set.Warnings.push_back(*Merged);
  for (const std::string &Path : Set.ProfileFiles)
    if (Error E = readProfile(Path))
      return E;
  if (ProfilesOfBuild.size() > 1)
    return mixedBuilds();
  if (Error E = finish())
    return E;
  return std::move(Set);
}

// A signal stopped an emulated launch (docs/profile-schema.md,
// interrupted_launch): which one, in words; none when not so.
static std::optional<std::string> interruptedLaunch(const json::Object &Top,
                                                    int Signal) {
  const json::Object *O = Top.getObject("interrupted_launch");
  if (!O)
    return std::nullopt;
  auto Dims = [&](StringRef Key) {
    std::string S;
    if (const json::Array *A = O->getArray(Key))
      for (const json::Value &V : *A)
        S += (S.empty() ? "" : "x") +
             std::to_string(V.getAsUINT64().value_or(0));
    return S;
  };
  auto Kernel = O->getString("kernel");
  const char *Name = strsignal(Signal);
  return ("the program was interrupted by signal " + Twine(Signal) + " (" +
          (Name ? Name : "?") + ") during launch " +
          Twine(O->getInteger("launch").value_or(0)) + ", kernel " +
          (Kernel ? demangle(Kernel->str()) : std::string("?")) + " (grid " +
          Dims("grid") + ", block " + Dims("block") +
          "): that launch's counts are those of the part that ran, the "
          "launches before it are complete")
      .str();
}

Error ProfileLoader::readProfile(const std::string &Path) {
  Expected<json::Value> V = readJson(Path, RerunHint);
  if (!V)
    return V.takeError();
  const json::Object &Top = *V->getAsObject();
  Fields F{Path, ""};
  std::string Schema = F.str(Top, "schema");
  if (F.Problem.empty() && Schema != schema::Profile &&
      Schema != schema::ProfileV1)
    return fail(Path,
                "has schema '" + Schema + "', this warpscope reads '" +
                    schema::Profile + "' and '" + schema::ProfileV1 + "'",
                "use the warpscope that wrote it, or rerun the program");
  std::string Program = F.str(Top, "program");
  // Another program, or another build of it: named at the end, never
  // merged.
  std::string ThisBuild = buildOf(Top);
  if (!ProfilesOfBuild.count(ThisBuild))
    BuildOrder.push_back(ThisBuild);
  ProfilesOfBuild[ThisBuild].push_back(sys::path::filename(Path).str());
  if (Build.empty())
    Build = ThisBuild;
  if (ThisBuild != Build)
    return Error::success();
  Set.Program = Program;
  if (!readRank(F, Top, Path))
    return fail(Path, F.Problem, RerunHint);
  Set.Device = F.str(Top, "device");
  Set.Mode = F.str(Top, "mode");
  // Written by the runtime's handler of a fatal signal: the counts stop
  // where the program did.
  if (const json::Value *SigV = Top.get("ended_by_signal")) {
    std::optional<int64_t> Sig = SigV->getAsInteger();
    if (!Sig || *Sig <= 0 || *Sig > 64)
      return fail(Path, "has an ended_by_signal that is no signal number",
                  RerunHint);
    Set.EndedBySignal = int(*Sig);
    if (CurrentRank >= 0)
      Set.Ranks[CurrentRank].EndedBySignal = int(*Sig);
    const char *Name = strsignal(int(*Sig));
    bool Crash =
        *Sig == SIGSEGV || *Sig == SIGBUS || *Sig == SIGFPE || *Sig == SIGILL;
    if (std::optional<std::string> W = interruptedLaunch(Top, int(*Sig)))
      Set.Warnings.push_back((sys::path::filename(Path) + ": " + *W).str());
    else
      Set.Warnings.push_back(
          (sys::path::filename(Path) +
           (Crash ? ": the program crashed (signal " + Twine(*Sig) + ", " +
                        (Name ? Name : "?") +
                        "); the counts are those up to the "
                        "crash"
                  : ": the program ended by signal " + Twine(*Sig) + " (" +
                        (Name ? Name : "?") +
                        "); the counts are those up to then"))
              .str());
  }
  if (Error E = readKernelFault(Top, Path))
    return E;
  if (const json::Array *Mods = F.arr(Top, "modules"))
    for (const json::Value &MV : *Mods) {
      const json::Object *MO = F.obj(MV, "modules[]");
      if (!MO)
        break;
      if (Error E = readModule(F, *MO, Path))
        return E;
      if (!F.Problem.empty())
        break;
    }
  if (const json::Value *LV = Top.get("device_limits"))
    if (const json::Object *LO = LV->getAsObject())
      readLimits(F, *LO);
  if (const json::Value *KV = Top.get("kernels")) {
    const json::Array *Ks = KV->getAsArray();
    if (!Ks)
      F.bad("kernels", "an array");
    for (size_t I = 0; Ks && I < Ks->size() && F.Problem.empty(); ++I)
      if (const json::Object *KO = F.obj((*Ks)[I], "kernels[]"))
        readKernel(F, *KO);
  }
  if (const json::Value *SV = Top.get("launch_selection"))
    readLaunchSelection(F, *SV);
  if (const json::Array *Ls = F.arr(Top, "launches"))
    for (const json::Value &LV : *Ls) {
      const json::Object *LO = F.obj(LV, "launches[]");
      if (!LO || !readLaunch(F, *LO))
        break;
    }
  if (!F.Problem.empty())
    return fail(Path, F.Problem, RerunHint);
  // Per-launch runs: each launch's counter changes, per configuration.
  if (const json::Value *Records = Top.get("launch_records")) {
    if (!Records->getAsString())
      return fail(Path, "field 'launch_records' is not a file name", RerunHint);
    std::map<std::string, uint64_t> NumCounters;
    for (const auto &[Id, DB] : Databases)
      NumCounters[Id] = DB.NumCounters;
    SmallString<256> RecordsPath(Dir);
    sys::path::append(RecordsPath, *Records->getAsString());
    if (Error E = readLaunchRecords(std::string(RecordsPath), NumCounters,
                                    ConfigSums))
      return E;
  }
  return Error::success();
}

// A kernel faulted: the report and validate say which and what became of
// the counts (docs/profile-schema.md, kernel_fault).
Error ProfileLoader::readKernelFault(const json::Object &Top,
                                     const std::string &Path) {
  const json::Value *V = Top.get("kernel_fault");
  if (!V)
    return Error::success();
  const json::Object *O = V->getAsObject();
  auto Err = O ? O->getString("error") : std::nullopt;
  if (!Err)
    return fail(Path, "has a kernel_fault without an error string", RerunHint);
  KernelFault K;
  K.Error = Err->str();
  if (auto N = O->getString("kernel"))
    K.Kernel = N->str();
  if (auto N = O->getString("surfaced_at"))
    K.SurfacedAt = N->str();
  if (const json::Array *Mods = Top.getArray("modules"))
    for (const json::Value &MV : *Mods)
      if (const json::Object *MO = MV.getAsObject())
        K.CountsKept |= MO->getBoolean("read_after_fault").value_or(false);
  std::string What = !K.Kernel.empty() ? "kernel " + demangle(K.Kernel)
                     : !K.SurfacedAt.empty()
                         ? "a kernel launched before " + demangle(K.SurfacedAt)
                         : "a kernel";
  Set.Warnings.push_back(
      What + " faulted (" + K.Error + "); " +
      (K.CountsKept
           ? "the counts stop at the fault, that launch's partial counts "
             "included"
           : "the device's counters were lost with its context: rerun with "
             "--mode per-launch to keep those of the launches before it"));
  Set.Faults.push_back(std::move(K));
  return Error::success();
}

Error ProfileLoader::readModule(Fields &F, const json::Object &MO,
                                const std::string &Path) {
  std::string Id = F.str(MO, "module_id");
  uint64_t N = F.u64(MO, "num_counters");
  std::vector<uint64_t> Counters;
  if (const json::Array *C = F.arr(MO, "counters"))
    for (const json::Value &CV : *C) {
      auto X = CV.getAsUINT64();
      if (!X) {
        F.bad("counters", "an array of non-negative integers");
        break;
      }
      Counters.push_back(*X);
    }
  if (!F.Problem.empty())
    return Error::success(); // reported by the caller
  if (Counters.size() != N)
    return fail(Path,
                "module " + Id + " has " + Twine(Counters.size()) +
                    " counters, expected " + Twine(N),
                "the profile is truncated; " + Twine(RerunHint));
  if (!F.flag(MO, "complete")) {
    Set.Complete = false;
    auto Err = MO.getString("error");
    Set.Warnings.push_back("module " + Id + ": counts incomplete (" +
                           (Err ? Err->str() : "unknown reason") + ")");
  }
  const json::Value *DbName = MO.get("database");
  if (!DbName || !DbName->getAsString())
    return Error::success(); // device side not instrumented: launches only
  if (!Databases.count(Id))
    if (Error E = loadModuleDatabase(Id, *DbName->getAsString(), N))
      return E;
  std::vector<FunctionProfile> Run;
  std::string Bad = countsFor(Databases[Id], Counters, Run);
  if (!Bad.empty())
    return fail(Path, "module " + Id + ": " + Bad,
                "the profile is damaged; " + Twine(RerunHint));
  if (CurrentRank >= 0)
    for (const FunctionProfile &Fn : Run)
      if (Fn.Kernel)
        addRankCounts(Set.Ranks[CurrentRank].Kernels[{Id, Fn.Name}], Fn);
  addCounts(ByModule[Id], Run);
  return Error::success();
}

bool ProfileLoader::readRank(Fields &F, const json::Object &Top,
                             const std::string &Path) {
  CurrentRank = -1;
  for (const char *Field : {"rank", "world_size"}) {
    const json::Value *V = Top.get(Field);
    if (!V || V->getAsNull())
      continue;
    std::optional<int64_t> N = V->getAsInteger();
    if (!N || *N < 0 || *N > INT32_MAX) {
      F.bad(Field, "a non-negative integer or null");
      return false;
    }
    if (std::strcmp(Field, "world_size") == 0) {
      Set.WorldSize = std::max(Set.WorldSize.value_or(0), int(*N));
      continue;
    }
    auto [It, Fresh] = RankIndex.try_emplace(int(*N), Set.Ranks.size());
    if (Fresh) {
      Set.Ranks.emplace_back();
      Set.Ranks.back().Rank = int(*N);
      Set.Ranks.back().File = sys::path::filename(Path).str();
    }
    CurrentRank = long(It->second);
  }
  return true;
}

Error ProfileLoader::mixedBuilds() const {
  std::string What;
  for (size_t I = 0; I < BuildOrder.size(); ++I) {
    const std::string &B = BuildOrder[I];
    const std::vector<std::string> &Files = ProfilesOfBuild.at(B);
    StringRef Program = StringRef(B).split('\n').first;
    StringRef Modules = StringRef(B).split('\n').second;
    What += (I ? (I + 1 == BuildOrder.size() ? " and " : ", ") : "") +
            ("'" + Program + "'").str();
    // Two builds of one program: their first modules tell them apart.
    if (llvm::count_if(BuildOrder, [&](const std::string &O) {
          return StringRef(O).split('\n').first == Program;
        }) > 1)
      What += " build " + (Modules.empty() ? std::string("(none)")
                                           : Modules.split('\n').first.str());
    What +=
        " (" + Files.front() +
        (Files.size() > 1 ? " and " + std::to_string(Files.size() - 1) + " more"
                          : std::string()) +
        ")";
  }
  return fail(Dir,
              "holds profiles of " + Twine(BuildOrder.size()) +
                  " programs or builds, not merged: " + What,
              "give each program its own directory (warpscope run -o DIR)");
}

Error ProfileLoader::loadModuleDatabase(const std::string &Id, StringRef Name,
                                        uint64_t N) {
  SmallString<256> DbPath(Dir);
  sys::path::append(DbPath, Name);
  Expected<Database> DB = loadDatabase(std::string(DbPath), Id);
  if (!DB)
    return DB.takeError();
  Set.SourceHashes.insert(DB->SourceHashes.begin(), DB->SourceHashes.end());
  if (DB->NumCounters != N)
    return fail(std::string(DbPath),
                "describes " + Twine(DB->NumCounters) +
                    " counters but the profile has " + Twine(N),
                "the program was rebuilt after it ran; rerun it");
  unsigned Assumed = 0;
  for (const FunctionProfile &Fn : DB->Functions)
    for (const BlockCounts &B : Fn.Blocks)
      Assumed += B.AssumesReconvergence;
  if (Assumed)
    Set.Warnings.push_back(
        "module " + Id + ": " + std::to_string(Assumed) +
        " block counts assume that lanes which split meet again at "
        "the branch's post-dominator (built with "
        "-warpscope-assume-reconvergence): exact on the emulator, "
        "not guaranteed on a GPU");
  if (!DB->KernelFilter.empty())
    Set.Left.KernelFilters.insert(DB->KernelFilter);
  for (const LeftOutKernel &K : DB->NotInstrumented) {
    NotInstrumented[{Id, K.Name}] = K.Demangled;
    Set.Left.NotInstrumented.try_emplace(K.Demangled, 0);
  }
  Set.Left.SharedWithLeftOut.insert(DB->SharedWithLeftOut.begin(),
                                    DB->SharedWithLeftOut.end());
  ByModule[Id] = DB->Functions;
  for (size_t I = 0; I < DB->Functions.size(); ++I)
    FunctionIndex[{Id, DB->Functions[I].Name}] = I;
  ModuleOrder.push_back(Id);
  Databases.emplace(Id, std::move(*DB));
  return Error::success();
}

// warpscope run --launch-skip/--launch-count: which launches were left out
// (docs/profile-schema.md, launch_selection).
void ProfileLoader::readLaunchSelection(Fields &F, const json::Value &V) {
  const json::Object *O = F.obj(V, "launch_selection");
  if (!O)
    return;
  uint64_t Skip = F.u64(*O, "skip");
  std::string Scope = F.str(*O, "scope");
  const json::Value *Count = O->get("count");
  if (!Count || (!Count->getAsNull() && !Count->getAsUINT64()))
    F.bad("launch_selection.count", "a non-negative integer or null");
  if (F.Problem.empty() && Scope != "overall" && Scope != "per-kernel")
    F.bad("launch_selection.scope", "'overall' or 'per-kernel'");
  if (!F.Problem.empty())
    return;
  std::string What;
  if (const json::Value *K = O->get("kernel_regex"); K && K->getAsString())
    What = "kernels matching '" + K->getAsString()->str() + "', ";
  What += "skip " + std::to_string(Skip);
  if (auto N = Count->getAsUINT64())
    What += ", count " + std::to_string(*N);
  What += Scope == "per-kernel" ? ", per kernel" : ", over all kernels";
  Set.Left.Selection = What;
  if (const json::Array *Ls = F.arr(*O, "left_out"))
    for (const json::Value &LV : *Ls) {
      const json::Object *LO = F.obj(LV, "launch_selection.left_out[]");
      if (!LO)
        return;
      std::string Kernel = F.str(*LO, "kernel");
      uint64_t N = F.u64(*LO, "launches");
      if (!F.Problem.empty())
        return;
      Set.Left.LaunchesLeftOut[demangle(Kernel)] += N;
    }
}

bool ProfileLoader::readLaunch(Fields &F, const json::Object &LO) {
  const json::Value *Mod = LO.get("module_id");
  std::string Kernel = F.str(LO, "kernel");
  LaunchGroup G;
  const json::Array *Grid = F.arr(LO, "grid");
  const json::Array *Block = F.arr(LO, "block");
  if (!Grid || !Block || Grid->size() != 3 || Block->size() != 3) {
    F.bad("grid/block", "three integers");
    return false;
  }
  for (int K = 0; K < 3; ++K) {
    G.Grid[K] = (*Grid)[K].getAsUINT64().value_or(0);
    G.Block[K] = (*Block)[K].getAsUINT64().value_or(0);
  }
  G.SharedBytes = F.u64(LO, "shared_bytes");
  G.Count = F.u64(LO, "count");
  if (auto T = LO.getNumber("time_ms")) {
    G.TimeMs = *T;
    G.Timed = true;
  }
  if (const json::Value *B = LO.get("blocks_per_sm"))
    if (auto N = B->getAsUINT64())
      G.BlocksPerSM = uint32_t(*N);
  if (!Mod || !Mod->getAsString())
    return true; // a stub the runtime did not know
  auto Fn = FunctionIndex.find({Mod->getAsString()->str(), Kernel});
  if (Fn == FunctionIndex.end()) {
    auto Left = NotInstrumented.find({Mod->getAsString()->str(), Kernel});
    if (Left != NotInstrumented.end())
      Set.Left.NotInstrumented[Left->second] += G.Count;
    return true; // kernel of an uninstrumented module, or left out
  }
  std::vector<LaunchGroup> &Groups =
      ByModule[Fn->first.first][Fn->second].Launches;
  // Streams are not told apart here: same kernel, same shape.
  auto Key = std::make_tuple(&Groups, G.Grid[0], G.Grid[1], G.Grid[2],
                             G.Block[0], G.Block[1], G.Block[2], G.SharedBytes);
  auto [Slot, Fresh] = GroupIndex.try_emplace(Key, Groups.size());
  if (CurrentRank >= 0) {
    RankKernel &K = Set.Ranks[CurrentRank].Kernels[{Fn->first.first, Kernel}];
    K.Launches += G.Count;
    K.TimeMs += G.TimeMs;
    K.Timed |= G.Timed;
  }
  if (Fresh) {
    Groups.push_back(G);
  } else {
    LaunchGroup &Same = Groups[Slot->second];
    Same.Count += G.Count;
    Same.TimeMs += G.TimeMs;
    Same.Timed |= G.Timed;
    if (!Same.BlocksPerSM)
      Same.BlocksPerSM = G.BlocksPerSM;
  }
  return true;
}

void ProfileLoader::readKernel(Fields &F, const json::Object &KO) {
  std::string Id = F.str(KO, "module_id"), Kernel = F.str(KO, "kernel");
  MachineResources R;
  R.Source = F.str(KO, "source");
  if (!F.Problem.empty())
    return;
  auto Number = [&](const char *Name) {
    const json::Value *V = KO.get(Name);
    return V ? V->getAsUINT64() : std::nullopt;
  };
  std::optional<uint64_t> Regs = Number("registers");
  R.Known = Regs.has_value();
  R.Registers = uint32_t(Regs.value_or(0));
  R.LocalBytes = Number("local_bytes").value_or(0);
  R.StaticSharedBytes = Number("static_shared_bytes").value_or(0);
  R.SpillStoreBytes = Number("spill_store_bytes");
  R.SpillLoadBytes = Number("spill_load_bytes");
  if (auto E = KO.getString("error"))
    R.Error = E->str();
  auto Fn = FunctionIndex.find({Id, Kernel});
  if (Fn == FunctionIndex.end())
    return; // a kernel of an uninstrumented module
  FunctionProfile &P = ByModule[Id][Fn->second];
  if (!P.Resources) // MPI ranks: the same code, the first profile's word
    P.Resources = std::move(R);
}

void ProfileLoader::readLimits(Fields &F, const json::Object &LO) {
  SmLimits L; // sm_90's allocation units; the device's own capacities
  L.WarpSize = uint32_t(F.u64(LO, "warp_size"));
  L.RegistersPerSM = uint32_t(F.u64(LO, "registers_per_sm"));
  L.RegistersPerBlock = uint32_t(F.u64(LO, "registers_per_block"));
  L.MaxThreadsPerSM = uint32_t(F.u64(LO, "max_threads_per_sm"));
  L.MaxBlocksPerSM = uint32_t(F.u64(LO, "max_blocks_per_sm"));
  L.MaxThreadsPerBlock = uint32_t(F.u64(LO, "max_threads_per_block"));
  L.SharedPerSM = F.u64(LO, "shared_per_sm");
  L.SharedPerBlockOptin = F.u64(LO, "shared_per_block_optin");
  L.ReservedSharedPerBlock = F.u64(LO, "reserved_shared_per_block");
  if (F.Problem.empty() && (!L.WarpSize || !L.RegistersPerSM ||
                            !L.MaxThreadsPerSM || !L.SharedPerSM))
    F.bad("device_limits", "non-zero per-SM limits");
  if (F.Problem.empty() && !Set.Limits) {
    Set.Limits = L;
    // The advisor's parallelism estimators need it; 0 when not written.
    if (auto N = LO.getInteger("sm_count"); N && *N > 0)
      Set.SmCount = uint32_t(*N);
  }
}

Error ProfileLoader::finish() {
  for (auto &[Key, GroupAndCounters] : ConfigSums.Groups) {
    const std::string &Id = std::get<0>(Key), &Kernel = std::get<1>(Key);
    if (ConfigSums.Incomplete.count({Id, Kernel}))
      continue;
    std::vector<FunctionProfile> Run;
    std::string Bad = countsFor(Databases[Id], GroupAndCounters.second, Run);
    if (!Bad.empty())
      return fail(Dir, "launch records of module " + Id + ": " + Bad,
                  "the profile is damaged; " + Twine(RerunHint));
    for (FunctionProfile &Fn : Run)
      if (Fn.Name == Kernel) {
        Fn.Launches = {GroupAndCounters.first};
        Set.Configurations.push_back({std::move(Fn)});
      }
  }
  for (const ConfigurationSums::Launch &L : ConfigSums.Launches) {
    if (ConfigSums.Incomplete.count({L.ModuleId, L.Kernel}))
      continue;
    const Database &DB = Databases[L.ModuleId];
    std::vector<uint64_t> Counters(DB.NumCounters, 0);
    for (auto [Index, Value] : L.Words)
      Counters[Index] += Value; // readLaunchRecords checked the index
    std::vector<FunctionProfile> Run;
    std::string Bad = countsFor(DB, Counters, Run);
    if (!Bad.empty())
      return fail(Dir, "launch records of module " + L.ModuleId + ": " + Bad,
                  "the profile is damaged; " + Twine(RerunHint));
    for (FunctionProfile &Fn : Run)
      if (Fn.Name == L.Kernel) {
        Fn.Launches = {L.Group};
        Set.Launches.push_back({std::move(Fn)});
      }
  }
  for (const auto &[Id, Kernel] : ConfigSums.Incomplete)
    Set.Warnings.push_back("kernel " + Kernel + " of module " + Id +
                           ": some launch records are incomplete; "
                           "counts per configuration are left out");
  for (const std::string &Id : ModuleOrder)
    for (FunctionProfile &Fn : ByModule[Id])
      Set.Functions.push_back(std::move(Fn));
  std::sort(Set.Ranks.begin(), Set.Ranks.end(),
            [](const RankProfile &A, const RankProfile &B) {
              return A.Rank < B.Rank;
            });
  for (const std::string &File : staleSourceFiles(Set.SourceHashes))
    Set.Warnings.push_back("source " + File +
                           " changed since the program was built; its text "
                           "is not shown (rebuild and rerun to see it)");
  return Error::success();
}

} // namespace

Expected<ProfileSet>
warpscope::readProfiles(const std::string &Dir,
                        const std::vector<std::string> &Files,
                        std::error_code ListError, bool KeepLaunches,
                        function_ref<std::optional<std::string>()> MergedNote) {
  return ProfileLoader(Dir, KeepLaunches).load(Files, ListError, MergedNote);
}
