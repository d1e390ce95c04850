//===- OutputDirectory.h - warpscope run's profile directory ----*- C++ -*-===//
//
// What `warpscope run -o DIR` does with DIR before the program starts: one
// run at a time (files::RunLock), never into earlier results unless asked
// (--force replaces them, --append adds this run to them), and each run
// recorded in the directory's run log (RunLog.h).
//
// Under an MPI or Slurm launcher (a rank in the environment, ABI
// Environment.h) the ranks of one job share the directory: each locks its
// own files::rankRunLock, and earlier results are those of its own rank
// (and any profile no launcher ranked); --force removes only those.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_DRIVER_OUTPUTDIRECTORY_H
#define WARPSCOPE_DRIVER_OUTPUTDIRECTORY_H

#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// What to do with a directory that holds an earlier run's results.
enum class EarlierResults { Refuse, Replace /*--force*/, Append /*--append*/ };

/// Holds a directory's files::RunLock while a run writes into it; removes
/// the lock file when destroyed.
class DirectoryLock {
public:
  /// Locks Dir (an existing directory). Fails with one line naming the pid
  /// of the run that holds it.
  static llvm::Expected<std::unique_ptr<DirectoryLock>>
  acquire(const std::string &Dir, std::optional<int> Rank = std::nullopt);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  DirectoryLock(std::string Path, int Fd) : Path(std::move(Path)), Fd(Fd) {}
  std::string Path;
  int Fd;
};

/// Makes the locked Dir ready for a run: refuses earlier results with one
/// line naming Dir and the ways out unless When says otherwise, removes them
/// (Replace), and records this run (argv Command) in the run log.
llvm::Error prepareOutputDirectory(const std::string &Dir, EarlierResults When,
                                   const std::vector<std::string> &Command,
                                   std::optional<int> Rank = std::nullopt);

} // namespace warpscope

#endif // WARPSCOPE_DRIVER_OUTPUTDIRECTORY_H
