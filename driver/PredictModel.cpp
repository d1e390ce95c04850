//===- PredictModel.cpp - Trained prediction models: train, save, predict -===//

#include "PredictModel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <set>
#include <tuple>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::predict;

xgb::Params predict::defaultParams() {
  // Small, shallow, subsampled trees on a robust loss in log space: the
  // margin carries the scale, the trees a bounded correction. One tree a
  // round (nested selection trains hundreds of models). Deterministic (one
  // thread, fixed seed).
  return {{"objective", "reg:pseudohubererror"},
          {"huber_slope", "0.5"},
          {"max_depth", "3"},
          {"eta", "0.03"},
          {"subsample", "0.7"},
          {"colsample_bynode", "0.7"},
          {"min_child_weight", "2"},
          {"num_parallel_tree", "1"},
          {"base_score", "0"},
          {"tree_method", "exact"},
          {"nthread", "1"},
          {"seed", "0"},
          {"verbosity", "0"}};
}

unsigned predict::defaultRounds() { return 200; }

const std::vector<std::pair<std::string, xgb::Params>> &
predict::parameterSets() {
  // The defaults' depth 3, and stumps (one feature's correction each,
  // what is likeliest to carry over to another program) strongly
  // regularised: a leaf needs more rows' weight, its value is shrunk more.
  // Two sets only: selection trains one model per set, training program
  // and fold (about 650 trainings for 18 programs).
  static const std::vector<std::pair<std::string, xgb::Params>> Sets = {
      {"depth 3", {}},
      {"depth 1 (min_child_weight 20, lambda 30)",
       {{"max_depth", "1"}, {"min_child_weight", "20"}, {"lambda", "30"}}}};
  return Sets;
}

