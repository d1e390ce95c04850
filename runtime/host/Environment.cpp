//===- Environment.cpp - Runtime settings from the environment ------------===//

#include "Environment.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#include <cstdlib>
#include <cstring>

using namespace warpscope::rt;

Settings warpscope::rt::readSettings(const char *(*Get)(const char *)) {
  Settings S;
  if (const char *M = Get("WARPSCOPE_MODE"); M && *M) {
    if (!std::strcmp(M, "per-launch"))
      S.CollectionMode = Mode::PerLaunch;
    else if (std::strcmp(M, "aggregate"))
      S.Warning = std::string("WARPSCOPE_MODE='") + M +
                  "' is not 'aggregate' or 'per-launch'; using aggregate";
  }
  S.OutputDirectory = warpscope::outputDirectory(Get);
  if (const char *Q = Get("WARPSCOPE_QUIET"); Q && *Q && std::strcmp(Q, "0"))
    S.Quiet = true;
  if (const char *D = Get("WARPSCOPE_FLUSH_DELAY_MS"); D && *D) {
    char *End = nullptr;
    unsigned long V = std::strtoul(D, &End, 10);
    if (End && !*End && V <= 60000)
      S.FlushDelayMs = unsigned(V);
  }
  for (const char *Var :
       {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char *R = Get(Var); R && *R) {
      char *End = nullptr;
      long V = std::strtol(R, &End, 10);
      if (End && !*End && V >= 0) {
        S.Rank = int(V);
        break;
      }
    }
  return S;
}

std::string warpscope::rt::profileFileName(long Pid, std::optional<int> Rank) {
  return files::Profile.perProcess(Pid, Rank);
}

std::string warpscope::rt::launchesFileName(long Pid, std::optional<int> Rank) {
  return files::Launches.perProcess(Pid, Rank);
}
