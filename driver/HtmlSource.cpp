//===- HtmlSource.cpp - The HTML report's source view ---------------------===//

#include "HtmlSource.h"
#include "Html.h"
#include "SourceLines.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>

using namespace llvm;
using namespace warpscope;

const LineExtras *SourceExtras::find(const std::string &Function,
                                     const std::string &File,
                                     unsigned Line) const {
  auto F = Lines.find(Function);
  if (F == Lines.end())
    return nullptr;
  auto It = F->second.find({File, Line});
  if (It != F->second.end())
    return &It->second;
  // The same file spelled differently (a relative .file in the PTX).
  for (const auto &[Key, X] : F->second)
    if (Key.second == Line &&
        sys::path::filename(Key.first) == sys::path::filename(File))
      return &X;
  return nullptr;
}

SourceExtras warpscope::buildSourceExtras(const Truth *T,
                                          const MemoryView *Memory,
                                          const StallView *Stalls) {
  SourceExtras X;
  if (Memory)
    for (const MemoryFunction &F : Memory->Functions)
      for (const MemoryLine &L : F.Lines)
        if (!L.File.empty()) {
          X.Lines[F.Mangled][{L.File, L.Line}].Memory.push_back(
              {L.Access, L.Counts});
          X.Memory = true;
        }
  if (Stalls) {
    X.ModeledStalls = Stalls->Source != PcSourceCupti;
    for (const StallKernel &K : Stalls->Kernels)
      for (const StallLine &L : K.Lines) {
        if (L.File.empty() || !L.Samples)
          continue;
        LineExtras &E = X.Lines[K.Mangled][{L.File, L.Line}];
        E.Samples = L.Samples;
        for (const auto &[Reason, N] : L.Stalls)
          if (N > E.TopStallSamples)
            E.TopStall = Reason, E.TopStallSamples = N;
        X.Stalls = true;
      }
  }
  if (T)
    for (const auto &[Name, F] : T->Functions)
      for (const TruthInstruction &I : F.Insts)
        if (!I.Instrumentation && !I.File.empty() && I.Line) {
          X.Lines[Name][{I.File, I.Line}].Ptx.push_back({I.Opcode, I.Warp});
          X.Ptx = true;
        }
  return X;
}