static double median(std::vector<double> V) {
  if (V.empty())
    return NAN;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

Errors predict::errorsOf(ArrayRef<KernelSample> Rows,
                         ArrayRef<double> Predicted) {
  Errors E;
  std::vector<double> Apes;
  std::map<std::string, std::vector<double>> ByProgram;
  for (size_t I = 0; I < Rows.size(); ++I) {
    if (!std::isfinite(Predicted[I]))
      continue;
    double Ape =
        100.0 * std::fabs(Predicted[I] - Rows[I].Measured) / Rows[I].Measured;
    Apes.push_back(Ape);
    ByProgram[Rows[I].Program].push_back(Ape);
  }
  if (Apes.empty())
    return E;
  E.Rows = Apes.size();
  E.Programs = ByProgram.size();
  double Sum = 0;
  unsigned Within = 0;
  for (double A : Apes) {
    Sum += A;
    Within += A <= 15.0;
  }
  E.Mape = Sum / Apes.size();
  E.Within15 = 100.0 * Within / Apes.size();
  E.MedianApe = median(Apes);
  std::vector<double> PerProgram;
  for (auto &[P, V] : ByProgram)
    PerProgram.push_back(median(V));
  E.ProgramMedianApe = median(PerProgram);
  return E;
}

Errors predict::errorsPerKernel(ArrayRef<KernelSample> Rows,
                                ArrayRef<double> Predicted) {
  // Per kernel: its measured and predicted time over all its launches.
  std::map<std::tuple<std::string, std::string, std::string>,
           std::pair<KernelSample, double>>
      Kernels;
  for (size_t I = 0; I < Rows.size(); ++I) {
    const KernelSample &R = Rows[I];
    auto [It, New] = Kernels.try_emplace({R.Program, R.SizeTag, R.Kernel});
    auto &[K, Pred] = It->second;
    if (New) {
      K.Program = R.Program;
      K.Measured = Pred = 0;
    }
    double Launches = double(std::max<uint64_t>(1, R.Launches));
    K.Measured += R.Measured * Launches;
    Pred += Predicted[I] * Launches; // NaN stays NaN: the kernel is left out
  }
  std::vector<KernelSample> Sums;
  std::vector<double> Preds;
  for (auto &[_, KP] : Kernels) {
    Sums.push_back(KP.first);
    Preds.push_back(KP.second);
  }
  return errorsOf(Sums, Preds);
}

namespace {

/// The rows' features and margins.
xgb::Matrix matrixOf(ArrayRef<KernelSample> Rows, const GpuSpec &G,
                     const Calibration &C, Target T,
                     std::vector<float> &Margins) {
  xgb::Matrix X;
  X.Rows = Rows.size();
  X.Cols = featureNames().size();
  X.Values.assign(X.Rows * X.Cols, 0.0f);
  Margins.resize(Rows.size());
  for (size_t I = 0; I < Rows.size(); ++I)
    Margins[I] = features(Rows[I], G, C, T, X.row(I));
  return X;
}

void setParams(xgb::Params &P, const xgb::Params &Over) {
  for (const auto &[K, V] : Over) {
    const std::string &Key = K; // C++17 lambdas cannot capture a binding
    auto It = find_if(P, [&](const auto &KV) { return KV.first == Key; });
    if (It != P.end())
      It->second = V;
    else
      P.push_back({K, V});
  }
}

/// The defaults, then the parameter set's, then the user's (--param).
xgb::Params paramsOf(const TrainOptions &O, unsigned Set) {
  xgb::Params P = defaultParams();
  setParams(P, parameterSets()[Set].second);
  setParams(P, O.Params);
  return P;
}

/// What a training uses: its rounds and parameter set.
struct Choice {
  unsigned Rounds = 0, Set = 0;
};

/// Trains on the rows Use selects; weights make every program count alike.
/// No rounds: no booster (the margin alone).
Expected<xgb::Booster> fit(const Dataset &D, const std::vector<bool> &Use,
                           const GpuSpec &G, const Calibration &C,
                           const TrainOptions &O, Choice Ch) {
  if (!Ch.Rounds)
    return xgb::Booster();
  std::vector<KernelSample> Rows;
  std::map<std::string, unsigned> PerProgram;
  for (size_t I = 0; I < D.Rows.size(); ++I)
    if (Use[I]) {
      Rows.push_back(D.Rows[I]);
      ++PerProgram[D.Rows[I].Program];
    }
  std::vector<float> Margins, Labels, Weights;
  xgb::Matrix X = matrixOf(Rows, G, C, O.T, Margins);
  double Programs = PerProgram.size(), N = Rows.size();
  for (const KernelSample &S : Rows) {
    Labels.push_back(float(std::log(S.Measured)));
    Weights.push_back(float(N / (Programs * PerProgram[S.Program])));
  }
  return xgb::Booster::train(X, Labels, Weights, Margins, paramsOf(O, Ch.Set),
                             Ch.Rounds);
}

/// The predictions of B's first Rounds rounds (0: its margin alone; all
/// of B's rounds: Rounds = B's).
Expected<std::vector<double>> predictWith(const xgb::Booster &B,
                                          unsigned Rounds, unsigned Trained,
                                          ArrayRef<KernelSample> Rows,
                                          const GpuSpec &G,
                                          const Calibration &C, Target T) {
  std::vector<float> Margins;
  xgb::Matrix X = matrixOf(Rows, G, C, T, Margins);
  Expected<std::vector<float>> Out =
      B.valid() && Rounds ? B.predict(X, Margins, Rounds < Trained ? Rounds : 0)
                          : Expected<std::vector<float>>(Margins);
  if (!Out)
    return Out.takeError();
  std::vector<double> R;
  double Floor = lowerBound(C, T);
  for (float V : *Out)
    R.push_back(std::max(Floor, std::exp(double(V))));
  return R;
}

/// Base with the floor, clock and median target measured on the rows Use
/// selects alone: a fold's figures never come from the program it
/// predicts.
Calibration calibrationOf(const Dataset &D, const std::vector<bool> &Use,
                          const Calibration &Base, Target T) {
  std::vector<const KernelSample *> Rows;
  for (size_t I = 0; I < D.Rows.size(); ++I)
    if (Use[I])
      Rows.push_back(&D.Rows[I]);
  return calibrate(Rows, Base, T);
}

/// The programs of the rows Use selects.
std::set<std::string> programsOf(const Dataset &D,
                                 const std::vector<bool> &Use) {
  std::set<std::string> P;
  for (size_t I = 0; I < D.Rows.size(); ++I)
    if (Use[I])
      P.insert(D.Rows[I].Program);
  return P;
}

/// Chooses among O.SelectRounds and the parameter sets by
/// leave-one-program-out on the rows Use selects (nothing outside them is
/// seen): for each of their programs and each set, one model of the most
/// rounds trained on the others predicts it at every candidate (its first
/// rounds). The criterion counts every program alike (a few programs have
/// most of the rows): the mean over programs of each program's median APE;
/// a tie goes to the earlier candidate (0 rounds first, then the sets in
/// order, fewer rounds first).
Expected<Choice> choose(const Dataset &D, const std::vector<bool> &Use,
                        const GpuSpec &G, const Calibration &C,
                        const TrainOptions &O) {
  std::vector<unsigned> Grid = O.SelectRounds;
  std::sort(Grid.begin(), Grid.end());
  unsigned Most = Grid.back();
  unsigned Sets = Most ? parameterSets().size() : 1;
  // Score[Set][K]: the criterion of Grid[K] rounds of set Set.
  std::vector<std::vector<double>> Score(Sets,
                                         std::vector<double>(Grid.size()));
  std::set<std::string> Programs = programsOf(D, Use);
  for (const std::string &P : Programs) {
    std::vector<bool> Inner(Use);
    std::vector<KernelSample> Test;
    for (size_t I = 0; I < D.Rows.size(); ++I)
      if (Use[I] && D.Rows[I].Program == P) {
        Inner[I] = false;
        Test.push_back(D.Rows[I]);
      }
    Calibration IC = calibrationOf(D, Inner, C, O.T);
    for (unsigned Set = 0; Set < Sets; ++Set) {
      Expected<xgb::Booster> B = fit(D, Inner, G, IC, O, {Most, Set});
      if (!B)
        return B.takeError();
      for (size_t K = 0; K < Grid.size(); ++K) {
        Expected<std::vector<double>> Pred =
            predictWith(*B, Grid[K], Most, Test, G, IC, O.T);
        if (!Pred)
          return Pred.takeError();
        std::vector<double> Apes;
        for (size_t I = 0; I < Test.size(); ++I)
          Apes.push_back(std::fabs((*Pred)[I] - Test[I].Measured) /
                         Test[I].Measured);
        Score[Set][K] += median(Apes) / Programs.size();
      }
    }
  }
  Choice Best{Grid[0], 0};
  double BestScore = Score[0][0];
  for (unsigned Set = 0; Set < Sets; ++Set)
    for (size_t K = 0; K < Grid.size(); ++K)
      if (Grid[K] && Score[Set][K] < BestScore) {
        BestScore = Score[Set][K];
        Best = {Grid[K], Set};
      }
  return Best;
}

/// What to train the rows Use selects with: O's rounds and the default
/// set, or chosen.
Expected<Choice> choiceFor(const Dataset &D, const std::vector<bool> &Use,
                           const GpuSpec &G, const Calibration &C,
                           const TrainOptions &O) {
  if (O.SelectRounds.empty() || programsOf(D, Use).size() < 3)
    return Choice{O.Rounds, 0};
  return choose(D, Use, G, C, O);
}

/// The chosen rounds and set, in words: "50 rounds of depth 2 (...)".
std::string describe(Choice Ch) {
  if (!Ch.Rounds)
    return "0 rounds (the margin alone)";
  return std::to_string(Ch.Rounds) + " rounds of " +
         parameterSets()[Ch.Set].first;
}

/// Leave-one-program-out: every row predicted by a model trained without
/// its program (with the emulator's figures, in Held, and without, in
/// Bare); what each fold chose in FoldChoice.
Error leaveOneOut(const Dataset &D, const GpuSpec &G, const Calibration &C,
                  const TrainOptions &O, std::vector<double> &Held,
                  std::vector<double> &Bare,
                  std::map<std::string, std::string> &FoldChoice) {
  for (const std::string &P :
       programsOf(D, std::vector<bool>(D.Rows.size(), true))) {
    std::vector<bool> Use(D.Rows.size());
    std::vector<KernelSample> Test;
    std::vector<size_t> Where;
    for (size_t I = 0; I < D.Rows.size(); ++I) {
      Use[I] = D.Rows[I].Program != P;
      if (!Use[I]) {
        Test.push_back(D.Rows[I]);
        Where.push_back(I);
      }
    }
    Calibration FC = calibrationOf(D, Use, C, O.T);
    Expected<Choice> Ch = choiceFor(D, Use, G, FC, O);
    if (!Ch)
      return Ch.takeError();
    FoldChoice[P] = describe(*Ch);
    Expected<xgb::Booster> B = fit(D, Use, G, FC, O, *Ch);
    if (!B)
      return B.takeError();
    Expected<std::vector<double>> Pred =
        predictWith(*B, Ch->Rounds, Ch->Rounds, Test, G, FC, O.T);
    if (!Pred)
      return Pred.takeError();
    for (KernelSample &S : Test)
      S = withoutEmulator(std::move(S));
    Expected<std::vector<double>> BarePred =
        predictWith(*B, Ch->Rounds, Ch->Rounds, Test, G, FC, O.T);
    if (!BarePred)
      return BarePred.takeError();
    for (size_t K = 0; K < Where.size(); ++K) {
      Held[Where[K]] = (*Pred)[K];
      Bare[Where[K]] = (*BarePred)[K];
    }
  }
  return Error::success();
}

} // namespace

Expected<Model> predict::train(const Dataset &D, const GpuSpec &G,
                               const Calibration &C, const TrainOptions &O,
                               std::vector<double> *HeldOutPredictions) {
  Model M;
  M.T = O.T;
  M.Gpu = G;
  M.From = D.From;
  M.DatasetFile = sys::path::filename(D.Path).str();
  M.Rows = D.Rows.size();
  M.LeftOut = D.LeftOut;
  M.XgbVersion = xgb::version();
  std::vector<bool> All(D.Rows.size(), true);
  M.Cal = calibrationOf(D, All, C, O.T);
  size_t Programs = programsOf(D, All).size();
  M.Programs = Programs;
  std::vector<double> Held(D.Rows.size(), NAN), Bare(D.Rows.size(), NAN);
  if (!O.HeldOut) {
    M.Held = {"none", "not measured (train --no-heldout)", {}, {}};
  } else if (Programs < 3) {
    M.Held = {"none",
              formatv("not measured: {0} program(s) in the training data, "
                      "leaving one out needs 3 or more",
                      Programs)
                  .str(),
              {},
              {}};
  } else {
    if (Error E = leaveOneOut(D, G, C, O, Held, Bare, M.FoldChoice))
      return E;
    M.Held = {"leave-one-program-out", "", errorsOf(D.Rows, Held),
              errorsPerKernel(D.Rows, Held)};
    M.HeldWithoutEmulator = errorsOf(D.Rows, Bare);
  }
  Expected<Choice> Ch = choiceFor(D, All, G, M.Cal, O);
  if (!Ch)
    return Ch.takeError();
  M.Rounds = Ch->Rounds;
  M.Params = paramsOf(O, Ch->Set);
  if (!O.SelectRounds.empty() && Programs >= 3) {
    std::vector<std::string> Sets;
    for (const auto &[Name, _] : parameterSets())
      Sets.push_back(Name);
    M.Selection =
        "leave-one-program-out within the training programs among " +
        join(map_range(O.SelectRounds,
                       [](unsigned R) { return std::to_string(R); }),
             ", ") +
        " rounds of " + join(Sets, "; ") +
        ": the least mean over programs of each program's median APE; "
        "chose " +
        describe(*Ch);
  }
  Expected<xgb::Booster> B = fit(D, All, G, M.Cal, O, *Ch);
  if (!B)
    return B.takeError();
  M.Booster = std::move(*B);
  if (HeldOutPredictions)
    *HeldOutPredictions = std::move(Held);
  return M;
}

KernelSample predict::withoutEmulator(KernelSample S) {
  S.ModeledCycles = NAN;
  S.ModeledConfig.clear();
  S.ModeledFingerprint.clear();
  S.SectorRatio = S.BankConflictRatio = S.AtomicDensity = NAN;
  return S;
}

Expected<std::vector<double>>
predict::predictSamples(const Model &M, ArrayRef<KernelSample> Samples) {
  return predictWith(M.Booster, M.Rounds, M.Rounds, Samples, M.Gpu, M.Cal, M.T);
}

std::string predict::heldOutLine(const HeldOut &H) {
  if (H.Method != "leave-one-program-out")
    return "held-out error " + H.Why;
  const Errors &E = H.E;
  std::string Line =
      formatv("held-out error, leave-one-program-out on {0} programs "
              "({1} rows): median {2:F1}%, MAPE {3:F1}%, {4:F0}% within "
              "±15%",
              E.Programs, E.Rows, E.MedianApe, E.Mape, E.Within15)
          .str();
  // nw's hundreds of launch configurations of one kernel decide a median
  // by rows; per kernel each counts once.
  if (const Errors &K = H.PerKernel; K.Rows)
    Line += formatv("; per (program, size, kernel), {0} kernels: median "
                    "{1:F1}%, {2:F0}% within ±15%",
                    K.Rows, K.MedianApe, K.Within15)
                .str();
  return Line;
}

std::string predict::trainingLine(const Model &M) {
  auto Or = [](const std::string &S) {
    return S.empty() ? std::string("not recorded") : S;
  };
  return formatv("{0} ({1}), measured {2}, driver {3}, commit {4}; {5} rows "
                 "of {6} programs",
                 Or(M.From.Device), M.DatasetFile, Or(M.From.Date),
                 Or(M.From.Driver), Or(M.From.Commit), M.Rows, M.Programs)
      .str();
}

//===----------------------------------------------------------------------===//
// The model file
//===----------------------------------------------------------------------===//

namespace {

json::Value errorsJson(const Errors &E) {
  auto N = [](double V) -> json::Value {
    return std::isfinite(V) ? json::Value(std::round(V * 100) / 100)
                            : json::Value(nullptr);
  };
  return json::Object{{"rows", E.Rows},
                      {"programs", E.Programs},
                      {"mape_percent", N(E.Mape)},
                      {"median_ape_percent", N(E.MedianApe)},
                      {"within_15_percent", N(E.Within15)},
                      {"program_median_ape_percent", N(E.ProgramMedianApe)}};
}

json::Object metadataJson(const Model &M) {
  json::Object Params, LeftOut;
  for (const auto &[K, V] : M.Params)
    Params[K] = V;
  for (const auto &[K, V] : M.LeftOut)
    LeftOut[K] = V;
  json::Array Names, Excluded;
  for (const std::string &N : featureNames())
    Names.push_back(N);
  for (const std::string &N : M.Cal.Excluded)
    Excluded.push_back(N);
  json::Object Held{{"method", M.Held.Method}};
  if (!M.Held.Why.empty())
    Held["why"] = M.Held.Why;
  else {
    Held["errors"] = errorsJson(M.Held.E);
    if (M.Held.PerKernel.Rows)
      Held["errors_per_kernel"] = errorsJson(M.Held.PerKernel);
    Held["errors_without_emulator"] = errorsJson(M.HeldWithoutEmulator);
  }
  if (!M.Selection.empty()) {
    json::Object Chosen;
    for (const auto &[P, What] : M.FoldChoice)
      Chosen[P] = What;
    Held["chosen"] = std::move(Chosen);
  }
  json::Object Xgb{{"version", M.XgbVersion},
                   {"rounds", M.Rounds},
                   {"params", std::move(Params)}};
  if (!M.Selection.empty())
    Xgb["chosen_by"] = M.Selection;
  return json::Object{
      {"schema", ModelSchema},
      {"name", M.Name},
      {"target", targetName(M.T)},
      {"unit", targetUnit(M.T)},
      {"feature_version", M.Features},
      {"features", std::move(Names)},
      {"gpu", json::Object{{"config", M.Gpu.Config},
                           {"sm_count", M.Gpu.Sms},
                           {"sub_partitions", M.Gpu.SubPartitions},
                           {"max_warps_per_sm", M.Gpu.MaxWarpsPerSm},
                           {"max_blocks_per_sm", M.Gpu.MaxBlocksPerSm},
                           {"dram_gbytes_per_s", M.Gpu.DramGBps}}},
      {"calibration",
       json::Object{{"floor_us", M.Cal.FloorUs},
                    {"clock_mhz", M.Cal.ClockMhz},
                    {"latency_cycles", M.Cal.LatencyCycles},
                    {"modeled_config", M.Cal.ModeledConfig},
                    {"modeled_fingerprint", M.Cal.ModeledFingerprint},
                    {"median_target", M.Cal.MedianTarget},
                    {"excluded_features", std::move(Excluded)}}},
      {"training", json::Object{{"dataset", M.DatasetFile},
                                {"device", M.From.Device},
                                {"date", M.From.Date},
                                {"driver", M.From.Driver},
                                {"cuda", M.From.Cuda},
                                {"commit", M.From.Commit},
                                {"rows", M.Rows},
                                {"programs", M.Programs},
                                {"rows_left_out", std::move(LeftOut)}}},
      {"held_out", std::move(Held)},
      {"xgboost", std::move(Xgb)}};
}

} // namespace

Error predict::saveModel(const Model &M, const std::string &Path) {
  Expected<std::string> Booster =
      M.Booster.valid() ? M.Booster.toJson() : std::string("null");
  if (!Booster)
    return Booster.takeError();
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError("cannot write '" + Path + "': " + EC.message());
  // The metadata one member per line, the booster (XGBoost's JSON) as
  // XGBoost writes it, on one line.
  std::string Meta = formatv("{0:1}", json::Value(metadataJson(M))).str();
  Meta.resize(Meta.rfind('}'));
  while (!Meta.empty() && (Meta.back() == '\n' || Meta.back() == ' '))
    Meta.pop_back();
  OS << Meta << ",\n \"booster\": " << *Booster << "\n}\n";
  return Error::success();
}

namespace {

void readErrors(const json::Object *O, Errors &E) {
  if (!O)
    return;
  E.Rows = unsigned(O->getInteger("rows").value_or(0));
  E.Programs = unsigned(O->getInteger("programs").value_or(0));
  E.Mape = O->getNumber("mape_percent").value_or(NAN);
  E.MedianApe = O->getNumber("median_ape_percent").value_or(NAN);
  E.Within15 = O->getNumber("within_15_percent").value_or(NAN);
  E.ProgramMedianApe = O->getNumber("program_median_ape_percent").value_or(NAN);
}

/// The text of the value of Key in the top-level object of Text, as it is
/// written (XGBoost reads its numbers by how they are written: 1.0E0 is a
/// float, 1 an integer, so its model must not be printed again); "" when
/// there is no such member.
StringRef rawMember(StringRef Text, StringRef Key) {
  int Depth = 0;
  size_t ValueStart = StringRef::npos;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '"') {
      size_t End = I + 1;
      while (End < Text.size() && Text[End] != '"')
        End += Text[End] == '\\' ? 2 : 1;
      StringRef Str = Text.slice(I + 1, End);
      I = End;
      if (Depth != 1 || ValueStart != StringRef::npos || Str != Key)
        continue;
      size_t Colon = Text.find_first_not_of(" \t\r\n", I + 1);
      if (Colon == StringRef::npos || Text[Colon] != ':')
        continue;
      ValueStart = Text.find_first_not_of(" \t\r\n", Colon + 1);
      if (ValueStart == StringRef::npos)
        return "";
      I = ValueStart - 1;
      continue;
    }
    if (C == '{' || C == '[')
      ++Depth;
    if (C == '}' || C == ']')
      --Depth;
    // The value ends where the depth is back at 1 and a ',' or '}' comes.
    if (ValueStart != StringRef::npos && Depth <= 1 &&
        (C == ',' || (C == '}' && Depth == 0)))
      return Text.slice(ValueStart, I).rtrim();
  }
  return "";
}

