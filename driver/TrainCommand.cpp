//===- TrainCommand.cpp - warpscope train: a prediction model from data --===//
//
// warpscope train DATASET.csv -o MODEL [--target time|power]
// Reads a dataset (docs/prediction.md), measures the model's error by
// leaving each program out of training in turn, trains on every row and
// writes the model with its provenance and that error.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "PredictModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <set>

#ifdef WARPSCOPE_RUN_TIMING_CONFIGS
#include "warpscope/Emu/TimingConfig.h"
#endif

using namespace llvm;
using namespace warpscope;
using namespace warpscope::predict;

cl::SubCommand warpscope::TrainSub(
    "train", "Train a kernel time (or power) model on a measured dataset");

static cl::opt<std::string> DatasetPath(cl::Positional,
                                        cl::desc("<dataset.csv>"), cl::Required,
                                        cl::sub(TrainSub));
static cl::opt<std::string> OutPath("o", cl::desc("Write the model here"),
                                    cl::value_desc("model.json"), cl::Required,
                                    cl::sub(TrainSub));
static cl::opt<Target> TargetOpt(
    "target", cl::desc("What to predict"),
    cl::values(clEnumValN(Target::Time, "time",
                          "kernel time per launch (column time_ns_mean)"),
               clEnumValN(Target::Power, "power",
                          "power during the kernel (column power_w)")),
    cl::init(Target::Time), cl::sub(TrainSub));
static cl::opt<std::string> GpuConfig(
    "gpu-config",
    cl::desc("The GPU's timing-model configuration (h100-sxm, a100, t4 or a "
             "JSON file; default: from the dataset's device)"),
    cl::value_desc("name|file"), cl::sub(TrainSub));
static cl::opt<std::string>
    Name("name", cl::desc("The model's name (default: the output's stem)"),
         cl::sub(TrainSub));
static cl::opt<std::string> HeldOutCsv(
    "heldout-csv",
    cl::desc("Also write each row's held-out prediction (by the model "
             "trained without its program) to this CSV"),
    cl::value_desc("file"), cl::sub(TrainSub));
static cl::opt<bool>
    NoHeldOut("no-heldout",
              cl::desc("Skip the leave-one-program-out error (the model then "
                       "says its error was not measured)"),
              cl::sub(TrainSub));
static cl::opt<unsigned>
    Rounds("rounds",
           cl::desc("Boosting rounds (0: no trees, the margin alone); "
                    "default: chosen among --select-rounds"),
           cl::init(200), cl::sub(TrainSub));
static cl::list<unsigned> SelectRounds(
    "select-rounds",
    cl::desc("The rounds to choose among by nested leave-one-program-out "
             "when --rounds is not given (default 0,10,25,50,100,200)"),
    cl::CommaSeparated, cl::value_desc("n,n,..."), cl::sub(TrainSub));
static cl::list<std::string> ExcludeFeatures(
    "exclude-feature",
    cl::desc("Train without this feature (it is missing to the model, also "
             "when predicting); repeatable"),
    cl::value_desc("name"), cl::sub(TrainSub));
static cl::list<std::string>
    ParamOpts("param", cl::desc("An XGBoost parameter over the default"),
              cl::value_desc("key=value"), cl::sub(TrainSub));

