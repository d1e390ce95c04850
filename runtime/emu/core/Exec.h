//===- Exec.h - Module implementation
//--------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_EXEC_H
#define WARPSCOPE_EMU_CORE_EXEC_H

#include "Ptx.h"
#include "warpscope/Emu/Emulator.h"

#include <mutex>

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
  bool CheckGlobal = false; ///< WARPSCOPE_EMU_CHECK
  /// WARPSCOPE_EMU_TRUTH (default on): take the memory-efficiency counts,
  /// which cost time on memory-bound kernels and serve only the ground truth.
  bool CountMemory = true;
  /// Some launch ran without them: the ground truth leaves them out.
  bool MemoryIncomplete = false;
  double ProgressSeconds = 0; ///< WARPSCOPE_EMU_PROGRESS
  mutable std::mutex Mu;
};

} // namespace warpscope::emu::core

#endif
