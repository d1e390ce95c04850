//===- PredictTest.cpp - warpscope train/predict's parts -----------------===//
//
// The dataset reader's CSV splitting, the analytic terms and the margin,
// held-out error figures, and a model that survives its file: trained,
// saved, loaded, it predicts exactly what it did (XGBoost reads its own
// numbers by how they are written, so the file must keep them verbatim).
//
//===----------------------------------------------------------------------===//

#include "PredictModel.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace warpscope;
using namespace warpscope::predict;

namespace {

GpuSpec h100() { return {"h100-sxm", 132, 4, 64, 32, 3350}; }

Calibration calibration() {
  Calibration C;
  C.FloorUs = 2.5;
  C.ClockMhz = 1600;
  C.ModeledConfig = "h100-sxm";
  C.MedianTarget = 10;
  return C;
}

KernelSample sample(uint64_t Ctas, double WarpInstr, double GlobalBytes) {
  KernelSample S;
  S.Program = "p";
  S.Grid[0] = Ctas;
  S.Block[0] = 256;
  S.Launches = 2;
  S.WarpInstructions = WarpInstr;
  S.GlobalBytes = GlobalBytes;
  return S;
}

size_t featureIndex(const char *Name) {
  const auto &N = featureNames();
  return std::find(N.begin(), N.end(), Name) - N.begin();
}

TEST(PredictCsv, SplitsQuotedFields) {
  std::vector<std::string> F;
  ASSERT_TRUE(splitCsvLine(R"(a,"b, c",,"say ""hi""")", F));
  ASSERT_EQ(F.size(), 4u);
  EXPECT_EQ(F[1], "b, c");
  EXPECT_EQ(F[2], "");
  EXPECT_EQ(F[3], "say \"hi\"");
  EXPECT_FALSE(splitCsvLine(R"(a,"open)", F));
}

TEST(PredictFeatures, AnalyticTerms) {
  // 264 CTAs of 8 warps: 8 CTAs per SM by warp slots (64 / 8), so
  // 264 / (132 * 8) = 0.25 waves; per launch 1,056,000 warp instructions,
  // 3.35 MB requested.
  KernelSample S = sample(264, 2 * 1056000.0, 2 * 3.35e6);
  Analytic A = analytic(S, h100(), calibration());
  EXPECT_DOUBLE_EQ(A.Waves, 0.25);
  EXPECT_NEAR(A.IssueUs, 1056000.0 / (132 * 4) / 1600, 1e-9);
  EXPECT_NEAR(A.MemoryUs, 1.0, 1e-9);
  // 500 warp instructions per warp, one wave, 8 cycles each.
  EXPECT_NEAR(A.LatencyUs, 500 * 8 / 1600.0, 1e-9);
  // 2,113 CTAs: 2.0009 waves, so a warp's chain runs three times; the
  // same warp instructions over 8x the warps.
  S.Grid[0] = 2113;
  A = analytic(S, h100(), calibration());
  EXPECT_NEAR(A.Waves, 2113.0 / 1056, 1e-12);
  EXPECT_NEAR(A.LatencyUs, 1056000.0 / (2113 * 8) * 3 * 8 / 1600.0, 1e-9);
}

TEST(PredictFeatures, MarginIsModeledOnlyForTheModelsConfiguration) {
  Calibration C = calibration();
  KernelSample S = sample(264, 2 * 1056000.0, 2 * 3.35e6);
  std::vector<float> F(featureNames().size());
  float Analytic = features(S, h100(), C, Target::Time, F.data());
  EXPECT_NEAR(std::exp(Analytic), 2.5 + 2.5, 1e-4); // floor + latency term
  EXPECT_TRUE(std::isnan(F[featureIndex("log_modeled_over_analytic")]));
  S.ModeledCycles = 2 * 16000; // 10 us per launch at 1600 MHz
  S.ModeledConfig = "h100-sxm";
  float Modeled = features(S, h100(), C, Target::Time, F.data());
  EXPECT_NEAR(std::exp(Modeled), 12.5, 1e-4);
  EXPECT_NEAR(F[featureIndex("log_modeled_over_analytic")],
              std::log(12.5 / 5.0), 1e-5);
  S.ModeledConfig = "a100";
  EXPECT_FLOAT_EQ(features(S, h100(), C, Target::Time, F.data()), Analytic);
  EXPECT_TRUE(std::isnan(F[featureIndex("log_modeled_over_analytic")]));
  // Power starts from the data's median, whatever the row.
  EXPECT_NEAR(std::exp(features(S, h100(), C, Target::Power, F.data())), 10,
              1e-4);
  // An excluded feature is missing.
  C.Excluded = {"threads_per_cta"};
  features(S, h100(), C, Target::Time, F.data());
  EXPECT_TRUE(std::isnan(F[featureIndex("threads_per_cta")]));
}

TEST(PredictErrors, Figures) {
  std::vector<KernelSample> Rows(4);
  const char *Programs[] = {"a", "a", "b", "c"};
  for (int I = 0; I < 4; ++I) {
    Rows[I].Program = Programs[I];
    Rows[I].Measured = 10;
  }
  // APEs 10, 30, 20, 5: mean 16.25, median 15, 2 of 4 within 15%;
  // programs' medians 20, 20, 5: median 20.
  Errors E = errorsOf(Rows, {11, 7, 12, 10.5});
  EXPECT_EQ(E.Rows, 4u);
  EXPECT_EQ(E.Programs, 3u);
  EXPECT_NEAR(E.Mape, 16.25, 1e-9);
  EXPECT_NEAR(E.MedianApe, 15, 1e-9);
  EXPECT_NEAR(E.Within15, 50, 1e-9);
  EXPECT_NEAR(E.ProgramMedianApe, 20, 1e-9);
}

TEST(PredictErrors, PerKernelSumsItsLaunchConfigurations) {
  // Kernel k of program a at size s: two configurations measured 10 us
  // (1 launch) and 20 us (2 launches), predicted 15 and 15: rows 50% and
  // 25% off, the kernel 45 of 50 us, 10% off. The same kernel at another
  // size, and kernel j, are kernels of their own.
  std::vector<KernelSample> Rows(5);
  struct {
    const char *Size, *Kernel;
    uint64_t Launches;
    double Measured;
  } R[] = {{"s", "k", 1, 10},
           {"s", "k", 2, 20},
           {"m", "k", 1, 10},
           {"s", "j", 1, 10},
           {"s", "j", 1, 10}};
  for (int I = 0; I < 5; ++I) {
    Rows[I].Program = "a";
    Rows[I].SizeTag = R[I].Size;
    Rows[I].Kernel = R[I].Kernel;
    Rows[I].Launches = R[I].Launches;
    Rows[I].Measured = R[I].Measured;
  }
  // Kernel (m, k): 30% off; (s, j): a row not predicted, left out.
  Errors E = errorsPerKernel(Rows, {15, 15, 13, 10, NAN});
  EXPECT_EQ(E.Rows, 2u);
  EXPECT_EQ(E.Programs, 1u);
  EXPECT_NEAR(E.Mape, 20, 1e-9);
  EXPECT_NEAR(E.MedianApe, 20, 1e-9);
  EXPECT_NEAR(E.Within15, 50, 1e-9);
}

/// Four programs whose times follow the analytic estimate (the floor plus
/// the largest term) with the term 1.2 times longer and a wiggle of ±2%;
/// each has a launch too small for any term, which takes the floor (train
/// measures the floor as the shortest time).
Dataset syntheticDataset() {
  Dataset D;
  D.Path = "synthetic.csv";
  D.From.Device = "test GPU";
  const char *Programs[] = {"a", "b", "c", "d"};
  for (int P = 0; P < 4; ++P) {
    KernelSample Tiny = sample(1, 1, 0);
    Tiny.Program = Programs[P];
    Tiny.Measured = calibration().FloorUs;
    D.Rows.push_back(Tiny);
    for (int K = 0; K < 8; ++K) {
      KernelSample S =
          sample(8u << K, (P + 1) * 1e5 * (1 << K), (4 - P) * 1e6 * (1 << K));
      S.Program = Programs[P];
      Analytic A = analytic(S, h100(), calibration());
      S.Measured = (calibration().FloorUs + 1.2 * A.maxUs()) *
                   (1 + 0.02 * (K % 3 - 1.0));
      D.Rows.push_back(S);
    }
  }
  return D;
}

TEST(PredictModel, SurvivesItsFileAndRespectsTheFloor) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  Dataset D = syntheticDataset();
  TrainOptions O;
  Calibration C = calibration();
  std::vector<double> Held;
  llvm::Expected<Model> M = train(D, h100(), C, O, &Held);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Held.Method, "leave-one-program-out");
  EXPECT_EQ(M->Held.E.Rows, D.Rows.size());
  EXPECT_GT(M->Held.PerKernel.Rows, 0u);
  EXPECT_NEAR(M->Held.PerKernel.MedianApe,
              errorsPerKernel(D.Rows, Held).MedianApe, 1e-9);
  for (double H : Held)
    EXPECT_GE(H, C.FloorUs);
  // The times follow the analytic estimate: held out, each program is
  // predicted within a few percent (the margin, in log space, carries the
  // scale; the trees learn the factor from the other programs).
  EXPECT_LT(M->Held.E.MedianApe, 5.0);
  EXPECT_LT(M->Held.E.Mape, 8.0);
  M->Name = "synthetic";
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("predict", "json", Path));
  ASSERT_FALSE(bool(saveModel(*M, std::string(Path))));
  llvm::Expected<Model> L = loadModel(std::string(Path));
  llvm::sys::fs::remove(Path);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  EXPECT_EQ(L->Name, "synthetic");
  EXPECT_EQ(L->From.Device, "test GPU");
  EXPECT_NEAR(L->Held.E.MedianApe, M->Held.E.MedianApe, 0.01);
  EXPECT_EQ(L->Held.PerKernel.Rows, M->Held.PerKernel.Rows);
  EXPECT_NEAR(L->Held.PerKernel.MedianApe, M->Held.PerKernel.MedianApe, 0.01);
  auto Before = predictSamples(*M, D.Rows);
  auto After = predictSamples(*L, D.Rows);
  ASSERT_TRUE(Before && After);
  for (size_t I = 0; I < D.Rows.size(); ++I)
    EXPECT_EQ((*Before)[I], (*After)[I]);
  // A row far below anything trained on still gets the floor.
  KernelSample Tiny = sample(1, 1, 0);
  auto P = predictSamples(*L, {Tiny});
  ASSERT_TRUE(bool(P));
  EXPECT_GE((*P)[0], C.FloorUs);
}

TEST(PredictModel, NeverBelowTheLaunchFloor) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  // Times well below the estimate teach the trees to go down; a launch too
  // small for any term would then be predicted under the floor, which no
  // launch can beat.
  Dataset D = syntheticDataset();
  for (KernelSample &S : D.Rows)
    S.Measured *= 0.4;
  TrainOptions O;
  O.HeldOut = false;
  Calibration C = calibration();
  llvm::Expected<Model> M = train(D, h100(), C, O, nullptr);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  // The floor is the shortest time trained on.
  EXPECT_DOUBLE_EQ(M->Cal.FloorUs, 0.4 * C.FloorUs);
  auto P = predictSamples(*M, {sample(1, 1, 0)});
  ASSERT_TRUE(bool(P));
  EXPECT_DOUBLE_EQ((*P)[0], M->Cal.FloorUs);
}

TEST(PredictModel, HeldOutProgramIsNotTrainedOn) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  // Program d runs ten times slower than the others' law says. Left out,
  // nothing in training tells of it, so its held-out predictions stay near
  // the law (an eighth of its times or less); a model that saw d's rows
  // predicts them higher (the final model, trained on every row, does).
  // Its launch at the floor is dropped (a floor is the same in any program).
  Dataset D = syntheticDataset();
  Calibration C = calibration();
  D.Rows.erase(std::remove_if(D.Rows.begin(), D.Rows.end(),
                              [&](const KernelSample &S) {
                                return S.Program == "d" &&
                                       S.Measured == C.FloorUs;
                              }),
               D.Rows.end());
  for (KernelSample &S : D.Rows)
    if (S.Program == "d")
      S.Measured *= 10;
  TrainOptions O;
  std::vector<double> Held;
  llvm::Expected<Model> M = train(D, h100(), C, O, &Held);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  std::vector<KernelSample> OfD;
  std::vector<double> HeldOfD;
  for (size_t I = 0; I < D.Rows.size(); ++I)
    if (D.Rows[I].Program == "d") {
      EXPECT_LT(Held[I], 0.2 * D.Rows[I].Measured) << "row " << I;
      OfD.push_back(D.Rows[I]);
      HeldOfD.push_back(Held[I]);
    }
  auto Final = predictSamples(*M, OfD);
  ASSERT_TRUE(bool(Final));
  for (size_t I = 0; I < OfD.size(); ++I)
    EXPECT_GT((*Final)[I], 2 * HeldOfD[I]) << "row " << I;
}

TEST(PredictModel, NestedSelectionKeepsTreesThatTransfer) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  // Every program is 1.2 times its margin: what the trees learn from some
  // programs holds for the others, so leave-one-program-out within the
  // training programs keeps trees (the margin alone is 20% off).
  Dataset D = syntheticDataset();
  TrainOptions O;
  O.SelectRounds = {0, 10, 200};
  llvm::Expected<Model> M = train(D, h100(), calibration(), O, nullptr);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Rounds, 200u);
  EXPECT_FALSE(M->Selection.empty());
  ASSERT_EQ(M->FoldChoice.size(), 4u);
  for (const auto &[P, What] : M->FoldChoice)
    EXPECT_TRUE(llvm::StringRef(What).starts_with("200 rounds of "))
        << "fold " << P << ": " << What;
  EXPECT_LT(M->Held.E.MedianApe, 5.0);
}

TEST(PredictModel, NestedSelectionDropsTreesThatDoNotTransfer) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  // Programs a and c run at half their margin, b and d at twice it: a
  // correction learned on some programs points the wrong way for the one
  // left out. Selection on the training programs alone must see that and
  // keep the margin (0 rounds), in every fold and for the model kept; a
  // selection that saw the program it predicts would keep trees.
  Dataset D = syntheticDataset();
  for (KernelSample &S : D.Rows)
    S.Measured *= (S.Program == "a" || S.Program == "c") ? 0.5 / 1.2 : 2 / 1.2;
  TrainOptions O;
  O.SelectRounds = {0, 10, 200};
  llvm::Expected<Model> M = train(D, h100(), calibration(), O, nullptr);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Rounds, 0u);
  EXPECT_FALSE(M->Booster.valid());
  ASSERT_EQ(M->FoldChoice.size(), 4u);
  for (const auto &[P, What] : M->FoldChoice)
    EXPECT_EQ(What, "0 rounds (the margin alone)") << "fold " << P;
}

TEST(PredictModel, HeldOutProgramSetsNoCalibrationFigure) {
  if (llvm::Error E = xgb::available()) {
    GTEST_SKIP() << llvm::toString(std::move(E));
  }
  // Program a runs ten times faster than the others: its shortest time
  // would be the launch floor of a model that saw it. Held out, the fold's
  // floor is the other programs' shortest time, which bounds a's held-out
  // predictions from below; the model kept (every row) has a's floor.
  Dataset D = syntheticDataset();
  double OthersFloor = INFINITY, AFloor = INFINITY;
  for (KernelSample &S : D.Rows) {
    if (S.Program == "a")
      S.Measured *= 0.1;
    double &F = S.Program == "a" ? AFloor : OthersFloor;
    F = std::min(F, S.Measured);
  }
  TrainOptions O;
  O.Rounds = 0;
  std::vector<double> Held;
  llvm::Expected<Model> M = train(D, h100(), calibration(), O, &Held);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  EXPECT_DOUBLE_EQ(M->Cal.FloorUs, AFloor);
  for (size_t I = 0; I < D.Rows.size(); ++I) {
    if (D.Rows[I].Program == "a") {
      EXPECT_GE(Held[I], OthersFloor) << "row " << I;
    }
  }
}

TEST(PredictFeatures, CalibrationFromTheRowsGiven) {
  // The floor is the shortest time, the clock the median of the rows'
  // measured clocks (the base's when no row has one).
  std::vector<KernelSample> Rows(3, sample(8, 1e5, 1e6));
  Rows[0].Measured = 7, Rows[1].Measured = 3, Rows[2].Measured = 5;
  std::vector<const KernelSample *> Ptrs = {&Rows[0], &Rows[1], &Rows[2]};
  Calibration C = calibrate(Ptrs, calibration(), Target::Time);
  EXPECT_DOUBLE_EQ(C.FloorUs, 3);
  EXPECT_DOUBLE_EQ(C.MedianTarget, 5);
  EXPECT_DOUBLE_EQ(C.ClockMhz, calibration().ClockMhz);
  Rows[0].MeasuredClockMhz = 1500, Rows[1].MeasuredClockMhz = 1700;
  Rows[2].MeasuredClockMhz = 1600;
  EXPECT_DOUBLE_EQ(calibrate(Ptrs, calibration(), Target::Time).ClockMhz, 1600);
  EXPECT_DOUBLE_EQ(calibrate(Ptrs, calibration(), Target::Power).FloorUs, 0);
}

} // namespace

namespace {
std::string writeCsv(const std::string &Name, const std::string &Text) {
  llvm::SmallString<128> Path;
  llvm::sys::path::system_temp_directory(true, Path);
  llvm::sys::path::append(Path, Name);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  OS << Text;
  return std::string(Path);
}
} // namespace

// The model has its own launch floor, so the timing model's launch cost is
// taken out of the modeled cycles it learns from (modeled_launch_cycles);
// a dataset without the column keeps its cycles.
TEST(PredictDataset, ModeledCyclesLessTheLaunchCost) {
  const std::string Head =
      "# device: test\nprogram,kernel,grid_x,grid_y,grid_z,block_x,block_y,"
      "block_z,launches,warp_instructions,sync,global_bytes,"
      "shared_bytes_moved,simd_efficiency,branch_efficiency,exact,"
      "time_ns_mean,modeled_cycles,modeled_config";
  const std::string Row =
      "p,k,8,1,1,128,1,1,2,1000,0,4096,0,1,1,yes,3000,9000,h100-sxm";
  llvm::Expected<Dataset> With =
      readDataset(writeCsv("ws-predict-lc.csv",
                           Head + ",modeled_launch_cycles\n" + Row + ",4000\n"),
                  Target::Time);
  ASSERT_TRUE(bool(With)) << llvm::toString(With.takeError());
  ASSERT_EQ(With->Rows.size(), 1u);
  EXPECT_DOUBLE_EQ(With->Rows[0].ModeledCycles, 5000);
  llvm::Expected<Dataset> Without = readDataset(
      writeCsv("ws-predict-nolc.csv", Head + "\n" + Row + "\n"), Target::Time);
  ASSERT_TRUE(bool(Without)) << llvm::toString(Without.takeError());
  EXPECT_DOUBLE_EQ(Without->Rows[0].ModeledCycles, 9000);
}
