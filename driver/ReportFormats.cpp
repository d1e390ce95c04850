//===- ReportFormats.cpp - CSV, SARIF and HTML renderings -----------------===//

#include "ReportFormats.h"
#include "Html.h"
#include "MixReport.h"
#include "ResourceReport.h"
#include "SarifFormat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;
using namespace warpscope;

std::string warpscope::csvField(StringRef S) {
  if (S.find_first_of(",\"\n") == StringRef::npos)
    return S.str();
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

void warpscope::renderCsv(const std::vector<FunctionSummary> &Summaries,
                          raw_ostream &OS) {
  OS << "kernel,mangled,file,line,column,kind,uniform,probed,visits,"
        "divergent,divergence_rate,active_threads,taken_threads\n";
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
         << ',' << B.ActiveThreads << ',' << Taken << '\n';
    }
}

json::Value
warpscope::renderSarif(const std::vector<FunctionSummary> &Summaries,
                       double MinRate, const SarifContext &Context) {
  json::Array Results;
  for (const FunctionSummary &S : Summaries)
    for (const BranchRow &Row : S.Rows) {
      const BranchCounts &B = *Row.Branch;
      if (!B.Divergent || Row.Rate < MinRate || B.Loc.File.empty())
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
                        "divergent visits.",
                        S.Function->Demangled, B.Divergent, B.Visits,
                        Row.Rate * 100, Row.Share * 100)
                    .str()}}},
          {"locations",
           json::Array{json::Object{
               {"physicalLocation", sarifPhysicalLocation(B.Loc, Context)}}}},
          {"partialFingerprints",
           sarifFingerprints("WS001", B.Loc, S.Function->Name, Context)},
          {"properties", json::Object{{"visits", B.Visits},
                                      {"divergent", B.Divergent},
                                      {"kernel", S.Function->Name}}}});
    }
  return sarifLog(std::move(Results), Context);
}

namespace {

const char *Style = R"(<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;border:1px solid #ddd}
th{background:#f3f3f3;cursor:pointer}td.n{text-align:right;font-variant-numeric:tabular-nums}
pre.src{font-size:12px;line-height:1.35;border:1px solid #ddd;padding:0;margin:.5em 0}
pre.src span.l{display:block;padding:0 6px}pre.src span.no{color:#888;display:inline-block;width:4em}
pre.src span.cnt{color:#555;display:inline-block;width:9em;text-align:right;margin-right:1em}
.summary td:first-child{font-weight:600}.warn{color:#a40}
</style>)";

const char *Script = R"(<script>
document.querySelectorAll('table.sortable th').forEach(function(th,i){
 th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0];
 var rows=Array.from(b.rows),asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
 rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,
 c=y.cells[i].dataset.v||y.cells[i].textContent,na=parseFloat(a),nc=parseFloat(c);
 var r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?r:-r;});
 rows.forEach(function(r){b.appendChild(r);});});});
// #sort=<table id>:<column> sorts on load (descending), e.g. for links.
var m=location.hash.match(/^#sort=([\w-]+):(\d+)$/);
if(m){var th=document.querySelectorAll('#'+m[1]+' th')[+m[2]];if(th){th.click();th.click();}}
</script>)";

/// Per source line: thread executions and divergent visits of one function.
struct LineHeat {
  uint64_t Threads = 0, Divergent = 0, Visits = 0;
};

void renderSource(const FunctionSummary &S, raw_ostream &OS) {
  const FunctionProfile &F = *S.Function;
  std::map<std::string, std::map<unsigned, LineHeat>> Heat;
  for (const BlockCounts &B : F.Blocks)
    if (!B.Loc.File.empty())
      Heat[B.Loc.File][B.Loc.Line].Threads += B.ThreadExecutions;
  for (const BranchCounts &B : F.Branches)
    if (!B.Loc.File.empty()) {
      Heat[B.Loc.File][B.Loc.Line].Divergent += B.Divergent;
      Heat[B.Loc.File][B.Loc.Line].Visits += B.Visits;
    }
  for (auto &[File, Lines] : Heat) {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf || Lines.empty())
      continue;
    SmallVector<StringRef, 0> Text;
    (*Buf)->getBuffer().split(Text, '\n');
    unsigned First = Lines.begin()->first, Last = Lines.rbegin()->first;
    if (F.Loc.File == File && F.Loc.Line && F.Loc.Line < First)
      First = F.Loc.Line;
    uint64_t MaxThreads = 1, MaxDiv = 1;
    for (auto &[L, H] : Lines) {
      MaxThreads = std::max(MaxThreads, H.Threads);
      MaxDiv = std::max(MaxDiv, H.Divergent);
    }
    OS << "<h3>" << escapeHtml(File) << "</h3><pre class=\"src\">";
    for (unsigned L = First; L <= Last + 1 && L <= Text.size(); ++L) {
      auto It = Lines.find(L);
      std::string Bg = "", Count = "";
      if (It != Lines.end()) {
        const LineHeat &H = It->second;
        if (H.Divergent) {
          int A = int(40 + 160 * double(H.Divergent) / MaxDiv);
          Bg = formatv("background:rgba(220,60,40,{0:F2})", A / 255.0).str();
          Count = formatv("{0}/{1} div", H.Divergent, H.Visits).str();
        } else if (H.Threads) {
          int A = int(30 + 120 * double(H.Threads) / MaxThreads);
          Bg = formatv("background:rgba(60,140,220,{0:F2})", A / 255.0).str();
          Count = formatv("{0} thr", H.Threads).str();
        }
      }
      OS << "<span class=\"l\" style=\"" << Bg << "\"><span class=\"no\">" << L
         << "</span><span class=\"cnt\">" << Count << "</span>"
         << escapeHtml(Text[L - 1].rtrim("\r")) << "</span>";
    }
    OS << "</pre>\n";
  }
}

} // namespace

