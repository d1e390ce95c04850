//===- GpaStall.cpp - GPA's stall elimination optimizers ------------------===//
//
// Table 2's stall elimination rows: each matches the samples that the
// change would remove, and Eq. 2 estimates. The two "access adjustment"
// rows are GPA's hybrid-mode ones: here they take the share of the
// matched stalls that the exact memory counts say is excess traffic.
//
//===----------------------------------------------------------------------===//

#include "../GroundTruth.h"
#include "../ProfileModel.h"
#include "AdviseInputs.h"
#include "GpaCommon.h"
#include "ResourceBound.h"
#include "warpscope/ABI/PtxOpcodes.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace warpscope::advise {
namespace {

template <typename Fn> void eachInstr(const KernelView &V, Fn F) {
  for (const FunctionBlame *B : V.Parts)
    for (unsigned I = 0; I < B->Code->Instrs.size(); ++I)
      F(*B, I);
}

template <typename Fn> void eachEdge(const KernelView &V, Fn F) {
  for (const FunctionBlame *B : V.Parts)
    for (const BlameEdge &E : B->Edges)
      if (!*E.PrunedBy && E.Samples > 0)
        F(*B, E);
}

std::string fmtSamples(double N) { return formatNumber(N, 1); }

/// Where ptxas reports spills: the change is the register cap (re-simulated
/// as WhatIf::MaxRegisters, 255: none). The timing model's spill reloads
/// have no PTX instruction (docs/timing-model.md, "Register spills"): on
/// modeled samples, the memory dependency stalls at an instruction that no
/// kept edge from a load explains are its waits for reloaded registers.
void spilledRegisters(const Inputs &In, const KernelView &V, Match &M) {
  const warpscope::MachineResources *R =
      V.Profile && V.Profile->Resources ? &*V.Profile->Resources : nullptr;
  if (!R || !R->Known || !R->Registers ||
      (!R->SpillStoreBytes.value_or(0) && !R->SpillLoadBytes.value_or(0)))
    return;
  M.Change.Kernel = V.Kernel;
  M.Change.MaxRegisters = 255;
  M.Evidence = formatv("ptxas: {0} registers, {1} B spill stores, {2} B "
                       "spill loads",
                       R->Registers, R->SpillStoreBytes.value_or(0),
                       R->SpillLoadBytes.value_or(0))
                   .str();
  if (In.SampleSource != "model")
    return;
  for (const FunctionBlame *B : V.Parts) {
    std::vector<bool> FromLoad(B->Code->Instrs.size(), false);
    for (const BlameEdge &E : B->Edges)
      if (!*E.PrunedBy && E.Kind == StallKind::MemoryDep && E.Samples > 0)
        FromLoad[E.Use] = true;
    for (unsigned I = 0; I < B->Code->Instrs.size(); ++I) {
      const double N = B->Stalls[I].of(StallKind::MemoryDep);
      if (N <= 0 || FromLoad[I])
        continue;
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          *B, I, N, "waits for reloaded spilled registers (modeled)"));
    }
  }
}

void registerIncrease(const Inputs &In, const KernelView &V, Match &M) {
  eachEdge(V, [&](const FunctionBlame &B, const BlameEdge &E) {
    if (E.Class != DepClass::LocalMemory)
      return;
    M.M += E.Samples;
    M.Hotspots.push_back(edgeHotspot(B, E));
  });
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].of(StallKind::MemThrottle);
    if (In.Class == OpClass::Memory && In.Mem == Space::Local && N > 0) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          B, I, N, "local memory throttling at '" + In.Opcode + "'"));
    }
  });
  spilledRegisters(In, V, M);
  M.Hints = {"Local memory here is register spills or a local array: raise "
             "the register limit (__launch_bounds__ with fewer threads, "
             "-maxrregcount) or index arrays with compile-time constants so "
             "they stay in registers."};
}

