//===- FeaturesCommand.cpp - warpscope features: portable kernel features -===//
//
// One row per kernel and launch configuration with hardware-independent
// features for time/power prediction: the GPU Mangrove set (Braun et al.)
// plus WarpScope's branch and SIMD efficiency and divergent visits, or
// HyPA's (Metz et al.) PTX profile columns, or GPU Mangrove's own columns as
// its code computes them, one row per launch (MangroveFeatures.h). Columns:
// docs/report-schema.md.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "InstructionMix.h"
#include "MangroveFeatures.h"
#include "MixReport.h"
#include "ModeledTime.h"
#include "Report.h"
#include "ReportFormats.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::FeaturesSub(
    "features", "Portable per-kernel features (GPU Mangrove or HyPA CSV)");

static cl::opt<std::string> Dir(cl::Positional, cl::desc("<profile dir>"),
                                cl::Required, cl::sub(FeaturesSub));
static cl::opt<std::string>
    Format("format",
           cl::desc("csv (default), hypa, mangrove (GPU Mangrove's samples "
                    "table) or mangrove-groups (its per-group feature table)"),
           cl::init("csv"), cl::sub(FeaturesSub));
static cl::opt<std::string>
    Bench("bench", cl::desc("mangrove formats: the 'bench' column"),
          cl::init("warpscope"), cl::sub(FeaturesSub));
static cl::opt<std::string>
    App("app",
        cl::desc("mangrove formats: the 'app' column (default: the "
                 "program's name)"),
        cl::sub(FeaturesSub));
static cl::opt<std::string>
    Dataset("dataset", cl::desc("mangrove formats: the 'dataset' column"),
            cl::init("default"), cl::sub(FeaturesSub));

namespace {

uint64_t threads(const LaunchGroup &L) {
  return uint64_t(L.Block[0]) * L.Block[1] * L.Block[2];
}
uint64_t ctas(const LaunchGroup &L) {
  return uint64_t(L.Grid[0]) * L.Grid[1] * L.Grid[2];
}
/// CTAs and threads of every launch of F, whatever their configurations.
std::pair<uint64_t, uint64_t> launchedCtasAndThreads(const FunctionProfile &F) {
  uint64_t Ctas = 0, Threads = 0;
  for (const LaunchGroup &G : F.Launches) {
    Ctas += ctas(G) * G.Count;
    Threads += ctas(G) * G.Count * threads(G);
  }
  return {Ctas, Threads};
}

uint64_t classThreads(const InstructionMix &M,
                      std::initializer_list<const char *> Classes) {
  uint64_t N = 0;
  for (const char *C : Classes) {
    auto It = M.ByClass.find(C);
    if (It != M.ByClass.end())
      N += It->second.Thread;
  }
  return N;
}

std::string number(std::optional<double> V) {
  return V ? formatv("{0:F6}", *V).str() : std::string();
}

uint64_t staticInstructions(const FunctionProfile &F) {
  uint64_t N = 0;
  for (const BlockCounts &B : F.Blocks)
    for (const auto &[Op, K] : B.Ptx)
      N += K;
  for (const PtxEdge &E : F.PtxEdges)
    for (const auto &[Op, K] : E.Ptx)
      N += K;
  for (const PtxSwitchPart &P : F.PtxSwitchParts)
    for (const auto &[Op, K] : P.Ptx)
      N += K;
  for (const auto &[Op, K] : F.PtxUnattributed)
    N += K;
  return N;
}

/// modeled_cycles, modeled_microseconds, modeled_config: the sums over the
/// row's launches (those with L's configuration when F had only one),
/// empty without the timing model.
std::string modeledColumns(const Truth &T, const FunctionProfile &F,
                           const LaunchGroup &L) {
  uint64_t Cycles = 0;
  double Us = 0;
  std::string Config;
  bool Any = false;
  for (const TruthLaunch &TL : T.Launches) {
    if (!TL.Modeled || TL.Kernel != F.Name)
      continue;
    bool Same = true;
    for (int K = 0; K < 3; ++K)
      Same &= TL.Grid[K] == L.Grid[K] && TL.Block[K] == L.Block[K];
    if (F.Launches.size() == 1 && !Same)
      continue;
    Any = true;
    Cycles += TL.Modeled->Cycles;
    Us += TL.Modeled->Microseconds;
    Config = TL.Modeled->Config;
  }
  if (!Any)
    return ",,";
  return formatv("{0},{1:F3},{2}", Cycles, Us, csvField(Config)).str();
}

/// GPU Mangrove's rows: one per launch, from the launch records of a
/// per-launch run; without them only kernels launched once can have one.
int runMangrove(const ProfileSet &Set) {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope features") << Msg << "\n";
    return 2;
  };
  std::vector<const FunctionProfile *> Rows;
  for (const ConfigurationProfile &L : Set.Launches)
    Rows.push_back(&L.Function);
  if (Set.Launches.empty())
    for (const FunctionProfile &F : Set.Functions) {
      if (!F.Kernel || F.Launches.empty())
        continue;
      if (F.launches() != 1)
        return Fail(F.Demangled + " was launched " + Twine(F.launches()) +
                    " times and the run added the launches up; GPU "
                    "Mangrove's rows are per launch: rerun with `warpscope "
                    "run --mode per-launch`");
      Rows.push_back(&F);
    }
  if (Rows.empty())
    return Fail(Dir + ": no instrumented kernel was launched");
  std::string AppName = App;
  if (AppName.empty())
    AppName = sys::path::filename(Set.Program).str();
  bool Groups = Format == "mangrove-groups";
  std::string Text =
      Groups ? mangrove::groupsHeader() : mangrove::samplesHeader();
  uint64_t Lseq = 0;
  for (const FunctionProfile *F : Rows) {
    InstructionMix M = instructionMix(*F);
    if (!M.Available)
      return Fail(F->Demangled + ": " + M.Why);
    if (M.unknownStatic())
      WithColor::warning(errs(), "warpscope features")
          << F->Demangled << ": some instruction counts are lower bounds\n";
    const LaunchGroup &G = F->Launches.front();
    mangrove::Launch L;
    L.Name = csvField(F->Name);
    for (int K = 0; K < 3; ++K) {
      L.Grid[K] = G.Grid[K];
      L.Block[K] = G.Block[K];
    }
    L.SharedBytes = G.SharedBytes;
    if (G.Timed)
      L.TimeMs = G.TimeMs;
    for (const auto &[Op, N] : M.ByOpcode)
      mangrove::addOpcode(L, Op, N.Thread);
    std::string B = csvField(Bench), A = csvField(AppName),
                D = csvField(Dataset);
    Text += Groups ? mangrove::groupsRow(B, A, D, Lseq++, L)
                   : mangrove::samplesRow(B, A, D, L);
  }
  outs() << Text;
  return 0;
}

