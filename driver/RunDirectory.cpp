//===- RunDirectory.cpp - A warpscope output directory, read once ---------===//

#include "RunDirectory.h"
#include "Ranks.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include <algorithm>

using namespace llvm;
using namespace warpscope;

/// Every RunDirectory's reads, by directory.
static std::map<std::string, RunDirectory::Reads> &allReads() {
  static std::map<std::string, RunDirectory::Reads> All;
  return All;
}

void RunDirectory::printAllReads(raw_ostream &OS) {
  for (const auto &[Dir, R] : allReads())
    OS << "run directory " << Dir << ": listed " << R.Listings << ", profiles "
       << R.Profiles << ", ground truth " << R.Truth << ", PC samples "
       << R.PcSamples << ", SASS metrics " << R.SassMetrics << ", run log "
       << R.RunLog << "\n";
}

RunDirectory::RunDirectory(std::string Dir, bool KeepLaunches)
    : Dir(std::move(Dir)), KeepLaunches(KeepLaunches) {}

void RunDirectory::count(unsigned Reads::*Kind) {
  ++(Count.*Kind);
  ++(allReads()[Dir].*Kind);
}

void RunDirectory::list() {
  if (Listed)
    return;
  Listed = true;
  count(&Reads::Listings);
  for (sys::fs::directory_iterator I(Dir, ListError), E; I != E && !ListError;
       I.increment(ListError))
    Names.push_back(sys::path::filename(I->path()).str());
  std::sort(Names.begin(), Names.end());
  RankOfPid = rankedPids(Names);
}

const std::vector<std::string> &RunDirectory::names() {
  list();
  return Names;
}

std::error_code RunDirectory::listError() {
  list();
  return ListError;
}

std::vector<std::string> RunDirectory::files(const FileKind &Kind) {
  list();
  std::vector<std::string> Paths;
  for (const std::string &Name : Names)
    if (Kind.matches(Name)) {
      SmallString<256> P(Dir);
      sys::path::append(P, Name);
      Paths.push_back(std::string(P));
    }
  return keepSelectedRanks(RankOfPid, Kind, std::move(Paths));
}

template <typename T, typename Load>
Expected<const T &> RunDirectory::get(Cached<T> &C, unsigned Reads::*Kind,
                                      Load L) {
  if (!C.Loaded) {
    C.Loaded = true;
    count(Kind);
    Expected<T> V = L();
    if (V)
      C.Value = std::move(*V);
    else
      C.Error = toString(V.takeError());
  }
  if (!C.Value)
    return createStringError(C.Error);
  return *C.Value;
}

Expected<const ProfileSet &> RunDirectory::profiles() {
  return get(Profiles, &Reads::Profiles, [&] {
    std::vector<std::string> Files = files(files::Profile);
    return readProfiles(Dir, Files, ListError, KeepLaunches,
                        [&] { return mergedRunsNote(); });
  });
}

Expected<const Truth &> RunDirectory::truth() {
  return get(GroundTruth, &Reads::Truth, [&]() -> Expected<Truth> {
    std::vector<std::string> Files = files(files::Truth);
    if (ListError)
      return createStringError(Dir + ": cannot be listed (" +
                               ListError.message() + ")");
    Truth T;
    if (Error E = readTruth(Files, T))
      return E;
    return T;
  });
}

Expected<const std::optional<PcSampleSet> &> RunDirectory::pcSamples() {
  return get(Samples, &Reads::PcSamples,
             [&] { return readPcSamples(Dir, files(files::PcSamples)); });
}

Expected<const std::optional<SassMetricsSet> &> RunDirectory::sassMetrics() {
  return get(Metrics, &Reads::SassMetrics,
             [&] { return readSassMetrics(files(files::SassMetrics)); });
}

Expected<const std::vector<RunRecord> &> RunDirectory::runLog() {
  return get(Log, &Reads::RunLog, [&] { return readRunLog(Dir); });
}

std::optional<std::string> RunDirectory::mergedRunsNote() {
  Expected<const std::vector<RunRecord> &> Runs = runLog();
  if (!Runs)
    return toString(Runs.takeError()) +
           "; the directory may merge several runs";
  return warpscope::mergedRunsNote(*Runs);
}