std::string str(const json::Object *O, StringRef K) {
  return O ? O->getString(K).value_or("").str() : "";
}
double num(const json::Object *O, StringRef K) {
  return O ? O->getNumber(K).value_or(NAN) : NAN;
}

} // namespace

Expected<Model> predict::loadModel(const std::string &Path) {
  auto Fail = [&](const Twine &Msg) {
    return createStringError(Path + ": " + Msg);
  };
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return Fail("cannot read (" + Buf.getError().message() + ")");
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return Fail("is not valid JSON (" + toString(V.takeError()) +
                "); the model file is corrupt or truncated");
  json::Object *Top = V->getAsObject();
  if (!Top || Top->getString("schema") != StringRef(ModelSchema))
    return Fail(Twine("is not a WarpScope model (schema ") + ModelSchema +
                "); make one with `warpscope train`");
  Model M;
  M.Name = str(Top, "name");
  M.Features = str(Top, "feature_version");
  std::vector<std::string> Names;
  if (const json::Array *A = Top->getArray("features"))
    for (const json::Value &N : *A)
      Names.push_back(N.getAsString().value_or("").str());
  if (M.Features != FeatureVersion || Names != featureNames())
    return Fail("was trained on features '" + M.Features + "' (" +
                Twine(Names.size()) + " of them); this warpscope computes '" +
                FeatureVersion +
                "': retrain it with `warpscope train` "
                "(docs/prediction.md)");
  std::string TargetName = str(Top, "target");
  if (TargetName != "time" && TargetName != "power")
    return Fail("has target '" + TargetName + "', not time or power");
  M.T = TargetName == "time" ? Target::Time : Target::Power;
  const json::Object *G = Top->getObject("gpu");
  M.Gpu = {str(G, "config"),
           num(G, "sm_count"),
           num(G, "sub_partitions"),
           num(G, "max_warps_per_sm"),
           num(G, "max_blocks_per_sm"),
           num(G, "dram_gbytes_per_s")};
  const json::Object *C = Top->getObject("calibration");
  M.Cal = {num(C, "floor_us"),
           num(C, "clock_mhz"),
           num(C, "latency_cycles"),
           str(C, "modeled_config"),
           str(C, "modeled_fingerprint"),
           num(C, "median_target"),
           {}};
  if (const json::Array *A = C ? C->getArray("excluded_features") : nullptr)
    for (const json::Value &N : *A) {
      std::string Name = N.getAsString().value_or("").str();
      if (!is_contained(featureNames(), Name))
        return Fail("excludes feature '" + Name + "', which feature version " +
                    FeatureVersion + " does not have; retrain it");
      M.Cal.Excluded.push_back(Name);
    }
  for (double X : {M.Gpu.Sms, M.Gpu.SubPartitions, M.Gpu.MaxWarpsPerSm,
                   M.Gpu.MaxBlocksPerSm, M.Gpu.DramGBps, M.Cal.FloorUs,
                   M.Cal.ClockMhz, M.Cal.LatencyCycles, M.Cal.MedianTarget})
    if (!std::isfinite(X) || X < 0)
      return Fail("lacks a figure of its 'gpu' or 'calibration' (or one is "
                  "negative); the file was edited or is corrupt: retrain it");
  const json::Object *T = Top->getObject("training");
  M.DatasetFile = str(T, "dataset");
  M.From = {str(T, "device"), str(T, "driver"), str(T, "cuda"), str(T, "date"),
            str(T, "commit")};
  M.Rows = unsigned(T ? T->getInteger("rows").value_or(0) : 0);
  M.Programs = unsigned(T ? T->getInteger("programs").value_or(0) : 0);
  const json::Object *H = Top->getObject("held_out");
  M.Held.Method = str(H, "method");
  M.Held.Why = str(H, "why");
  readErrors(H ? H->getObject("errors") : nullptr, M.Held.E);
  readErrors(H ? H->getObject("errors_per_kernel") : nullptr, M.Held.PerKernel);
  readErrors(H ? H->getObject("errors_without_emulator") : nullptr,
             M.HeldWithoutEmulator);
  const json::Object *X = Top->getObject("xgboost");
  M.XgbVersion = str(X, "version");
  M.Rounds = unsigned(X ? X->getInteger("rounds").value_or(0) : 0);
  M.Selection = str(X, "chosen_by");
  const json::Value *B = Top->get("booster");
  if (B && B->kind() == json::Value::Null && M.Rounds == 0)
    return M; // the margin alone (train --rounds 0)
  if (!B || !B->getAsObject())
    return Fail("has no booster; retrain it with `warpscope train`");
  StringRef Text = rawMember((*Buf)->getBuffer(), "booster");
  Expected<xgb::Booster> Bo = xgb::Booster::fromJson(Text);
  if (!Bo)
    return Fail(toString(Bo.takeError()));
  M.Booster = std::move(*Bo);
  return M;
}
