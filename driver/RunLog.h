//===- RunLog.h - The runs a profile directory holds ------------*- C++ -*-===//
//
// `warpscope run` records each run it makes into a directory in one small
// file there (files::RunLog, one JSON line per run, schema "warpscope-runs/1":
// docs/profile-schema.md): its command line, start time, pid and mode
// (fresh, append or force). This is its only writer and reader; the report
// reads it to say when a directory merges several runs (--append).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_RUNLOG_H
#define WARPSCOPE_DRIVER_RUNLOG_H

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

struct RunRecord {
  /// "fresh" (an empty directory), "append" (--append), "force" (--force
  /// replaced what was there) or "unrecorded" (results a run left before
  /// this log existed, or that no `warpscope run` made, found by --append).
  std::string Mode;
  std::string Start; ///< UTC, ISO 8601 ("2026-11-28T10:00:00Z"); "" unknown
  long Pid = 0;      ///< of warpscope run; 0 unknown
  std::vector<std::string> Command; ///< warpscope's argv; empty unknown
  /// The MPI/Slurm rank of the run, under a launcher: the ranks of one job
  /// share a directory, each appending its own record.
  std::optional<int> Rank;
};

/// The runs Dir's log records, in order: none when it has no log. A line
/// that is no run record is an error naming the file and line.
llvm::Expected<std::vector<RunRecord>> readRunLog(const std::string &Dir);
/// Adds R as the log's last line (creating the log).
llvm::Error appendRunLog(const std::string &Dir, const RunRecord &R);
/// Now, as RunRecord::Start spells it.
std::string runStartTime();
/// One line for a report when a directory's log Runs merges several runs
/// ("3 runs merged (--append) ..."); none otherwise. The records of one
/// job's ranks are one run; a rank with several records since its last
/// "force" or "fresh" one, or ranked and unranked records together, merge
/// runs. RunDirectory::mergedRunsNote also says when the log cannot be read.
std::optional<std::string> mergedRunsNote(const std::vector<RunRecord> &Runs);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_RUNLOG_H