namespace {

std::string sectionId(const FunctionProfile &F, unsigned FileIndex) {
  return "s-" + escapeHtml(F.Name) + "-" + std::to_string(FileIndex);
}

/// The files of F with counts whose text can be shown (Shown true) or
/// cannot (false: missing or edited since the build), in LineMap order.
std::vector<std::string> filesWithCounts(const FunctionProfile &F,
                                         SourceText &Sources, bool Shown) {
  std::vector<std::string> Out;
  for (const auto &[File, Lines] : lineCounts(F))
    if (!Lines.empty() && Sources.lines(File).empty() != Shown)
      Out.push_back(File);
  return Out;
}

/// "8.00 / 4.00" sectors (or wavefronts) per request against their ideal,
/// and whether the line moves more than the ideal.
std::pair<std::string, bool> perRequest(uint64_t Requests, uint64_t Actual,
                                        uint64_t Ideal) {
  if (!Requests)
    return {"", false};
  return {formatv("{0:F2} / {1:F2}", double(Actual) / Requests,
                  double(Ideal) / Requests)
              .str(),
          Actual > Ideal};
}

/// Whether the line moves more sectors or wavefronts than the ideal.
bool memoryConflict(const LineExtras *E) {
  if (!E)
    return false;
  for (const auto &[Access, C] : E->Memory)
    if (C.GlobalSectors + C.LocalSectors >
            C.GlobalIdealSectors + C.LocalIdealSectors ||
        C.SharedWavefronts > C.SharedIdealWavefronts)
      return true;
  return false;
}

/// The memory cells of a line: global (and local) sectors, shared
/// wavefronts; a conflict marks the cell. Where two of the line's accesses
/// have requests in one cell, each is shown with its kind ("load 8.00 /
/// 4.00, store 4.00 / 4.00"), never their sum.
std::string memoryCells(const LineExtras *E) {
  static const std::vector<std::pair<std::string, TruthMemory>> None;
  const auto &Accesses = E ? E->Memory : None;
  std::string Out;
  auto Cell = [&](const char *Class, auto Req, auto N, auto Ideal) {
    size_t Shown = 0;
    for (const auto &A : Accesses)
      Shown += Req(A.second) != 0;
    std::string Text;
    bool Conflict = false;
    for (const auto &[Access, C] : Accesses) {
      if (!Req(C))
        continue;
      auto [Part, PartConflict] = perRequest(Req(C), N(C), Ideal(C));
      Text += (Text.empty() ? "" : ", ") +
              (Shown > 1 ? Access + " " : std::string()) + Part;
      Conflict |= PartConflict;
    }
    Out += std::string("<span class=\"") + Class +
           (Conflict ? " conflict\" title=\"more than the ideal per request"
                     : "") +
           "\">" + Text + "</span>";
  };
  Cell(
      "sec",
      [](const TruthMemory &C) { return C.GlobalRequests + C.LocalRequests; },
      [](const TruthMemory &C) { return C.GlobalSectors + C.LocalSectors; },
      [](const TruthMemory &C) {
        return C.GlobalIdealSectors + C.LocalIdealSectors;
      });
  Cell(
      "wav", [](const TruthMemory &C) { return C.SharedRequests; },
      [](const TruthMemory &C) { return C.SharedWavefronts; },
      [](const TruthMemory &C) { return C.SharedIdealWavefronts; });
  return Out;
}

std::string stallCell(const LineExtras *E) {
  if (!E || !E->Samples)
    return "<span class=\"stl\"></span>";
  return "<span class=\"stl\" title=\"" +
         escapeHtml(formatv("{0} of {1} samples stalled on {2}",
                            E->TopStallSamples, E->Samples, E->TopStall)
                        .str()) +
         "\">" + withCommas(E->Samples) + " " + escapeHtml(E->TopStall) +
         "</span>";
}

/// The line's PTX, its warp-level executions in each instruction's title;
/// a space between instructions lets a long line wrap between them.
std::string ptxCell(const LineExtras *E) {
  std::string Out = "<span class=\"ptx\">";
  const char *Sep = "";
  if (E)
    for (const auto &[Opcode, Warp] : E->Ptx) {
      Out += std::string(Sep) + "<span title=\"" + withCommas(Warp) +
             " warp executions\">" + escapeHtml(Opcode) + "</span>";
      Sep = " ";
    }
  return Out + "</span>";
}

void renderHeader(const SourceExtras &X, bool Stalls, raw_ostream &OS) {
  OS << "<span class=\"l hd\"><span class=\"no\">line</span><span "
        "class=\"cnt\">threads</span><span class=\"ins\">PTX "
        "instr.</span><span class=\"div\">divergent/visits</span>";
  if (X.Memory)
    OS << "<span class=\"sec\">sectors/req (ideal)</span><span "
          "class=\"wav\">wavefronts/req (ideal)</span>";
  if (Stalls)
    OS << "<span class=\"stl\">" << (X.ModeledStalls ? "modeled " : "")
       << "samples</span>";
  OS << "<span class=\"t\">source</span>";
  if (X.Ptx)
    OS << "<span class=\"ptx\">PTX</span>";
  OS << "</span>";
}

} // namespace

void warpscope::renderSourceIndex(const std::vector<FunctionSummary> &Summaries,
                                  SourceText &Sources, raw_ostream &OS) {
  std::string Links;
  std::set<std::string> Missing;
  for (const FunctionSummary &S : Summaries) {
    const FunctionProfile &F = *S.Function;
    std::vector<std::string> Files = filesWithCounts(F, Sources, true);
    for (unsigned I = 0; I < Files.size(); ++I)
      Links += "<li><a href=\"#" + sectionId(F, I) + "\" title=\"" +
               escapeHtml(Files[I]) + "\">" +
               escapeHtml(sys::path::filename(Files[I])) +
               "</a>: " + escapeHtml(F.Demangled) + "</li>";
    for (const std::string &File : filesWithCounts(F, Sources, false))
      Missing.insert(File);
  }
  if (Links.empty() && Missing.empty())
    return;
  OS << "<details class=\"files\" open><summary>Source views</summary><ul>"
     << Links << "</ul>";
  // Say why a file has no view: built elsewhere, it needs a path mapping.
  if (!Missing.empty()) {
    OS << "<p class=\"missing\">Not found, or edited since the build (give "
          "<code>--path-equivalence &lt;from&gt;,&lt;to&gt;</code> for sources "
          "built elsewhere):";
    for (const std::string &File : Missing)
      OS << " <code>" << escapeHtml(File) << "</code>";
    OS << "</p>";
  }
  OS << "</details>\n";
}

