//===- Advice.h - What `warpscope advise` computes and reports -*- C++ -*-===//
//
// The advisor's shared vocabulary (issue 18): the inputs a profile directory
// offers, one piece of advice, and the optimizer interface. GPA's optimizers
// (GpaOptimizers.cpp) and the ones only exact counts allow
// (ExactOptimizers.cpp) both produce Advice; AdviseCommand.cpp ranks it and
// renders it (docs/advice-schema.md, schema "warpscope-advice/1").
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_ADVICE_H
#define WARPSCOPE_DRIVER_ADVISE_ADVICE_H

#include "warpscope/Emu/WhatIf.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope {
struct ProfileSet;
struct Truth;
struct PcSampleSet;

namespace advise {
struct CodeSet;
struct FunctionBlame;

/// The kinds of evidence a profile directory may hold. An optimizer lists
/// the ones it needs; the command says which were present and which
/// optimizers were skipped for lack of which.
enum class InputKind {
  Counts,       ///< instrumented block counts (profile-*.json)
  Divergence,   ///< the per-branch divergence map (profile-*.json)
  Samples,      ///< PC samples, CUPTI (SASS) or modeled (PTX)
  MemoryCounts, ///< exact sectors / bank wavefronts (emu-*.json)
  Occupancy,    ///< registers, shared memory, blocks per SM
  LaunchConfig, ///< grid and block sizes per launch
  ModeledTime,  ///< timing-model cycles per launch (emu-*.json)
  Instructions, ///< the PTX or SASS listing of each function
};
llvm::StringRef inputName(InputKind K);
/// What gives a missing input, for the advisor's "not run" lines.
llvm::StringRef inputSource(InputKind K);
/// V with at most MaxDecimals decimals, trailing zeros dropped ("8",
/// "1.25"), as advice shows figures.
std::string formatNumber(double V, unsigned MaxDecimals = 2);

/// A kernel's modeled time (timing model, `launches[].modeled` of
/// emu-*.json): the SMs' cycles summed over its launches (the launches'
/// fixed cost apart, in LaunchCycles: no optimization of the kernel's code
/// removes it), and the SMs its launches occupy, min(SMs, grid blocks),
/// averaged over them.
struct KernelModeledTime {
  double Cycles = 0;
  double LaunchCycles = 0;
  double SmsUsed = 0;
  double Microseconds = 0;   ///< summed over the launches
  uint64_t Launches = 0;     ///< launches with modeled time
  std::string Config;        ///< e.g. "h100-sxm" (the first launch's)
  uint64_t SmsSimulated = 0; ///< the most any launch simulated
  bool Scaled = false;       ///< some launch simulated a subset of SMs
  /// The SMs' cycles and the launches' fixed cost.
  double total() const { return Cycles + LaunchCycles; }
};

/// Everything loaded from the directory; null / empty where absent.
struct Inputs {
  const ProfileSet *Profile = nullptr;
  const Truth *GroundTruth = nullptr;
  const PcSampleSet *Samples = nullptr;
  std::vector<InputKind> Present;
  bool has(InputKind K) const;
  /// The instruction representation of the listed functions (Code.h).
  const CodeSet *Code = nullptr;
  /// GPA's blamer over each sampled function, by mangled name (Blame.h);
  /// set together with Samples and Instructions.
  const std::map<std::string, FunctionBlame> *Blame = nullptr;
  /// "model" when the samples are the timing model's (labelled modeled).
  std::string SampleSource;
  /// For modeled samples of an instrumented program: "free" or "modeled"
  /// (how the model treated the probes' instructions; docs/timing-model.md).
  std::string SampleProbes;
  /// Per kernel (mangled), where the ground truth has modeled time; the
  /// loader fills it and lists InputKind::ModeledTime.
  std::map<std::string, KernelModeledTime> ModeledTime;
};

/// One place the advice points at. For the blamer's hotspots Def* is the
/// dependency source and File/Line the stalled use; otherwise Def* is empty.
struct Hotspot {
  std::string Function; ///< mangled
  std::string File;
  unsigned Line = 0;
  std::string Source; ///< the line's text, when the file is readable
  std::string DefFile;
  unsigned DefLine = 0;
  unsigned Distance = 0; ///< instructions between def and use (blamer)
  double Samples = 0;    ///< samples (or modeled cycles) blamed here
  std::string Evidence;  ///< e.g. "8.0 sectors/request, ideal 4, stride 64 B"
  /// What Samples counts when it is not samples (no PC samples: e.g.
  /// "excess sectors"); empty: samples.
  std::string Unit;
};

enum class EstimateKind { Formula, Resimulated };
/// "formula" or "re-simulated", as every output format says it.
llvm::StringRef estimateKindName(EstimateKind K);

/// One optimization suggestion for one kernel.
struct Advice {
  /// Optimizers folded into this item (same cause, a shared line) and
  /// their own estimates: one item per cause (mergeSameCause).
  std::vector<std::pair<std::string, double>> AlsoFoundBy;
  std::string Optimizer; ///< stable id, e.g. "divergence", "loop_unrolling"
  std::string Title;     ///< e.g. "Reduce divergence"
  std::string Kernel;    ///< mangled
  /// Estimated speedup of the kernel if the change is made (>= 1.0).
  double EstimatedSpeedup = 1.0;
  std::string Estimator; ///< which estimator, in a few words
  /// How EstimatedSpeedup was made: a formula over samples or counts, or
  /// the timing model re-running the kernel with the change (--what-if).
  EstimateKind Kind = EstimateKind::Formula;
  /// The change as a launch or machine parameter, where it is one: what
  /// `advise --what-if` re-simulates (WhatIf.h; Kernel empty: none).
  emu::WhatIf Change;
  /// The resource whose exact work capped a formula estimate
  /// (ResourceBound.h: "issue", "L1", "shared memory", "L2"); empty: none.
  std::string BoundBy;
  std::vector<std::string> Hints; ///< what to change, concretely
  std::vector<Hotspot> Hotspots;  ///< most important first
};

class Optimizer {
public:
  virtual ~Optimizer() = default;
  virtual llvm::StringRef id() const = 0;   ///< Advice::Optimizer
  virtual llvm::StringRef name() const = 0; ///< e.g. "Loop unrolling"
  /// A paragraph for users (also SARIF's rule help).
  virtual llvm::StringRef help() const = 0;
  virtual std::vector<InputKind> needs() const = 0;
  /// Appends advice for every kernel where the optimizer applies.
  virtual void run(const Inputs &In, std::vector<Advice> &Out) const = 0;
};

/// GPA's optimizers (Table 2 of both GPA papers).
std::vector<std::unique_ptr<Optimizer>> gpaOptimizers();
/// divergence, uncoalesced access, shared bank conflicts, occupancy limiter.
std::vector<std::unique_ptr<Optimizer>> exactOptimizers();

} // namespace advise
} // namespace warpscope

#endif // WARPSCOPE_DRIVER_ADVISE_ADVICE_H
