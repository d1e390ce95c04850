//===- ReportFormats.h - CSV, SARIF and HTML renderings -------------------===//
#ifndef WARPSCOPE_DRIVER_REPORTFORMATS_H
#define WARPSCOPE_DRIVER_REPORTFORMATS_H

#include "Report.h"

namespace warpscope {

/// S as one CSV field (quoted when it holds a comma, quote or newline).
std::string csvField(llvm::StringRef S);

/// One row per probed or proven-uniform branch.
void renderCsv(const std::vector<FunctionSummary> &S, llvm::raw_ostream &OS);
struct SarifContext;
struct ClusterView;
/// SARIF 2.1.0: one result per branch diverging at least MinRate of visits,
/// and with Cluster one per kernel whose ranks deviate (load imbalance);
/// locations, fingerprints and the log around them per Context
/// (SarifFormat.h).
llvm::json::Value renderSarif(const std::vector<FunctionSummary> &S,
                              double MinRate, const SarifContext &Context,
                              const ClusterView *Cluster = nullptr);
struct SourceExtras;
/// One self-contained page: summaries, sortable divergence maps, annotated
/// source with per-line heat and, from Extras (HtmlSource.h), per-line
/// memory, samples and PTX. No network access.
void renderHtml(const ProfileSet &Set, const std::vector<FunctionSummary> &S,
                llvm::raw_ostream &OS, const SourceExtras *Extras = nullptr);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_REPORTFORMATS_H
