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
#include "FeatureRows.h"
#include "FormatOption.h"
#include "InstructionMix.h"
#include "MangroveFeatures.h"
#include "MixReport.h"
#include "ModeledTime.h"
#include "Prediction.h"
#include "Report.h"
#include "ReportFormats.h"
#include "RunDirectory.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace warpscope;

cl::SubCommand warpscope::FeaturesSub(
    "features", "Portable per-kernel features (GPU Mangrove or HyPA CSV)");

static cl::opt<std::string> FeaturesDir(cl::Positional,
                                        cl::desc("<profile dir>"), cl::Required,
                                        cl::sub(FeaturesSub));
static FormatOption FeaturesFormat(
    "format", cl::desc("Output format"),
    formats{{OutputFormat::Csv, "WarpScope's features (default)"},
            {OutputFormat::Hypa, "HyPA's columns"},
            {OutputFormat::Mangrove, "GPU Mangrove's samples table"},
            {OutputFormat::MangroveGroups,
             "GPU Mangrove's per-group feature table"}},
    cl::sub(FeaturesSub));
static cl::opt<std::string>
    Bench("bench", cl::desc("mangrove formats: the 'bench' column"),
          cl::init("warpscope"), cl::sub(FeaturesSub));
static cl::opt<std::string>
    App("app",
        cl::desc("mangrove formats: the 'app' column (default: the "
                 "program's name)"),
        cl::sub(FeaturesSub));
static cl::opt<std::string>
    DatasetColumn("dataset", cl::desc("mangrove formats: the 'dataset' column"),
                  cl::init("default"), cl::sub(FeaturesSub));

static cl::opt<std::string> FeaturesPredictGpu(
    "predict-gpu",
    cl::desc("csv: add each row's time predicted on this GPU by its shipped "
             "model (labelled a prediction, with the model's error)"),
    cl::value_desc("name"), cl::sub(FeaturesSub));
static cl::opt<std::string>
    PredictModel("predict-model",
                 cl::desc("csv: as --predict-gpu, with a model file"),
                 cl::value_desc("file"), cl::sub(FeaturesSub));

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

std::string number(std::optional<double> V) {
  return V ? formatv("{0:F6}", *V).str() : std::string();
}

/// modeled_cycles, modeled_microseconds, modeled_config,
/// modeled_fingerprint, modeled_launch_cycles: the sums over the row's
/// launches, the timing model's version and the launches' fixed cost within
/// the cycles, empty without the timing model.
std::string modeledColumns(const FeatureRow &R) {
  if (!R.Modeled)
    return ",,,,";
  return formatv("{0},{1:F3},{2},{3},{4}", R.ModeledCycles,
                 R.ModeledMicroseconds, csvField(R.ModeledConfig),
                 csvField(R.ModeledFingerprint), R.ModeledLaunchCycles)
      .str();
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
    return Fail(FeaturesDir + ": no instrumented kernel was launched");
  std::string AppName = App;
  if (AppName.empty())
    AppName = sys::path::filename(Set.Program).str();
  bool Groups = FeaturesFormat == OutputFormat::MangroveGroups;
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
                D = csvField(DatasetColumn);
    Text += Groups ? mangrove::groupsRow(B, A, D, Lseq++, L)
                   : mangrove::samplesRow(B, A, D, L);
  }
  outs() << Text;
  return 0;
}

} // namespace

