//===- SarifFormat.cpp - What SARIF consumers need beyond the results -----===//

#include "SarifFormat.h"
#include "warpscope/Support/Fnv.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace llvm;
using namespace warpscope;

#ifndef WARPSCOPE_PROJECT_URI
#error "WARPSCOPE_PROJECT_URI (CMake) names where README.md and docs/ are"
#endif

namespace {

/// Lines of context on each side of a result's line.
constexpr unsigned ContextLines = 2;

std::string normalised(StringRef Path) {
  SmallString<256> P(Path);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true, sys::path::Style::posix);
  return std::string(P);
}

json::Object divergentBranchRule() {
  const char *Help =
      "The lanes of a warp took different sides of this branch, so the warp "
      "ran both sides one after the other, each with part of its lanes "
      "idle. The message gives the warp visits, how many of them diverged "
      "and this branch's share of the kernel's divergent visits. Make the "
      "condition the same for the 32 lanes of a warp (branch on warp-sized "
      "groups of data, sort or bin the work first), or move the work out of "
      "the branch. Counts are exact (measured by warp-vote probes), not "
      "sampled.";
  const char *Markdown =
      "**Divergent branch (WS001).** The lanes of a warp took different "
      "sides of this branch, so the warp ran both sides one after the "
      "other, each with part of its lanes idle.\n\n"
      "The message gives the warp *visits*, how many of them were "
      "*divergent*, the divergence rate (divergent / visits) and the "
      "branch's *share* of its kernel's divergent visits.\n\n"
      "To fix it, make the condition the same for the 32 lanes of a warp "
      "(branch on warp-sized groups of data, sort or bin the work first), "
      "or move the work out of the branch. The counts are exact "
      "(warp-vote probes), not sampled.";
  return json::Object{
      {"id", "WS001"},
      {"name", "DivergentBranch"},
      {"shortDescription", json::Object{{"text", "Divergent branch"}}},
      {"fullDescription",
       json::Object{{"text", "Lanes of a warp took different sides of this "
                             "branch, so the warp ran both sides one after "
                             "the other with part of its lanes idle."}}},
      {"help", json::Object{{"text", Help}, {"markdown", Markdown}}},
      {"helpUri", WARPSCOPE_PROJECT_URI "docs/sarif.md#ws001-divergentbranch"},
      {"defaultConfiguration", json::Object{{"level", "warning"}}},
      {"properties", json::Object{{"tags", json::Array{"performance", "cuda"}},
                                  {"precision", "very-high"}}}};
}

json::Object loadImbalanceRule() {
  const char *Help =
      "The MPI ranks of one job spent different time, or ran different "
      "numbers of instructions, in this kernel: the ranks that finish early "
      "wait for the slowest one at the next collective. The message gives "
      "the imbalance (max over mean over the ranks) and the rank that "
      "deviates most from the median; the report lists every deviating "
      "rank. Balance the work over the ranks (partition by cost, not by "
      "count), or overlap the wait with other work.";
  const char *Markdown =
      "**Load imbalance over MPI ranks (WS002).** The ranks of one job spent "
      "different time, or ran different numbers of instructions, in this "
      "kernel, so the early ones wait for the slowest at the next "
      "collective.\n\n"
      "The message gives the *imbalance* (max / mean over the ranks) and the "
      "rank furthest from the median; `warpscope report --format json` "
      "lists every rank's numbers (`ranks.kernels[].per_rank`).\n\n"
      "To fix it, partition the work by cost rather than by count, or "
      "overlap the wait with other work.";
  return json::Object{
      {"id", "WS002"},
      {"name", "LoadImbalance"},
      {"shortDescription", json::Object{{"text", "Load imbalance over MPI "
                                                 "ranks"}}},
      {"fullDescription",
       json::Object{{"text", "The ranks of one MPI job spent different time "
                             "or instructions in this kernel."}}},
      {"help", json::Object{{"text", Help}, {"markdown", Markdown}}},
      {"helpUri", WARPSCOPE_PROJECT_URI "docs/sarif.md#ws002-loadimbalance"},
      {"defaultConfiguration", json::Object{{"level", "warning"}}},
      {"properties", json::Object{{"tags", json::Array{"performance", "mpi"}},
                                  {"precision", "high"}}}};
}

} // namespace

Expected<std::string> warpscope::sarifSourceRoot(const std::string &Dir) {
  SmallString<256> P(Dir);
  if (std::error_code EC = sys::fs::make_absolute(P))
    return createStringError(EC, "--srcroot '%s': %s", Dir.c_str(),
                             EC.message().c_str());
  if (!sys::fs::is_directory(P))
    return createStringError(inconvertibleErrorCode(),
                             "--srcroot '%s' is not a directory; give the "
                             "root the sources are checked out in",
                             Dir.c_str());
  std::string Root = normalised(P);
  if (Root.empty() || Root.back() != '/')
    Root += '/';
  return Root;
}

