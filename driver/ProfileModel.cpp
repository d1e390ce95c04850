//===- ProfileModel.cpp - Load and join profiles and databases ------------===//

#include "ProfileModel.h"
#include "JsonFiles.h"
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

const char *RerunHint = "rerun the program under `warpscope run`";

Error fail(const Twine &File, const Twine &What, const Twine &Hint) {
  return createStringError(inconvertibleErrorCode(),
                           File + ": " + What + "; " + Hint);
}

Expected<json::Value> readJson(const std::string &Path, const char *Hint) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail(Path, "cannot read (" + Buf.getError().message() + ")", Hint);
  if ((*Buf)->getBufferSize() == 0)
    return fail(Path, "is empty", Hint);
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return fail(Path, "is not valid JSON (" + toString(V.takeError()) + ")",
                "the file is corrupt or truncated; " + Twine(Hint));
  if (!V->getAsObject())
    return fail(Path, "is not a JSON object", Hint);
  return V;
}

/// Strict field access: the first problem wins and names the field.
struct Fields {
  std::string File;
  std::string Problem;
  void bad(StringRef Key, StringRef Expected) {
    if (Problem.empty())
      Problem = ("field '" + Key + "' is missing or not " + Expected).str();
  }
  uint64_t u64(const json::Object &O, StringRef Key) {
    if (const json::Value *V = O.get(Key))
      if (auto N = V->getAsUINT64())
        return *N;
    bad(Key, "a non-negative integer");
    return 0;
  }
  std::string str(const json::Object &O, StringRef Key) {
    if (auto S = O.getString(Key))
      return S->str();
    bad(Key, "a string");
    return "";
  }
  bool flag(const json::Object &O, StringRef Key) {
    if (auto B = O.getBoolean(Key))
      return *B;
    bad(Key, "a boolean");
    return false;
  }
  const json::Array *arr(const json::Object &O, StringRef Key) {
    if (const json::Array *A = O.getArray(Key))
      return A;
    bad(Key, "an array");
    return nullptr;
  }
  const json::Object *obj(const json::Value &V, StringRef What) {
    if (const json::Object *O = V.getAsObject())
      return O;
    bad(What, "an object");
    return nullptr;
  }
};

struct Database {
  std::vector<FunctionProfile> Functions; ///< counts still zero
  uint64_t NumCounters = 0;
  std::map<std::string, std::string> SourceHashes;
};

Expected<Database> loadDatabase(const std::string &Path,
                                const std::string &ModuleId) {
  const char *Hint = "the profile directory is damaged; rerun the program";
  Expected<json::Value> V = readJson(Path, Hint);
  if (!V)
    return V.takeError();
  Expected<ProgramDatabase> PD = ProgramDatabase::fromJson(*V);
  if (!PD) {
    std::string Why = toString(PD.takeError());
    bool Foreign = StringRef(Why).contains("has schema");
    return fail(Path, Why,
                Foreign ? "rebuild the program with this warpscope's plugin"
                        : Hint);
  }
  if (PD->ModuleId != ModuleId)
    return fail(Path, "belongs to another module than " + ModuleId, Hint);
  Database DB;
  DB.NumCounters = PD->NumCounters;
  DB.SourceHashes = PD->SourceHashes;
  for (const FunctionRecord &FR : PD->Functions) {
    FunctionProfile Fn;
    Fn.ModuleId = ModuleId;
    Fn.Name = FR.Name;
    Fn.Demangled = FR.Demangled;
    Fn.Kernel = FR.Kernel;
    Fn.Loc = FR.Loc;
    Fn.CfgChecksum = FR.CfgChecksum;
    for (const BlockRecord &BR : FR.Blocks) {
      if (BR.Counter < 0)
        return fail(Path,
                    "block " + Twine(BR.Id) + " of " + FR.Name +
                        " has no counter",
                    Hint);
      if (BR.Successors)
        for (unsigned S : *BR.Successors)
          if (S >= FR.Blocks.size())
            return fail(Path,
                        "block " + Twine(BR.Id) + " of " + FR.Name +
                            " has a successor that does not exist",
                        Hint);
      BlockCounts B;
      static_cast<BlockRecord &>(B) = BR;
      if (!BR.Successors)
        B.Reconverges = false; // only meaningful with the graph
      Fn.Blocks.push_back(std::move(B));
    }
    Fn.PtxStatus = PD->PtxStatus;
    Fn.PtxArch = PD->PtxArch;
    Fn.PtxUnattributed = FR.PtxUnattributed;
    Fn.PtxEdges = FR.PtxEdges;
    Fn.PtxSwitchParts = FR.PtxSwitchParts;
    for (const BranchRecord &R : FR.Branches) {
      BranchCounts Br;
      static_cast<BranchRecord &>(Br) = R;
      // Only switches have uniform-visit words.
      Br.CountsUniformVisits = R.CountsUniformVisits && R.Successors.size() > 2;
      Fn.Branches.push_back(std::move(Br));
    }
    DB.Functions.push_back(std::move(Fn));
  }
  // Every record must fit in the counter array.
  for (const FunctionProfile &Fn : DB.Functions) {
    for (const BlockCounts &B : Fn.Blocks)
      if (uint64_t(B.Counter) + BlockRecordWords > DB.NumCounters)
        return fail(Path, "block counter of " + Fn.Name + " is out of range",
                    Hint);
    for (const BranchCounts &Br : Fn.Branches) {
      bool LoopEntry = !Br.Probed && Br.CountsArrivals;
      size_t N = Br.Successors.size();
      uint64_t Words = LoopEntry                ? LoopEntryRecordWords
                       : Br.CountsUniformVisits ? branchRecordWords(N)
                       : N > 2 ? switchUniformVisitsWord(N) // older layout
                               : branchRecordWords(N);
      if ((Br.Probed || LoopEntry) &&
          (Br.Counter < 0 || uint64_t(Br.Counter) + Words > DB.NumCounters ||
           (LoopEntry && Br.Successors.size() != 2)))
        return fail(Path, "branch counter of " + Fn.Name + " is out of range",
                    Hint);
    }
  }
  return DB;
}