void addMix(InstructionMix &Into, const InstructionMix &M) {
  for (const auto &[K, V] : M.ByOpcode)
    Into.ByOpcode[K] += V;
  for (const auto &[K, V] : M.ByClass)
    Into.ByClass[K] += V;
  Into.Total += M.Total;
  Into.FlopsHalf += M.FlopsHalf;
  Into.FlopsSingle += M.FlopsSingle;
  Into.FlopsDouble += M.FlopsDouble;
  for (const auto &[K, V] : M.BytesBySpace)
    Into.BytesBySpace[K] += V;
  for (const auto &[K, V] : M.Unknown)
    Into.Unknown[K] += V;
}

/// A kernel's row with the work of the device functions it called: their
/// counts are the kernel's exactly when it is the only kernel of their
/// module that ran (without -fgpu-rdc only a module's own kernels can call
/// its functions). Ratios are recomputed from the sums.
struct Row {
  FunctionSummary S;
  uint64_t Static = 0;
  bool CalleesMissing = false;
};

Row withCallees(const FunctionSummary &K,
                const std::vector<const FunctionSummary *> &Callees) {
  Row R{K, staticInstructions(*K.Function)};
  for (const FunctionSummary *C : Callees) {
    addMix(R.S.Mix, C->Mix);
    R.Static += staticInstructions(*C->Function);
    R.S.WarpExecutions += C->WarpExecutions;
    R.S.ThreadExecutions += C->ThreadExecutions;
    R.S.Visits += C->Visits;
    R.S.Divergent += C->Divergent;
  }
  if (R.S.WarpExecutions)
    R.S.SimdEfficiency =
        double(R.S.ThreadExecutions) / (32.0 * R.S.WarpExecutions);
  if (R.S.Visits)
    R.S.BranchEfficiency = 1.0 - double(R.S.Divergent) / R.S.Visits;
  return R;
}

