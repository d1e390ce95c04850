//===- ReportFormats.cpp - CSV, SARIF and HTML renderings -----------------===//

#include "ReportFormats.h"
#include "ClusterReport.h"
#include "Html.h"
#include "HtmlSource.h"
#include "Legend.h"
#include "MixReport.h"
#include "ResourceReport.h"
#include "SarifFormat.h"
#include "SourceLines.h"
#include "SourceText.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace warpscope;

void warpscope::renderCsv(const std::vector<FunctionSummary> &Summaries,
                          raw_ostream &OS) {
  OS << "kernel,mangled,file,line,column,kind,uniform,probed,visits,"
        "divergent,divergence_rate,active_threads,taken_threads,"
        "source_true_threads\n";
  for (const FunctionSummary &S : Summaries)
    for (const BranchCounts &B : S.Function->Branches) {
      uint64_t Taken = B.SuccessorThreads.empty() ? 0 : B.SuccessorThreads[0];
      OS << csvField(S.Function->Demangled) << ',' << csvField(S.Function->Name)
         << ',' << csvField(B.Loc.File) << ',' << B.Loc.Line << ','
         << B.Loc.Column << ',' << branchKindName(B.Kind) << ','
         << (B.Uniform ? "true" : "false") << ','
         << (B.Probed ? "true" : "false") << ',' << B.Visits << ','
         << B.Divergent << ','
         << (B.Visits ? formatv("{0:F6}", double(B.Divergent) / B.Visits).str()
                      : std::string())
         << ',' << B.ActiveThreads << ',' << Taken << ',';
      if (B.SourceTrueSuccessor &&
          *B.SourceTrueSuccessor < B.SuccessorThreads.size())
        OS << B.SuccessorThreads[*B.SourceTrueSuccessor];
      OS << '\n';
    }
}