void warpscope::renderSourceKey(const SourceExtras &X, raw_ostream &OS) {
  OS << "<p class=\"key\">Source view: line number, <b>threads</b> (thread "
        "executions of the line, see the legend), <b>PTX instr.</b> (of the "
        "blocks that start on the line), <b>divergent/visits</b> of its "
        "branches";
  if (X.Memory)
    OS << ", <b>sectors/req</b> of its global and local accesses and "
          "<b>wavefronts/req</b> of its shared ones, each against its ideal "
          "(emulator ground truth; <span class=\"conflict\">marked</span> "
          "where the line moves more than the ideal: uncoalesced, or a bank "
          "conflict)";
  if (X.Stalls)
    OS << ", <b>" << (X.ModeledStalls ? "modeled " : "")
       << "samples</b> on the line and their most frequent stall reason";
  OS << ", source";
  if (X.Ptx)
    OS << ", and beside it the line's <b>PTX</b> (the emulator's; its warp "
          "executions in the tooltip)";
  OS << ".<span class=\"sw\" "
        "style=\"background:rgba(60,140,220,.5)\"></span>blue: executed, "
        "darker = more thread executions<span class=\"sw\" "
        "style=\"background:rgba(220,60,40,.6)\"></span>red: a branch on the "
        "line diverged, darker = more divergent visits (shown as divergent / "
        "visits)</p>\n";
}

void warpscope::renderSourceHtml(const FunctionSummary &S, SourceText &Sources,
                                 const SourceExtras &X, raw_ostream &OS) {
  const FunctionProfile &F = *S.Function;
  LineMap Counts = lineCounts(F);
  std::vector<std::string> Files = filesWithCounts(F, Sources, true);
  bool Stalls = X.Stalls && X.Lines.count(F.Name);
  for (unsigned Index = 0; Index < Files.size(); ++Index) {
    const std::string &File = Files[Index];
    const std::map<unsigned, LineCounts> &Lines = Counts[File];
    const std::vector<std::string> &Text = Sources.lines(File);
    unsigned First = Lines.begin()->first, Last = Lines.rbegin()->first;
    if (F.Loc.File == File && F.Loc.Line && F.Loc.Line < First)
      First = F.Loc.Line;
    uint64_t MaxThreads = 1, MaxDiv = 1;
    for (auto &[L, H] : Lines) {
      MaxThreads = std::max(MaxThreads, H.ThreadExecutions);
      MaxDiv = std::max(MaxDiv, H.Divergent);
    }
    OS << "<h3 id=\"" << sectionId(F, Index) << "\">" << escapeHtml(File)
       << "</h3><pre class=\"src\">";
    renderHeader(X, Stalls, OS);
    for (unsigned L = First; L <= Last + 1 && L <= Text.size(); ++L) {
      const LineExtras *E = X.find(F.Name, File, L);
      auto It = Lines.find(L);
      std::string Bg, Count, Instructions, Divergence;
      if (It != Lines.end()) {
        const LineCounts &H = It->second;
        if (H.Divergent) {
          int A = int(40 + 160 * double(H.Divergent) / MaxDiv);
          Bg = formatv("background:rgba(220,60,40,{0:F2})", A / 255.0).str();
        } else if (H.ThreadExecutions) {
          int A = int(30 + 120 * double(H.ThreadExecutions) / MaxThreads);
          Bg = formatv("background:rgba(60,140,220,{0:F2})", A / 255.0).str();
        }
        if (H.ThreadExecutions)
          Count = withCommas(H.ThreadExecutions);
        if (H.Visits)
          Divergence = withCommas(H.Divergent) + "/" + withCommas(H.Visits);
        if (H.ThreadInstructions && *H.ThreadInstructions)
          Instructions = withCommas(*H.ThreadInstructions);
      }
      // The line number marks a conflicting line as its cells do.
      OS << "<span class=\"l\" id=\"" << sectionId(F, Index) << "-" << L
         << "\"><span class=\"no" << (memoryConflict(E) ? " conflict" : "")
         << "\">" << L << "</span><span class=\"cnt\" "
         << "style=\"" << Bg << "\">" << Count << "</span><span class=\"ins\">"
         << Instructions << "</span><span class=\"div\">" << Divergence
         << "</span>";
      if (X.Memory)
        OS << memoryCells(E);
      if (Stalls)
        OS << stallCell(E);
      OS << "<span class=\"t\" style=\"" << Bg << "\">"
         << escapeHtml(Text[L - 1]) << "</span>";
      if (X.Ptx)
        OS << ptxCell(E);
      OS << "</span>";
    }
    OS << "</pre>\n";
  }
}
