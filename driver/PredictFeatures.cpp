//===- PredictFeatures.cpp - What `warpscope predict` feeds its model ----===//

#include "PredictFeatures.h"
#include <algorithm>

using namespace warpscope;
using namespace warpscope::predict;

const char *predict::targetName(Target T) {
  return T == Target::Time ? "time" : "power";
}

const char *predict::targetUnit(Target T) {
  return T == Target::Time ? "microseconds per launch" : "watts";
}

Analytic predict::analytic(const KernelSample &S, const GpuSpec &G,
                           const Calibration &C) {
  Analytic A;
  double Launches = std::max<double>(1, double(S.Launches));
  double Ctas = double(S.ctas());
  double WarpsPerCta = std::ceil(double(S.threadsPerCta()) / 32.0);
  // CTAs an SM holds at once by the launch configuration alone (warp and
  // CTA slots; registers and shared memory are not in this feature version).
  double CtasPerSm =
      std::max(1.0, std::min(G.MaxBlocksPerSm,
                             std::floor(G.MaxWarpsPerSm / WarpsPerCta)));
  A.Waves = Ctas / (G.Sms * CtasPerSm);
  double WarpInstr = S.WarpInstructions / Launches;
  double Warps = std::max(1.0, Ctas * WarpsPerCta);
  double ActiveSms = std::max(1.0, std::min(Ctas, G.Sms));
  double Clock = std::max(1.0, C.ClockMhz); // cycles per microsecond
  // Issue: every warp instruction takes one issue slot of one scheduler.
  A.IssueUs = WarpInstr / (ActiveSms * G.SubPartitions) / Clock;
  // Memory: the bytes the instructions request, at DRAM bandwidth.
  A.MemoryUs = S.GlobalBytes / Launches / (G.DramGBps * 1e3);
  // Latency: a warp's instructions one after another, wave after wave.
  A.LatencyUs = (WarpInstr / Warps) * std::ceil(std::max(A.Waves, 1e-9)) *
                C.LatencyCycles / Clock;
  return A;
}

bool predict::hasModeled(const KernelSample &S, const Calibration &C) {
  return std::isfinite(S.ModeledCycles) && S.ModeledCycles > 0 &&
         S.ModeledConfig == C.ModeledConfig &&
         (C.ModeledFingerprint.empty() ||
          S.ModeledFingerprint == C.ModeledFingerprint);
}

const std::vector<std::string> &predict::featureNames() {
  static const std::vector<std::string> Names = {
      "log_analytic_us",
      "issue_share",
      "memory_share",
      "latency_share",
      "log_waves",
      "threads_per_cta",
      "log_warp_instructions_per_warp",
      "simd_efficiency",
      "branch_efficiency",
      "log1p_global_bytes_per_thread",
      "log1p_shared_bytes_per_thread",
      "log1p_sync_per_thread",
      "log_modeled_over_analytic",
      "sector_ratio",
      "bank_conflict_ratio",
      "atomic_density"};
  return Names;
}

float predict::features(const KernelSample &S, const GpuSpec &G,
                        const Calibration &C, Target T, float *Out) {
  Analytic A = analytic(S, G, C);
  double Launches = std::max<double>(1, double(S.Launches));
  double Threads = std::max<double>(1, double(S.ctas() * S.threadsPerCta()));
  double Warps =
      std::max(1.0, double(S.ctas()) * std::ceil(S.threadsPerCta() / 32.0));
  double Max = std::max(A.maxUs(), 1e-9);
  double AnalyticUs = C.FloorUs + A.maxUs();
  double ModeledUs = NAN;
  if (hasModeled(S, C))
    ModeledUs = C.FloorUs + S.ModeledCycles / Launches / C.ClockMhz;
  auto PerThread = [&](double Sum) {
    return std::log1p(Sum / Launches / Threads);
  };
  float V[] = {
      float(std::log(AnalyticUs)),
      float(A.IssueUs / Max),
      float(A.MemoryUs / Max),
      float(A.LatencyUs / Max),
      float(std::log(std::max(A.Waves, 1e-9))),
      float(S.threadsPerCta()),
      float(std::log(std::max(S.WarpInstructions / Launches / Warps, 1e-9))),
      float(S.SimdEfficiency),
      float(S.BranchEfficiency),
      float(PerThread(S.GlobalBytes)),
      float(PerThread(S.SharedBytesMoved)),
      float(PerThread(S.Sync)),
      float(std::isfinite(ModeledUs) ? std::log(ModeledUs / AnalyticUs) : NAN),
      float(S.SectorRatio),
      float(S.BankConflictRatio),
      float(S.AtomicDensity)};
  static_assert(sizeof(V) / sizeof(V[0]) == 16);
  std::copy(std::begin(V), std::end(V), Out);
  for (const std::string &E : C.Excluded) {
    auto It = std::find(featureNames().begin(), featureNames().end(), E);
    if (It != featureNames().end())
      Out[It - featureNames().begin()] = NAN;
  }
  if (T == Target::Power)
    return float(std::log(std::max(C.MedianTarget, 1e-9)));
  return float(std::log(std::isfinite(ModeledUs) ? ModeledUs : AnalyticUs));
}

Calibration predict::calibrate(const std::vector<const KernelSample *> &Rows,
                               Calibration Base, Target T) {
  std::vector<double> Targets, Clocks;
  for (const KernelSample *S : Rows) {
    Targets.push_back(S->Measured);
    if (std::isfinite(S->MeasuredClockMhz))
      Clocks.push_back(S->MeasuredClockMhz);
  }
  if (Targets.empty())
    return Base;
  std::sort(Targets.begin(), Targets.end());
  Base.MedianTarget = Targets[Targets.size() / 2];
  Base.FloorUs = T == Target::Time ? Targets.front() : 0;
  if (!Clocks.empty()) {
    std::sort(Clocks.begin(), Clocks.end());
    Base.ClockMhz = Clocks[Clocks.size() / 2];
  }
  return Base;
}

double predict::lowerBound(const Calibration &C, Target T) {
  return T == Target::Time ? C.FloorUs : 0.0;
}
