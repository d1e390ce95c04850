//===- GpaCommon.h - What GPA's optimizers share ----------------*- C++ -*-===//
//
// Private to driver/advise. A kernel's view (the kernel and the device
// functions it calls, each blamed), the table row each GPA optimizer is,
// and the helpers its matchers use.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_GPACOMMON_H
#define WARPSCOPE_DRIVER_ADVISE_GPACOMMON_H

#include "Advice.h"
#include "Blame.h"
#include "Code.h"
#include "Estimators.h"
#include <functional>
#include <map>

namespace warpscope {
struct FunctionProfile;
namespace advise {

/// One kernel with the sampled functions it calls (kernel first).
struct KernelView {
  std::string Kernel;
  std::vector<const FunctionBlame *> Parts;
  /// Samples, and GPA's active samples (the scheduler issued:
  /// FunctionBlame::active()), over all Parts.
  double T = 0, A = 0;
  /// The profile's record of the kernel (launches, resources), if any.
  const FunctionProfile *Profile = nullptr;
};
std::vector<KernelView> kernelViews(const Inputs &In);

/// What a matcher found in one kernel.
struct Match {
  double M = 0; ///< matched samples (stall elimination) or latency ones
  /// Eq. 5 scopes (latency hiding); empty: the kernel is one scope.
  std::vector<Scope> Scopes;
  std::vector<Hotspot> Hotspots;
  std::vector<std::string> Hints;
  std::string Evidence; ///< a kernel-level figure for the estimator line
  double Speedup = 0;   ///< parallelism: set by the matcher
  emu::WhatIf Change;   ///< Advice::Change
};

/// Combined: the matcher computes Match::Speedup (function inlining's
/// elimination and hiding) and says how in Match::Evidence.
enum class EstimatorKind {
  StallElimination,
  LatencyHiding,
  Parallelism,
  Combined
};

/// What most rows need: PC samples and the instructions they fall on.
inline const std::vector<InputKind> SamplesCode = {InputKind::Samples,
                                                   InputKind::Instructions};

/// A row of GPA's Table 2.
struct GpaSpec {
  const char *Id, *Name, *Help;
  EstimatorKind Estimator;
  std::vector<InputKind> Needs;
  std::function<void(const Inputs &, const KernelView &, Match &)> Matcher;
};

/// Adds GPA's optimizers of each family (GpaStall.cpp, GpaLatency.cpp,
/// GpaParallel.cpp).
void stallEliminationSpecs(std::vector<GpaSpec> &Out);
void latencyHidingSpecs(std::vector<GpaSpec> &Out);
void parallelismSpecs(std::vector<GpaSpec> &Out);

/// A hotspot for a blamed edge (def -> use) of function F.
Hotspot edgeHotspot(const FunctionBlame &B, const BlameEdge &E);
/// A hotspot for Samples at instruction I of F.
Hotspot instrHotspot(const FunctionBlame &B, unsigned I, double Samples,
                     const std::string &Evidence);
/// Merges hotspots at the same (def line, use line), biggest first, at
/// most Keep.
void rankHotspots(std::vector<Hotspot> &H, size_t Keep = 10);

/// The active (issued) samples of each instruction. In hybrid mode (exact
/// executions) the function's active samples apportioned by executions,
/// A x exec_I / sum of exec, each issue's expected share of them; else
/// the samples observed at each instruction.
std::vector<double> activeSamples(const FunctionBlame &B);

/// The strength reduction and function inlining matchers
/// (StrengthReduction.cpp, FunctionInlining.cpp).
void strengthReduction(const Inputs &In, const KernelView &V, Match &M);
void functionInlining(const Inputs &In, const KernelView &V, Match &M);

/// Whether instruction I of function Fn is CUDA math library code: in a
/// math header (isMathLibraryHeader; I's own file or, for code a PTX or SASS
/// listing's inlined-at chain put on the user's line, Instr::Inlined), or at
/// a call site the plugin moved such code onto
/// (FunctionProfile::MathCallSites; by line alone where I has no column).
bool isMathCode(const Inputs &In, const Function &Fn, const Instr &I);

} // namespace advise
} // namespace warpscope

#endif // WARPSCOPE_DRIVER_ADVISE_GPACOMMON_H
