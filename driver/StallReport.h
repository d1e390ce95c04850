//===- StallReport.h - Stall view: where warps wait, next to divergence ---===//
//
// Per kernel, the stall-reason breakdown of PC samples and of the not-issued
// ones among them; per source line, its samples, not-issued share and top
// stall reasons joined with the divergence map of the same line (probed
// branches in the program database). Rendered as text, a "stall_view" member
// of the JSON report, and an HTML section.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_STALLREPORT_H
#define WARPSCOPE_DRIVER_STALLREPORT_H

#include "PcSampling.h"
#include "ProfileModel.h"
#include "RunDirectory.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>

namespace warpscope {

/// Samples split by stall reason, two views as in Nsight Compute's "Warp
/// Stall Sampling (All Samples)" and "(Not-issued Samples)": each sample has
/// one reason; the not-issued ones (GH100's "<reason>_not_issued") are the
/// subset taken when the warp's scheduler issued no instruction, keyed by
/// their base reason.
struct StallCounts {
  uint64_t Samples = 0, NotIssued = 0;
  std::map<std::string, uint64_t> Stalls; ///< short reason name -> samples
  std::map<std::string, uint64_t> NotIssuedStalls; ///< -> not-issued samples
  void add(const SampledPc &P);
};

struct StallLine : StallCounts {
  std::string File; ///< empty: samples no line table maps
  unsigned Line = 0;
  unsigned Branches = 0; ///< probed branches on this line
  uint64_t Visits = 0, Divergent = 0;
};

struct StallKernel : StallCounts {
  std::string Mangled, Name;
  std::vector<StallLine> Lines; ///< most samples first
};

struct StallView {
  /// CUPTI's totals (user and non-user kernels), whatever --kernel says.
  uint64_t TotalSamples = 0, DroppedSamples = 0, NonUserSamples = 0;
  StallCounts All; ///< over the kernels listed
  /// False when the device offers no not-issued reasons: every not-issued
  /// figure is then unknown, not 0.
  bool NotIssuedKnown = true;
  std::vector<StallKernel> Kernels; ///< most samples first
  std::vector<std::string> Warnings;
  /// "cupti", or "model": the emulator's timing model (ModelConfig), always
  /// labelled as modeled.
  std::string Source = PcSourceCupti;
  std::string ModelConfig;
  std::string ModelProbes;        ///< PcSampleSet::ModelProbes
  std::string Method = "sampled"; ///< PcSampleSet::Method
  std::string title() const;
};

/// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard";
/// names without that shape are kept whole. A not-issued name gives its base
/// reason's: "..._long_scoreboard_not_issued" -> "long_scoreboard".
std::string shortStallName(llvm::StringRef Name);
/// True when two source paths name the same file (one may be relative).
bool sameSourceFile(llvm::StringRef A, llvm::StringRef B);

/// Joins samples with the profile's branches. Filter is the report's
/// --kernel regex (may be empty).
StallView buildStallView(const PcSampleSet &Samples, const ProfileSet &Set,
                         const std::string &Filter);
/// nullopt when Run has no pcsamples-*.json.
llvm::Expected<std::optional<StallView>>
loadStallView(RunDirectory &Run, const ProfileSet &Set,
              const std::string &Filter);

void renderStallText(const StallView &V, unsigned Top, llvm::raw_ostream &OS);
llvm::json::Value renderStallJson(const StallView &V);
/// An HTML section (no page around it).
std::string renderStallHtml(const StallView &V);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_STALLREPORT_H
