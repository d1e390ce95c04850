//===- TimingSink.cpp - The functional executor feeds the timing model ----===//
//
// With WARPSCOPE_EMU_MODEL set (`warpscope run --emulate` sets it), each
// launch runs with one TimingSink per worker: it records the warp
// instructions of the CTAs the model wants (those of the simulated SMs and
// of the SMs before them, timing::LaunchModel::wanted) with their exact
// memory counts and lines, and submits each CTA's trace when it ends. Other
// CTAs run untraced, at full speed. What each instruction is to the model
// is ModelCode.cpp's (describeModule). A probe's instructions stay out of
// the trace unless WARPSCOPE_EMU_MODEL_PROBES is set, so that modeled time
// and samples of an instrumented run describe the user's program
// (docs/timing-model.md, "Probes").
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "SpillModel.h"
#include "warpscope/Support/Settings.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace warpscope::emu::core {

using timing::StaticInst;

namespace {

// Spills: the launch places spill code (SpillModel.h); Paths: the model
// wants the points where a warp resumes a divergent path
// (LaunchModel::wantsResumes). Separate instantiations, so that launches
// without them pay nothing for them.
template <bool Spills, bool Paths> class TimingSink final : public TraceSink {
public:
  TimingSink(timing::LaunchModel &M, const ModelCode &Code, uint32_t NWarps,
             const SpillCode *Spill = nullptr)
      : M(M), Code(Code), NWarps(NWarps), Spill(Spill) {
    if constexpr (Spills)
      Due.assign(NWarps, {NoTarget, 0});
  }
  bool beginCta(uint64_t Cta) override {
    if (!M.wanted(Cta))
      return false;
    Cur = timing::CtaTrace();
    Cur.Cta = Cta;
    Cur.Warps.resize(NWarps);
    LinesOnly = M.linesOnly(Cta);
    LastActive.assign(NWarps, 0);
    return true;
  }
  void endCta() override {
    if constexpr (Spills)
      for (uint32_t W = 0; W < NWarps; ++W)
        storesDue(W);
    M.submit(std::move(Cur));
  }
  void instruction(uint32_t Warp, const Function &F, uint32_t Pc,
                   uint32_t Active, uint32_t Exec) override {
    timing::WarpTrace &W = Cur.Warps[Warp];
    if constexpr (Spills) {
      storesDue(Warp);
      if (F.Index == Spill->Function &&
          Code.Roles[Code.FuncBase[F.Index] + Pc] != ModelCode::Free) {
        if (Spill->at(Pc, true))
          Spill->record(W, Pc, true, Cur.Cta, Warp, Exec);
        if (Spill->at(Pc, false))
          Due[Warp] = {Pc, Exec};
      }
    }
    uint32_t Id = Code.FuncBase[F.Index] + Pc;
    timing::TraceOp Op{Id, timing::NoMem};
    // One test on the common path (an ALU instruction): Op is 0.
    if (const uint8_t Role = Code.Roles[Id]) {
      if (Role == ModelCode::Free) {
        Last = nullptr; // its memory() is not the model's either
        return;
      }
      timing::MemAccess A;
      A.Off = Exec == 0;
      Op.Mem = (uint32_t)W.Mems.size();
      W.Mems.push_back(A);
    } else if (LinesOnly) {
      Last = nullptr; // a neighbour's CTA: only its lines are used
      return;
    }
    if constexpr (Paths)
      notePath(W, Warp, Active);
    W.Ops.push_back(Op);
    Last = &W;
  }
  void memory(const MemCounts &D, const uint64_t *Lines, unsigned NLines,
              const AtomicLanes &AL) override {
    if (!Last || Last->Ops.empty() || Last->Ops.back().Mem == timing::NoMem)
      return; // not an instruction the model treats as a memory access
    timing::MemAccess &A = Last->Mems.back();
    A.Counted = true;
    A.Sectors = (uint32_t)(D.GlobalSectors + D.LocalSectors);
    A.Wavefronts = (uint32_t)D.SharedWavefronts;
    A.Atomics = (uint32_t)D.AtomicAddresses;
    A.Global = D.GlobalRequests + D.LocalRequests > 0;
    A.Shared = D.SharedRequests > 0;
    A.LineBegin = (uint32_t)Last->Lines.size();
    A.NLines = NLines;
    Last->Lines.insert(Last->Lines.end(), Lines, Lines + NLines);
    A.AtomBegin = (uint32_t)Last->Lines.size();
    A.NAtoms = AL.NGlobal;
    Last->Lines.insert(Last->Lines.end(), AL.Global, AL.Global + AL.NGlobal);
    A.NSharedAtoms = (uint16_t)AL.NShared;
    Last->Lines.insert(Last->Lines.end(), AL.Shared, AL.Shared + AL.NShared);
    A.SharedPasses = (uint16_t)AL.SharedPasses;
    A.SharedMaxSame = (uint16_t)AL.SharedMaxSame;
  }

private:
  // The warp goes on with lanes that were not on the path before while
  // lanes of that path wait: it resumes another divergent path (a
  // reconvergence's BSYNC switching to the lanes waiting elsewhere).
  void notePath(timing::WarpTrace &W, uint32_t Warp, uint32_t Active) {
    const uint32_t Before = LastActive[Warp];
    if ((Active & ~Before) && (Before & ~Active))
      W.Resumes.push_back((uint32_t)W.Ops.size());
    LastActive[Warp] = Active;
  }
  // The spill stores after a warp's last instruction: recorded before its
  // next one, once the last one's memory() has come.
  void storesDue(uint32_t Warp) {
    auto &[Pc, Exec] = Due[Warp];
    if (Pc == NoTarget)
      return;
    Spill->record(Cur.Warps[Warp], Pc, false, Cur.Cta, Warp, Exec);
    Pc = NoTarget;
  }

  timing::LaunchModel &M;
  const ModelCode &Code;
  uint32_t NWarps;
  const SpillCode *Spill;
  std::vector<std::pair<uint32_t, uint32_t>> Due; ///< per warp: Pc, Exec
  std::vector<uint32_t> LastActive; ///< per warp: the lanes of its last op
  timing::CtaTrace Cur;
  timing::WarpTrace *Last = nullptr;
  bool LinesOnly = false; ///< Cur is a neighbour's (LaunchModel::linesOnly)
};

std::unique_ptr<TraceSink> makeSink(timing::LaunchModel &M,
                                    const ModelCode &Code, uint32_t NWarps,
                                    const SpillCode *Spill) {
  const bool Paths = M.wantsResumes();
  if (Spill && Paths)
    return std::make_unique<TimingSink<true, true>>(M, Code, NWarps, Spill);
  if (Spill)
    return std::make_unique<TimingSink<true, false>>(M, Code, NWarps, Spill);
  if (Paths)
    return std::make_unique<TimingSink<false, true>>(M, Code, NWarps);
  return std::make_unique<TimingSink<false, false>>(M, Code, NWarps);
}

} // namespace

