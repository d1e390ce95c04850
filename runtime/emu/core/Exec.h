//===- Exec.h - Module implementation
//--------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_EXEC_H
#define WARPSCOPE_EMU_CORE_EXEC_H

#include "Ptx.h"
#include "Racecheck.h"
#include "warpscope/Emu/Emulator.h"

#include <map>
#include <mutex>
#include <tuple>

namespace warpscope::emu::core {

struct LaunchRecord {
  std::string Kernel;
  Dim3 Grid, Block;
  uint32_t Shared;
};

std::string srcLoc(const ParsedModule &PM, const Inst &I);

class ModuleImpl : public Module {
public:
  explicit ModuleImpl(std::unique_ptr<ParsedModule> P);
  const std::vector<KernelInfo> &kernels() const override { return Kernels; }
  const std::vector<GlobalInfo> &globals() const override { return Globals; }
  const KernelInfo *findKernel(const std::string &Name) const override;
  const GlobalInfo *findGlobal(const std::string &Name) const override;
  bool launch(const std::string &Kernel, const LaunchParams &P,
              std::string &Error) override;
  std::string groundTruthJson() const override;
  void readLaunchSettings();

  std::unique_ptr<ParsedModule> PM;
  std::vector<KernelInfo> Kernels;
  std::vector<GlobalInfo> Globals;
  std::vector<LaunchRecord> Launches;
  uint64_t LaunchCount = 0;
  /// Read from the environment at each launch (readLaunchSettings).
  /// WARPSCOPE_EMU_MEMORY (default off; warpscope run --emulate turns it
  /// on) and WARPSCOPE_EMU_TRUTH: take the memory-efficiency counts, which
  /// cost time on memory-bound kernels and serve only the ground truth.
  bool CountMemory = false;
  /// Some launch ran without them: the ground truth leaves them out.
  bool MemoryIncomplete = false;
  bool CheckGlobal = false;   ///< WARPSCOPE_EMU_CHECK
  bool RaceCheck = false;     ///< WARPSCOPE_EMU_RACECHECK
  double ProgressSeconds = 0; ///< WARPSCOPE_EMU_PROGRESS
  /// Racecheck (Racecheck.cpp): the shadow, kept across launches, and the
  /// distinct hazards found, indexed by (kernel, kind, first, second).
  RaceShadow Race;
  bool RaceChecked = false; ///< some launch ran with racecheck
  std::vector<HazardRecord> Hazards;
  std::map<std::tuple<const Function *, HazardKind, const Inst *, const Inst *>,
           size_t>
      HazardIndex;
  mutable std::mutex Mu;
};

} // namespace warpscope::emu::core

#endif