/// WS002: a kernel whose ranks deviate from the median, at its definition.
static void clusterSarifResults(const ClusterView &V, const SarifContext &C,
                                json::Array &Results) {
  for (const ClusterKernel &K : V.Kernels) {
    if (K.Deviating.empty() || K.Loc.File.empty())
      continue;
    std::string Text =
        formatv("Kernel {0} is imbalanced over {1} MPI ranks "
                "(max/mean {2:F2}); {3} deviation(s) from the "
                "median, the largest: {4}.",
                K.Demangled, V.Ranks.size(), K.Imbalance, K.Deviating.size(),
                deviationText(K, K.Deviating.front()))
            .str();
    json::Array Ranks;
    for (const Deviation &D : K.Deviating)
      Ranks.push_back(D.Rank);
    Results.push_back(json::Object{
        {"ruleId", "WS002"},
        {"ruleIndex", 1},
        {"level", K.Imbalance >= 1.25 ? "warning" : "note"},
        {"message", json::Object{{"text", Text}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation", sarifPhysicalLocation(K.Loc, C)}}}},
        {"partialFingerprints", sarifFingerprints("WS002", K.Loc, K.Name, C)},
        {"properties", json::Object{{"kernel", K.Name},
                                    {"imbalance", K.Imbalance},
                                    {"deviating_ranks", std::move(Ranks)}}}});
  }
}

json::Value
warpscope::renderSarif(const std::vector<FunctionSummary> &Summaries,
                       double MinRate, const SarifContext &Context,
                       const ClusterView *Cluster) {
  json::Array Results;
  if (Cluster)
    clusterSarifResults(*Cluster, Context, Results);
  // One result per source branch: the compiler's copies of it are one.
  for (const FunctionSummary &S : Summaries)
    for (const BranchRow &Row : S.Rows) {
      const Location &Loc = Row.loc();
      if (!Row.Divergent || Row.Rate < MinRate || Loc.File.empty())
        continue;
      Results.push_back(json::Object{
          {"ruleId", "WS001"},
          {"ruleIndex", 0},
          {"level", Row.Rate >= 0.5 ? "warning" : "note"},
          {"message",
           json::Object{
               {"text",
                formatv("Branch in {0} diverges on {1} of {2} warp visits "
                        "({3:F1}%); it holds {4:F1}% of the kernel's "
                        "divergent visits.{5}",
                        S.Function->Demangled, Row.Divergent, Row.Visits,
                        Row.Rate * 100, Row.Share * 100,
                        Row.Copies.size() > 1
                            ? formatv(" The compiler made {0} copies of it "
                                      "(unrolled or duplicated code); the "
                                      "counts are their sum.",
                                      Row.Copies.size())
                                  .str()
                            : std::string())
                    .str()}}},
          {"locations",
           json::Array{json::Object{
               {"physicalLocation", sarifPhysicalLocation(Loc, Context)}}}},
          {"partialFingerprints",
           sarifFingerprints("WS001", Loc, S.Function->Name, Context)},
          {"properties", json::Object{{"visits", Row.Visits},
                                      {"divergent", Row.Divergent},
                                      {"copies", Row.Copies.size()},
                                      {"kernel", S.Function->Name}}}});
    }
  return sarifLog(std::move(Results), Context);
}

namespace {

const char *Style = R"(<style>
body{font-family:system-ui,sans-serif;margin:1.5em auto;padding:0 1em;color:#222;max-width:1200px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
h3{font-size:1em;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.5em 0;max-width:100%}
td,th{padding:2px 8px;border:1px solid #ddd}td{overflow-wrap:anywhere}
td.loc,table.divmap td:first-child,table.advice td:first-child,table.advice td:nth-child(3){white-space:nowrap;overflow-wrap:normal}
#kernels td:first-child{min-width:14em}td.cfg{overflow-wrap:normal}
th{background:#f3f3f3;cursor:pointer}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td code{white-space:pre-wrap}pre{white-space:pre-wrap;overflow-wrap:anywhere}
pre.src{font-size:12px;line-height:1.35;border:1px solid #ddd;padding:0;margin:.5em 0}
pre.src span.l{display:flex}pre.src span.l>span{flex:none;text-align:right;padding-right:.6em}
pre.src span.no{width:3.5em;color:#333;background:#f4f4f4}
pre.src span.cnt{width:7em;color:#111}pre.src span.ins{width:7.5em;color:#555}
pre.src span.div{width:10em;color:#111}
pre.src span.sec,pre.src span.wav{width:8.5em;color:#111}pre.src span.stl{width:9em;color:#111;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
pre.src span.l>span.t{flex:1 1 auto;min-width:0;text-align:left;white-space:pre-wrap;overflow-wrap:anywhere}
pre.src span.l>span.ptx{flex:0 0 18em;text-align:left;color:#345;font-size:11px;border-left:1px solid #ddd;padding-left:.5em;white-space:normal}
pre.src span.ptx>span{white-space:nowrap;margin-right:.7em}pre.src span.hd span.stl{white-space:normal}
.conflict,pre.src span.conflict{background:rgba(240,150,0,.55);font-weight:600}p.missing{font-size:.9em;color:#a40}
details.files ul{columns:2;margin:.3em 0;font-size:.9em}
table.memory td:not(:first-child),table.modeled td:nth-child(n+2):nth-child(-n+4),table.stalls td:nth-child(2),table.stalls td:nth-child(3),table.stalls td:nth-child(6){text-align:right;font-variant-numeric:tabular-nums}
pre.src span.hd{font-weight:600;background:#f3f3f3}
.summary td:first-child{font-weight:600}.warn{color:#a40}
.key span.sw{display:inline-block;width:1.2em;height:.9em;vertical-align:middle;margin:0 .3em 0 1em;border:1px solid #bbb}
details.legend{font-size:.85em}details.legend dt{font-weight:600;float:left;clear:left;width:12em}details.legend dd{margin-left:13em}
</style>)";

const char *Script = R"(<script>
document.querySelectorAll('table.sortable th').forEach(function(th){
 th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0],i=th.cellIndex;
 var rows=Array.from(b.rows),asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
 rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,
 c=y.cells[i].dataset.v||y.cells[i].textContent,na=parseFloat(a),nc=parseFloat(c);
 var r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?r:-r;});
 rows.forEach(function(r){b.appendChild(r);});});});
// #sort=<table id>:<column> sorts on load (descending), e.g. for links.
var m=location.hash.match(/^#sort=([\w-]+):(\d+)$/);
if(m){var th=document.querySelectorAll('#'+m[1]+' th')[+m[2]];if(th){th.click();th.click();}}
</script>)";

/// "16x1x1 / 128x1x1", each launch configuration of F, with how many
/// launches and their time when there are several or a time.
std::string configurations(const FunctionProfile &F) {
  std::string Out;
  for (const LaunchGroup &L : F.Launches) {
    std::string Note;
    if (F.Launches.size() > 1 || L.Count > 1)
      Note = formatv("{0}x", L.Count).str();
    if (L.Timed && F.Launches.size() > 1)
      Note += formatv("{0}{1:F3} ms", Note.empty() ? "" : ", ", L.TimeMs);
    Out += formatv("{0}{1}x{2}x{3} / {4}x{5}x{6}{7}", Out.empty() ? "" : "; ",
                   L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0], L.Block[1],
                   L.Block[2], Note.empty() ? "" : " (" + Note + ")")
               .str();
  }
  return Out;
}

void renderKernelTable(const ProfileSet &Set,
                       const std::vector<FunctionSummary> &Summaries,
                       raw_ostream &OS) {
  // SASS metrics add the hardware's branch efficiency beside ours.
  bool Hardware = std::any_of(
      Summaries.begin(), Summaries.end(),
      [](const FunctionSummary &S) { return S.Hardware.has_value(); });
  bool Emulated = emulatedRun(Set);
  // Aggregate runs time nothing: no column of dashes.
  bool Timed = std::any_of(
      Summaries.begin(), Summaries.end(),
      [](const FunctionSummary &S) { return S.TimeMs.has_value(); });
  OS << "<table class=\"sortable\" id=\"kernels\"><thead><tr><th>function</th>"
        "<th>launches</th><th>grid / block</th>";
  if (Timed)
    OS << "<th>time (ms" << (Emulated ? ", emulator CPU" : "") << ")</th>";
  OS << "<th>basic block executions: warp</th><th>basic block "
        "executions: thread</th><th>SIMD efficiency</th><th>branch "
        "efficiency</th>";
  if (Hardware)
    OS << "<th>hardware branch efficiency</th><th>difference (points)</th>";
  OS << "<th>divergent branches</th></tr></thead><tbody>\n";
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    OS << "<tr><td><a href=\"#f-" << escapeHtml(F.Name) << "\">"
       << escapeHtml(F.Demangled) << "</a></td>";
    if (F.Kernel)
      OS << "<td class=\"n\">" << F.launches() << "</td><td class=\"cfg\">"
         << configurations(F) << "</td>";
    else
      OS << "<td class=\"n\" data-v=\"-1\">-</td><td>device function (called "
            "from kernels)</td>";
    if (Timed)
      OS << "<td class=\"n\" data-v=\"" << (S.TimeMs ? *S.TimeMs : -1) << "\">"
         << (S.TimeMs ? formatv("{0:F3}", *S.TimeMs).str() : std::string("-"))
         << "</td>";
    OS << "<td class=\"n\" data-v=\"" << S.WarpExecutions << "\">"
       << withCommas(S.WarpExecutions) << "</td><td class=\"n\" data-v=\""
       << S.ThreadExecutions << "\">" << withCommas(S.ThreadExecutions)
       << "</td><td class=\"n\">" << formatPercent(S.SimdEfficiency)
       << "</td><td class=\"n\">" << formatPercent(S.BranchEfficiency);
    if (Hardware) {
      std::optional<double> Hw, Diff;
      if (S.Hardware) {
        Hw = S.Hardware->BranchEfficiency.Value;
        Diff = S.Hardware->DifferencePoints;
      }
      OS << "</td><td class=\"n\">" << formatPercent(Hw)
         << "</td><td class=\"n\">"
         << (Diff ? formatSignedPoints(*Diff) : std::string("-"));
    }
    OS << "</td><td class=\"n\">" << S.DivergentBranches << "</td></tr>\n";
  }
  OS << "</tbody></table>\n";
}

void renderDivergenceMap(const FunctionSummary &S, raw_ostream &OS) {
  OS << "<table class=\"sortable divmap\"><thead><tr><th>location</th>"
        "<th>copies</th><th>visits</th><th>divergent</th><th>rate</th>"
        "<th>share</th><th>cond true</th><th>to 1st succ</th><th>source</th>"
        "</tr></thead>"
        "<tbody>\n";
  for (const BranchRow &R : S.Rows) {
    const Location &Loc = R.loc();
    OS << "<tr><td>" << escapeHtml(sys::path::filename(Loc.File)) << ":"
       << Loc.Line << ":" << Loc.Column << "</td><td class=\"n\">"
       << R.Copies.size() << "</td><td class=\"n\">" << R.Visits
       << "</td><td class=\"n\">" << R.Divergent
       << "</td><td class=\"n\" data-v=\"" << R.Rate << "\">"
       << formatPercent(R.Visits ? std::optional<double>(R.Rate) : std::nullopt)
       << "</td><td class=\"n\" data-v=\"" << R.Share << "\">"
       << formatPercent(S.Divergent ? std::optional<double>(R.Share)
                                    : std::nullopt)
       << "</td><td class=\"n\">" << formatPercent(R.SourceTrueFraction)
       << "</td><td class=\"n\">" << formatPercent(R.Successor0Fraction)
       << "</td><td><code>" << escapeHtml(R.SourceText)
       << "</code></td></tr>\n";
  }
  OS << "</tbody></table>\n";
}

} // namespace

void warpscope::renderHtml(const ProfileSet &Set,
                           const std::vector<FunctionSummary> &Summaries,
                           raw_ostream &OS, const SourceExtras *Extras) {
  SourceExtras None;
  const SourceExtras &X = Extras ? *Extras : None;
  OS << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta "
        "name=\"viewport\" content=\"width=device-width\"><title>WarpScope "
        "report</title>"
     << Style << "</head><body>\n<h1>WarpScope report</h1>\n";
  OS << "<table class=\"summary\"><tr><td>program</td><td>"
     << escapeHtml(Set.Program) << "</td></tr><tr><td>device</td><td>"
     << escapeHtml(Set.Device) << "</td></tr><tr><td>mode</td><td>"
     << escapeHtml(Set.Mode) << "</td></tr></table>\n";
  for (const std::string &W : Set.Warnings)
    OS << "<p class=\"warn\">warning: " << escapeHtml(W) << "</p>\n";
  renderKernelTable(Set, Summaries, OS);
  renderLegendHtml(OS);
  SourceText Sources(Set.SourceHashes);
  renderSourceIndex(Summaries, Sources, OS);
  if (!Summaries.empty())
    renderSourceKey(X, OS);
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    OS << "<h2 id=\"f-" << escapeHtml(F.Name) << "\">"
       << (F.Kernel ? "Kernel " : "Device function ") << escapeHtml(F.Demangled)
       << "</h2>\n";
    OS << formatv("<p>{0} probed branches ({1} source branch(es)), {2} proven "
                  "uniform, {3} divergent; branch efficiency {4}; SIMD "
                  "efficiency {5}; {6}.</p>\n",
                  S.Probed, S.Rows.size(), S.Uniform, S.DivergentBranches,
                  formatPercent(S.BranchEfficiency),
                  formatPercent(S.SimdEfficiency),
                  S.Divergent ? formatv("90% of divergence in {0} source "
                                        "branch(es)",
                                        S.Concentration90)
                                    .str()
                              : std::string("no divergent visit"));
    if (F.Kernel)
      renderResourcesHtml(Set, F, OS);
    renderMixHtml(S.Mix, OS);
    std::string Plain;
    raw_string_ostream PS(Plain);
    renderPlainText(S.Plain, /*Histogram=*/false, PS);
    OS << "<pre class=\"plain\">" << escapeHtml(Plain) << "</pre>\n";
    std::string Calls;
    raw_string_ostream CS(Calls);
    renderCallsText(S, CS);
    if (!Calls.empty())
      OS << "<pre class=\"calls\">" << escapeHtml(Calls) << "</pre>\n";
    if (S.Hardware)
      renderHardwareHtml(*S.Hardware, OS);
    if (!S.Rows.empty())
      renderDivergenceMap(S, OS);
    renderSourceHtml(S, Sources, X, OS);
  }
  OS << Script << "</body></html>\n";
}
