//===- OutputDirectory.cpp - warpscope run's profile directory ------------===//

#include "OutputDirectory.h"
#include "RunDirectory.h"
#include "warpscope/ABI/Files.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using namespace warpscope;
namespace files = warpscope::files;

/// The pid the holder wrote into its lock file, or "unknown".
static std::string holderPid(int Fd) {
  char Buf[32] = {};
  ssize_t N = pread(Fd, Buf, sizeof Buf - 1, 0);
  std::string Pid(Buf, N > 0 ? size_t(N) : 0);
  while (!Pid.empty() && (Pid.back() == '\n' || Pid.back() == ' '))
    Pid.pop_back();
  return Pid.empty() ? "unknown" : Pid;
}

Expected<std::unique_ptr<DirectoryLock>>
DirectoryLock::acquire(const std::string &Dir, std::optional<int> Rank) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Rank ? files::rankRunLock(*Rank) : files::RunLock);
  // The holder removes the file when it ends: a file opened just before
  // that is no longer the lock, so open it again.
  for (int Try = 0; Try < 16; ++Try) {
    int Fd = open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (Fd < 0)
      return createStringError("cannot create '" + Path +
                               "': " + std::strerror(errno));
    if (flock(Fd, LOCK_EX | LOCK_NB) != 0) {
      int Err = errno;
      std::string Pid = holderPid(Fd);
      close(Fd);
      if (Err == EWOULDBLOCK)
        return createStringError(
            "'" + Dir + "' is in use by another warpscope run (pid " + Pid +
            (Rank ? ", rank " + std::to_string(*Rank) : std::string()) +
            "); wait for it to end, or give -o another directory");
      return createStringError("cannot lock '" + Path +
                               "': " + std::strerror(Err));
    }
    struct stat Held, Named;
    if (fstat(Fd, &Held) == 0 && stat(Path.c_str(), &Named) == 0 &&
        Held.st_ino == Named.st_ino && Held.st_dev == Named.st_dev) {
      std::string Pid = std::to_string(getpid()) + "\n";
      if (ftruncate(Fd, 0) != 0 ||
          pwrite(Fd, Pid.data(), Pid.size(), 0) != ssize_t(Pid.size())) {
        // The lock holds without the pid; others then say "unknown".
      }
      return std::unique_ptr<DirectoryLock>(
          new DirectoryLock(std::string(Path), Fd));
    }
    close(Fd);
  }
  return createStringError("cannot lock '" + Path +
                           "': it keeps being replaced");
}

DirectoryLock::~DirectoryLock() {
  // Removed while still locked, so that no other run locks this file.
  unlink(Path.c_str());
  close(Fd);
}

/// The names of Dir's files that hold results of earlier runs, sorted.
/// For a rank: its own profiles and launch records, any profile of a
/// process no launcher ranked, and the other per-process files of those
/// processes (by pid); never another rank's, nor the files the ranks share
/// (databases, cubins, the run log).
static std::vector<std::string> earlierResults(RunDirectory &Run,
                                               std::optional<int> Rank) {
  std::vector<std::string> All, Names;
  for (const std::string &Name : Run.names())
    if (files::isRunResult(Name))
      All.push_back(Name);
  if (!Rank)
    return All;
  std::set<long> Pids;
  for (const std::string &Name : All)
    for (const FileKind &K : {files::Profile, files::Launches})
      if (auto Pid = K.pidIn(Name)) {
        std::optional<int> Of = K.rankIn(Name);
        if (!Of || *Of == *Rank)
          Pids.insert(*Pid);
      }
  for (const std::string &Name : All)
    for (const FileKind &K : files::PerProcess)
      if (auto Pid = K.pidIn(Name); Pid && Pids.count(*Pid)) {
        Names.push_back(Name);
        break;
      }
  return Names;
}

Error warpscope::prepareOutputDirectory(const std::string &Dir,
                                        EarlierResults When,
                                        const std::vector<std::string> &Command,
                                        std::optional<int> Rank) {
  RunDirectory Run(Dir);
  std::vector<std::string> Earlier = earlierResults(Run, Rank);
  if (std::error_code EC = Run.listError())
    return createStringError("cannot list '" + Dir + "': " + EC.message());
  RunRecord This{When == EarlierResults::Replace  ? "force"
                 : When == EarlierResults::Append ? "append"
                                                  : "fresh",
                 runStartTime(), long(getpid()), Command, Rank};
  if (!Earlier.empty() && When == EarlierResults::Refuse)
    return createStringError(
        "'" + Dir + "' already holds results of an earlier run" +
        (Rank ? " of rank " + std::to_string(*Rank) : std::string()) + " (" +
        Earlier.front() +
        (Earlier.size() > 1
             ? " and " + std::to_string(Earlier.size() - 1) + " more"
             : std::string()) +
        "); --force replaces them, --append adds this run to them, or give "
        "-o a new directory");
  if (When == EarlierResults::Replace)
    for (const std::string &Name : Earlier) {
      SmallString<256> Path(Dir);
      sys::path::append(Path, Name);
      // Ranks sharing the directory may remove an unranked file together.
      if (std::error_code RE =
              sys::fs::remove(Path, /*IgnoreNonExisting=*/true))
        return createStringError("cannot remove '" + Path +
                                 "': " + RE.message());
    }
  if (When == EarlierResults::Append && !Earlier.empty()) {
    // Results no logged run left (an older warpscope, or the program run
    // with WARPSCOPE_OUT): one run of unknown origin.
    Expected<const std::vector<RunRecord> &> Logged = Run.runLog();
    if (!Logged)
      return Logged.takeError();
    if (llvm::none_of(*Logged,
                      [&](const RunRecord &R) { return R.Rank == Rank; }))
      if (Error E = appendRunLog(Dir, RunRecord{"unrecorded", "", 0, {}, Rank}))
        return E;
  }
  return appendRunLog(Dir, This);
}
