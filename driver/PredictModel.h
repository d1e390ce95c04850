//===- PredictModel.h - Trained prediction models: train, save, predict --===//
//
// A model file (schema ModelSchema, docs/prediction.md) holds XGBoost's own
// JSON model with what it needs to be used and trusted: the feature version
// and names, the GPU's configuration and calibration, where its training
// data came from (device, date, driver, commit, rows, programs) and its
// error measured on programs left out of training.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PREDICTMODEL_H
#define WARPSCOPE_DRIVER_PREDICTMODEL_H

#include "PredictDataset.h"
#include "XGBoost.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <string>

namespace warpscope::predict {

inline constexpr const char *ModelSchema = "warpscope-model/1";

/// Errors of predictions on held-out data (absolute percentage errors).
struct Errors {
  unsigned Rows = 0, Programs = 0;
  double Mape = NAN, MedianApe = NAN, Within15 = NAN;
  /// The median over programs of each program's median APE.
  double ProgramMedianApe = NAN;
};
Errors errorsOf(llvm::ArrayRef<KernelSample> Rows,
                llvm::ArrayRef<double> Predicted);
/// The same per (program, size, kernel): each kernel's time is its rows'
/// times times their launches, summed over its launch configurations, so
/// that a kernel launched with hundreds of configurations counts once
/// (Errors::Rows counts kernels). A kernel with a row not predicted is
/// left out.
Errors errorsPerKernel(llvm::ArrayRef<KernelSample> Rows,
                       llvm::ArrayRef<double> Predicted);

struct HeldOut {
  std::string Method; ///< "leave-one-program-out", or "none"
  std::string Why;    ///< when none
  Errors E;
  /// E per (program, size, kernel) (errorsPerKernel); Rows 0 in models
  /// from before it was recorded.
  Errors PerKernel;
};

struct TrainOptions {
  Target T = Target::Time;
  unsigned Rounds = 200; ///< 0: no trees (the margin alone)
  /// When not empty, Rounds is chosen among these (0: the margin alone),
  /// and the parameters among parameterSets(), by leave-one-program-out
  /// inside the training data: nested within each fold of the held-out
  /// evaluation, and on every row for the model kept.
  std::vector<unsigned> SelectRounds;
  xgb::Params Params; ///< overrides of defaultParams()
  bool HeldOut = true;
};
xgb::Params defaultParams();
unsigned defaultRounds();
/// The parameter sets (a name, overrides of defaultParams()) that
/// selection chooses among; the first is the defaults.
const std::vector<std::pair<std::string, xgb::Params>> &parameterSets();

struct Model {
  std::string Name;
  Target T = Target::Time;
  std::string Features = FeatureVersion;
  GpuSpec Gpu;
  Calibration Cal;
  Provenance From;
  std::string DatasetFile; ///< its file name
  unsigned Rows = 0, Programs = 0;
  std::map<std::string, unsigned> LeftOut;
  HeldOut Held;
  /// The same held-out rows predicted without the emulator's figures
  /// (modeled cycles, exact memory counts): the error for inputs from a run
  /// on a GPU.
  Errors HeldWithoutEmulator;
  std::string XgbVersion;
  unsigned Rounds = 0;
  /// How Rounds and Params were chosen ("" when given), and what each
  /// held-out fold chose by the same method on its own training programs
  /// ("50 rounds of depth 2 (...)").
  std::string Selection;
  std::map<std::string, std::string> FoldChoice;
  xgb::Params Params;
  xgb::Booster Booster;
};

/// Trains on D (leave-one-program-out first when asked; then on every
/// row). C's floor, clock and median target are measured anew on each
/// fold's training rows (calibrate); C's clock is the fallback when they
/// have no measured clock. HeldOutPredictions, when given, gets each row's
/// prediction by the model trained without its program (NaN without held-out
/// evaluation).
llvm::Expected<Model> train(const Dataset &D, const GpuSpec &G,
                            const Calibration &C, const TrainOptions &O,
                            std::vector<double> *HeldOutPredictions);

/// S without the emulator's figures (modeled cycles, memory counts).
KernelSample withoutEmulator(KernelSample S);

/// The model's prediction for every sample, never below its lower bound.
llvm::Expected<std::vector<double>>
predictSamples(const Model &M, llvm::ArrayRef<KernelSample> Samples);

llvm::Error saveModel(const Model &M, const std::string &Path);
/// Reads and checks a model file: its schema, its feature version against
/// this build's, its booster.
llvm::Expected<Model> loadModel(const std::string &Path);

/// "leave-one-program-out on 18 programs (1,228 rows): median 14.2%, MAPE
/// 30.1%, 55% within ±15%", or why there is no held-out error.
std::string heldOutLine(const HeldOut &H);
/// "NVIDIA H100 80GB HBM3, 2026-11-23, driver 580.159.04, commit ..."
std::string trainingLine(const Model &M);

} // namespace warpscope::predict

#endif // WARPSCOPE_DRIVER_PREDICTMODEL_H
