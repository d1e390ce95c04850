//===- AdviseRender.h - Running the optimizers, ranking, rendering --------===//
//
// Runs every optimizer (GPA's and the exact ones) whose inputs are present,
// ranks the advice by estimated speedup, and renders it as text (GPA's
// report shape), JSON ("warpscope-advice/1", docs/advice-schema.md), an
// HTML section, or SARIF (one rule per optimizer).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_ADVISERENDER_H
#define WARPSCOPE_DRIVER_ADVISE_ADVISERENDER_H

#include "AdviseInputs.h"
#include "Resimulate.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace warpscope::advise {

constexpr const char *AdviceSchema = "warpscope-advice/1";

struct SkippedOptimizer {
  std::string Optimizer;
  std::vector<std::string> Missing; ///< inputName()s
  std::vector<std::string> Supply;  ///< inputSource()s of the missing inputs
};

struct AdviceReport {
  std::vector<std::string> InputsUsed, InputsMissing;
  std::vector<SkippedOptimizer> Skipped;
  /// By estimated speedup, highest first; without PC samples (Estimates
  /// false) unranked, in kernel and title order.
  std::vector<Advice> Ranked;
  /// Whether the figures are speedup estimates: without PC samples they
  /// are what removing the flagged excess would give if it were free.
  bool Estimates = true;
  std::vector<std::string> Notes;
  bool Modeled = false;    ///< the samples are the timing model's
  std::string ModelProbes; ///< Inputs::SampleProbes when Modeled
  unsigned Nodes = 0, SingleBefore = 0, SingleAfter = 0;
  unsigned HybridFunctions = 0; ///< blamed with exact executions
};

/// Every optimizer the advisor runs: GPA's, then the exact ones.
std::vector<std::unique_ptr<Optimizer>> allOptimizers();

/// Runs Optimizers over L; keeps advice for kernels matching KernelRegex
/// (mangled or demangled; empty: all) and at most Top per kernel (0: all);
/// fills each hotspot's source text where the file is readable and fresh.
/// With WhatIf, advice whose change is a launch or machine parameter is
/// re-simulated (Resimulate.h).
AdviceReport runAdvisor(const LoadedInputs &L,
                        const std::vector<std::unique_ptr<Optimizer>> &Opts,
                        const std::string &KernelRegex, unsigned Top,
                        const WhatIfRunner *WhatIf = nullptr);

void renderAdviceText(const AdviceReport &R, llvm::raw_ostream &OS);
llvm::json::Value renderAdviceJson(const AdviceReport &R);
std::string renderAdviceHtml(const AdviceReport &R);
llvm::json::Value
renderAdviceSarif(const AdviceReport &R,
                  const std::vector<std::unique_ptr<Optimizer>> &Opts,
                  llvm::StringRef Version);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_ADVISERENDER_H