void readModelSettings(ModuleImpl &M, support::SettingsReader &R) {
  std::string Want = R.text("WARPSCOPE_EMU_MODEL");
  if (Want == "off" || Want == "0")
    Want.clear();
  // The clock cycles convert at (docs/timing-model.md, "Clocks").
  const std::string Clock = R.text("WARPSCOPE_EMU_MODEL_CLOCK");
  if (Want != M.ModelSetting || Clock != M.ModelClock) {
    M.ModelSetting = Want;
    M.ModelClock = Clock;
    M.Model.reset();
    if (!Want.empty()) {
      timing::Config C;
      std::string Error;
      if (timing::loadConfig(Want, C, Error) &&
          timing::selectClock(C, Clock, Error))
        M.Model = C;
      else { // once per process and setting
        static std::set<std::string> Said;
        static std::mutex SaidMu;
        std::lock_guard<std::mutex> L(SaidMu);
        if (Said.insert(Error).second)
          std::fprintf(stderr,
                       "warpscope-emu: %s; running without the timing model\n",
                       Error.c_str());
      }
    }
  }
  // How many SMs a launch simulates at most (docs/timing-model.md, "Large
  // grids"); more is slower and, on uneven grids, closer.
  M.ModelSms = (unsigned)R
                   .integer("WARPSCOPE_EMU_MODEL_SMS", 1, timing::MaxModelSms,
                            std::to_string(timing::DefaultModelSms).c_str())
                   .value_or(timing::DefaultModelSms);
  // Probe instructions are free (left out of the trace) unless this is set:
  // the probe-overhead tools need their modeled cost.
  M.ModelProbes = R.flag("WARPSCOPE_EMU_MODEL_PROBES", false);
  M.ExactStalls = R.flag("WARPSCOPE_EMU_STALL_CYCLES", false);
  M.SamplePeriod = 0;
  if (R.flag("WARPSCOPE_EMU_PC_SAMPLING", false))
    M.SamplePeriod = (unsigned)R
                         .integer("WARPSCOPE_SAMPLING_PERIOD",
                                  MinSamplingPeriod, MaxSamplingPeriod, "9")
                         .value_or(9);
}