namespace {

/// The timing-model configuration named by --gpu-config, or by the device.
Expected<GpuSpec> gpuSpec(const std::string &Device) {
  std::string Config = GpuConfig;
  if (Config.empty()) {
    std::string D = StringRef(Device).lower();
    if (StringRef(D).contains("h100"))
      Config = "h100-sxm";
    else if (StringRef(D).contains("a100"))
      Config = "a100";
    else if (StringRef(D).contains(" t4") || StringRef(D).ends_with("t4"))
      Config = "t4";
    else
      return createStringError(
          "no built-in timing-model configuration for device '" + Device +
          "': name one with --gpu-config NAME|FILE (docs/timing-model.md)");
  }
#ifdef WARPSCOPE_RUN_TIMING_CONFIGS
  emu::timing::Config C;
  std::string Why;
  if (!emu::timing::loadConfig(Config, C, Why))
    return createStringError("--gpu-config: " + Why);
  return GpuSpec{C.Name,           C.Sms,     C.SubPartitions, C.MaxWarpsPerSm,
                 C.MaxBlocksPerSm, C.DramGBps};
#else
  return createStringError("this warpscope was built without the timing "
                           "model, whose configurations train reads");
#endif
}

/// The one timing-model configuration of the dataset's modeled cycles
/// ("" when it has none), and its one fingerprint (Fingerprint; "" when
/// the dataset does not record it).
Expected<std::string> modeledConfig(const Dataset &D,
                                    std::string &Fingerprint) {
  std::set<std::string> Configs, Prints;
  for (const KernelSample &S : D.Rows)
    if (std::isfinite(S.ModeledCycles)) {
      Configs.insert(S.ModeledConfig);
      Prints.insert(S.ModeledFingerprint);
    }
  if (Prints.size() > 1)
    return createStringError(
        D.Path +
        ": modeled_cycles come from several timing-model versions "
        "(modeled_fingerprint " +
        join(Prints, ", ") +
        "); remake the emulated runs with one warpscope build");
  Fingerprint = Prints.empty() ? std::string() : *Prints.begin();
  if (Configs.size() > 1)
    return createStringError(D.Path +
                             ": modeled_cycles come from several "
                             "timing-model configurations (" +
                             join(Configs, ", ") + "); use one for every row");
  if (Configs.size() == 1 && Configs.begin()->empty())
    return createStringError(D.Path + ": modeled_cycles without "
                                      "modeled_config; name the configuration");
  return Configs.empty() ? std::string() : *Configs.begin();
}

Error writeHeldOut(const Dataset &D, const std::vector<double> &Pred) {
  std::error_code EC;
  raw_fd_ostream OS(HeldOutCsv, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError("cannot write '" + HeldOutCsv +
                             "': " + EC.message());
  OS << "program,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
        "launches,measured,predicted,ape_percent\n";
  for (size_t I = 0; I < D.Rows.size(); ++I) {
    const KernelSample &S = D.Rows[I];
    std::string Kernel = S.Kernel;
    if (StringRef(Kernel).contains(',') || StringRef(Kernel).contains('"'))
      Kernel = "\"" + join(split(Kernel, '"'), "\"\"") + "\"";
    OS << S.Program << ',' << Kernel << ',' << S.Grid[0] << ',' << S.Grid[1]
       << ',' << S.Grid[2] << ',' << S.Block[0] << ',' << S.Block[1] << ','
       << S.Block[2] << ',' << S.Launches << ','
       << formatv("{0:F6}", S.Measured) << ',';
    if (std::isfinite(Pred[I]))
      OS << formatv("{0:F6},{1:F4}", Pred[I],
                    100.0 * std::fabs(Pred[I] - S.Measured) / S.Measured);
    else
      OS << ',';
    OS << '\n';
  }
  return Error::success();
}

} // namespace

int warpscope::runTrain() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope train") << Msg << "\n";
    return 2;
  };
  if (Error E = xgb::available())
    return Fail(toString(std::move(E)));
  TrainOptions O;
  O.T = TargetOpt;
  O.Rounds = Rounds;
  if (!Rounds.getNumOccurrences()) {
    O.SelectRounds.assign(SelectRounds.begin(), SelectRounds.end());
    if (O.SelectRounds.empty())
      O.SelectRounds = {0, 10, 25, 50, 100, 200};
  } else if (SelectRounds.getNumOccurrences()) {
    return Fail("--rounds and --select-rounds exclude each other: give one");
  }
  O.HeldOut = !NoHeldOut;
  for (const std::string &P : ParamOpts) {
    auto [K, V] = StringRef(P).split('=');
    if (K.empty() || V.empty())
      return Fail("--param '" + P + "' is not key=value");
    O.Params.push_back({K.str(), V.str()});
  }
  Expected<Dataset> D = readDataset(DatasetPath, O.T);
  if (!D)
    return Fail(toString(D.takeError()));
  Expected<GpuSpec> G = gpuSpec(D->From.Device);
  if (!G)
    return Fail(toString(G.takeError()));
  Calibration C;
  Expected<std::string> Modeled = modeledConfig(*D, C.ModeledFingerprint);
  if (!Modeled)
    return Fail(toString(Modeled.takeError()));
  C.ModeledConfig = *Modeled;
  for (const std::string &F : ExcludeFeatures) {
    if (!is_contained(featureNames(), F))
      return Fail("--exclude-feature '" + F + "' is not a feature of " +
                  FeatureVersion + " (" + join(featureNames(), ", ") + ")");
    C.Excluded.push_back(F);
  }
  // The floor, clock and median target are measured by train() on each
  // fold's training rows; the configuration's clock is the fallback for
  // rows without long launches with cycle counts.
#ifdef WARPSCOPE_RUN_TIMING_CONFIGS
  emu::timing::Config TC;
  std::string Why;
  emu::timing::loadConfig(G->Config, TC, Why);
  C.ClockMhz = TC.ClockMhz;
#endif
  std::vector<double> Held;
  Expected<Model> M = train(*D, *G, C, O, &Held);
  if (!M)
    return Fail(DatasetPath + ": " + toString(M.takeError()));
  C = M->Cal;
  M->Name = Name.empty() ? sys::path::stem(OutPath).str() : Name;
  if (!HeldOutCsv.empty())
    if (Error E = writeHeldOut(*D, Held))
      return Fail(toString(std::move(E)));
  if (Error E = saveModel(*M, OutPath))
    return Fail(toString(std::move(E)));
  outs() << "model " << M->Name << " (" << targetName(O.T) << ", "
         << targetUnit(O.T) << ") written to " << OutPath << "\n";
  outs() << "  trained on " << trainingLine(*M) << "\n";
  for (const auto &[Why, N] : D->LeftOut)
    outs() << "  left out " << N << " row(s): " << Why << "\n";
  outs() << formatv("  GPU configuration {0}; clock {1:F0} MHz ({2}); ",
                    G->Config, C.ClockMhz,
                    any_of(D->Rows,
                           [](const KernelSample &S) {
                             return std::isfinite(S.MeasuredClockMhz);
                           })
                        ? "measured: cycles over time of the launches of 100 "
                          "us or more"
                        : "the configuration's: the dataset has no cycle "
                          "counts");
  if (O.T == Target::Time)
    outs() << formatv("launch floor {0:F2} us; ", C.FloorUs);
  outs() << "modeled feature: "
         << (C.ModeledConfig.empty() ? std::string("none") : C.ModeledConfig);
  if (!C.ModeledConfig.empty())
    outs() << (C.ModeledFingerprint.empty()
                   ? std::string(" (timing-model version not recorded: no "
                                 "modeled_fingerprint column)")
                   : " (timing model " + C.ModeledFingerprint + ")");
  outs() << "\n";
  outs() << "  " << heldOutLine(M->Held) << "\n";
  outs() << "  rounds " << M->Rounds
         << (M->Rounds ? "" : " (no trees: the margin alone)");
  if (!M->Selection.empty())
    outs() << ", chosen by " << M->Selection;
  outs() << "\n";
  return 0;
}