/// The instruction a kernel's warps start at in the timing model: its first
/// one after the parameter reads, which SASS folds into operands (the
/// model's vanishing instructions, runtime/emu/core/ModelCode.cpp).
unsigned modelEntry(const Function &F) {
  unsigned I = 0;
  while (I < F.Instrs.size() &&
         (StringRef(F.Instrs[I].Opcode).starts_with("ld.param") ||
          StringRef(F.Instrs[I].Opcode).starts_with("cvta.to.global")))
    ++I;
  return I;
}

/// The source lines of V that fewer warps ran than entered the kernel (the
/// rarely taken paths a split moves out), by the exact counts; none where
/// the listing is not the ground truth's PTX.
std::set<std::tuple<const FunctionBlame *, std::string, unsigned>>
coldLines(const Inputs &In, const KernelView &V) {
  std::set<std::tuple<const FunctionBlame *, std::string, unsigned>> Cold;
  if (!In.GroundTruth)
    return Cold;
  std::vector<
      std::pair<const FunctionBlame *, std::vector<const TruthInstruction *>>>
      Parts;
  uint64_t Entry = 0;
  for (const FunctionBlame *B : V.Parts) {
    Parts.push_back({B, truthInstructions(*B->Code, *In.GroundTruth)});
    const auto &T = Parts.back().second;
    if (B->Code->Kernel && modelEntry(*B->Code) < T.size())
      Entry = T[modelEntry(*B->Code)]->Warp;
  }
  for (const auto &[B, T] : Parts) {
    std::map<std::pair<std::string, unsigned>, uint64_t> Most;
    for (unsigned K = 0; K < T.size(); ++K) {
      const Instr &I = B->Code->Instrs[K];
      uint64_t &N = Most[{I.File, I.Line}];
      N = std::max(N, T[K]->Warp);
    }
    for (const auto &[Where, N] : Most)
      if (Where.second && N < Entry)
        Cold.insert({B, Where.first, Where.second});
  }
  return Cold;
}

void functionSplit(const Inputs &In, const KernelView &V, Match &M) {
  // The timing model's no_instructions samples are instruction cache
  // misses and, at the kernel's entry, warps starting (docs/timing-model.md,
  // "Instruction fetch"), which no split removes; nor does it remove the
  // misses of the rarely taken code it moves out, which is fetched where
  // it runs after the split too (the advisor's split_loop).
  const bool Model = In.SampleSource == "model";
  const auto Cold = coldLines(In, V);
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    if (Model && B.Code->Kernel && I == modelEntry(*B.Code))
      return;
    const Instr &Ins = B.Code->Instrs[I];
    if (Cold.count({&B, Ins.File, Ins.Line}))
      return;
    double N = B.Stalls[I].of(StallKind::InstFetch);
    if (N > 0) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(B, I, N, "instruction fetch stalls"));
    }
  });
  M.Hints = {"The kernel's code does not fit the instruction cache: split "
             "rarely taken paths into separate (noinline) functions or "
             "kernels, and avoid unrolling cold loops."};
}

/// Comparison, selection, minimum, maximum and sign operations: exact in
/// one instruction. A math function made only of them (fmaxf, fabsf,
/// copysignf, isnan) has no fast variant and no fast-math flag changes it;
/// inside one that has (sinf's range reduction) they go with the rest.
bool exactWithoutFastVariant(StringRef Op) {
  if (Op.starts_with("FMNMX") || Op.starts_with("FSEL") ||
      Op.starts_with("FSET"))
    return true;
  PtxOpcode Id = lookupPtxOpcode(ptxBaseName(Op));
  return ptxOpcodeInfo(Id).Mix == PtxMix::CompareSelect ||
         Id == PtxOpcode::Min || Id == PtxOpcode::Max || Id == PtxOpcode::Abs ||
         Id == PtxOpcode::Neg || Id == PtxOpcode::Copysign;
}