void warpscope::renderHtml(const ProfileSet &Set,
                           const std::vector<FunctionSummary> &Summaries,
                           raw_ostream &OS) {
  OS << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>WarpScope "
        "report</title>"
     << Style << "</head><body>\n<h1>WarpScope report</h1>\n";
  OS << "<table class=\"summary\"><tr><td>program</td><td>"
     << escapeHtml(Set.Program) << "</td></tr><tr><td>device</td><td>"
     << escapeHtml(Set.Device) << "</td></tr><tr><td>mode</td><td>"
     << escapeHtml(Set.Mode) << "</td></tr></table>\n";
  for (const std::string &W : Set.Warnings)
    OS << "<p class=\"warn\">warning: " << escapeHtml(W) << "</p>\n";
  // SASS metrics add the hardware's branch efficiency beside ours.
  bool Hardware = std::any_of(
      Summaries.begin(), Summaries.end(),
      [](const FunctionSummary &S) { return S.Hardware.has_value(); });
  OS << "<table class=\"sortable\" id=\"kernels\"><thead><tr><th>function</th>"
        "<th>launches</th><th>warp executions</th><th>thread executions</th>"
        "<th>SIMD efficiency</th><th>branch efficiency</th>";
  if (Hardware)
    OS << "<th>hardware branch efficiency</th><th>difference (points)</th>";
  OS << "<th>divergent branches</th></tr></thead><tbody>\n";
  for (const FunctionSummary &S : Summaries) {
    OS << "<tr><td><a href=\"#f-" << escapeHtml(S.Function->Name) << "\">"
       << escapeHtml(S.Function->Demangled) << "</a></td><td class=\"n\">"
       << S.Function->launches() << "</td><td class=\"n\">" << S.WarpExecutions
       << "</td><td class=\"n\">" << S.ThreadExecutions
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
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    OS << "<h2 id=\"f-" << escapeHtml(F.Name) << "\">"
       << (F.Kernel ? "Kernel " : "Device function ") << escapeHtml(F.Demangled)
       << "</h2>\n";
    OS << formatv("<p>{0} probed, {1} proven uniform, {2} divergent branches; "
                  "branch efficiency {3}; SIMD efficiency {4}; 90% of "
                  "divergence in {5} branch(es).</p>\n",
                  S.Probed, S.Uniform, S.DivergentBranches,
                  formatPercent(S.BranchEfficiency),
                  formatPercent(S.SimdEfficiency), S.Concentration90);
    if (F.Kernel)
      renderResourcesHtml(Set, F, OS);
    renderMixHtml(S.Mix, OS);
    if (S.Hardware)
      renderHardwareHtml(*S.Hardware, OS);
    if (!S.Rows.empty()) {
      OS << "<table class=\"sortable divmap\"><thead><tr><th>location</th>"
            "<th>visits</th><th>divergent</th><th>rate</th><th>share</th>"
            "<th>taken</th><th>source</th></tr></thead><tbody>\n";
      for (const BranchRow &R : S.Rows) {
        const BranchCounts &B = *R.Branch;
        OS << "<tr><td>" << escapeHtml(sys::path::filename(B.Loc.File)) << ":"
           << B.Loc.Line << ":" << B.Loc.Column << "</td><td class=\"n\">"
           << B.Visits << "</td><td class=\"n\">" << B.Divergent
           << "</td><td class=\"n\" data-v=\"" << R.Rate << "\">"
           << formatPercent(B.Visits ? std::optional<double>(R.Rate)
                                     : std::nullopt)
           << "</td><td class=\"n\" data-v=\"" << R.Share << "\">"
           << formatPercent(S.Divergent ? std::optional<double>(R.Share)
                                        : std::nullopt)
           << "</td><td class=\"n\">" << formatPercent(R.TakenFraction)
           << "</td><td><code>" << escapeHtml(R.SourceText)
           << "</code></td></tr>\n";
      }
      OS << "</tbody></table>\n";
    }
    renderSource(S, OS);
  }
  OS << Script << "</body></html>\n";
}
