//===- Exec.h - Module implementation --------------------------*- C++ -*-===//
#ifndef WARPSCOPE_EMU_CORE_EXEC_H
#define WARPSCOPE_EMU_CORE_EXEC_H

#include "Ptx.h"
#include "Racecheck.h"
#include "SpillModel.h"
#include "warpscope/Emu/Emulator.h"
#include "warpscope/Emu/TimingModel.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace warpscope::emu::core {

struct LaunchRecord {
  std::string Kernel;
  Dim3 Grid, Block;
  uint32_t Shared;
  bool Modeled = false; ///< the timing model ran (Time holds its result)
  timing::ModeledTime Time;
  /// How the model treated the kernel's probe instructions: "free" or
  /// "modeled"; empty when its module has none (docs/timing-model.md).
  std::string Probes;
  /// Stopped by requestInterrupt: the blocks that finished, and those
  /// stopped part way (the others never started).
  bool Interrupted = false;
  uint64_t BlocksFinished = 0, BlocksStopped = 0;
  /// The end of the highest shared byte the blocks touched (an offset into
  /// a block's window), and the window's layout (warpscope::SharedTouched).
  uint32_t SharedTouched = 0, StaticShared = 0, DynamicOffset = 0;
  /// Where ptxas spilled: the cap the model placed spill code for, the
  /// registers the kernel needs without spilling, the static bytes of the
  /// placed spill stores and loads, and ptxas's (all 0: no spills).
  struct SpillFigures {
    uint32_t Cap = 0, Need = 0;
    uint64_t Stores = 0, Loads = 0, PtxasStores = 0, PtxasLoads = 0;
  } Spills{};
};

std::string srcLoc(const ParsedModule &PM, const Inst &I);

/// One worker thread's counts during a launch: an InstCounters per function
/// it entered (sized on first entry), added into the Functions' totals after
/// the launch (flushInto), so totals do not depend on the thread count.
struct WorkerCounters {
  std::vector<InstCounters> Sets; // by Function::Index
  std::vector<uint8_t> Touched;   // by Function::Index
  std::vector<uint32_t> List;     // the touched functions
  /// Before a launch: one (empty) set per function, so that entering a
  /// function never moves the sets of the others.
  void prepare(size_t NumFunctions) {
    Sets.resize(NumFunctions);
    Touched.resize(NumFunctions, 0);
  }
  InstCounters &enter(const Function &F) {
    if (!Touched[F.Index]) {
      Touched[F.Index] = 1;
      List.push_back(F.Index);
      if (Sets[F.Index].WarpExec.size() != F.Code.size())
        Sets[F.Index].reset(F.Code.size());
    }
    return Sets[F.Index];
  }
  void flushInto(ParsedModule &PM) {
    for (uint32_t FI : List) {
      Sets[FI].moveInto(*PM.Functions[FI]);
      Touched[FI] = 0;
    }
    List.clear();
  }
};

/// Observes the instruction stream of one worker thread (the timing model,
/// TimingSink.cpp; tests count with it). Installed per worker index in
/// ModuleImpl::TraceSinks; a worker without one, or a CTA the sink does not
/// want, runs the untraced interpreter loop, which has no check per
/// instruction.
class TraceSink {
public:
  virtual ~TraceSink() = default;
  /// A CTA (linear index x + y * nx + z * nx * ny) starts on this worker;
  /// false: run it untraced (no other call until the next beginCta).
  virtual bool beginCta(uint64_t Cta) = 0;
  /// The traced CTA ran to its end (not called when it failed).
  virtual void endCta() {}
  /// One warp-instruction issued: Active lanes on the path, Exec those whose
  /// guard holds (an indirect call that splits is reported at each issue).
  virtual void instruction(uint32_t Warp, const Function &F, uint32_t Pc,
                           uint32_t Active, uint32_t Exec) = 0;
  /// What an atomic's lanes contend for (MemCount.cpp): its distinct global
  /// addresses and shared 32-bit words, each with the number of lanes on it,
  /// and for its shared lanes the passes of the shared-memory pipe (the most
  /// lanes on one bank: lanes on one word are not merged, each is a
  /// read-modify-write) and the most lanes on one word.
  struct AtomicLanes {
    const uint64_t *Global = nullptr; ///< (address << 6) | (lanes - 1)
    unsigned NGlobal = 0;
    const uint64_t *Shared = nullptr; ///< (word offset << 6) | (lanes - 1)
    unsigned NShared = 0;
    unsigned SharedPasses = 0, SharedMaxSame = 0;
  };
  /// After instruction(), for a load/store/atomic with a lane whose guard
  /// holds: its exact memory counts (MemCount.cpp), the distinct 128-byte
  /// lines its global and local lanes touched and, for an atomic, what its
  /// lanes contend for.
  virtual void memory(const MemCounts &Counts, const uint64_t *Lines,
                      unsigned NLines, const AtomicLanes &Atomic) {
    (void)Counts, (void)Lines, (void)NLines, (void)Atomic;
  }
};

