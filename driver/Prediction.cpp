//===- Prediction.cpp - A model's predictions for a profile's kernels ----===//

#include "Prediction.h"
#include "Paths.h"
#include "ReportFormats.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace llvm;
using namespace warpscope;
using namespace warpscope::predict;

Expected<std::string> warpscope::modelPathFor(StringRef Gpu) {
  std::string File = (Gpu.lower() + "-time.json");
  std::vector<std::string> Dirs = modelDirectories();
  for (const std::string &D : Dirs) {
    SmallString<256> P(D);
    sys::path::append(P, File);
    if (sys::fs::exists(P))
      return std::string(P);
  }
  std::set<std::string> Known;
  std::error_code EC;
  for (const std::string &D : Dirs)
    for (sys::fs::directory_iterator I(D, EC), E; I != E && !EC;
         I.increment(EC)) {
      StringRef Name = sys::path::filename(I->path());
      if (Name.consume_back("-time.json"))
        Known.insert(Name.str());
    }
  return createStringError(
      "no shipped model for GPU '" + Gpu + "' (" + File + " in " +
      join(Dirs, " or ") + "); " +
      (Known.empty() ? std::string("none is installed")
                     : "there are: " + join(Known, ", ")) +
      "; or give a model with --model FILE (warpscope train makes one)");
}

Expected<std::unique_ptr<ChosenModel>>
warpscope::chooseModel(const std::string &Gpu, const std::string &File) {
  if (!Gpu.empty() && !File.empty())
    return createStringError("give --gpu or --model, not both");
  auto C = std::make_unique<ChosenModel>();
  if (!File.empty()) {
    C->Path = File;
  } else {
    Expected<std::string> P = modelPathFor(Gpu.empty() ? "h100" : Gpu);
    if (!P)
      return P.takeError();
    C->Path = *P;
  }
  Expected<Model> M = loadModel(C->Path);
  if (!M)
    return M.takeError();
  C->M = std::move(*M);
  return C;
}

KernelSample warpscope::sampleOf(const FeatureRow &R, std::string &Why) {
  KernelSample S;
  const FunctionProfile &F = R.function();
  if (!R.S.Mix.Available)
    Why = "no instruction counts (" + R.S.Mix.Why + ")";
  else if (R.Configurations > 1)
    Why = formatv("its counts add up {0} launch configurations (an aggregate "
                  "run); rerun with `warpscope run --mode per-launch` for "
                  "one row per configuration",
                  R.Configurations)
              .str();
  else if (!R.Exact)
    Why = "its counts are lower bounds (instructions the counts cannot give, "
          "or device functions no row holds)";
  S.Program = F.ModuleId;
  S.Kernel = F.Demangled;
  const LaunchGroup &L = *R.Launch;
  for (int K = 0; K < 3; ++K) {
    S.Grid[K] = L.Grid[K];
    S.Block[K] = L.Block[K];
  }
  S.SharedBytes = L.SharedBytes;
  S.Launches = F.launches();
  S.WarpInstructions = double(R.S.Mix.Total.Warp);
  S.ThreadInstructions = double(R.S.Mix.Total.Thread);
  S.Sync = double(R.classThreads({"sync"}));
  S.GlobalBytes = double(R.bytes("global"));
  S.SharedBytesMoved = double(R.bytes("shared"));
  S.SimdEfficiency = R.S.SimdEfficiency.value_or(NAN);
  S.BranchEfficiency = R.S.BranchEfficiency.value_or(NAN);
  if (R.Modeled && R.ModeledLaunches == S.Launches) {
    // The model adds its own launch floor: the SM's cycles only.
    S.ModeledCycles = double(R.ModeledCycles - R.ModeledLaunchCycles);
    S.ModeledConfig = R.ModeledConfig;
    S.ModeledFingerprint = R.ModeledFingerprint;
  }
  if (R.Memory) {
    const MemoryCounts &M = *R.Memory;
    auto Ratio = [](uint64_t N, uint64_t D) {
      return D ? double(N) / double(D) : NAN;
    };
    S.SectorRatio = Ratio(M.GlobalSectors, M.GlobalIdealSectors);
    S.BankConflictRatio = Ratio(M.SharedWavefronts, M.SharedIdealWavefronts);
    S.AtomicDensity = Ratio(M.AtomicAddresses, R.TruthWarpInstructions);
  }
  return S;
}