void fastMath(const Inputs &Ins, const KernelView &V, Match &M) {
  // Only floating point has fast variants (an integer max has none).
  auto FloatMath = [&](const FunctionBlame &B, const Instr &In) {
    StringRef Op(In.Opcode);
    return (In.Class == OpClass::LongArith || Op.starts_with("F") ||
            Op.starts_with("MUFU") || Op.contains(".f32") ||
            Op.contains(".f64") || Op.contains(".approx")) &&
           isMathCode(Ins, *B.Code, In);
  };
  // The lines (the call sites math code was put on) whose math code has an
  // instruction a fast variant replaces.
  std::set<std::tuple<const FunctionBlame *, std::string, unsigned>> Fast;
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    if (FloatMath(B, In) && !exactWithoutFastVariant(In.Opcode))
      Fast.insert({&B, In.File, In.Line});
  });
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].Total;
    if (N > 0 && FloatMath(B, In) && Fast.count({&B, In.File, In.Line})) {
      M.M += N;
      M.Hotspots.push_back(
          instrHotspot(B, I, N, "CUDA math function code '" + In.Opcode + "'"));
    }
  });
  M.Hints = {"Use the fast intrinsics (__expf, __sinf, __fdividef, ...) or "
             "-ffast-math / --use_fast_math where their accuracy is enough."};
}

/// The synchronization instruction a sync stall at I waits on: GPA blames
/// synchronization stalls on synchronization instructions only, and the
/// H100 samples them after the barrier (fixtures/gpu/pcs-reduction: at the
/// first and second instruction after BAR.SYNC). -1 when none is near.
int syncBefore(const Function &F, unsigned I) {
  for (unsigned K = I + 1, Seen = 0; K-- > 0 && Seen < 8; ++Seen)
    if (F.Instrs[K].Class == OpClass::Sync)
      return int(K);
  return -1;
}

void warpBalance(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    double N = B.Stalls[I].of(StallKind::Sync);
    if (N <= 0)
      return;
    M.M += N;
    int S = syncBefore(*B.Code, I);
    if (S < 0) {
      M.Hotspots.push_back(instrHotspot(
          B, I, N,
          "warps wait at '" + B.Code->Instrs[I].Opcode + "' for the others"));
      return;
    }
    const Instr &Sync = B.Code->Instrs[unsigned(S)];
    Hotspot H = instrHotspot(
        B, I, N, "warps wait for the others at '" + Sync.Opcode + "'");
    H.DefFile = Sync.File;
    H.DefLine = Sync.Line;
    H.Distance = I - unsigned(S) - (unsigned(S) < I ? 1 : 0);
    M.Hotspots.push_back(H);
  });
  M.Hints = {"Warps wait at barriers for slower warps: balance the work "
             "between warps before the barrier, or use fewer barriers "
             "(warp-level primitives for the last steps of a reduction)."};
}

bool globalAccess(const Instr &In) {
  return In.Class == OpClass::Memory &&
         (In.Mem == Space::Global || In.Mem == Space::Generic ||
          In.Mem == Space::Texture);
}

double reasonAt(const InstrStalls &S, const char *Reason) {
  auto It = S.ByReason.find(Reason);
  return It == S.ByReason.end() ? 0 : It->second;
}

/// The innermost loop of store I in which its address never changes (no
/// instruction of the loop defines an address register), or -1: each trip
/// overwrites the last trip's value.
int invariantStoreLoop(const Function &F, unsigned I) {
  std::vector<int> Nest = F.loopNest(I);
  if (Nest.empty() || F.Instrs[I].AddrUses.empty())
    return -1;
  const Loop &L = F.Loops[unsigned(Nest.front())];
  for (unsigned Bl : L.Blocks)
    for (unsigned K = F.Blocks[Bl].First; K < F.Blocks[Bl].End; ++K)
      for (unsigned R : F.Instrs[K].Defs)
        if (std::find(F.Instrs[I].AddrUses.begin(), F.Instrs[I].AddrUses.end(),
                      R) != F.Instrs[I].AddrUses.end())
          return -1;
  return Nest.front();
}

