//===- StallReport.h - Stall view: where warps wait, next to divergence ---===//
//
// Per kernel, the stall-reason breakdown of PC samples; per source line,
// its samples and top stall reasons joined with the divergence map of the
// same line (probed branches in the program database). Rendered as text,
// a "stall_view" member of the JSON report, and an HTML section.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_STALLREPORT_H
#define WARPSCOPE_DRIVER_STALLREPORT_H

#include "PcSampling.h"
#include "ProfileModel.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>

namespace warpscope {

struct StallLine {
  std::string File; ///< empty: samples no line table maps
  unsigned Line = 0;
  uint64_t Samples = 0;
  std::map<std::string, uint64_t> Stalls; ///< short reason name -> samples
  unsigned Branches = 0;                  ///< probed branches on this line
  uint64_t Visits = 0, Divergent = 0;
};

struct StallKernel {
  std::string Mangled, Name;
  uint64_t Samples = 0;
  std::map<std::string, uint64_t> Stalls;
  std::vector<StallLine> Lines; ///< most samples first
};

struct StallView {
  uint64_t TotalSamples = 0, DroppedSamples = 0;
  std::vector<StallKernel> Kernels; ///< most samples first
  std::vector<std::string> Warnings;
};

/// "smsp__pcsamp_warps_issue_stalled_long_scoreboard" -> "long_scoreboard";
/// names without that shape are kept whole.
std::string shortStallName(llvm::StringRef Name);
/// True when two source paths name the same file (one may be relative).
bool sameSourceFile(llvm::StringRef A, llvm::StringRef B);

/// Joins samples with the profile's branches. Filter is the report's
/// --kernel regex (may be empty).
StallView buildStallView(const PcSampleSet &Samples, const ProfileSet &Set,
                         const std::string &Filter);
/// nullopt when Dir has no pcsamples-*.json.
llvm::Expected<std::optional<StallView>>
loadStallView(const std::string &Dir, const ProfileSet &Set,
              const std::string &Filter);

void renderStallText(const StallView &V, unsigned Top, llvm::raw_ostream &OS);
llvm::json::Value renderStallJson(const StallView &V);
/// An HTML section (no page around it).
std::string renderStallHtml(const StallView &V);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_STALLREPORT_H