/// The timing model's view of a module's code (ModelCode.cpp): one
/// StaticInst per instruction of every function, function after function.
struct ModelCode {
  /// What the trace does with an instruction: records it, records it with
  /// a MemAccess, or leaves it out (a probe's instruction, free unless
  /// WARPSCOPE_EMU_MODEL_PROBES: not issued, no slot, no sample, no memory
  /// traffic, no dependency).
  enum Role : uint8_t { Op = 0, Memory, Free };
  std::vector<timing::StaticInst> Table;
  std::vector<uint32_t> FuncBase; ///< by Function::Index
  std::vector<uint8_t> Roles;     ///< by table index
  uint32_t NumSlots = FirstRegSlot;
  bool HasProbes = false;     ///< some instruction is a probe's
  bool ProbesModeled = false; ///< built with WARPSCOPE_EMU_MODEL_PROBES
};

class ModuleImpl : public Module {
public:
  explicit ModuleImpl(std::unique_ptr<ParsedModule> P);
  ~ModuleImpl() override;
  const std::vector<KernelInfo> &kernels() const override { return Kernels; }
  const std::vector<GlobalInfo> &globals() const override { return Globals; }
  const KernelInfo *findKernel(const std::string &Name) const override;
  const GlobalInfo *findGlobal(const std::string &Name) const override;
  bool launch(const std::string &Kernel, const LaunchParams &P,
              std::string &Error, LaunchFault *Fault = nullptr) override;
  std::string groundTruthJson() const override;
  std::vector<ModeledPcSamples> modeledSamples() const override;
  std::string modelConfigName() const override { return SampledConfig; }
  std::string modelProbes() const override;
  unsigned samplingPeriod() const override {
    return SampledConfig.empty() ? 0 : SampledPeriod;
  }
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
  bool RaceCheck = false;     ///< WARPSCOPE_EMU_RACECHECK
  double ProgressSeconds = 0; ///< WARPSCOPE_EMU_PROGRESS
  double TimeoutSeconds = 0;  ///< WARPSCOPE_EMU_TIMEOUT (0: none)
  /// WARPSCOPE_EMU_MEMCHECK: every access outside an allocation fails the
  /// launch, also inside device memory's mapped pages (registerDeviceMemory).
  bool Memcheck = false;
  /// The instructions whose access outside an allocation was reported.
  std::set<const Inst *> OutOfBoundsReported;
  std::mutex OutOfBoundsMu;
  unsigned Threads = 1; ///< WARPSCOPE_EMU_THREADS (default: all cores)
  /// Per worker thread, kept across launches (LaunchGrid.cpp).
  std::vector<std::unique_ptr<WorkerCounters>> Workers;
  /// Per worker thread; null (or missing): not traced.
  std::vector<TraceSink *> TraceSinks;
  /// The timing model (TimingSink.cpp): WARPSCOPE_EMU_MODEL names its
  /// configuration (empty: off), WARPSCOPE_EMU_PC_SAMPLING the sampling
  /// period (0: no samples).
  std::string ModelSetting, ModelClock; ///< WARPSCOPE_EMU_MODEL(_CLOCK)
  std::optional<timing::Config> Model;  ///< loaded for ModelSetting
  unsigned SamplePeriod = 0;
  unsigned ModelSms = timing::DefaultModelSms; ///< WARPSCOPE_EMU_MODEL_SMS
  bool ModelProbes = false;                    ///< WARPSCOPE_EMU_MODEL_PROBES
  std::unique_ptr<ModelCode> Code; ///< built at the first modeled launch
  /// Spill code by (Function::Index, register cap): SpillModel.h.
  std::map<std::pair<uint32_t, uint32_t>, SpillPlan> SpillPlans;
  std::vector<timing::StallCounts> Samples; ///< by ModelCode table index
  /// WARPSCOPE_EMU_STALL_CYCLES: the exact stall cycles too, by the same
  /// index (empty: not taken).
  bool ExactStalls = false;
  std::vector<timing::StallCycles> Exact;
  /// Modeled launches so far: each samples with its own seed, the same in
  /// every run of the program.
  uint64_t ModeledLaunches = 0;
  std::string SampledConfig; ///< the configuration the samples were taken with
  unsigned SampledPeriod = 0;
  /// How the sampled launches treated probes: bit 0 free, bit 1 modeled
  /// (only launches of a module with probes set one).
  unsigned SampledProbes = 0;
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
