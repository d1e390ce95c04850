//===- Files.h - What a profile directory holds, and its schema tags ------===//
//
// The names of the files the runtime, the emulator and the collector write
// into a profile directory (WARPSCOPE_OUT), and the schema tag each carries.
// Writers and readers both use these; nothing else spells them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ABI_FILES_H
#define WARPSCOPE_ABI_FILES_H

#include <optional>
#include <string>
#include <string_view>

namespace warpscope {

/// One kind of file: Prefix, then what names the instance, then Suffix.
struct FileKind {
  const char *Prefix;
  const char *Suffix;

  /// "<prefix><pid>[-rank<r>]<suffix>": one per process (and MPI rank).
  std::string perProcess(long Pid, std::optional<int> Rank = {}) const {
    std::string Name = Prefix + std::to_string(Pid);
    if (Rank)
      Name += "-rank" + std::to_string(*Rank);
    return Name + Suffix;
  }
  /// "<prefix><id><suffix>".
  std::string named(std::string_view Id) const {
    return std::string(Prefix).append(Id).append(Suffix);
  }
  /// The pid a per-process name (perProcess, or named with "<pid>-...")
  /// starts with; none for a name of another kind or form.
  std::optional<long> pidIn(std::string_view Name) const {
    if (!matches(Name))
      return std::nullopt;
    std::string_view Rest = Name.substr(std::string_view(Prefix).size());
    long Pid = 0;
    size_t I = 0;
    for (; I < Rest.size() && Rest[I] >= '0' && Rest[I] <= '9' && I < 12; ++I)
      Pid = Pid * 10 + (Rest[I] - '0');
    if (I == 0 || I == Rest.size() || (Rest[I] != '-' && Rest[I] != '.'))
      return std::nullopt;
    return Pid;
  }
  /// The rank of a perProcess name, "<prefix><pid>-rank<r><suffix>"; none
  /// for a process no launcher gave a rank.
  std::optional<int> rankIn(std::string_view Name) const {
    if (!pidIn(Name))
      return std::nullopt;
    std::string_view Stem =
        Name.substr(0, Name.size() - std::string_view(Suffix).size());
    size_t At = Stem.rfind("-rank");
    if (At == std::string_view::npos || At + 5 == Stem.size())
      return std::nullopt;
    long long R = 0;
    for (char C : Stem.substr(At + 5)) {
      if (C < '0' || C > '9' || R > 2147483647LL / 10)
        return std::nullopt;
      R = R * 10 + (C - '0');
    }
    if (R > 2147483647LL)
      return std::nullopt;
    return int(R);
  }
  bool matches(std::string_view Name) const {
    std::string_view P(Prefix), S(Suffix);
    return Name.size() >= P.size() + S.size() &&
           Name.substr(0, P.size()) == P &&
           Name.substr(Name.size() - S.size()) == S;
  }
};

namespace files {
/// The host runtime's profile (runtime/host), per process.
inline constexpr FileKind Profile{"profile-", ".json"};
/// Per-launch counter changes (WARPSCOPE_MODE=per-launch), per process.
inline constexpr FileKind Launches{"launches-", ".jsonl"};
/// A module's program database, by module id.
inline constexpr FileKind Database{"db-", ".json"};
/// The emulator's ground truth, "emu-<pid>-<module index>.json".
inline constexpr FileKind Truth{"emu-", ".json"};
/// The collector's PC samples and SASS metrics, per process.
inline constexpr FileKind PcSamples{"pcsamples-", ".json"};
inline constexpr FileKind SassMetrics{"sassmetrics-", ".json"};
/// A cubin the collector saved, by its CRC in 16 hex digits.
inline constexpr FileKind Cubin{"cubin-", ".cubin"};
/// `nvdisasm -c -g` of a saved cubin, written by `warpscope run`.
inline constexpr FileKind SassListing{"cubin-", ".sass"};
/// `nvdisasm -cfg` of a saved cubin (its control-flow graph), likewise.
inline constexpr FileKind CubinGraph{"cubin-", ".dot"};
/// PTX text whose instructions modeled (granularity "ptx") PC samples
/// number, "ptx-<module>.ptx"; read by `warpscope advise`.
inline constexpr FileKind Ptx{"ptx-", ".ptx"};
/// `warpscope run`'s record of the runs the directory holds, one JSON line
/// per run (schema::RunLog); written and read by driver/RunLog.cpp.
inline constexpr const char *RunLog = "warpscope-runs.jsonl";
/// Locked (flock) by the `warpscope run` that writes into the directory,
/// holding its pid; removed when it ends.
inline constexpr const char *RunLock = "warpscope-run.lock";

/// Under an MPI or Slurm launcher each rank's `warpscope run` locks its own
/// "warpscope-run-rank<r>.lock" instead, so that one job's ranks share the
/// directory while two runs of one rank do not.
inline std::string rankRunLock(int Rank) {
  return "warpscope-run-rank" + std::to_string(Rank) + ".lock";
}
/// The kinds named per process, "<prefix><pid>[-...]<suffix>": what one
/// rank's process left, found by the pid of its profile.
inline constexpr FileKind PerProcess[] = {Profile,   Launches,    Truth,
                                          PcSamples, SassMetrics, Ptx};

/// Every kind of file above that holds a run's results: a directory with
/// one of these (or a RunLog) holds a profile.
inline constexpr FileKind RunResults[] = {
    Profile,     Launches, Database,    Truth,      PcSamples,
    SassMetrics, Cubin,    SassListing, CubinGraph, Ptx};
inline bool isRunResult(std::string_view Name) {
  if (Name == RunLog)
    return true;
  for (const FileKind &K : RunResults)
    if (K.matches(Name))
      return true;
  return false;
}
} // namespace files

namespace schema {
/// Version 2 added `device_limits`, `kernels` (registers, spills, shared
/// memory) and launches' `blocks_per_sm`; readers still accept version 1,
/// whose kernels show those as unknown.
inline constexpr const char *Profile = "warpscope-profile/2";
inline constexpr const char *ProfileV1 = "warpscope-profile/1";
inline constexpr const char *Truth = "warpscope-emu/1";
inline constexpr const char *SassMetrics = "warpscope-sassmetrics/1";
/// `warpscope diff --format json` (docs/report-schema.md).
inline constexpr const char *Diff = "warpscope-diff/2";
/// Each line of files::RunLog.
inline constexpr const char *RunLog = "warpscope-runs/1";
// The database's and PC samples' tags live with their layouts (Abi.h,
// PcSampling.h).
} // namespace schema

} // namespace warpscope

#endif // WARPSCOPE_ABI_FILES_H