int warpscope::runFeatures() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope features") << Msg << "\n";
    return 2;
  };
  bool Mangrove = FeaturesFormat == OutputFormat::Mangrove ||
                  FeaturesFormat == OutputFormat::MangroveGroups;
  RunDirectory Run(FeaturesDir, /*KeepLaunches=*/Mangrove);
  Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set)
    return Fail(toString(Set.takeError()));
  if (Mangrove) {
    for (const std::string &W : Set->Warnings)
      WithColor::warning(errs(), "warpscope features") << W << "\n";
    return runMangrove(*Set);
  }
  for (const std::string &W : Set->Warnings)
    WithColor::warning(errs(), "warpscope features") << W << "\n";
  Expected<std::unique_ptr<FeatureRowSet>> RS =
      featureRows(Run, *Set, "warpscope features");
  if (!RS)
    return Fail(toString(RS.takeError()));
  const std::vector<FeatureRow> &Rows = (*RS)->Rows;
  if (Rows.empty())
    return Fail(FeaturesDir + ": no instrumented kernel was launched");
  for (const FeatureRow &R : Rows)
    if (!R.S.Mix.Available)
      return Fail(R.function().Demangled + ": " + R.S.Mix.Why);
  bool Hypa = FeaturesFormat == OutputFormat::Hypa;
  PredictionColumns PredictionColumns;
  if (!FeaturesPredictGpu.empty() || !PredictModel.empty()) {
    if (FeaturesFormat != OutputFormat::Csv)
      return Fail("--predict-gpu and --predict-model apply to --format csv");
    Expected<std::unique_ptr<ChosenModel>> C =
        chooseModel(FeaturesPredictGpu, PredictModel);
    if (!C)
      return Fail(toString(C.takeError()));
    std::string Warning;
    Expected<std::vector<RowPrediction>> P =
        predictRows((*C)->M, Rows, &Warning);
    if (!P)
      return Fail(toString(P.takeError()));
    if (!Warning.empty())
      WithColor::warning(errs(), "warpscope features")
          << FeaturesDir << ": " << Warning << "\n";
    PredictionColumns.Model = std::move(*C);
    PredictionColumns.Predictions = std::move(*P);
    for (size_t I = 0; I < Rows.size(); ++I)
      PredictionColumns.Index[&Rows[I]] = I;
  }
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
           "modeled_microseconds,modeled_config,modeled_fingerprint,"
           "modeled_launch_cycles"
        << PredictionColumns.header() << "\n";
  for (const FeatureRow &R : Rows) {
    const FunctionSummary &S = R.S;
    const FunctionProfile &F = R.function();
    const InstructionMix &M = S.Mix;
    const LaunchGroup *L = R.Launch;
    if (Hypa) {
      auto [Ctas, Threads] = launchedCtasAndThreads(F);
      Out << csvField(F.Loc.File) << ',' << csvField(F.Demangled) << ','
          << csvField(F.PtxArch) << ",64," << Ctas << ',' << Threads << ','
          << R.Static << ',' << M.Total.Thread << ','
          << R.classThreads({"fp16", "fp32", "fp64"}) << ',' << M.Total.Warp
          << ',' << S.Divergent << ','
          << number(Ctas ? std::optional<double>(double(S.Divergent) / Ctas)
                         : std::nullopt)
          << ',' << number(S.BranchEfficiency) << ','
          << (S.TimeMs ? formatv("{0:F3}", *S.TimeMs).str() : "") << ','
          << (R.Exact ? "yes" : "lower-bound") << "\n";
      continue;
    }
    uint64_t Arith = R.classThreads(
        {"int8", "int16", "int32", "int64", "fp16", "fp32", "fp64"});
    uint64_t GlobalLocal = R.bytes("global") + R.bytes("local");
    Out << csvField(F.Demangled) << ',' << csvField(F.Name) << ',' << L->Grid[0]
        << ',' << L->Grid[1] << ',' << L->Grid[2] << ',' << L->Block[0] << ','
        << L->Block[1] << ',' << L->Block[2] << ',' << L->SharedBytes << ','
        << F.launches() << ',' << threads(*L) << ',' << ctas(*L) << ','
        << M.Total.Thread << ',' << R.classThreads({"special"}) << ','
        << R.classThreads({"logic"}) << ',' << R.classThreads({"control"})
        << ',' << Arith << ',' << R.classThreads({"sync"}) << ','
        << R.bytes("global") << ',' << R.bytes("param") << ','
        << R.bytes("shared") << ',' << R.bytes("local") << ','
        << number(GlobalLocal
                      ? std::optional<double>(double(Arith) / GlobalLocal)
                      : std::nullopt)
        << ',' << M.flops() << ',' << number(arithmeticIntensity(M)) << ','
        << M.Total.Warp << ',' << number(S.BranchEfficiency) << ','
        << number(S.SimdEfficiency) << ',' << S.Divergent << ','
        << R.Configurations << ',' << (R.Exact ? "yes" : "lower-bound") << ','
        << modeledColumns(R) << PredictionColumns.cells(R) << "\n";
  }
  outs() << Text; // only now: a failure prints no header
  return 0;
}
