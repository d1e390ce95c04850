//===- Prediction.h - A model's predictions for a profile's kernels ------===//
//
// What `warpscope predict`, and `report` and `features` with
// --predict-gpu/--predict-model, share: finding a model, turning a
// profile's rows (FeatureRows.h) into the model's inputs, and the label
// every prediction carries (the model, its training data, its held-out
// error for inputs like these).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PREDICTION_H
#define WARPSCOPE_DRIVER_PREDICTION_H

#include "FeatureRows.h"
#include "PredictModel.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <optional>

namespace warpscope {

/// The shipped model for GPU (e.g. "h100" -> data/models/h100-time.json),
/// or an error listing the models there are.
llvm::Expected<std::string> modelPathFor(llvm::StringRef Gpu);

/// A loaded model and the file it came from.
struct ChosenModel {
  std::string Path;
  predict::Model M;
};
/// Loads --model FILE, or the shipped model of --gpu NAME.
llvm::Expected<std::unique_ptr<ChosenModel>>
chooseModel(const std::string &Gpu, const std::string &File);

/// One row's prediction, or why it has none.
struct RowPrediction {
  std::optional<double> PerLaunch; ///< in the model's unit
  std::string Why;                 ///< when there is none
  /// The emulator's figures (modeled cycles, exact memory counts) were
  /// among the inputs: the held-out error that applies is the model's
  /// main one; otherwise the one measured without them.
  bool WithEmulator = false;
  std::string Note; ///< e.g. modeled cycles of another configuration
};

/// The model's inputs for R; Why says what makes a prediction meaningless
/// (counts over several configurations, lower-bound counts).
predict::KernelSample sampleOf(const FeatureRow &R, std::string &Why);

/// Predictions for every row (in order). Rows whose modeled figures come
/// from another version of the model's timing-model configuration are
/// predicted without them, and Warning (when given) gets one line that
/// says so and what to do.
llvm::Expected<std::vector<RowPrediction>>
predictRows(const predict::Model &M, llvm::ArrayRef<FeatureRow> Rows,
            std::string *Warning = nullptr);

/// "time on NVIDIA H100 80GB HBM3 (model h100-time)": what is predicted.
std::string predictionTitle(const predict::Model &M);
/// The held-out error that applies to inputs with or without the
/// emulator's figures.
std::string heldOutFor(const predict::Model &M, bool WithEmulator);
/// "4.13 us" or "231 W".
std::string formatPrediction(const predict::Model &M, double V);

/// The label lines printed above predictions (text).
void renderModelLabel(const ChosenModel &C, llvm::raw_ostream &OS,
                      llvm::StringRef Indent);
/// The label as a JSON object.
llvm::json::Object modelLabelJson(const ChosenModel &C);

/// `features --predict-gpu/--predict-model`: two extra CSV columns.
struct PredictionColumns {
  std::unique_ptr<ChosenModel> Model;
  std::vector<RowPrediction> Predictions; ///< by row index
  std::map<const FeatureRow *, size_t> Index;
  /// ",predicted_<target>,prediction" or "" without a model.
  std::string header() const;
  std::string cells(const FeatureRow &R) const;
};

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_PREDICTION_H
