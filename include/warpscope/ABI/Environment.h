//===- Environment.h - Where WarpScope's runtimes write -----------*- C++
//-*-===//
//
// The instrumentation runtime, the emulator and the PC-sampling collector
// run inside the user's program and write into one profile directory, which
// `warpscope run -o DIR` hands them in WARPSCOPE_OUT. Header-only and free of
// LLVM: the runtimes must not link it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ENVIRONMENT_H
#define WARPSCOPE_ENVIRONMENT_H

#include <cstdlib>
#include <optional>
#include <string>

namespace warpscope {

constexpr const char *OutputDirectoryVariable = "WARPSCOPE_OUT";
constexpr const char *DefaultOutputDirectory = "warpscope-out";

/// $WARPSCOPE_OUT when set and not empty, else warpscope-out (relative to
/// the program's working directory). Get is getenv, or a test's stand-in.
inline std::string outputDirectory(const char *(*Get)(const char *)) {
  const char *Dir = Get(OutputDirectoryVariable);
  return Dir && *Dir ? Dir : DefaultOutputDirectory;
}

/// The variables a launcher sets to a process's rank in its job, the first
/// set one wins: Open MPI, PMIx, MPICH and others using PMI, Slurm's srun.
/// The runtime names its files by it; `warpscope run` locks and logs per
/// rank by it.
inline constexpr const char *RankVariables[] = {
    "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
/// Likewise the job's number of ranks (PMIx has no such variable).
inline constexpr const char *WorldSizeVariables[] = {
    "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

/// The first of Vars that holds a decimal number in 0..INT32_MAX; a
/// malformed value is skipped (launchers' variables are not ours to
/// complain about).
template <size_t N>
inline std::optional<int> launcherNumber(const char *(*Get)(const char *),
                                         const char *const (&Vars)[N]) {
  for (const char *Var : Vars) {
    const char *V = Get(Var);
    if (!V || *V < '0' || *V > '9')
      continue;
    char *End = nullptr;
    long long X = std::strtoll(V, &End, 10);
    if (*End == 0 && X >= 0 && X <= 2147483647LL)
      return int(X);
  }
  return std::nullopt;
}

/// This process's rank when an MPI or Slurm launcher started it.
inline std::optional<int> launcherRank(const char *(*Get)(const char *)) {
  return launcherNumber(Get, RankVariables);
}
/// The number of ranks of its job, when the launcher says.
inline std::optional<int> launcherWorldSize(const char *(*Get)(const char *)) {
  return launcherNumber(Get, WorldSizeVariables);
}

} // namespace warpscope

#endif // WARPSCOPE_ENVIRONMENT_H
