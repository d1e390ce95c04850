//===- XGBoost.cpp - XGBoost's C API through dlopen -----------------------===//

#include "XGBoost.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::xgb;

// XGBoost's C API (xgboost/c_api.h, stable since 1.0): its handle types and
// the signatures of the functions used, declared here so that building
// warpscope needs no XGBoost; the library is opened when a model is trained
// or read.
namespace {
using bst_ulong = uint64_t;
using DMatrixHandle = void *;
using BoosterHandle = void *;
extern "C" {
using XGBGetLastErrorFn = const char *();
using XGBoostVersionFn = void(int *, int *, int *);
using XGDMatrixCreateFromMatFn = int(const float *, bst_ulong, bst_ulong, float,
                                     DMatrixHandle *);
using XGDMatrixSetFloatInfoFn = int(DMatrixHandle, const char *, const float *,
                                    bst_ulong);
using XGDMatrixFreeFn = int(DMatrixHandle);
using XGBoosterCreateFn = int(const DMatrixHandle[], bst_ulong,
                              BoosterHandle *);
using XGBoosterFreeFn = int(BoosterHandle);
using XGBoosterSetParamFn = int(BoosterHandle, const char *, const char *);
using XGBoosterUpdateOneIterFn = int(BoosterHandle, int, DMatrixHandle);
using XGBoosterPredictFn = int(BoosterHandle, DMatrixHandle, int, unsigned, int,
                               bst_ulong *, const float **);
using XGBoosterLoadModelFromBufferFn = int(BoosterHandle, const void *,
                                           bst_ulong);
using XGBoosterSliceFn = int(BoosterHandle, int, int, int, BoosterHandle *);
using XGBoosterSaveModelToBufferFn = int(BoosterHandle, const char *,
                                         bst_ulong *, const char **);
}
} // namespace

namespace {

/// The entry points used, resolved once from the shared library.
struct Api {
  XGBGetLastErrorFn *GetLastError = nullptr;
  XGBoostVersionFn *Version = nullptr;
  XGDMatrixCreateFromMatFn *MatrixFromMat = nullptr;
  XGDMatrixSetFloatInfoFn *SetFloatInfo = nullptr;
  XGDMatrixFreeFn *MatrixFree = nullptr;
  XGBoosterCreateFn *Create = nullptr;
  XGBoosterFreeFn *Free = nullptr;
  XGBoosterSetParamFn *SetParam = nullptr;
  XGBoosterUpdateOneIterFn *UpdateOneIter = nullptr;
  XGBoosterPredictFn *Predict = nullptr;
  XGBoosterLoadModelFromBufferFn *Load = nullptr;
  XGBoosterSaveModelToBufferFn *Save = nullptr;
  XGBoosterSliceFn *Slice = nullptr;
  std::string Problem; ///< why the library cannot be used, or ""
};

template <typename T> bool bind(void *Lib, const char *Name, T &Out) {
  Out = reinterpret_cast<T>(dlsym(Lib, Name));
  return Out != nullptr;
}

const Api &api() {
  static const Api A = [] {
    Api R;
    // WARPSCOPE_XGBOOST_LIBRARY names another library (a path or a name
    // for dlopen's search), e.g. a newer XGBoost.
    const char *Env = std::getenv("WARPSCOPE_XGBOOST_LIBRARY");
    const char *Name = Env && *Env ? Env : "libxgboost.so.0";
    void *Lib = dlopen(Name, RTLD_NOW | RTLD_LOCAL);
    if (!Lib) {
      const char *Why = dlerror();
      R.Problem = formatv("XGBoost's library {0} does not load ({1}): "
                          "install libxgboost0 (Debian) or put the library "
                          "on LD_LIBRARY_PATH",
                          Name, Why ? Why : "no reason given")
                      .str();
      return R;
    }
    bool Ok = bind(Lib, "XGBGetLastError", R.GetLastError) &&
              bind(Lib, "XGBoostVersion", R.Version) &&
              bind(Lib, "XGDMatrixCreateFromMat", R.MatrixFromMat) &&
              bind(Lib, "XGDMatrixSetFloatInfo", R.SetFloatInfo) &&
              bind(Lib, "XGDMatrixFree", R.MatrixFree) &&
              bind(Lib, "XGBoosterCreate", R.Create) &&
              bind(Lib, "XGBoosterFree", R.Free) &&
              bind(Lib, "XGBoosterSetParam", R.SetParam) &&
              bind(Lib, "XGBoosterUpdateOneIter", R.UpdateOneIter) &&
              bind(Lib, "XGBoosterPredict", R.Predict) &&
              bind(Lib, "XGBoosterLoadModelFromBuffer", R.Load) &&
              bind(Lib, "XGBoosterSaveModelToBuffer", R.Save) &&
              bind(Lib, "XGBoosterSlice", R.Slice);
    if (!Ok)
      R.Problem = formatv("XGBoost's library {0} lacks a function of the C "
                          "API warpscope uses (it needs XGBoost 1.7 or "
                          "later)",
                          Name)
                      .str();
    return R;
  }();
  return A;
}

/// XGBoost's last error, its first line without the time and source
/// position XGBoost puts before it ("[12:00:00] src/x.cc:12: ").
Error failure(const Twine &What) {
  const char *Last = api().GetLastError();
  StringRef Why = Last ? StringRef(Last) : StringRef();
  Why = Why.take_until([](char C) { return C == '\n'; }).trim();
  if (Why.starts_with("[")) {
    size_t Colon = Why.find(": ", Why.find(']'));
    if (Colon != StringRef::npos)
      Why = Why.drop_front(Colon + 2);
  }
  return createStringError("XGBoost: " + What + ": " +
                           (Why.empty() ? StringRef("no reason given") : Why));
}

/// A DMatrix, freed on scope exit.
struct DMatrix {
  DMatrixHandle H = nullptr;
  ~DMatrix() {
    if (H)
      api().MatrixFree(H);
  }
};

Error makeMatrix(const Matrix &X, ArrayRef<float> Labels,
                 ArrayRef<float> Weights, ArrayRef<float> Margin,
                 DMatrix &Out) {
  const Api &A = api();
  if (A.MatrixFromMat(X.Values.data(), X.Rows, X.Cols, NAN, &Out.H))
    return failure("cannot make a matrix");
  auto Set = [&](const char *Field, ArrayRef<float> V) -> Error {
    if (V.empty())
      return Error::success();
    if (V.size() != X.Rows)
      return createStringError(formatv("XGBoost: {0}: {1} values for {2} "
                                       "rows",
                                       Field, V.size(), X.Rows));
    if (A.SetFloatInfo(Out.H, Field, V.data(), V.size()))
      return failure(Twine("cannot set ") + Field);
    return Error::success();
  };
  if (Error E = Set("label", Labels))
    return E;
  if (Error E = Set("weight", Weights))
    return E;
  return Set("base_margin", Margin);
}

} // namespace