/// One module run's counts for a database's functions: block records
/// first, then branches (which may take visits and active threads from their
/// block), then blocks derived from a branch. Counts no execution can
/// produce mean a damaged profile: the result is an error, not a number.
std::string countsFor(const Database &DB, const std::vector<uint64_t> &C,
                      std::vector<FunctionProfile> &Out) {
  Out = DB.Functions;
  for (FunctionProfile &F : Out) {
    auto Bad = [&](const char *What, unsigned Id) {
      return std::string(What) + " " + std::to_string(Id) + " of " + F.Name +
             " has impossible counts";
    };
    for (BlockCounts &B : F.Blocks)
      if (B.DerivedBranch < 0 && B.SameCountsAs < 0) {
        B.WarpExecutions = C[B.Counter + BlockWarpExecutions];
        B.ThreadExecutions = C[B.Counter + BlockThreadExecutions];
      }
    for (BranchCounts &Br : F.Branches) {
      if (!Br.Probed)
        continue;
      uint64_t W = Br.Counter;
      if (Br.SharesBlockCounts) {
        if (Br.Block >= F.Blocks.size() || F.Blocks[Br.Block].SameCountsAs >= 0)
          return Bad("branch", Br.Id);
        Br.Visits = F.Blocks[Br.Block].WarpExecutions;
        Br.ActiveThreads = F.Blocks[Br.Block].ThreadExecutions;
      } else {
        Br.Visits = C[W + BranchVisits];
        Br.ActiveThreads = C[W + BranchActiveThreads];
      }
      Br.Divergent = C[W + BranchDivergent];
      Br.SuccessorThreads.assign(Br.Successors.size(), 0);
      uint64_t Others = 0;
      for (size_t K = 0; K + 1 < Br.Successors.size(); ++K) {
        Br.SuccessorThreads[K] = C[W + BranchFirstSuccessor + K];
        Others += Br.SuccessorThreads[K];
      }
      if (Br.Successors.size() == 2)
        Br.Successor0Arrivals = C[W + BranchSuccessor0Arrivals];
      Br.UniformVisits.clear();
      uint64_t AllUniform = 0;
      if (Br.CountsUniformVisits)
        for (size_t K = 0; K < Br.Successors.size(); ++K) {
          Br.UniformVisits.push_back(
              C[W + switchUniformVisitsWord(Br.Successors.size()) + K]);
          AllUniform += Br.UniformVisits.back();
        }
      // Every visit is divergent or sends all its lanes one way.
      if (Br.CountsUniformVisits && AllUniform + Br.Divergent != Br.Visits)
        return Bad("branch", Br.Id);
      if (Br.Divergent > Br.Visits || Others > Br.ActiveThreads ||
          Br.ActiveThreads < Br.Visits || Br.ActiveThreads / 32 > Br.Visits ||
          Br.Successor0Arrivals > Br.Visits)
        return Bad("branch", Br.Id);
      // The last successor's threads are the active ones left over.
      Br.SuccessorThreads.back() = Br.ActiveThreads - Others;
    }
    for (BlockCounts &B : F.Blocks) {
      if (B.DerivedBranch < 0)
        continue;
      if (size_t(B.DerivedBranch) >= F.Branches.size())
        return Bad("block", B.Id);
      const BranchCounts &Br = F.Branches[B.DerivedBranch];
      B.ThreadExecutions = Br.SuccessorThreads[B.DerivedSuccessor];
      B.WarpExecutions = Br.arrivals(B.DerivedSuccessor);
    }
    // After those: a block may run exactly when a derived one runs.
    for (BlockCounts &B : F.Blocks) {
      if (B.SameCountsAs < 0)
        continue;
      if (size_t(B.SameCountsAs) >= F.Blocks.size())
        return Bad("block", B.Id);
      const BlockCounts &From = F.Blocks[B.SameCountsAs];
      B.WarpExecutions = From.WarpExecutions;
      B.ThreadExecutions = From.ThreadExecutions;
    }
    for (const BlockCounts &B : F.Blocks)
      if (B.ThreadExecutions < B.WarpExecutions ||
          B.ThreadExecutions / 32 > B.WarpExecutions)
        return Bad("block", B.Id);
    // Uniform branches with a loop-entry record: every visit sends all its
    // lanes one way, so visits and threads are the block's.
    for (BranchCounts &Br : F.Branches) {
      if (Br.Probed || !Br.CountsArrivals)
        continue;
      if (Br.Block >= F.Blocks.size())
        return Bad("branch", Br.Id);
      const BlockCounts &B = F.Blocks[Br.Block];
      Br.Visits = B.WarpExecutions;
      Br.ActiveThreads = B.ThreadExecutions;
      Br.Divergent = 0;
      Br.Successor0Arrivals = C[Br.Counter + LoopEntrySuccessor0Arrivals];
      uint64_t Threads0 = C[Br.Counter + LoopEntrySuccessor0Threads];
      if (Br.Successor0Arrivals > Br.Visits || Threads0 > Br.ActiveThreads ||
          Threads0 < Br.Successor0Arrivals)
        return Bad("branch", Br.Id);
      Br.SuccessorThreads = {Threads0, Br.ActiveThreads - Threads0};
    }
  }
  return "";
}