/// The rows of Selected (a summary and its number of configurations), with
/// callees' counts where they are exactly the kernel's; warns about callees
/// whose counts are in no row.
std::vector<Row> attributeCallees(
    const std::vector<FunctionSummary> &Sums,
    const std::vector<std::pair<const FunctionSummary *, size_t>> &Selected) {
  // Device functions that ran, and the kernels that ran, per module: a
  // module with one kernel that ran gets its functions' counts in that
  // kernel's row (one row: per-configuration rows cannot be split).
  std::map<std::string, std::vector<const FunctionSummary *>> Callees;
  std::map<std::string, std::vector<const FunctionProfile *>> KernelsRun;
  for (const FunctionSummary &S : Sums) {
    const FunctionProfile &F = *S.Function;
    if (!F.Kernel && S.Mix.Available && S.Mix.Total.Warp)
      Callees[F.ModuleId].push_back(&S);
    if (F.Kernel && !F.Launches.empty())
      KernelsRun[F.ModuleId].push_back(&F);
  }
  // Rows per kernel (per-configuration rows have profiles of their own).
  auto KeyOf = [](const FunctionProfile &F) {
    return F.ModuleId + "\n" + F.Name;
  };
  std::map<std::string, unsigned> RowsOf;
  for (const auto &[SP, Configurations] : Selected)
    ++RowsOf[KeyOf(*SP->Function)];
  std::vector<Row> RowData;
  for (const auto &[SP, Configurations] : Selected) {
    const FunctionProfile &F = *SP->Function;
    const auto &Mine = Callees[F.ModuleId];
    bool Exact = KernelsRun[F.ModuleId].size() == 1 && RowsOf[KeyOf(F)] == 1;
    RowData.push_back(withCallees(
        *SP, Exact ? Mine : std::vector<const FunctionSummary *>()));
    RowData.back().CalleesMissing = !Exact && !Mine.empty();
  }
  for (const auto &[Module, Fns] : Callees) {
    const auto &Ks = KernelsRun[Module];
    bool Split = Ks.size() == 1 && RowsOf[KeyOf(*Ks.front())] > 1;
    if (Ks.size() == 1 && !Split)
      continue;
    for (const FunctionSummary *C : Fns)
      WithColor::warning(errs(), "warpscope features")
          << "device function " << C->Function->Demangled << " ran ("
          << C->Mix.Total.Thread << " thread instructions) but is in no "
          << "kernel's row (those say lower-bound): "
          << (Split ? "kernel " + Ks.front()->Demangled +
                          "'s rows are per launch configuration and the "
                          "profile does not record which launches called it"
                    : std::to_string(Ks.size()) +
                          " kernels of its module ran and the profile does "
                          "not record which called it")
          << "\n";
  }
  return RowData;
}

} // namespace

