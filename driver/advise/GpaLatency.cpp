//===- GpaLatency.cpp - GPA's latency hiding optimizers -------------------===//
//
// Table 2's latency hiding rows: each matches latency samples that moving
// code could hide; Eq. 4 (or Eq. 5 over loop scopes, for loop unrolling)
// bounds what can be hidden by the active samples nearby. Branch
// elimination is GPA's hybrid row: "determined" branches come from our
// exact per-branch counts.
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "GpaCommon.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace llvm;

namespace warpscope::advise {
namespace {

bool latencyEdge(const BlameEdge &E) {
  return !*E.PrunedBy && E.Samples > 0 &&
         (E.Kind == StallKind::ExecDep || E.Class == DepClass::GlobalMemory ||
          E.Class == DepClass::LocalMemory);
}

double latencySamples(const InstrStalls &S) {
  return S.Total - S.of(StallKind::Active);
}

/// The innermost loop holding both A and B, -1 for none.
int commonLoop(const Function &F, unsigned A, unsigned B) {
  std::vector<int> NA = F.loopNest(A), NB = F.loopNest(B);
  for (int L : NA)
    if (std::find(NB.begin(), NB.end(), L) != NB.end())
      return L;
  return -1;
}

void loopUnrolling(const Inputs &, const KernelView &V, Match &M) {
  std::vector<std::string> Loops;
  for (const FunctionBlame *B : V.Parts) {
    const Function &F = *B->Code;
    size_t Base = M.Scopes.size();
    for (const Loop &L : F.Loops)
      M.Scopes.push_back({0, 0, L.Parent < 0 ? -1 : int(Base) + L.Parent});
    for (unsigned I = 0; I < F.Instrs.size(); ++I) {
      int L = F.Blocks[F.Instrs[I].Block].Loop;
      if (L >= 0)
        M.Scopes[Base + L].Active += B->Stalls[I].of(StallKind::Active);
    }
    std::set<int> Hot;
    for (const BlameEdge &E : B->Edges) {
      int L = latencyEdge(E) ? commonLoop(F, E.Def, E.Use) : -1;
      if (L < 0)
        continue;
      M.Scopes[Base + L].Matched += E.Samples;
      M.M += E.Samples;
      M.Hotspots.push_back(edgeHotspot(*B, E));
      Hot.insert(L);
    }
    for (int L : Hot)
      Loops.push_back(
          formatv("{0}:{1}",
                  F.Loops[L].File.substr(F.Loops[L].File.rfind('/') + 1),
                  F.Loops[L].Line)
              .str());
  }
  std::string List;
  for (const std::string &L : Loops)
    List += (List.empty() ? "" : ", ") + L;
  M.Hints = {"Unroll the loop" + std::string(Loops.size() > 1 ? "s" : "") +
             " at " + List +
             " (#pragma unroll, or by hand where the trip count is not a "
             "constant) so the loads of several iterations are in flight "
             "before their first use."};
}

void codeReordering(const Inputs &, const KernelView &V, Match &M) {
  for (const FunctionBlame *B : V.Parts)
    for (const BlameEdge &E : B->Edges)
      if (latencyEdge(E)) {
        M.M += E.Samples;
        M.Hotspots.push_back(edgeHotspot(*B, E));
      }
  M.Hints = {"Move the loads earlier, away from their first use, and "
             "independent work between them (software pipelining, "
             "prefetching into registers)."};
}

void asyncCopy(const Inputs &, const KernelView &V, Match &M) {
  for (const FunctionBlame *B : V.Parts)
    for (const BlameEdge &E : B->Edges) {
      const Instr &Use = B->Code->Instrs[E.Use];
      if (*E.PrunedBy || E.Samples <= 0 || E.Class != DepClass::GlobalMemory ||
          Use.Class != OpClass::Memory || Use.Mem != Space::Shared ||
          !Use.Store)
        continue;
      M.M += E.Samples;
      M.Hotspots.push_back(edgeHotspot(*B, E));
    }
  M.Hints = {"Copy global memory to shared memory asynchronously "
             "(cp.async / cuda::memcpy_async, double buffering) so the "
             "copy of the next tile overlaps the work on this one."};
}

void branchElimination(const Inputs &, const KernelView &V, Match &M) {
  if (!V.Profile)
    return;
  // Two-way branches that went one way on every visit of this run.
  std::set<std::pair<std::string, unsigned>> Determined;
  for (const BranchCounts &Br : V.Profile->Branches)
    if (Br.Successors.size() == 2 && Br.Visits > 0 && Br.CountsArrivals &&
        (Br.arrivals(0) == 0 || Br.arrivals(1) == 0))
      Determined.insert({Br.Loc.File, Br.Loc.Line});
  for (const FunctionBlame *B : V.Parts) {
    const Function &F = *B->Code;
    for (unsigned I = 0; I < F.Instrs.size(); ++I) {
      const Instr &In = F.Instrs[I];
      if (In.Class != OpClass::Branch || In.Guard < 0 ||
          !Determined.count({In.File, In.Line}))
        continue;
      std::set<unsigned> Blocks = {In.Block};
      for (unsigned S : F.Blocks[In.Block].Succs)
        Blocks.insert(S);
      double N = 0;
      for (unsigned Bl : Blocks)
        for (unsigned K = F.Blocks[Bl].First; K < F.Blocks[Bl].End; ++K)
          N += latencySamples(B->Stalls[K]);
      if (N <= 0)
        continue;
      M.M += N;
      M.Hotspots.push_back(instrHotspot(
          *B, I, N,
          "the branch went the same way on every visit (exact counts)"));
    }
  }
  M.Hints = {"This branch always goes one way in this run: make the common "
             "path branch-free (hoist the test out, specialize the kernel, "
             "or use a template parameter) so its code can be scheduled "
             "together."};
}

} // namespace

void latencyHidingSpecs(std::vector<GpaSpec> &Out) {
  auto Add =
      [&](const char *Id, const char *Name, const char *Help,
          std::vector<InputKind> Needs,
          std::function<void(const Inputs &, const KernelView &, Match &)> F) {
        Out.push_back({Id, Name, Help, EstimatorKind::LatencyHiding,
                       std::move(Needs), std::move(F)});
      };
  Add("loop_unrolling", "Loop unrolling",
      "GPA: matches global memory and execution dependency stalls whose "
      "source and use are in the same loop. Suggests unrolling it. Estimate: "
      "latency hiding with scope analysis (Eq. 5: each loop hides at most "
      "the active samples of itself and its nested loops; at most 2x).",
      SamplesCode, loopUnrolling);
  Add("code_reordering", "Code reordering",
      "GPA: matches global memory and execution dependency stalls. Suggests "
      "moving loads away from their uses. Estimate: latency hiding (Eq. 4, "
      "at most 2x).",
      SamplesCode, codeReordering);

  Out.push_back(
      {"function_inlining", "Function inlining",
       "GPA: matches stalls in device functions and at their call sites. "
       "Suggests inlining. Estimate: the call overhead (calls, returns, "
       "parameter moves, the call's branch latency) eliminated, and the "
       "callees' other latency samples hidden as in GPA's latency hiding "
       "(bounded by the active samples left and 2x).",
       EstimatorKind::Combined, SamplesCode, functionInlining});
  Add("async_memory_copy", "Asynchronous memory copy",
      "GPA: matches global-load to shared-store dependencies (a copy into "
      "shared memory through registers). Suggests cp.async. Estimate: "
      "latency hiding.",
      SamplesCode, asyncCopy);
  Add("branch_elimination", "Branch elimination",
      "GPA (hybrid): matches the stalls in and after branches that went the "
      "same way on every visit, which the exact per-branch counts show. "
      "Estimate: latency hiding.",
      {InputKind::Samples, InputKind::Instructions, InputKind::Divergence},
      branchElimination);
}

} // namespace warpscope::advise