/// Adds one module run's counts to the functions' totals.
void addCounts(std::vector<FunctionProfile> &Fns,
               const std::vector<FunctionProfile> &Run) {
  for (size_t I = 0; I < Run.size(); ++I) {
    for (size_t B = 0; B < Run[I].Blocks.size(); ++B) {
      Fns[I].Blocks[B].WarpExecutions += Run[I].Blocks[B].WarpExecutions;
      Fns[I].Blocks[B].ThreadExecutions += Run[I].Blocks[B].ThreadExecutions;
    }
    for (size_t B = 0; B < Run[I].Branches.size(); ++B) {
      BranchCounts &D = Fns[I].Branches[B];
      const BranchCounts &S = Run[I].Branches[B];
      D.Visits += S.Visits;
      D.Divergent += S.Divergent;
      D.ActiveThreads += S.ActiveThreads;
      D.Successor0Arrivals += S.Successor0Arrivals;
      D.UniformVisits.resize(S.UniformVisits.size(), 0);
      for (size_t K = 0; K < S.UniformVisits.size(); ++K)
        D.UniformVisits[K] += S.UniformVisits[K];
      D.SuccessorThreads.resize(S.SuccessorThreads.size(), 0);
      for (size_t K = 0; K < S.SuccessorThreads.size(); ++K)
        D.SuccessorThreads[K] += S.SuccessorThreads[K];
    }
  }
}

/// Per-launch records summed per kernel and configuration.
struct ConfigurationSums {
  /// (module id, kernel, grid, block, shared bytes) -> launches, counters
  using Key = std::tuple<std::string, std::string, uint32_t, uint32_t, uint32_t,
                         uint32_t, uint32_t, uint32_t, uint64_t>;
  std::map<Key, std::pair<LaunchGroup, std::vector<uint64_t>>> Groups;
  std::set<std::pair<std::string, std::string>> Incomplete; ///< module, kernel
};