int warpscope::runFeatures() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope features") << Msg << "\n";
    return 2;
  };
  bool Mangrove = Format == "mangrove" || Format == "mangrove-groups";
  if (Format != "csv" && Format != "hypa" && !Mangrove)
    return Fail("unknown --format '" + Format +
                "'; use csv, hypa, mangrove or mangrove-groups");
  Expected<ProfileSet> Set = loadProfileDirectory(Dir, Mangrove);
  if (!Set)
    return Fail(toString(Set.takeError()));
  if (Mangrove) {
    for (const std::string &W : Set->Warnings)
      WithColor::warning(errs(), "warpscope features") << W << "\n";
    return runMangrove(*Set);
  }
  Expected<std::vector<FunctionSummary>> Sums = summarize(*Set, "");
  if (!Sums)
    return Fail(toString(Sums.takeError()));

  bool Hypa = Format == "hypa";
  std::string Text;
  raw_string_ostream Out(Text);
  if (Hypa)
    Out << "filename,kernel,ptx_target,ptx_address_size,ctas,"
           "thread_count,static_instructions,dynamic_instructions,"
           "fp_instructions,executed_instructions,divergent_branches,"
           "divergent_branches_per_cta,branch_efficiency,duration_ms,"
           "exact\n";
  else
    Out << "kernel,mangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
           "shared_bytes,launches,threads_per_cta,ctas,total_instructions,"
           "special,logic,control,arithmetic,sync,global_bytes,"
           "param_bytes,shared_bytes_moved,local_bytes,"
           "arithmetic_per_memory_byte,flops,flops_per_global_byte,"
           "warp_instructions,branch_efficiency,simd_efficiency,"
           "divergent_visits,configurations,exact,modeled_cycles,"
           "modeled_microseconds,modeled_config\n";
  // A per-launch run (warpscope run --mode per-launch) counts each launch
  // configuration apart: one row each. Otherwise a kernel's counts cover all
  // its launches: one row naming its most launched configuration and how
  // many configurations there were.
  ProfileSet PerConfiguration;
  for (const ConfigurationProfile &C : Set->Configurations)
    PerConfiguration.Functions.push_back(C.Function);
  Expected<std::vector<FunctionSummary>> ConfigSums =
      summarize(PerConfiguration, "");
  if (!ConfigSums)
    return Fail(toString(ConfigSums.takeError()));
  std::vector<std::pair<const FunctionSummary *, size_t>> Selected;
  for (const FunctionSummary &S : *Sums) {
    const FunctionProfile &F = *S.Function;
    if (!F.Kernel || F.Launches.empty())
      continue;
    size_t Before = Selected.size();
    for (const FunctionSummary &C : *ConfigSums)
      if (C.Function->ModuleId == F.ModuleId && C.Function->Name == F.Name)
        Selected.push_back({&C, 1});
    if (Selected.size() == Before)
      Selected.push_back({&S, F.Launches.size()});
  }
  for (const std::string &W : Set->Warnings)
    WithColor::warning(errs(), "warpscope features") << W << "\n";
  std::vector<Row> RowData = attributeCallees(*Sums, Selected);
  // The timing model's figures, when the run was emulated with it.
  Truth T;
  if (Error E = loadTruth(Dir, T))
    return Fail(toString(std::move(E)));
  unsigned Rows = 0;
  for (const auto &[SP, Configurations] : Selected) {
    const Row &RD = RowData[Rows];
    const FunctionSummary &S = RD.S;
    const FunctionProfile &F = *S.Function;
    const InstructionMix &M = S.Mix;
    if (!M.Available)
      return Fail(F.Demangled + ": " + M.Why);
    const LaunchGroup *L = &F.Launches.front();
    for (const LaunchGroup &G : F.Launches)
      if (G.Count > L->Count)
        L = &G;
    auto Bytes = [&](const char *Space) {
      auto It = M.BytesBySpace.find(Space);
      return It == M.BytesBySpace.end() ? uint64_t(0) : It->second;
    };
    bool Exact = M.unknownStatic() == 0 && !RD.CalleesMissing;
    ++Rows;
    if (Hypa) {
      auto [Ctas, Threads] = launchedCtasAndThreads(F);
      Out << csvField(F.Loc.File) << ',' << csvField(F.Demangled) << ','
          << csvField(F.PtxArch) << ",64," << Ctas << ',' << Threads << ','
          << RD.Static << ',' << M.Total.Thread << ','
          << classThreads(M, {"fp16", "fp32", "fp64"}) << ',' << M.Total.Warp
          << ',' << S.Divergent << ','
          << number(Ctas ? std::optional<double>(double(S.Divergent) / Ctas)
                         : std::nullopt)
          << ',' << number(S.BranchEfficiency) << ','
          << (S.TimeMs ? formatv("{0:F3}", *S.TimeMs).str() : "") << ','
          << (Exact ? "yes" : "lower-bound") << "\n";
      continue;
    }
    uint64_t Arith = classThreads(
        M, {"int8", "int16", "int32", "int64", "fp16", "fp32", "fp64"});
    uint64_t GlobalLocal = Bytes("global") + Bytes("local");
    Out << csvField(F.Demangled) << ',' << csvField(F.Name) << ',' << L->Grid[0]
        << ',' << L->Grid[1] << ',' << L->Grid[2] << ',' << L->Block[0] << ','
        << L->Block[1] << ',' << L->Block[2] << ',' << L->SharedBytes << ','
        << F.launches() << ',' << threads(*L) << ',' << ctas(*L) << ','
        << M.Total.Thread << ',' << classThreads(M, {"special"}) << ','
        << classThreads(M, {"logic"}) << ',' << classThreads(M, {"control"})
        << ',' << Arith << ',' << classThreads(M, {"sync"}) << ','
        << Bytes("global") << ',' << Bytes("param") << ',' << Bytes("shared")
        << ',' << Bytes("local") << ','
        << number(GlobalLocal
                      ? std::optional<double>(double(Arith) / GlobalLocal)
                      : std::nullopt)
        << ',' << M.flops() << ',' << number(arithmeticIntensity(M)) << ','
        << M.Total.Warp << ',' << number(S.BranchEfficiency) << ','
        << number(S.SimdEfficiency) << ',' << S.Divergent << ','
        << Configurations << ',' << (Exact ? "yes" : "lower-bound") << ','
        << modeledColumns(T, F, *L) << "\n";
  }
  if (!Rows)
    return Fail(Dir + ": no instrumented kernel was launched");
  outs() << Text; // only now: a failure prints no header
  return 0;
}