std::string warpscope::percentEncodePath(StringRef P) {
  std::string Out;
  for (unsigned char C : P) {
    if (isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += char(C);
    else
      Out += {'%', hexdigit(C >> 4), hexdigit(C & 15)};
  }
  return Out;
}

json::Object warpscope::sarifArtifactLocation(const std::string &File,
                                              const SarifContext &C) {
  std::string Path = normalised(File);
  bool Absolute = sys::path::is_absolute(Path, sys::path::Style::posix);
  if (Absolute && !C.SourceRoot.empty() &&
      StringRef(Path).starts_with(C.SourceRoot))
    return json::Object{
        {"uri", percentEncodePath(Path.substr(C.SourceRoot.size()))},
        {"uriBaseId", SarifSourceRootId}};
  if (Absolute)
    return json::Object{{"uri", "file://" + percentEncodePath(Path)}};
  // A relative path (a build without a compilation directory) is taken to
  // be relative to the source root.
  json::Object O{{"uri", percentEncodePath(Path)}};
  if (!C.SourceRoot.empty())
    O["uriBaseId"] = SarifSourceRootId;
  return O;
}

json::Object warpscope::sarifPhysicalLocation(const Location &L,
                                              const SarifContext &C) {
  json::Object Region{{"startLine", L.Line}};
  if (L.Column)
    Region["startColumn"] = L.Column;
  json::Object Out{{"artifactLocation", sarifArtifactLocation(L.File, C)}};
  static const std::vector<std::string> None;
  const std::vector<std::string> &Lines =
      C.Sources ? C.Sources->lines(L.File) : None;
  if (L.Line >= 1 && L.Line <= Lines.size()) {
    Region["snippet"] = json::Object{{"text", Lines[L.Line - 1]}};
    unsigned First = L.Line > ContextLines ? L.Line - ContextLines : 1;
    unsigned Last = std::min<size_t>(L.Line + ContextLines, Lines.size());
    std::string Context;
    for (unsigned N = First; N <= Last; ++N)
      Context += Lines[N - 1] + "\n";
    Out["contextRegion"] =
        json::Object{{"startLine", First},
                     {"endLine", Last},
                     {"snippet", json::Object{{"text", Context}}}};
  }
  Out["region"] = std::move(Region);
  return Out;
}

json::Object warpscope::sarifFingerprints(StringRef RuleId, const Location &L,
                                          StringRef Function,
                                          const SarifContext &C) {
  std::string Text;
  if (C.Sources)
    Text = C.Sources->line(L.File, L.Line);
  // Without the line's text, its number stands in (the best there is).
  if (Text.empty())
    Text = "line " + std::to_string(L.Line);
  json::Value Uri = sarifArtifactLocation(L.File, C)["uri"];
  std::string Key = (RuleId + "\n" + *Uri.getAsString() + "\n" + Function +
                     "\n" + Text + "\n" + std::to_string(L.Column))
                        .str();
  return json::Object{
      {"warpscopeBranch/v1", formatv("{0:x-16}", fnv1a64(Key)).str()}};
}

json::Value warpscope::sarifLog(json::Array Results, const SarifContext &C) {
  json::Object Driver{
      {"name", "WarpScope"},
      {"version", WARPSCOPE_VERSION},
      {"semanticVersion", WARPSCOPE_VERSION},
      {"informationUri", WARPSCOPE_PROJECT_URI "README.md"},
      {"rules", json::Array{divergentBranchRule(), loadImbalanceRule()}}};
  // What makes the results incomplete (a module whose counters were not
  // read, a fault, a signal, a stale source) travels as notifications, not
  // as results.
  json::Array Notes;
  for (const std::string &N : C.Notifications)
    Notes.push_back(json::Object{{"level", "warning"},
                                 {"message", json::Object{{"text", N}}}});
  // What the run left out on purpose (a kernel filter, a launch selection).
  for (const std::string &N : C.Notes)
    Notes.push_back(json::Object{{"level", "note"},
                                 {"message", json::Object{{"text", N}}}});
  json::Object Run{
      {"tool", json::Object{{"driver", std::move(Driver)}}},
      {"invocations", json::Array{json::Object{
                          {"executionSuccessful", true},
                          {"toolExecutionNotifications", std::move(Notes)}}}},
      {"results", std::move(Results)}};
  if (!C.SourceRoot.empty())
    Run["originalUriBaseIds"] = json::Object{
        {SarifSourceRootId,
         json::Object{
             {"uri", "file://" + percentEncodePath(C.SourceRoot)},
             {"description",
              json::Object{{"text", "The source root (--srcroot)."}}}}}};
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};
}