/// Reads a per-launch run's launches-*.jsonl (each line: one launch, its
/// configuration and the counter words it changed) into Sums. NumCounters:
/// per module id, the size of its counter array.
Error readLaunchRecords(const std::string &Path,
                        const std::map<std::string, uint64_t> &NumCounters,
                        ConfigurationSums &Sums) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return fail(Path, "cannot read (" + Buf.getError().message() + ")",
                RerunHint);
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    std::string Where = Path + ":" + std::to_string(I + 1);
    Expected<json::Value> V = json::parse(Lines[I]);
    if (!V) {
      consumeError(V.takeError());
      return fail(Where, "is not a JSON launch record",
                  "the file is damaged; " + Twine(RerunHint));
    }
    const json::Object *O = V->getAsObject();
    if (!O)
      return fail(Where, "is not a JSON object", RerunHint);
    Fields F{Where, ""};
    const json::Value *Mod = O->get("module_id");
    std::string Kernel = F.str(*O, "kernel");
    const json::Array *Grid = F.arr(*O, "grid");
    const json::Array *Block = F.arr(*O, "block");
    uint64_t Shared = F.u64(*O, "shared_bytes");
    const json::Array *Words = F.arr(*O, "counters");
    if (F.Problem.empty() && (Grid->size() != 3 || Block->size() != 3))
      F.bad("grid/block", "three integers");
    if (!F.Problem.empty())
      return fail(Where, F.Problem, RerunHint);
    if (!Mod || !Mod->getAsString())
      continue; // a kernel of a module the runtime did not know
    std::string Id = Mod->getAsString()->str();
    auto N = NumCounters.find(Id);
    if (N == NumCounters.end())
      continue; // device side not instrumented
    LaunchGroup G;
    for (int K = 0; K < 3; ++K) {
      G.Grid[K] = (*Grid)[K].getAsUINT64().value_or(0);
      G.Block[K] = (*Block)[K].getAsUINT64().value_or(0);
    }
    G.SharedBytes = Shared;
    G.Count = 1;
    if (auto T = O->getNumber("time_ms")) {
      G.TimeMs = *T;
      G.Timed = true;
    }
    if (O->get("error"))
      Sums.Incomplete.insert({Id, Kernel});
    auto &[Group, Counters] =
        Sums.Groups[{Id, Kernel, G.Grid[0], G.Grid[1], G.Grid[2], G.Block[0],
                     G.Block[1], G.Block[2], G.SharedBytes}];
    if (Counters.empty()) {
      Group = G; // the shape; counts and times are added below
      Group.Count = 0;
      Group.TimeMs = 0;
      Group.Timed = false;
      Counters.assign(N->second, 0);
    }
    Group.Count += 1;
    Group.TimeMs += G.TimeMs;
    Group.Timed |= G.Timed;
    for (const json::Value &W : *Words) {
      const json::Array *Pair = W.getAsArray();
      std::optional<uint64_t> Index, Value;
      if (Pair && Pair->size() == 2) {
        Index = (*Pair)[0].getAsUINT64();
        Value = (*Pair)[1].getAsUINT64();
      }
      if (!Index || !Value || *Index >= Counters.size())
        return fail(Where,
                    "has a counter entry that is not [index, value] "
                    "within the module's counters",
                    "the file is damaged; " + Twine(RerunHint));
      Counters[*Index] += *Value;
    }
  }
  return Error::success();
}

/// Reads a profile directory: every profile-*.json in order, the databases
/// they name (once per module), the per-launch records; sums the counts.
class ProfileLoader {
public:
  explicit ProfileLoader(const std::string &Dir) : Dir(Dir) {
    Set.Directory = Dir;
  }
  Expected<ProfileSet> load();

private:
  Error readProfile(const std::string &Path);
  Error readModule(Fields &F, const json::Object &MO, const std::string &Path);
  Error readKernelFault(const json::Object &Top, const std::string &Path);
  Error loadModuleDatabase(const std::string &Id, StringRef Name, uint64_t N);
  /// false when the record is malformed (the problem is in F).
  bool readLaunch(Fields &F, const json::Object &LO);
  Error finish();

  std::string Dir;
  ProfileSet Set;
  std::map<std::string, Database> Databases;
  std::map<std::string, std::vector<FunctionProfile>> ByModule;
  ConfigurationSums ConfigSums;
  std::vector<std::string> ModuleOrder;
  /// (module id, mangled name) -> index in ByModule[module id]
  std::map<std::pair<std::string, std::string>, size_t> FunctionIndex;
  /// (function's launch list, grid, block, shared bytes) -> its group
  std::map<std::tuple<const void *, uint32_t, uint32_t, uint32_t, uint32_t,
                      uint32_t, uint32_t, uint64_t>,
           size_t>
      GroupIndex;
};