Expected<std::vector<RowPrediction>>
warpscope::predictRows(const Model &M, ArrayRef<FeatureRow> Rows,
                       std::string *Warning) {
  std::vector<RowPrediction> Out(Rows.size());
  std::vector<KernelSample> Samples;
  std::vector<size_t> Where;
  std::set<std::string> OtherVersions;
  unsigned OtherRows = 0;
  for (size_t I = 0; I < Rows.size(); ++I) {
    KernelSample S = sampleOf(Rows[I], Out[I].Why);
    if (!Out[I].Why.empty())
      continue;
    if (std::isfinite(S.ModeledCycles) && !hasModeled(S, M.Cal)) {
      if (S.ModeledConfig != M.Cal.ModeledConfig) {
        Out[I].Note = "its modeled cycles are of configuration '" +
                      S.ModeledConfig + "'; the model reads '" +
                      M.Cal.ModeledConfig + "'s, so it went without them";
      } else {
        // The same configuration from another version of the timing model
        // (its code or figures changed): one warning for all such rows.
        OtherVersions.insert(S.ModeledFingerprint.empty()
                                 ? "a timing-model version not recorded"
                                 : "timing model " + S.ModeledFingerprint);
        ++OtherRows;
      }
    }
    Out[I].WithEmulator = hasModeled(S, M.Cal);
    Samples.push_back(std::move(S));
    Where.push_back(I);
  }
  if (OtherRows && Warning)
    *Warning =
        formatv("the profile's modeled figures come from {0}, the "
                "model was trained on timing model {1}'s (another "
                "version): {2} row(s) predicted without them; retrain "
                "the model (scripts/train-model.sh, "
                "docs/prediction.md) or profile with the warpscope "
                "it was trained with",
                join(OtherVersions, ", "), M.Cal.ModeledFingerprint, OtherRows)
            .str();
  if (Samples.empty())
    return Out;
  Expected<std::vector<double>> P = predictSamples(M, Samples);
  if (!P)
    return P.takeError();
  for (size_t K = 0; K < Where.size(); ++K)
    Out[Where[K]].PerLaunch = (*P)[K];
  return Out;
}

std::string warpscope::predictionTitle(const Model &M) {
  return formatv("{0} on {1} (model {2})", targetName(M.T),
                 M.From.Device.empty() ? M.Gpu.Config : M.From.Device, M.Name)
      .str();
}

std::string warpscope::heldOutFor(const Model &M, bool WithEmulator) {
  if (WithEmulator || M.Held.Method != "leave-one-program-out")
    return heldOutLine(M.Held);
  HeldOut H = M.Held;
  H.E = M.HeldWithoutEmulator;
  H.PerKernel = {}; // measured with the emulator's figures only
  return heldOutLine(H) + " (inputs without the emulator's figures)";
}

std::string warpscope::formatPrediction(const Model &M, double V) {
  if (M.T == Target::Power)
    return formatv("{0:F1} W", V).str();
  if (V >= 1000)
    return formatv("{0:F3} ms", V / 1000).str();
  return formatv("{0:F2} us", V).str();
}

void warpscope::renderModelLabel(const ChosenModel &C, raw_ostream &OS,
                                 StringRef Indent) {
  const Model &M = C.M;
  OS << Indent << "model " << M.Name << " (" << C.Path << "), "
     << targetName(M.T) << " in " << targetUnit(M.T) << "\n";
  OS << Indent << "trained on " << trainingLine(M) << "\n";
  OS << Indent << heldOutFor(M, true) << "\n";
  if (M.Held.Method == "leave-one-program-out")
    OS << Indent << heldOutFor(M, false) << "\n";
}

json::Object warpscope::modelLabelJson(const ChosenModel &C) {
  const Model &M = C.M;
  return json::Object{{"label", "prediction, not a measurement"},
                      {"name", M.Name},
                      {"file", C.Path},
                      {"target", targetName(M.T)},
                      {"unit", targetUnit(M.T)},
                      {"floor_us", M.Cal.FloorUs},
                      {"training", json::Object{{"device", M.From.Device},
                                                {"dataset", M.DatasetFile},
                                                {"date", M.From.Date},
                                                {"driver", M.From.Driver},
                                                {"commit", M.From.Commit},
                                                {"rows", M.Rows},
                                                {"programs", M.Programs}}},
                      {"held_out", heldOutFor(M, true)},
                      {"held_out_without_emulator", heldOutFor(M, false)}};
}

std::string PredictionColumns::header() const {
  if (!Model)
    return "";
  return formatv(",predicted_{0},prediction",
                 Model->M.T == Target::Time ? "us_per_launch" : "watts")
      .str();
}

std::string PredictionColumns::cells(const FeatureRow &R) const {
  if (!Model)
    return "";
  auto It = Index.find(&R);
  const RowPrediction &P = Predictions[It->second];
  std::string Label = "prediction of model " + Model->M.Name + ", " +
                      (P.PerLaunch ? heldOutFor(Model->M, P.WithEmulator)
                                   : "no prediction, " + P.Why);
  return formatv(",{0},{1}",
                 P.PerLaunch ? formatv("{0:F3}", *P.PerLaunch).str() : "",
                 csvField(Label))
      .str();
}
