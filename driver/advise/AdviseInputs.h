//===- AdviseInputs.h - Everything a profile directory offers advice ------===//
//
// Loads a directory for `warpscope advise` (and the report's advice
// section): profile (counts, divergence, launches, occupancy), the
// emulator's ground truth (exact memory counts), PC samples, and the
// listings that number the sampled instructions (`cubin-<crc>.sass` for
// CUPTI's SASS samples, `ptx-*.ptx` for the timing model's PTX samples),
// then blames each sampled function. Samples that do not match the
// listings or the profile (another build) are dropped with one line.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_ADVISE_ADVISEINPUTS_H
#define WARPSCOPE_DRIVER_ADVISE_ADVISEINPUTS_H

#include "../GroundTruth.h"
#include "../PcSampling.h"
#include "../ProfileModel.h"
#include "../RunDirectory.h"
#include "Advice.h"
#include "Blame.h"
#include "Code.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>

namespace warpscope::advise {

/// What advice is made from: the directory's files as the RunDirectory
/// read them (it must outlive this), and what is made of them.
struct LoadedInputs {
  const ProfileSet *Profile = nullptr;  ///< none without profiles
  const Truth *GroundTruth = nullptr;   ///< never null once loaded
  const PcSampleSet *Samples = nullptr; ///< none without PC samples
  CodeSet Code;
  std::map<std::string, FunctionBlame> Blame;
  Inputs In; ///< points into the fields above
  /// One line each: inputs present but not used, and why.
  std::vector<std::string> Notes;
  /// Single-dependency coverage over every blamed function (GPA Fig. 7).
  unsigned Nodes = 0, SingleBefore = 0, SingleAfter = 0;
  /// Functions blamed in GPA's hybrid mode (exact executions).
  unsigned HybridFunctions = 0;
};

/// Loads Run's files. A file that cannot be read or parsed is an error (one
/// line, naming it); inputs that do not match each other are Notes.
llvm::Expected<std::unique_ptr<LoadedInputs>>
loadAdviseInputs(RunDirectory &Run);

/// Builds the per-instruction stalls of F from the samples that name it and
/// blames them; false (with Why) when a sample does not fit F.
bool blameFunction(const Function &F, const std::vector<const SampledPc *> &Pcs,
                   FunctionBlame &Out, std::string &Why,
                   const std::vector<double> *Executed = nullptr);

/// The emulator's exact warp executions of each instruction of a PTX
/// function, in the listing's numbering (the ground truth's instructions
/// without the instrumentation's); empty when T has no such function or its
/// opcodes differ from the listing's (another build).
std::vector<double> exactExecutions(const Function &F, const Truth &T);
/// The ground truth's instruction of each of F's listing instructions, in
/// the listing's numbering (instrumentation left out); empty as above.
std::vector<const TruthInstruction *> truthInstructions(const Function &F,
                                                        const Truth &T);

/// Each kernel's `launches[].modeled` summed (the timing model's figures,
/// modeled, never measured), by mangled name: the advice's modeled time
/// and a what-if re-run's both come from here, so that a re-simulated
/// estimate compares like with like. Profile (may be null) gives the SM
/// count where the configuration is not a known one.
std::map<std::string, KernelModeledTime>
modeledTimes(const Truth &T, const ProfileSet *Profile);

} // namespace warpscope::advise

#endif // WARPSCOPE_DRIVER_ADVISE_ADVISEINPUTS_H