Expected<ProfileSet> ProfileLoader::load() {
  if (!sys::fs::is_directory(Dir))
    return fail(Dir, "is not a profile directory", RerunHint);
  std::error_code EC;
  Set.ProfileFiles = filesNamed(Dir, files::Profile, EC);
  if (EC)
    return fail(Dir, "cannot be listed (" + EC.message() + ")", RerunHint);
  if (Set.ProfileFiles.empty())
    return fail(Dir, "holds no profile-*.json",
                "run the program under `warpscope run -o DIR`, built with "
                "$(warpscope config --cflags) and $(warpscope config "
                "--ldflags) (an uninstrumented program leaves no profile)");
  for (const std::string &Path : Set.ProfileFiles)
    if (Error E = readProfile(Path))
      return E;
  if (Error E = finish())
    return E;
  return std::move(Set);
}

Error ProfileLoader::readProfile(const std::string &Path) {
  Expected<json::Value> V = readJson(Path, RerunHint);
  if (!V)
    return V.takeError();
  const json::Object &Top = *V->getAsObject();
  Fields F{Path, ""};
  std::string Schema = F.str(Top, "schema");
  if (F.Problem.empty() && Schema != schema::Profile)
    return fail(Path,
                "has schema '" + Schema + "', this warpscope reads '" +
                    schema::Profile + "'",
                "use the warpscope that wrote it, or rerun the program");
  std::string Program = F.str(Top, "program");
  if (!Set.Program.empty() && Program != Set.Program)
    return fail(Path,
                "is a profile of '" + Program + "', the others of '" +
                    Set.Program + "'",
                "give each program its own directory (warpscope run -o DIR)");
  Set.Program = Program;
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
    const char *Name = strsignal(int(*Sig));
    bool Crash =
        *Sig == SIGSEGV || *Sig == SIGBUS || *Sig == SIGFPE || *Sig == SIGILL;
    Set.Warnings.push_back(
        (sys::path::filename(Path) +
         (Crash
              ? ": the program crashed (signal " + Twine(*Sig) + ", " +
                    (Name ? Name : "?") +
                    "); the counts are those up to the "
                    "crash"
              : ": the program ended by signal " + Twine(*Sig) + " (" +
                    (Name ? Name : "?") + "); the counts are those up to then"))
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
  addCounts(ByModule[Id], Run);
  return Error::success();
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
  ByModule[Id] = DB->Functions;
  for (size_t I = 0; I < DB->Functions.size(); ++I)
    FunctionIndex[{Id, DB->Functions[I].Name}] = I;
  ModuleOrder.push_back(Id);
  Databases.emplace(Id, std::move(*DB));
  return Error::success();
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
  if (!Mod || !Mod->getAsString())
    return true; // a stub the runtime did not know
  auto Fn = FunctionIndex.find({Mod->getAsString()->str(), Kernel});
  if (Fn == FunctionIndex.end())
    return true; // kernel of an uninstrumented module
  std::vector<LaunchGroup> &Groups =
      ByModule[Fn->first.first][Fn->second].Launches;
  // Streams are not told apart here: same kernel, same shape.
  auto Key = std::make_tuple(&Groups, G.Grid[0], G.Grid[1], G.Grid[2],
                             G.Block[0], G.Block[1], G.Block[2], G.SharedBytes);
  auto [Slot, Fresh] = GroupIndex.try_emplace(Key, Groups.size());
  if (Fresh) {
    Groups.push_back(G);
  } else {
    LaunchGroup &Same = Groups[Slot->second];
    Same.Count += G.Count;
    Same.TimeMs += G.TimeMs;
    Same.Timed |= G.Timed;
  }
  return true;
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
  for (const auto &[Id, Kernel] : ConfigSums.Incomplete)
    Set.Warnings.push_back("kernel " + Kernel + " of module " + Id +
                           ": some launch records are incomplete; "
                           "counts per configuration are left out");
  for (const std::string &Id : ModuleOrder)
    for (FunctionProfile &Fn : ByModule[Id])
      Set.Functions.push_back(std::move(Fn));
  for (const std::string &File : staleSourceFiles(Set.SourceHashes))
    Set.Warnings.push_back("source " + File +
                           " changed since the program was built; its text "
                           "is not shown (rebuild and rerun to see it)");
  return Error::success();
}

} // namespace

Expected<ProfileSet> warpscope::loadProfileDirectory(const std::string &Dir) {
  return ProfileLoader(Dir).load();
}