/// The share of the kernel's modeled time the chip's L2 needs at least for
/// the sectors that its stores to a loop-invariant address send there
/// (exact counts, ResourceBound.h's L2 floor); 0 when unknown: no modeled
/// time or ground truth, a listing that is not the ground truth's PTX, or a
/// floor at or above the modeled time (no floor of this run).
double invariantStoresL2Share(const Inputs &In, const KernelView &V) {
  auto M = In.ModeledTime.find(V.Kernel);
  if (!In.GroundTruth || M == In.ModeledTime.end() || !(M->second.Cycles > 0))
    return 0;
  double Sectors = 0;
  for (const FunctionBlame *B : V.Parts) {
    if (!In.GroundTruth->Functions.count(B->Code->Name))
      continue;
    std::vector<const TruthInstruction *> T =
        truthInstructions(*B->Code, *In.GroundTruth);
    if (T.empty())
      return 0;
    for (unsigned K = 0; K < T.size(); ++K) {
      const Instr &Ins = B->Code->Instrs[K];
      if (globalAccess(Ins) && Ins.Store && !Ins.Load &&
          invariantStoreLoop(*B->Code, K) >= 0)
        Sectors += l2Sectors(*T[K]);
    }
  }
  double Share = l2Cycles(In, V.Kernel, Sectors) / M->second.Cycles;
  return Share < 1 ? Share : 0;
}

/// Hybrid mode: stores to a loop-invariant address (each trip overwrites
/// the last) are transactions a register removes. The memory system's
/// queueing delays every global access, so the memory dependency stalls on
/// global loads shrink by the stores' share of the memory system: their
/// share of the kernel's global accesses (exact warp executions), or, where
/// larger, the share of the modeled time the L2 needs for their sectors
/// (stores write through to L2 while loads may hit in L1, so by time the
/// stores weigh more than by count). True when there are such stores,
/// exact executions or not (their hint goes first).
bool redundantStores(const Inputs &In, const KernelView &V, Match &M) {
  double Redundant = 0, Accesses = 0;
  bool Exact = true, Any = false;
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &Ins = B.Code->Instrs[I];
    if (!globalAccess(Ins))
      return;
    bool Invariant =
        Ins.Store && !Ins.Load && invariantStoreLoop(*B.Code, I) >= 0;
    Any |= Invariant;
    Exact &= B.Executed.size() == B.Code->Instrs.size();
    if (!Exact)
      return;
    Accesses += B.Executed[I];
    Redundant += Invariant ? B.Executed[I] : 0;
  });
  if (!Exact || Redundant <= 0 || Accesses <= 0)
    return Any;
  const double ByCount = Redundant / Accesses;
  const double ByTime = invariantStoresL2Share(In, V);
  const double Share = std::max(ByCount, ByTime);
  const std::string Why =
      ByTime > ByCount
          ? formatv("the L2 needs {0}% of the kernel's modeled time for the "
                    "sectors of its stores to a loop-invariant address "
                    "(exact counts)",
                    formatNumber(100 * ByTime, 1))
                .str()
          : formatv("{0}% of the kernel's global accesses are stores to a "
                    "loop-invariant address (exact warp executions)",
                    formatNumber(100 * ByCount, 1))
                .str();
  std::map<std::pair<const FunctionBlame *, unsigned>, double> OnLoad;
  eachEdge(V, [&](const FunctionBlame &B, const BlameEdge &E) {
    const Instr &Def = B.Code->Instrs[E.Def];
    if (E.Class == DepClass::GlobalMemory && globalAccess(Def) && Def.Load)
      OnLoad[{&B, E.Def}] += E.Samples;
  });
  for (auto &[Key, N] : OnLoad) {
    M.M += N * Share;
    M.Hotspots.push_back(
        instrHotspot(*Key.first, Key.second, N * Share,
                     formatv("{0} memory dependency stalls on this load; {1}",
                             formatNumber(N, 1), Why)
                         .str()));
  }
  return true;
}