// The SASS warp instructions the module's executions so far stand for:
// each PTX instruction's warp executions times its expansion (a probe's
// count only when probes are modeled).
static uint64_t sassInstructions(const ModuleImpl &M) {
  const ModelCode &C = *M.Code;
  uint64_t N = 0;
  for (size_t FI = 0; FI < M.PM->Functions.size(); ++FI) {
    const Function &F = *M.PM->Functions[FI];
    const uint32_t Base = C.FuncBase[FI];
    for (size_t K = 0; K < F.WarpExec.size(); ++K)
      if (C.Roles[Base + K] != ModelCode::Free)
        N += F.WarpExec[K] * C.Table[Base + K].Expand;
  }
  return N;
}

void runModeled(ModuleImpl &M, Function &K, const LaunchParams &P,
                uint32_t RegistersPerThread, LaunchRecord &Rec) {
  if (!M.Code || M.Code->ProbesModeled != M.ModelProbes)
    M.Code = describeModule(*M.PM, M.ModelProbes);
  if (M.Code->HasProbes)
    Rec.Probes = M.ModelProbes ? "modeled" : "free";
  const uint64_t Threads = (uint64_t)P.Block.X * P.Block.Y * P.Block.Z;
  timing::LaunchShape Shape;
  Shape.Ctas = (uint64_t)P.Grid.X * P.Grid.Y * P.Grid.Z;
  Shape.GridX = P.Grid.X;
  Shape.ThreadsPerCta = (uint32_t)Threads;
  Shape.RegistersPerThread = RegistersPerThread;
  // A what-if's shared memory per block (WhatIf.h) places the blocks; the
  // functional run keeps the kernel's own.
  Shape.SharedPerCta =
      P.ModelSharedBytes >= 0
          ? (uint64_t)P.ModelSharedBytes
          : (uint64_t)K.Shared.StaticBytes + P.DynamicSharedBytes;
  const uint32_t NWarps = (uint32_t)((Threads + 31) / 32);
  // Where ptxas spilled: its spill code, after the module's instructions.
  std::vector<StaticInst> WithSpills;
  std::unique_ptr<SpillCode> Spill =
      launchSpills(M, K, P, NWarps, Rec, WithSpills, Shape.RegistersPerThread);
  timing::LaunchModel Model(*M.Model, Spill ? WithSpills : M.Code->Table,
                            M.Code->NumSlots, Shape, M.SamplePeriod, M.ModelSms,
                            M.ModeledLaunches++, M.ExactStalls);
  std::vector<std::unique_ptr<TraceSink>> Sinks;
  for (unsigned W = 0; W < std::max(1u, M.Threads); ++W) {
    Sinks.push_back(makeSink(Model, *M.Code, NWarps, Spill.get()));
    M.TraceSinks.push_back(Sinks.back().get());
  }
  struct Restore { // the sinks die with this launch
    ModuleImpl &M;
    ~Restore() { M.TraceSinks.clear(); }
  } R{M};
  const uint64_t Before = sassInstructions(M);
  runGrid(M, K, P, Rec);
  Rec.Time = Model.finish();
  Rec.Time.Instructions = sassInstructions(M) - Before;
  Rec.Modeled = true;
  if (!M.SamplePeriod && !M.ExactStalls)
    return;
  if (M.ExactStalls)
    timing::addStalls(M.Exact,
                      SpillCode::folded(Spill.get(), Model.stallCycles()));
  if (M.SamplePeriod) {
    timing::addStalls(M.Samples,
                      SpillCode::folded(Spill.get(), Model.samples()));
    M.SampledPeriod = M.SamplePeriod;
  }
  M.SampledConfig = M.Model->Name;
  if (M.Code->HasProbes)
    M.SampledProbes |= M.ModelProbes ? 2u : 1u;
}

