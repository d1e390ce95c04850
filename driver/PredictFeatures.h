//===- PredictFeatures.h - What `warpscope predict` feeds its model -----===//
//
// One kernel launch configuration (counts summed over its launches, as
// `warpscope features` writes them) becomes a feature vector of version
// FeatureVersion and a base margin: the model predicts log(target) as the
// margin plus what its trees add. For time the margin is an analytic
// estimate from the exact counts and the GPU's configuration (SMs, issue
// slots, DRAM bandwidth, a measured launch floor and clock), or the timing
// model's modeled cycles when the row has them; the trees learn how far the
// measured times are from it. Definitions: docs/prediction.md.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_PREDICTFEATURES_H
#define WARPSCOPE_DRIVER_PREDICTFEATURES_H

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::predict {

/// The feature set's version: a model trained on one refuses another.
inline constexpr const char *FeatureVersion = "warpscope-time-features/1";

enum class Target { Time, Power };
const char *targetName(Target T);
/// "microseconds per launch" or "watts".
const char *targetUnit(Target T);

/// What the analytic terms need to know of the GPU (from a timing-model
/// configuration, docs/timing-model.md).
struct GpuSpec {
  std::string Config; ///< the configuration's name
  double Sms = 0, SubPartitions = 4, MaxWarpsPerSm = 64, MaxBlocksPerSm = 32;
  double DramGBps = 0;
};

/// What training measured besides the trees.
struct Calibration {
  double FloorUs = 0;  ///< the shortest per-launch time in the training data
  double ClockMhz = 0; ///< the SM clock the times were measured at
  /// Cycles a lone warp takes per dependent instruction (a fixed figure of
  /// the analytic latency term, not fitted).
  double LatencyCycles = 8;
  /// The timing-model configuration whose modeled cycles the model reads;
  /// a row modeled with another has no modeled feature.
  std::string ModeledConfig;
  /// ... and the version of the timing model that made them (the training
  /// data's `modeled_fingerprint`): rows of another version have no
  /// modeled feature either. "" when the data did not record it (then the
  /// configuration's name alone decides).
  std::string ModeledFingerprint;
  double MedianTarget = 0; ///< power: the margin (log of it)
  /// Features the model was trained without (train --exclude-feature):
  /// always missing (NaN) to it.
  std::vector<std::string> Excluded;
};

/// One kernel launch configuration. Counts are sums over Launches launches;
/// NaN where not known.
struct KernelSample {
  std::string Program, Kernel;
  /// The dataset's `size_tag` (the problem size the row was measured at;
  /// datasets only, "" when absent): per-kernel errors group by it.
  std::string SizeTag;
  uint64_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t SharedBytes = 0, Launches = 0;
  double WarpInstructions = 0, ThreadInstructions = 0, Sync = 0;
  double GlobalBytes = 0, SharedBytesMoved = 0;
  double SimdEfficiency = NAN, BranchEfficiency = NAN;
  /// The timing model's cycles over the launches, less the launches' fixed
  /// cost (the model has its own launch floor), and its configuration.
  double ModeledCycles = NAN;
  std::string ModeledConfig;
  /// The timing model's version of the cycles (timing::fingerprint), ""
  /// when not recorded.
  std::string ModeledFingerprint;
  /// The kernel's exact memory counts (emulator): sectors over the ideal
  /// sectors, shared wavefronts over the ideal, atomic addresses per warp
  /// instruction.
  double SectorRatio = NAN, BankConflictRatio = NAN, AtomicDensity = NAN;
  double Measured = NAN; ///< the target per launch (datasets only)
  /// The SM clock the row was measured at, MHz (its cycles over its time),
  /// where the launch took 100 microseconds or more; NaN otherwise
  /// (datasets only).
  double MeasuredClockMhz = NAN;

  uint64_t ctas() const { return Grid[0] * Grid[1] * Grid[2]; }
  uint64_t threadsPerCta() const { return Block[0] * Block[1] * Block[2]; }
};

/// The analytic estimate's terms for one launch, microseconds.
struct Analytic {
  double IssueUs = 0, MemoryUs = 0, LatencyUs = 0, Waves = 0;
  double maxUs() const {
    return std::fmax(IssueUs, std::fmax(MemoryUs, LatencyUs));
  }
};
Analytic analytic(const KernelSample &S, const GpuSpec &G,
                  const Calibration &C);

/// Whether S has the timing model's cycles for C's configuration.
bool hasModeled(const KernelSample &S, const Calibration &C);

/// The feature names of FeatureVersion, in order.
const std::vector<std::string> &featureNames();

/// Writes S's features (featureNames().size() values) to Out and returns
/// its base margin (the log of the target's starting estimate).
float features(const KernelSample &S, const GpuSpec &G, const Calibration &C,
               Target T, float *Out);

/// Base with what is measured from Rows (the training rows alone, so that
/// a held-out program never sets them): the launch floor (the shortest
/// time), the clock (the rows' median measured clock; Base's when none has
/// one) and the median target.
Calibration calibrate(const std::vector<const KernelSample *> &Rows,
                      Calibration Base, Target T);

/// The smallest value a prediction may take: the measured launch floor for
/// time, 0 for power.
double lowerBound(const Calibration &C, Target T);

} // namespace warpscope::predict

#endif // WARPSCOPE_DRIVER_PREDICTFEATURES_H