/// Per access (function, file, line, load/store/atomic): the exact memory
/// counts of the ground truth. A line's loads and stores stay apart, as in
/// the memory view (memoryAccessKind).
using AccessKey = std::tuple<std::string, std::string, unsigned, std::string>;
std::map<AccessKey, MemoryCounts> memoryByAccess(const Truth &T) {
  std::map<AccessKey, MemoryCounts> Out;
  for (const auto &[Name, F] : T.Functions)
    for (const TruthInstruction &I : F.Insts)
      if (I.Memory && !I.Instrumentation)
        Out[{Name, I.File, I.Line, memoryAccessKind(I.Opcode).str()}] += I.Mem;
  return Out;
}

/// The key of a listing's instruction (PTX or SASS) in memoryByAccess.
AccessKey accessKey(const FunctionBlame &B, const Instr &In) {
  const char *Kind = In.Atomic              ? "atomic"
                     : In.Store && !In.Load ? "store"
                                            : "load";
  return {B.Code->Name, In.File, In.Line, Kind};
}

void globalTransactions(const Inputs &In, const KernelView &V, Match &M) {
  double Drain = 0;
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &Ins = B.Code->Instrs[I];
    const InstrStalls &S = B.Stalls[I];
    double D = reasonAt(S, "drain");
    Drain += D;
    double N = S.of(StallKind::MemThrottle) - D - reasonAt(S, "mio_throttle");
    if (N > 0 && globalAccess(Ins)) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          B, I, N, "global memory throttling at '" + Ins.Opcode + "'"));
    }
  });
  M.Hints = {"The memory pipeline is saturated by global accesses: use wider "
             "(vector) loads, reuse data through shared memory or registers, "
             "and drop redundant loads."};
  bool Invariant = redundantStores(In, V, M);
  if (Invariant)
    M.Hints.insert(M.Hints.begin(),
                   "A loop stores to the same address on every trip: "
                   "accumulate in a register and store once after the loop "
                   "(mark the pointers __restrict__ so the compiler may do "
                   "it).");
  if (Drain <= 0)
    return;
  // Warps that exited wait for their stores (drain): the global stores'
  // transactions, shared by their exact executions (else equally). With
  // the exact memory counts only the excess sectors can be saved, so the
  // drain goes to the stores by their excess, and none to coalesced ones.
  std::optional<std::map<AccessKey, MemoryCounts>> Access;
  if (In.GroundTruth)
    Access = memoryByAccess(*In.GroundTruth);
  std::vector<std::pair<const FunctionBlame *, unsigned>> Stores;
  double Weight = 0;
  auto W = [&](const FunctionBlame &B, unsigned I) {
    if (Access) {
      auto It = Access->find(accessKey(B, B.Code->Instrs[I]));
      if (It == Access->end())
        return 0.0;
      const MemoryCounts &C = It->second;
      return C.GlobalSectors > C.GlobalIdealSectors
                 ? double(C.GlobalSectors - C.GlobalIdealSectors)
                 : 0.0;
    }
    return B.Executed.size() == B.Code->Instrs.size() ? B.Executed[I] : 1.0;
  };
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &Ins = B.Code->Instrs[I];
    if (globalAccess(Ins) && Ins.Store && !Ins.Load && W(B, I) > 0) {
      Stores.push_back({&B, I});
      Weight += W(B, I);
    }
  });
  if (Weight <= 0)
    return;
  M.M += Drain;
  for (auto [B, I] : Stores) {
    std::string Ev = "warps wait at exit for their stores (drain)";
    int L = invariantStoreLoop(*B->Code, I);
    if (L >= 0) {
      const Loop &Lp = B->Code->Loops[unsigned(L)];
      Ev += formatv("; the same address every trip of the loop at line {0}",
                    Lp.Line)
                .str();
    }
    if (Access)
      Ev += formatv("; {0} excess sectors (exact)", formatNumber(W(*B, I), 0))
                .str();
    else if (B->Executed.size() == B->Code->Instrs.size())
      Ev += formatv("; {0} warp executions (exact)",
                    formatNumber(B->Executed[I], 0))
                .str();
    M.Hotspots.push_back(instrHotspot(*B, I, Drain * W(*B, I) / Weight, Ev));
  }
}

