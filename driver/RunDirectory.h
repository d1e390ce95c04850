//===- RunDirectory.h - A warpscope output directory, read once -*- C++ -*-===//
//
// The one way a command reads the directory `warpscope run -o DIR` wrote:
// the directory is listed once, on first use, and each kind of file (the
// profiles, the emulator's ground truth, PC samples, SASS metrics, the run
// log) is parsed once, when first asked for, by its one reader (ProfileModel,
// GroundTruth, PcSampling, SassMetrics, RunLog), then kept. A command makes
// one RunDirectory per directory and hands it to whatever needs the files,
// so the report, its advice section and its predictions share one ground
// truth. A file that cannot be read is the same one-line error each time it
// is asked for. The files of per-process kinds are those of the selected
// MPI ranks only (Ranks.h).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RUNDIRECTORY_H
#define WARPSCOPE_DRIVER_RUNDIRECTORY_H

#include "GroundTruth.h"
#include "PcSampling.h"
#include "ProfileModel.h"
#include "RunLog.h"
#include "SassMetrics.h"
#include "warpscope/ABI/Files.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace warpscope {

class RunDirectory {
public:
  /// Dir as given; nothing is read until asked for. KeepLaunches: the
  /// profiles keep each launch's own counts (ProfileSet::Launches).
  explicit RunDirectory(std::string Dir, bool KeepLaunches = false);
  RunDirectory(const RunDirectory &) = delete;
  RunDirectory &operator=(const RunDirectory &) = delete;

  const std::string &path() const { return Dir; }

  /// The files of Kind (warpscope/ABI/Files.h), as paths, sorted; of a
  /// per-process kind only those of the selected ranks' processes.
  std::vector<std::string> files(const FileKind &Kind);
  bool has(const FileKind &Kind) { return !files(Kind).empty(); }
  /// Why the directory could not be listed; none when it could (a missing
  /// directory cannot).
  std::error_code listError();
  /// Every file name in the directory, sorted, ranks not applied.
  const std::vector<std::string> &names();

  /// The profiles (ProfileModel.h): an error when there is none.
  llvm::Expected<const ProfileSet &> profiles();
  /// The ground truth of every emu-*.json; Files == 0 when there is none.
  llvm::Expected<const Truth &> truth();
  /// Every pcsamples-*.json; nullopt when there is none.
  llvm::Expected<const std::optional<PcSampleSet> &> pcSamples();
  /// Every sassmetrics-*.json; nullopt when there is none.
  llvm::Expected<const std::optional<SassMetricsSet> &> sassMetrics();
  /// The run log's records (none without a log).
  llvm::Expected<const std::vector<RunRecord> &> runLog();
  /// mergedRunsNote (RunLog.h) of the run log.
  std::optional<std::string> mergedRunsNote();

  /// How often each was read from disk: a command reads each at most once.
  struct Reads {
    unsigned Listings = 0, Profiles = 0, Truth = 0, PcSamples = 0,
             SassMetrics = 0, RunLog = 0;
  };
  /// This object's reads.
  const Reads &reads() const { return Count; }
  /// The reads of every RunDirectory of the process so far, per directory,
  /// one line each (the driver's hidden --debug-run-directory prints them
  /// when the command ends, so a second object for one directory shows).
  static void printAllReads(llvm::raw_ostream &OS);

private:
  /// A kind of file, loaded once: its value, or the one line why not.
  template <typename T> struct Cached {
    std::optional<T> Value;
    std::string Error;
    bool Loaded = false;
  };
  template <typename T, typename Load>
  llvm::Expected<const T &> get(Cached<T> &C, unsigned Reads::*Kind, Load L);
  /// Counts one read of Kind, here and in the process's total.
  void count(unsigned Reads::*Kind);
  void list();

  std::string Dir;
  bool KeepLaunches;
  bool Listed = false;
  std::error_code ListError;
  std::vector<std::string> Names;
  std::map<long, int> RankOfPid; ///< of the profiles that name a rank
  Cached<ProfileSet> Profiles;
  Cached<Truth> GroundTruth;
  Cached<std::optional<PcSampleSet>> Samples;
  Cached<std::optional<SassMetricsSet>> Metrics;
  Cached<std::vector<RunRecord>> Log;
  Reads Count;
};

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RUNDIRECTORY_H
