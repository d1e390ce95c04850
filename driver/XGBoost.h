//===- XGBoost.h - XGBoost's C API, loaded when first used ------*- C++ -*-===//
//
// `warpscope train` and `warpscope predict` use XGBoost (Debian's
// libxgboost0, 1.7 or later) through its C API. The library is opened with
// dlopen the first time a model is trained or read, neither linked nor
// needed to build (XGBoost.cpp declares the few C functions it uses): the
// other commands, and `warpscope` on machines without XGBoost (the GPU
// machine), run as before; without it every call answers with one line
// saying what to install.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_XGBOOST_H
#define WARPSCOPE_DRIVER_XGBOOST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace warpscope::xgb {

/// Rows x Cols values, row-major; NaN is a missing value.
struct Matrix {
  size_t Rows = 0, Cols = 0;
  std::vector<float> Values;
  float *row(size_t R) { return Values.data() + R * Cols; }
};

using Params = std::vector<std::pair<std::string, std::string>>;

/// A trained or loaded booster (an opaque XGBoost handle).
class Booster {
public:
  Booster() = default;
  Booster(Booster &&O) noexcept : Handle(O.Handle) { O.Handle = nullptr; }
  Booster &operator=(Booster &&O) noexcept;
  Booster(const Booster &) = delete;
  Booster &operator=(const Booster &) = delete;
  ~Booster();

  /// Trains Rounds rounds on X with Labels; Weights and Margin (the base
  /// margin each row starts from) may be empty.
  static llvm::Expected<Booster> train(const Matrix &X,
                                       llvm::ArrayRef<float> Labels,
                                       llvm::ArrayRef<float> Weights,
                                       llvm::ArrayRef<float> Margin,
                                       const Params &P, unsigned Rounds);
  /// A booster from XGBoost's JSON model.
  static llvm::Expected<Booster> fromJson(llvm::StringRef Json);
  /// The prediction of every row of X (Margin added, as in training) by
  /// the first Rounds rounds of trees (0: all of them; Rounds must be
  /// fewer than the booster's rounds).
  llvm::Expected<std::vector<float>> predict(const Matrix &X,
                                             llvm::ArrayRef<float> Margin,
                                             unsigned Rounds = 0) const;
  /// XGBoost's JSON model.
  llvm::Expected<std::string> toJson() const;
  /// False for a booster that was never trained or loaded.
  bool valid() const { return Handle != nullptr; }

private:
  void *Handle = nullptr;
};

/// Success when XGBoost can be used here; otherwise why not, in one line
/// (a build without the header, or a library that does not load).
llvm::Error available();

/// "1.7.4" (the library's), or "" when not available.
std::string version();

} // namespace warpscope::xgb

#endif // WARPSCOPE_DRIVER_XGBOOST_H