void sharedTransactions(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].of(StallKind::MemThrottle);
    if (N > 0 && In.Class == OpClass::Memory && In.Mem == Space::Shared) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          B, I, N, "shared memory throttling at '" + In.Opcode + "'"));
    }
  });
  eachEdge(V, [&](const FunctionBlame &B, const BlameEdge &E) {
    if (E.Class == DepClass::SharedMemory) {
      M.M += E.Samples;
      M.Hotspots.push_back(edgeHotspot(B, E));
    }
  });
  M.Hints = {"Shared memory accesses stall the warps: keep reused values in "
             "registers, use wider shared accesses, or shuffle within warps."};
}

/// Whether I's operands (its address operands at the first step) come
/// from a load within Hops definitions.
bool fedByLoad(const Function &F, unsigned I, unsigned Hops,
               bool Address = false) {
  if (!Hops)
    return false;
  for (unsigned R : Address ? F.Instrs[I].AddrUses : F.Instrs[I].Uses)
    for (unsigned K = I; K-- > 0;) {
      const Instr &D = F.Instrs[K];
      if (std::find(D.Defs.begin(), D.Defs.end(), R) == D.Defs.end())
        continue;
      if (D.Class == OpClass::Memory && D.Load && !D.Atomic &&
          D.Mem != Space::Constant)
        return true;
      if (fedByLoad(F, K, Hops - 1))
        return true;
      break;
    }
  return false;
}

void indirectAccess(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].of(StallKind::ExecDep);
    if (N > 0 && In.Class == OpClass::Memory &&
        fedByLoad(*B.Code, I, 3, true)) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          B, I, N, "address of '" + In.Opcode + "' computed from a load"));
    }
  });
  M.Hints = {"The address of this access is loaded from memory first "
             "(a[b[i]]): load the indices earlier or in bulk, or reorder the "
             "data so the access becomes direct."};
}

void accessAdjustment(const Inputs &In, const KernelView &V, Match &M,
                      bool Shared) {
  if (!In.GroundTruth)
    return;
  std::map<AccessKey, MemoryCounts> Lines = memoryByAccess(*In.GroundTruth);
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &Ins = B.Code->Instrs[I];
    if (Ins.Class != OpClass::Memory ||
        (Shared ? Ins.Mem != Space::Shared
                : Ins.Mem != Space::Global && Ins.Mem != Space::Generic))
      return;
    auto It = Lines.find(accessKey(B, Ins));
    if (It == Lines.end())
      return;
    const MemoryCounts &C = It->second;
    double Actual = double(Shared ? C.SharedWavefronts : C.GlobalSectors);
    double Ideal =
        double(Shared ? C.SharedIdealWavefronts : C.GlobalIdealSectors);
    double Requests = double(Shared ? C.SharedRequests : C.GlobalRequests);
    if (Actual <= 0 || Ideal >= Actual)
      return;
    // The stalls this access causes: throttling at it, and the dependency
    // stalls blamed on it (memory or shared execution dependency).
    double N = B.Stalls[I].of(StallKind::MemThrottle);
    for (const BlameEdge &E : B.Edges)
      if (!*E.PrunedBy && E.Def == I)
        N += E.Samples;
    double Excess = N * (1.0 - Ideal / Actual);
    if (Excess <= 0)
      return;
    M.M += Excess;
    std::string Ev =
        formatv("{0} {1}/request, ideal {2} (exact); {3} stalls, {4}% excess",
                formatNumber(Actual / Requests),
                Shared ? "wavefronts" : "sectors",
                formatNumber(Ideal / Requests), fmtSamples(N),
                formatNumber(100 * (1 - Ideal / Actual), 0))
            .str();
    M.Hotspots.push_back(instrHotspot(B, I, Excess, Ev));
  });
  M.Hints = {Shared ? "Accesses conflict on shared-memory banks: pad the "
                      "array (e.g. [32][33]) or swizzle indices so a warp's "
                      "lanes hit distinct banks."
                    : "Accesses are not coalesced: make consecutive lanes "
                      "touch consecutive addresses (structure of arrays, "
                      "transpose through shared memory, aligned starts)."};
}

} // namespace