Error xgb::available() {
  const Api &A = api();
  if (!A.Problem.empty())
    return createStringError(A.Problem);
  return Error::success();
}

std::string xgb::version() {
  if (!api().Problem.empty())
    return "";
  int Major = 0, Minor = 0, Patch = 0;
  api().Version(&Major, &Minor, &Patch);
  return formatv("{0}.{1}.{2}", Major, Minor, Patch).str();
}

Booster &Booster::operator=(Booster &&O) noexcept {
  std::swap(Handle, O.Handle);
  return *this;
}

Booster::~Booster() {
  if (Handle)
    api().Free(Handle);
}

Expected<Booster> Booster::train(const Matrix &X, ArrayRef<float> Labels,
                                 ArrayRef<float> Weights,
                                 ArrayRef<float> Margin, const Params &P,
                                 unsigned Rounds) {
  if (Error E = available())
    return E;
  DMatrix M;
  if (Error E = makeMatrix(X, Labels, Weights, Margin, M))
    return E;
  const Api &A = api();
  Booster B;
  if (A.Create(&M.H, 1, &B.Handle))
    return failure("cannot create a booster");
  for (const auto &[Key, Value] : P)
    if (A.SetParam(B.Handle, Key.c_str(), Value.c_str()))
      return failure("parameter " + Key + "=" + Value);
  for (unsigned I = 0; I < Rounds; ++I)
    if (A.UpdateOneIter(B.Handle, int(I), M.H))
      return failure(formatv("training round {0}", I));
  return B;
}

Expected<Booster> Booster::fromJson(StringRef Json) {
  if (Error E = available())
    return E;
  const Api &A = api();
  Booster B;
  if (A.Create(nullptr, 0, &B.Handle))
    return failure("cannot create a booster");
  if (A.Load(B.Handle, Json.data(), Json.size()))
    return failure("cannot read the model");
  // Predictions of a few rows: one thread, no thread pool to start.
  if (A.SetParam(B.Handle, "nthread", "1"))
    return failure("parameter nthread=1");
  return B;
}

Expected<std::vector<float>> Booster::predict(const Matrix &X,
                                              ArrayRef<float> Margin,
                                              unsigned Rounds) const {
  DMatrix M;
  if (Error E = makeMatrix(X, {}, {}, Margin, M))
    return E;
  // The first Rounds rounds: a slice of the booster (XGBoost's own way;
  // its tree limit of XGBoosterPredict is deprecated).
  BoosterHandle Use = Handle;
  Booster Sliced;
  if (Rounds) {
    if (api().Slice(Handle, 0, int(Rounds), 1, &Sliced.Handle))
      return failure(formatv("the first {0} rounds of the model", Rounds));
    Use = Sliced.Handle;
  }
  bst_ulong Len = 0;
  const float *Out = nullptr;
  if (api().Predict(Use, M.H, 0, 0, 0, &Len, &Out))
    return failure("prediction");
  if (Len != X.Rows)
    return createStringError(
        formatv("XGBoost: {0} predictions for {1} rows", Len, X.Rows));
  return std::vector<float>(Out, Out + Len);
}

Expected<std::string> Booster::toJson() const {
  bst_ulong Len = 0;
  const char *Out = nullptr;
  if (api().Save(Handle, R"({"format": "json"})", &Len, &Out))
    return failure("cannot save the model");
  return std::string(Out, Len);
}