std::string ModuleImpl::modelProbes() const {
  std::lock_guard<std::mutex> Lock(Mu);
  static const char *const Names[] = {"", "free", "modeled", "mixed"};
  return Names[SampledProbes & 3];
}

std::vector<ModeledPcSamples> ModuleImpl::modeledSamples() const {
  std::lock_guard<std::mutex> Lock(Mu);
  std::vector<ModeledPcSamples> Out;
  if (!Code || (Samples.empty() && Exact.empty()))
    return Out;
  static const timing::StallCounts NoSamples;
  static const timing::StallCycles NoCycles;
  for (const auto &F : PM->Functions) {
    const uint32_t Base = Code->FuncBase[F->Index];
    // Program instructions are numbered as the PTX listing numbers them;
    // a probe's instruction's samples go to the program instruction after
    // it (the one it instruments), or before it at the function's end.
    std::vector<uint32_t> Index(F->Code.size());
    uint32_t N = 0;
    for (size_t K = 0; K < F->Code.size(); ++K)
      Index[K] = F->Instrumentation[K] ? NoTarget : N++;
    for (size_t K = F->Code.size(); K-- > 0;)
      if (Index[K] == NoTarget)
        Index[K] = K + 1 < F->Code.size() ? Index[K + 1] : NoTarget;
    for (size_t K = 0; K < F->Code.size(); ++K)
      if (Index[K] == NoTarget)
        Index[K] = K > 0 ? Index[K - 1] : 0;
    std::map<uint32_t, ModeledPcSamples> ByIndex;
    for (size_t K = 0; K < F->Code.size(); ++K) {
      const timing::StallCounts &C =
          Samples.empty() ? NoSamples : Samples[Base + K];
      const timing::StallCycles &E = Exact.empty() ? NoCycles : Exact[Base + K];
      uint64_t Total = 0;
      double Cycles = 0;
      for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
        Total += C.All[J];
        Cycles += E.All[J];
      }
      if (!Total && !Cycles)
        continue;
      ModeledPcSamples &P = ByIndex[Index[K]];
      std::map<std::string, uint64_t> Stalls(P.Stalls.begin(), P.Stalls.end());
      std::map<std::string, double> Held(P.StallCycles.begin(),
                                         P.StallCycles.end());
      for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
        std::string Name = ModelStallNames[J];
        std::string Twin = Name + std::string(NotIssuedSuffix);
        if (C.All[J])
          Stalls[Name] += C.All[J];
        if (C.NotIssued[J])
          Stalls[Twin] += C.NotIssued[J];
        if (E.All[J] > 0)
          Held[Name] += E.All[J];
        if (E.NotIssued[J] > 0)
          Held[Twin] += E.NotIssued[J];
      }
      P.Stalls.assign(Stalls.begin(), Stalls.end());
      P.StallCycles.assign(Held.begin(), Held.end());
      P.Samples += Total;
      P.Cycles += Cycles;
      P.Function = F->Name;
      P.PtxIndex = Index[K];
      // The location of the program instruction the samples are shown at.
      size_t At = K;
      while (At < F->Code.size() && F->Instrumentation[At])
        ++At;
      const Inst &I = F->Code[At < F->Code.size() ? At : K];
      if (I.File && P.File.empty()) {
        auto It = PM->Files.find(I.File);
        P.File = It != PM->Files.end() ? It->second : "";
        P.Line = I.Line;
      }
    }
    for (auto &[I, P] : ByIndex)
      Out.push_back(std::move(P));
  }
  return Out;
}

} // namespace warpscope::emu::core