void stallEliminationSpecs(std::vector<GpaSpec> &Out) {
  auto Add =
      [&](const char *Id, const char *Name, const char *Help,
          std::vector<InputKind> Needs,
          std::function<void(const Inputs &, const KernelView &, Match &)> F) {
        Out.push_back({Id, Name, Help, EstimatorKind::StallElimination,
                       std::move(Needs), std::move(F)});
      };
  std::vector<InputKind> Hybrid = SamplesCode;
  Hybrid.push_back(InputKind::MemoryCounts);
  Add("register_increase", "Register increase",
      "GPA: matches memory dependency stalls on local memory loads and "
      "stores (register spills, local arrays). Suggests more registers per "
      "thread. Estimate: stall elimination, T / (T - M).",
      SamplesCode, registerIncrease);
  Add("strength_reduction", "Strength reduction",
      "GPA: matches execution dependency stalls blamed on expensive "
      "arithmetic (integer and IEEE division, square root, f64, 64-bit "
      "multiplies, int/float conversions, special functions) and its active "
      "samples, per source line. Suggests cheaper operations. Estimate: "
      "stall elimination.",
      SamplesCode, strengthReduction);
  Add("function_split", "Function split",
      "GPA: matches instruction fetch stalls. Suggests splitting large "
      "functions so hot code fits the instruction cache. Estimate: stall "
      "elimination.",
      SamplesCode, functionSplit);
  Add("fast_math", "Fast math",
      "GPA: matches stalls in CUDA math functions. Suggests fast "
      "intrinsics. Estimate: stall elimination.",
      SamplesCode, fastMath);
  Add("warp_balance", "Warp balance",
      "GPA: matches warp synchronization stalls (barriers, fences). "
      "Suggests balancing work between warps. Estimate: stall elimination.",
      SamplesCode, warpBalance);
  Add("global_memory_transaction_reduction",
      "Global memory transaction reduction",
      "GPA: matches global memory throttling stalls at global accesses and "
      "the drain stalls of warps waiting for their stores (blamed on the "
      "global stores by their exact executions; stores to a loop-invariant "
      "address are pointed out). Suggests fewer, wider global accesses. "
      "Estimate: stall elimination.",
      SamplesCode, globalTransactions);
  Add("shared_memory_transaction_reduction",
      "Shared memory transaction reduction",
      "GPA: matches shared memory stalls (throttling, and dependency stalls "
      "blamed on shared loads). Estimate: stall elimination.",
      SamplesCode, sharedTransactions);
  Add("indirect_memory_access_reduction", "Indirect memory access reduction",
      "GPA: matches execution dependency stalls on memory instructions "
      "whose address is computed from a loaded value. Estimate: stall "
      "elimination.",
      SamplesCode, indirectAccess);
  Add("global_memory_access_adjustment", "Global memory access adjustment",
      "GPA (hybrid): matches the stalls of global accesses with low memory "
      "efficiency, weighted by the excess sectors the exact counts show. "
      "Estimate: stall elimination.",
      Hybrid, [](const Inputs &In, const KernelView &V, Match &M) {
        accessAdjustment(In, V, M, false);
      });
  Add("shared_memory_access_adjustment", "Shared memory access adjustment",
      "GPA (hybrid): matches the stalls of shared accesses with bank "
      "conflicts, weighted by the excess wavefronts the exact counts show. "
      "Estimate: stall elimination.",
      Hybrid, [](const Inputs &In, const KernelView &V, Match &M) {
        accessAdjustment(In, V, M, true);
      });
}

} // namespace warpscope::advise
