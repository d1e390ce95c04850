//===- Truth.cpp - ground-truth files of the loaded modules ---------------===//
//
// Writes each loaded module's exact ground truth (Module::groundTruthJson)
// to $WARPSCOPE_OUT (default ./warpscope-out) as emu-<pid>-<index>.json,
// when the program unregisters the module, at exit or when a signal stops
// the program (Interrupt.cpp), unless
// WARPSCOPE_EMU_TRUTH is 0, off or false, and at exit the timing model's
// PC samples, if any module took them, as pcsamples-<pid>.json. Besides
// these two settings this directory reads only WARPSCOPE_EMU_MODEL (in
// Launch.cpp, to give the model ptxas's registers); the core reads its own,
// and WARPSCOPE_EMU_TRUTH too: without ground truth it skips the memory
// counts.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"
#include "warpscope/ABI/Environment.h"
#include "warpscope/ABI/Files.h"
#include "warpscope/ABI/PcSampling.h"
#include "warpscope/Support/AtomicFile.h"
#include "warpscope/Support/Settings.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

using namespace warpscope::emu;
namespace files = warpscope::files;
namespace support = warpscope::support;

namespace {

bool truthEnabled() {
  support::SettingsReader R;
  bool On = R.flag("WARPSCOPE_EMU_TRUTH", true);
  if (!R.warnings().empty())
    fprintf(stderr, "warpscope-emu: warning: %s\n", R.firstWarning().c_str());
  return On;
}

} // namespace

namespace warpscope::emu::cudart {

void writeTruth(ModuleRec &R) {
  if (R.TruthWritten || !R.M || !truthEnabled())
    return;
  R.TruthWritten = true;
  std::string Dir = cudart::truthDirectory();
  std::string Name = files::Truth.named(std::to_string(getpid()) + "-" +
                                        std::to_string(R.Index));
  std::string Error =
      support::writeFileInDirectory(Dir, Name, R.M->groundTruthJson());
  if (!Error.empty())
    fprintf(stderr, "warpscope-emu: warning: %s\n", Error.c_str());
}

// Into += From, per name (both lists of (reason, figure), sorted by name).
template <typename N>
void addByName(std::vector<std::pair<std::string, N>> &Into,
               const std::vector<std::pair<std::string, N>> &From) {
  std::map<std::string, N> Sum(Into.begin(), Into.end());
  for (const auto &[Name, V] : From)
    Sum[Name] += V;
  Into.assign(Sum.begin(), Sum.end());
}

// The timing model's PC samples of every module, as pcsamples-<pid>.json
// (warpscope-pcsampling/3, source "model", granularity "ptx";
// docs/pc-sampling-schema.md). Nothing when no module was sampled.
void writeModeledSamples(State &St) {
  using nlohmann::json;
  std::map<std::pair<std::string, uint32_t>, ModeledPcSamples> Pcs;
  std::string Config, Probes;
  unsigned Period = 0;
  std::string Dir = cudart::truthDirectory();
  for (auto &R : St.Modules) {
    if (!R->M)
      continue;
    std::vector<ModeledPcSamples> Samples = R->M->modeledSamples();
    // The PTX whose instructions ptx_index numbers (warpscope advise).
    if (!Samples.empty() && !R->Ptx.empty()) {
      std::string Error = support::writeFileInDirectory(
          Dir,
          files::Ptx.named(std::to_string(getpid()) + "-" +
                           std::to_string(R->Index)),
          R->Ptx);
      if (!Error.empty())
        fprintf(stderr, "warpscope-emu: warning: %s\n", Error.c_str());
    }
    for (ModeledPcSamples &P : Samples) {
      ModeledPcSamples &Into = Pcs[{P.Function, P.PtxIndex}];
      if (Into.Function.empty()) {
        Into = std::move(P);
        continue;
      }
      addByName(Into.Stalls, P.Stalls);
      Into.Samples += P.Samples;
      addByName(Into.StallCycles, P.StallCycles);
      Into.Cycles += P.Cycles;
    }
    if (Config.empty())
      Config = R->M->modelConfigName();
    std::string P = R->M->modelProbes();
    if (!P.empty())
      Probes = Probes.empty() || Probes == P ? P : "mixed";
    Period = std::max(Period, R->M->samplingPeriod());
  }
  if (Pcs.empty())
    return;
  json Reasons = json::array();
  unsigned Index = 0;
  for (const char *Name : ModelStallNames) {
    Reasons.push_back({{"index", Index++}, {"name", Name}});
    Reasons.push_back(
        {{"index", Index++},
         {"name", std::string(Name) + std::string(NotIssuedSuffix)}});
  }
  // Without sampled launches (WARPSCOPE_EMU_STALL_CYCLES alone) the exact
  // cycles, rounded, stand in for the samples: method "exact".
  const bool Exact = Period == 0;
  json List = json::array();
  uint64_t Total = 0;
  double TotalCycles = 0;
  bool AnyCycles = false;
  for (auto &[Key, P] : Pcs) {
    json Stalls = json::object(), Held = json::object();
    for (auto &[Name, N] : P.StallCycles) {
      Held[Name] = N;
      AnyCycles = true;
      if (Exact && std::llround(N) > 0)
        Stalls[Name] = (uint64_t)std::llround(N);
    }
    uint64_t Samples = P.Samples;
    if (Exact) {
      Samples = 0;
      for (auto It = Stalls.begin(); It != Stalls.end(); ++It)
        if (!isNotIssuedStall(It.key()))
          Samples += It.value().get<uint64_t>();
    } else {
      for (auto &[Name, N] : P.Stalls)
        Stalls[Name] = N;
    }
    Total += Samples;
    TotalCycles += P.Cycles;
    json E = {{"function", P.Function},
              {"ptx_index", P.PtxIndex},
              {"samples", Samples},
              {"stalls", Stalls}};
    if (!P.StallCycles.empty())
      E["stall_cycles"] = Held;
    E["file"] = P.File; // "" and 0 where no .loc says
    E["line"] = P.Line;
    List.push_back(std::move(E));
  }
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  json Doc = {{"schema", PcSamplingSchema},
              {"source", PcSourceModel},
              {"granularity", PcGranularityPtx},
              {"model_config", Config},
              {"pid", (long)getpid()},
              {"program", N > 0 ? std::string(Exe, (size_t)N) : std::string()},
              {"collection_mode", "continuous"},
              {"sampling_period", Period},
              {"total_samples", Total},
              {"dropped_samples", 0},
              {"non_user_samples", 0},
              {"drains", 0},
              {"hardware_buffer_full", false},
              {"stall_reasons", Reasons},
              {"cubins", json::array()},
              {"pcs", List},
              {"errors", json::array()}};
  if (!Probes.empty()) // how the model treated probe instructions
    Doc["model_probes"] = Probes;
  Doc["method"] = Exact ? "exact" : "sampled";
  if (AnyCycles)
    Doc["stall_cycles_total"] = TotalCycles;
  std::string Error = support::writeFileInDirectory(
      Dir, files::PcSamples.named(std::to_string(getpid())),
      Doc.dump(1) + "\n");
  if (!Error.empty())
    fprintf(stderr, "warpscope-emu: warning: %s\n", Error.c_str());
}

void writeAllTruth(State &St) {
  Lock L(St.Mu);
  for (auto &R : St.Modules)
    writeTruth(*R);
  writeModeledSamples(St);
  syncPoint();
}

void atExitHandler() { writeAllTruth(S()); }

std::string truthDirectory() {
  return warpscope::outputDirectory(
      [](const char *Name) -> const char * { return getenv(Name); });
}

} // namespace warpscope::emu::cudart
