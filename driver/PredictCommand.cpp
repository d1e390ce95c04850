//===- PredictCommand.cpp - warpscope predict: time on a GPU you lack ----===//
//
// warpscope predict DIR [--gpu NAME|--model FILE] [--format text|json|csv]
// For every kernel and launch configuration of a profile, the time a
// trained model predicts on its GPU, always labelled as a prediction with
// the model, its training data and its held-out error beside it.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "FormatOption.h"
#include "Prediction.h"
#include "ReportFormats.h"
#include "RunDirectory.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::predict;

cl::SubCommand warpscope::PredictSub(
    "predict", "Predict each kernel's time on a GPU from a profile (a "
               "trained model's prediction, labelled with its error)");

static cl::opt<std::string> PredictDir(cl::Positional,
                                       cl::desc("<profile dir>"), cl::Required,
                                       cl::sub(PredictSub));
static cl::opt<std::string>
    Gpu("gpu",
        cl::desc("A shipped model's GPU (default h100: data/models/"
                 "h100-time.json)"),
        cl::value_desc("name"), cl::sub(PredictSub));
static cl::opt<std::string> ModelFile("model",
                                      cl::desc("A model `warpscope train` "
                                               "wrote"),
                                      cl::value_desc("file"),
                                      cl::sub(PredictSub));
static FormatOption PredictFormat(
    "format", cl::desc("Output format"),
    formats{{OutputFormat::Text, "a table (default)"},
            {OutputFormat::Json, "one JSON object"},
            {OutputFormat::Csv, "one row per kernel configuration"}},
    cl::sub(PredictSub));
static cl::opt<bool>
    Timing("timing",
           cl::desc("Also time each row's prediction alone (text only)"),
           cl::sub(PredictSub));

namespace {

std::string config(const LaunchGroup &L) {
  return formatv("{0}x{1}x{2} {3}x{4}x{5}", L.Grid[0], L.Grid[1], L.Grid[2],
                 L.Block[0], L.Block[1], L.Block[2])
      .str();
}

/// Mean and largest milliseconds to predict one row on its own.
std::pair<double, double> timeEachRow(const Model &M,
                                      ArrayRef<FeatureRow> Rows) {
  double Sum = 0, Max = 0;
  unsigned N = 0;
  for (const FeatureRow &R : Rows) {
    auto Start = std::chrono::steady_clock::now();
    Expected<std::vector<RowPrediction>> P = predictRows(M, {R});
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    if (!P) {
      consumeError(P.takeError());
      continue;
    }
    Sum += Ms;
    Max = std::max(Max, Ms);
    ++N;
  }
  return {N ? Sum / N : 0.0, Max};
}

void renderPredictionText(const ChosenModel &C, ArrayRef<FeatureRow> Rows,
                          ArrayRef<RowPrediction> P, raw_ostream &OS) {
  const Model &M = C.M;
  OS << "Predicted " << predictionTitle(M)
     << ": a prediction, not a measurement\n";
  renderModelLabel(C, OS, "  ");
  OS << "\n";
  OS << formatv("  {0,-40} {1,-24} {2,8} {3,14} {4,14}  {5}\n", "kernel",
                "grid block", "launches", "per launch", "all launches",
                "inputs");
  for (size_t I = 0; I < Rows.size(); ++I) {
    const FeatureRow &R = Rows[I];
    std::string Name = R.function().Demangled;
    if (Name.size() > 40)
      Name = Name.substr(0, 37) + "...";
    uint64_t Launches = R.function().launches();
    std::string Where =
        R.Configurations > 1
            ? formatv("{0} configurations", R.Configurations).str()
            : config(*R.Launch);
    if (!P[I].PerLaunch) {
      OS << formatv("  {0,-40} {1,-24} {2,8}  no prediction: {3}\n", Name,
                    Where, Launches, P[I].Why);
      continue;
    }
    OS << formatv(
        "  {0,-40} {1,-24} {2,8} {3,14} {4,14}  {5}\n", Name, config(*R.Launch),
        Launches, formatPrediction(M, *P[I].PerLaunch),
        M.T == Target::Time ? formatPrediction(M, *P[I].PerLaunch * Launches)
                            : std::string("-"),
        P[I].WithEmulator ? "counts + emulator" : "counts");
    if (!P[I].Note.empty())
      OS << "    note: " << P[I].Note << "\n";
  }
}

json::Value renderPredictionJson(const ChosenModel &C,
                                 ArrayRef<FeatureRow> Rows,
                                 ArrayRef<RowPrediction> P) {
  json::Array Out;
  for (size_t I = 0; I < Rows.size(); ++I) {
    const FeatureRow &R = Rows[I];
    const LaunchGroup &L = *R.Launch;
    json::Object O{{"kernel", R.function().Demangled},
                   {"mangled", R.function().Name},
                   {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
                   {"block", json::Array{L.Block[0], L.Block[1], L.Block[2]}},
                   {"launches", R.function().launches()},
                   {"configurations", R.Configurations}};
    if (P[I].PerLaunch) {
      O["predicted_per_launch"] = *P[I].PerLaunch;
      O["inputs"] = P[I].WithEmulator ? "counts+emulator" : "counts";
      O["held_out"] = heldOutFor(C.M, P[I].WithEmulator);
      if (!P[I].Note.empty())
        O["note"] = P[I].Note;
    } else {
      O["no_prediction"] = P[I].Why;
    }
    Out.push_back(std::move(O));
  }
  return json::Object{{"schema", "warpscope-prediction/1"},
                      {"profile", PredictDir.getValue()},
                      {"model", modelLabelJson(C)},
                      {"predictions", std::move(Out)}};
}

void renderPredictionCsv(const ChosenModel &C, ArrayRef<FeatureRow> Rows,
                         ArrayRef<RowPrediction> P, raw_ostream &OS) {
  OS << "kernel,mangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
        "launches,configurations,predicted_per_launch,unit,model,inputs,"
        "held_out,no_prediction\n";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const FeatureRow &R = Rows[I];
    const LaunchGroup &L = *R.Launch;
    OS << csvField(R.function().Demangled) << ',' << csvField(R.function().Name)
       << ',' << L.Grid[0] << ',' << L.Grid[1] << ',' << L.Grid[2] << ','
       << L.Block[0] << ',' << L.Block[1] << ',' << L.Block[2] << ','
       << R.function().launches() << ',' << R.Configurations << ',';
    if (P[I].PerLaunch)
      OS << formatv("{0:F3}", *P[I].PerLaunch) << ','
         << csvField(targetUnit(C.M.T)) << ',' << csvField(C.M.Name) << ','
         << (P[I].WithEmulator ? "counts+emulator" : "counts") << ','
         << csvField(heldOutFor(C.M, P[I].WithEmulator)) << ",\n";
    else
      OS << ",," << csvField(C.M.Name) << ",,," << csvField(P[I].Why) << "\n";
  }
}

} // namespace

