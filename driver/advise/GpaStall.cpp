//===- GpaStall.cpp - GPA's stall elimination optimizers ------------------===//
//
// Table 2's stall elimination rows: each matches the samples that the
// change would remove, and Eq. 2 estimates. The two "access adjustment"
// rows are GPA's hybrid-mode ones: here they take the share of the
// matched stalls that the exact memory counts say is excess traffic.
//
//===----------------------------------------------------------------------===//

#include "../GroundTruth.h"
#include "GpaCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace llvm;

namespace warpscope::advise {
namespace {

const std::vector<InputKind> SamplesCode = {InputKind::Samples,
                                            InputKind::Instructions};

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

void registerIncrease(const Inputs &, const KernelView &V, Match &M) {
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
  M.Hints = {"Local memory here is register spills or a local array: raise "
             "the register limit (__launch_bounds__ with fewer threads, "
             "-maxrregcount) or index arrays with compile-time constants so "
             "they stay in registers."};
}

void strengthReduction(const Inputs &, const KernelView &V, Match &M) {
  eachEdge(V, [&](const FunctionBlame &B, const BlameEdge &E) {
    // A write-after-read waits for the operand read, not the result.
    if (E.Kind != StallKind::ExecDep || E.Class == DepClass::WriteAfterRead ||
        B.Code->Instrs[E.Def].Class != OpClass::LongArith)
      return;
    M.M += E.Samples;
    M.Hotspots.push_back(edgeHotspot(B, E));
  });
  M.Hints = {"Replace long-latency arithmetic (division, square root, "
             "transcendentals, f64) with cheaper forms: multiply by a "
             "precomputed reciprocal, use f32 where precision allows, shifts "
             "and masks for powers of two."};
}

void functionSplit(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
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

void fastMath(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].Total;
    // Only floating point has fast variants (an integer max has none).
    StringRef Op(In.Opcode);
    bool Float = In.Class == OpClass::LongArith || Op.starts_with("F") ||
                 Op.starts_with("MUFU") || Op.contains(".f32") ||
                 Op.contains(".f64") || Op.contains(".approx");
    if (N > 0 && isMathHeader(In.File) && Float) {
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

void globalTransactions(const Inputs &, const KernelView &V, Match &M) {
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &In = B.Code->Instrs[I];
    double N = B.Stalls[I].of(StallKind::MemThrottle);
    if (N > 0 && In.Class == OpClass::Memory &&
        (In.Mem == Space::Global || In.Mem == Space::Generic ||
         In.Mem == Space::Texture)) {
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          B, I, N, "global memory throttling at '" + In.Opcode + "'"));
    }
  });
  M.Hints = {"The memory pipeline is saturated by global accesses: use wider "
             "(vector) loads, reuse data through shared memory or registers, "
             "and drop redundant loads."};
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

/// Per (function, file, line): the exact memory counts of the ground truth.
using LineKey = std::tuple<std::string, std::string, unsigned>;
std::map<LineKey, MemoryCounts> memoryByLine(const Truth &T) {
  std::map<LineKey, MemoryCounts> Out;
  for (const auto &[Name, F] : T.Functions)
    for (const TruthInstruction &I : F.Insts)
      if (I.Memory)
        Out[{Name, I.File, I.Line}] += I.Mem;
  return Out;
}

void accessAdjustment(const Inputs &In, const KernelView &V, Match &M,
                      bool Shared) {
  if (!In.GroundTruth)
    return;
  std::map<LineKey, MemoryCounts> Lines = memoryByLine(*In.GroundTruth);
  eachInstr(V, [&](const FunctionBlame &B, unsigned I) {
    const Instr &Ins = B.Code->Instrs[I];
    if (Ins.Class != OpClass::Memory ||
        (Shared ? Ins.Mem != Space::Shared
                : Ins.Mem != Space::Global && Ins.Mem != Space::Generic))
      return;
    auto It = Lines.find({B.Code->Name, Ins.File, Ins.Line});
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
      "GPA: matches execution dependency stalls blamed on long-latency "
      "arithmetic (special functions, f64, division). Suggests cheaper "
      "operations. Estimate: stall elimination.",
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
      "GPA: matches global memory throttling stalls. Suggests fewer, wider "
      "global accesses. Estimate: stall elimination.",
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