int warpscope::runPredict() {
  auto Fail = [](const Twine &Msg) {
    WithColor::error(errs(), "warpscope predict") << Msg << "\n";
    return 2;
  };
  Expected<std::unique_ptr<ChosenModel>> C = chooseModel(Gpu, ModelFile);
  if (!C)
    return Fail(toString(C.takeError()));
  RunDirectory Run(PredictDir);
  Expected<const ProfileSet &> Set = Run.profiles();
  if (!Set)
    return Fail(toString(Set.takeError()));
  for (const std::string &W : Set->Warnings)
    WithColor::warning(errs(), "warpscope predict") << W << "\n";
  Expected<std::unique_ptr<FeatureRowSet>> RS =
      featureRows(Run, *Set, "warpscope predict");
  if (!RS)
    return Fail(toString(RS.takeError()));
  const std::vector<FeatureRow> &Rows = (*RS)->Rows;
  if (Rows.empty())
    return Fail(PredictDir + ": no instrumented kernel was launched; predict "
                             "needs a profile of an instrumented program");
  std::string Warning;
  Expected<std::vector<RowPrediction>> P = predictRows((*C)->M, Rows, &Warning);
  if (!P)
    return Fail(toString(P.takeError()));
  if (!Warning.empty())
    WithColor::warning(errs(), "warpscope predict")
        << PredictDir << ": " << Warning << "\n";
  if (none_of(*P, [](const RowPrediction &R) { return R.PerLaunch; }))
    return Fail(PredictDir + ": no kernel can be predicted: " + P->front().Why);
  if (PredictFormat == OutputFormat::Json) {
    outs() << formatv("{0:2}", renderPredictionJson(**C, Rows, *P)) << "\n";
  } else if (PredictFormat == OutputFormat::Csv) {
    renderPredictionCsv(**C, Rows, *P, outs());
  } else {
    renderPredictionText(**C, Rows, *P, outs());
    if (Timing) {
      auto [Mean, Max] = timeEachRow((*C)->M, Rows);
      outs() << formatv("\n  prediction time, each row alone: mean {0:F3} "
                        "ms, largest {1:F3} ms ({2} rows)\n",
                        Mean, Max, Rows.size());
    }
  }
  return 0;
}
