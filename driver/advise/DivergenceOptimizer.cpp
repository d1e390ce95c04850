//===- DivergenceOptimizer.cpp - Lanes idle after divergent branches ------===//
//
// From the divergence map (ProfileModel.h): every branch that diverged,
// the blocks it governs (its successors up to its immediate
// post-dominator, where the lanes meet again), and the lanes idle there.
// Each block's idle share is taken against the kernel's entry block (so a
// partial last warp is not blamed on a branch) and charged to the
// innermost divergent branch governing it. The fix is picked from the
// branch's shape. Estimator: docs/advisor-estimators.md.
//
//===----------------------------------------------------------------------===//

#include "../ProfileModel.h"
#include "ExactCommon.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace warpscope::advise {
namespace {

/// PTX instructions per side up to which both sides are cheap enough to
/// run unconditionally (predication / select).
constexpr uint64_t SmallSide = 8;

uint64_t ptxCount(const BlockCounts &B) {
  uint64_t N = 0;
  for (const auto &[Op, C] : B.Ptx)
    N += C;
  return N;
}

/// The block's warp instructions: its warp executions x its PTX ones.
double warpInstructions(const BlockCounts &B) {
  return double(B.WarpExecutions) * double(std::max<uint64_t>(1, ptxCount(B)));
}

bool hasAtomic(const BlockCounts &B) {
  return llvm::any_of(B.Ptx, [](const auto &P) {
    return StringRef(P.first).starts_with("atom") ||
           StringRef(P.first).starts_with("red");
  });
}

/// Whether the block loads from global or local memory or does an
/// atomic: results a long_scoreboard sample waits for.
bool hasMemoryResult(const BlockCounts &B) {
  return llvm::any_of(B.Ptx, [](const auto &P) {
    StringRef Op(P.first);
    return Op.starts_with("ld.global") || Op.starts_with("ld.local") ||
           Op.starts_with("atom");
  });
}

/// Post-dominator sets over the block graph (blocks without successors
/// reach a virtual exit, index N); Cooper-Harvey-Kennedy's simple
/// iterative form, fine for a kernel's few hundred blocks.
std::vector<BitVector> postDominators(const FunctionProfile &F) {
  const size_t N = F.Blocks.size();
  std::vector<BitVector> P(N + 1, BitVector(N + 1, true));
  P[N] = BitVector(N + 1);
  P[N].set(N);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = N; B-- > 0;) {
      BitVector New(N + 1, true);
      const std::vector<unsigned> &S = F.Blocks[B].successors();
      if (S.empty())
        New = P[N];
      for (unsigned T : S)
        if (T < N)
          New &= P[T];
      New.set(B);
      if (New != P[B]) {
        P[B] = std::move(New);
        Changed = true;
      }
    }
  }
  return P;
}

/// The immediate post-dominator of B (N: the virtual exit).
size_t immediatePostDominator(const std::vector<BitVector> &P, size_t B) {
  size_t Best = P.size() - 1, BestCount = 0;
  for (size_t D : P[B].set_bits())
    if (D != B && P[D].count() > BestCount) {
      Best = D;
      BestCount = P[D].count();
    }
  return Best;
}

/// Blocks reachable from Start's successors before reaching Stop.
BitVector region(const FunctionProfile &F, size_t Start, size_t Stop) {
  const size_t N = F.Blocks.size();
  BitVector Seen(N);
  std::vector<unsigned> Work(F.Blocks[Start].successors());
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (B >= N || B == Stop || Seen.test(B))
      continue;
    Seen.set(B);
    for (unsigned S : F.Blocks[B].successors())
      Work.push_back(S);
  }
  return Seen;
}

/// One divergent branch, the blocks it governs and what idles there.
struct DivergentBranch {
  const BranchCounts *Branch = nullptr;
  BitVector Region;
  double Saved = 0, RegionWeight = 0, RegionLanes = 0, RegionWarps = 0;
  /// Warp instructions the region's idle lanes cost (exact counts).
  double IdleInstructions = 0;
  bool Loop = false, Atomic = false, TwoSided = false, SmallSides = false;
};

/// Per-block time weights: PC samples on the block's source lines, split
/// by instruction counts between blocks sharing a line; else the block's
/// warp executions times its PTX instructions. SampleTotal: all of the
/// kernel's samples, also those on no block's line (0 without samples).
/// Waits: of each block's weight, the samples waiting for a global, local
/// or atomic result (long_scoreboard), split the same way.
std::vector<double> blockWeights(const Inputs &In, const FunctionProfile &F,
                                 bool &FromSamples, double &SampleTotal,
                                 std::vector<double> &Waits) {
  std::vector<double> Count(F.Blocks.size());
  for (size_t B = 0; B < F.Blocks.size(); ++B)
    Count[B] = warpInstructions(F.Blocks[B]);
  LineSamples S = lineSamples(In, F.Name);
  FromSamples = S.Total > 0;
  SampleTotal = S.Total;
  Waits.assign(F.Blocks.size(), 0.0);
  if (!FromSamples)
    return Count;
  // A block's lines: its first located one and, for the code of this
  // function itself, every line its instructions come from.
  auto Lines = [&](const BlockCounts &B) {
    std::set<std::pair<std::string, unsigned>> L;
    if (!B.Loc.File.empty())
      L.insert({B.Loc.File, B.Loc.Line});
    for (const auto &Stack : B.InlineStacks)
      if (Stack.size() == 1 && !F.Loc.File.empty())
        L.insert({F.Loc.File, F.Loc.Line + Stack[0].LineOffset});
    return L;
  };
  std::map<std::pair<std::string, unsigned>, double> LineCount;
  for (size_t B = 0; B < F.Blocks.size(); ++B)
    for (const auto &L : Lines(F.Blocks[B]))
      LineCount[L] += Count[B];
  std::vector<double> W(F.Blocks.size());
  for (size_t B = 0; B < F.Blocks.size(); ++B)
    for (const auto &L : Lines(F.Blocks[B]))
      if (double Share = LineCount[L]) {
        W[B] += S.at(L.first, L.second) * Count[B] / Share;
        auto It = S.LongScoreboardByLine.find(L);
        if (It != S.LongScoreboardByLine.end())
          Waits[B] += It->second * Count[B] / Share;
      }
  return W;
}

class DivergenceOptimizer : public Optimizer {
public:
  StringRef id() const override { return "divergence"; }
  StringRef name() const override { return "Branch divergence"; }
  StringRef help() const override {
    return "Lanes of a warp took different sides of a branch, so the warp "
           "ran each side with some lanes idle until they met again. The "
           "divergence map counts every branch's divergent visits and every "
           "block's active lanes exactly; the advice names the branches "
           "whose idle lanes cost the most and a fix for the branch's "
           "shape: reorder the data so a warp's lanes agree, compute both "
           "sides with a select, hoist the common part, or aggregate work "
           "per warp.";
  }
  std::vector<InputKind> needs() const override {
    return {InputKind::Counts, InputKind::Divergence};
  }
  void run(const Inputs &In, std::vector<Advice> &Out) const override {
    if (!In.Profile)
      return;
    for (const FunctionProfile &F : In.Profile->Functions)
      if (F.Kernel && !F.Blocks.empty())
        runKernel(In, F, Out);
  }

private:
  void runKernel(const Inputs &In, const FunctionProfile &F,
                 std::vector<Advice> &Out) const;
};

/// The divergent branches of F with their regions, innermost (smallest
/// region) first.
std::vector<DivergentBranch> divergentBranches(const FunctionProfile &F) {
  std::vector<DivergentBranch> Out;
  const size_t N = F.Blocks.size();
  if (!llvm::all_of(F.Blocks,
                    [](const BlockCounts &B) { return B.hasSuccessors(); }))
    return Out; // a database without the CFG: no regions
  std::vector<BitVector> P = postDominators(F);
  for (const BranchCounts &Br : F.Branches) {
    if (!Br.Divergent || Br.Block >= N)
      continue;
    DivergentBranch D;
    D.Branch = &Br;
    D.Region = region(F, Br.Block, immediatePostDominator(P, Br.Block));
    // A branch that reaches itself before its lanes meet leaves a loop.
    D.Loop = D.Region.test(Br.Block);
    Out.push_back(std::move(D));
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const DivergentBranch &A, const DivergentBranch &B) {
                     return A.Region.count() < B.Region.count();
                   });
  return Out;
}

/// Describes the branch's shape and the fix that suits it.
std::string fixFor(const DivergentBranch &D, std::string &Shape) {
  if (D.Loop) {
    Shape = "a loop whose lanes leave at different trip counts";
    return "Balance the work per warp: sort or bin the items by trip count "
           "(or split long items) so that the lanes of a warp loop equally";
  }
  if (D.Atomic && !D.TwoSided) {
    Shape = "a rarely taken branch around an atomic update";
    return "Aggregate the work per warp: __ballot_sync the lanes that "
           "update, let one lane do a single atomic for the warp (__popc of "
           "the ballot), or push the items to a queue processed by full "
           "warps";
  }
  if (D.TwoSided && D.SmallSides) {
    Shape = "an if/else with short sides";
    return "Compute both sides and select (c ? a : b) so that no lane waits: "
           "predication costs the few instructions of the other side";
  }
  if (D.TwoSided) {
    Shape = "an if/else with long sides";
    return "Reorder the data (or the mapping of items to threads) so that "
           "the lanes of a warp take the same side; hoist any part the two "
           "sides share out of the branch";
  }
  Shape = "a branch taken by some lanes of a warp";
  return "Reorder or compact the data so that the items taking the branch "
         "are grouped into whole warps (e.g. a queue filled by a prefix sum "
         "and processed by full warps)";
}

void DivergenceOptimizer::runKernel(const Inputs &In, const FunctionProfile &F,
                                    std::vector<Advice> &Out) const {
  std::vector<DivergentBranch> Divs = divergentBranches(F);
  if (Divs.empty())
    return;
  bool FromSamples = false;
  double SampleTotal = 0;
  std::vector<double> Waits;
  std::vector<double> W = blockWeights(In, F, FromSamples, SampleTotal, Waits);
  const BlockCounts &Entry = F.Blocks.front();
  if (!Entry.WarpExecutions)
    return;
  const double FullLanes =
      double(Entry.ThreadExecutions) / double(Entry.WarpExecutions);
  // T is the kernel's time: with samples all of them, also those on no
  // block's line (a new warp's first fetch, inlined headers' code).
  double Total = 0;
  for (double X : W)
    Total += X;
  Total = std::max(Total, SampleTotal);
  // Each block goes to the innermost divergent branch governing it.
  BitVector Charged(F.Blocks.size());
  for (DivergentBranch &D : Divs) {
    uint64_t Sides = 0, SideInstructions = 0;
    for (unsigned S : D.Branch->Successors)
      if (S < F.Blocks.size() && D.Region.test(S)) {
        ++Sides;
        SideInstructions = std::max(SideInstructions, ptxCount(F.Blocks[S]));
      }
    D.TwoSided = Sides >= 2;
    // Without a global/local load or atomic of its own, a region's
    // long_scoreboard samples wait for a result issued before the branch:
    // as long with full warps, so not saved.
    bool OwnLoads = false;
    for (size_t B : D.Region.set_bits())
      OwnLoads |= hasMemoryResult(F.Blocks[B]);
    D.SmallSides = D.Region.count() <= Sides && SideInstructions <= SmallSide;
    for (size_t B : D.Region.set_bits()) {
      const BlockCounts &Bl = F.Blocks[B];
      D.Atomic |= hasAtomic(Bl);
      if (Charged.test(B) || !Bl.WarpExecutions)
        continue;
      Charged.set(B);
      const double Lanes = double(Bl.ThreadExecutions) / Bl.WarpExecutions;
      const double Issue = OwnLoads || Waits.empty() ? W[B] : W[B] - Waits[B];
      const double Idle = std::max(0.0, 1.0 - Lanes / FullLanes);
      D.Saved += Issue * Idle;
      D.IdleInstructions += warpInstructions(Bl) * Idle;
      D.RegionWeight += W[B];
      D.RegionLanes += double(Bl.ThreadExecutions);
      D.RegionWarps += double(Bl.WarpExecutions);
    }
  }
  double Saved = 0, Idle = 0, Instructions = 0;
  for (const DivergentBranch &D : Divs) {
    Saved += D.Saved;
    Idle += D.IdleInstructions;
  }
  for (const BlockCounts &B : F.Blocks)
    Instructions += warpInstructions(B);
  Advice A;
  A.Optimizer = "divergence";
  A.Title = "Reduce branch divergence";
  A.Kernel = F.Name;
  A.EstimatedSpeedup = speedupFromSaving(Total, Saved);
  A.Estimator =
      FromSamples
          ? "PC samples in each divergent region x its idle lane share"
          : "exact counts (no samples): warp instructions in each divergent "
            "region x its idle lane share";
  // The exact counts bound any estimate: removing every idle lane of the
  // divergent regions removes at most their idle warp instructions.
  const double Bound = speedupFromSaving(Instructions, Idle);
  if (FromSamples && A.EstimatedSpeedup > Bound) {
    A.Estimator +=
        formatv("; bounded by the exact counts: {0}x from the "
                "samples, but removing every idle lane of the "
                "divergent regions saves {1} of {2} warp "
                "instructions, {3}x",
                formatNumber(A.EstimatedSpeedup), formatNumber(Idle, 0),
                formatNumber(Instructions, 0), formatNumber(Bound))
            .str();
    A.EstimatedSpeedup = Bound;
  }
  if (A.EstimatedSpeedup < MinExactSpeedup)
    return;
  std::stable_sort(Divs.begin(), Divs.end(),
                   [](const DivergentBranch &X, const DivergentBranch &Y) {
                     return X.Saved > Y.Saved;
                   });
  for (size_t I = 0; I < Divs.size() && A.Hotspots.size() < MaxExactHotspots;
       ++I) {
    const DivergentBranch &D = Divs[I];
    if (!(D.Saved > 0))
      continue;
    const BranchCounts &Br = *D.Branch;
    std::string Shape, Fix = fixFor(D, Shape);
    if (llvm::find(A.Hints, Fix) == A.Hints.end())
      A.Hints.push_back(Fix);
    Hotspot H;
    H.Function = F.Name;
    H.File = Br.Loc.File;
    H.Line = Br.Loc.Line;
    H.Source = sourceLine(In, Br.Loc.File, Br.Loc.Line);
    H.Samples = D.Saved;
    if (!FromSamples)
      H.Unit = "idle-lane warp instructions";
    H.Evidence = formatv(
        "{0}: divergent on {1} of {2} visits; {3:F1} of {4:F1} lanes active "
        "in the {5} blocks it governs ({6:F1}% of the kernel's {7})",
        Shape, Br.Divergent, Br.Visits,
        D.RegionWarps ? D.RegionLanes / D.RegionWarps : 0.0, FullLanes,
        D.Region.count(), Total ? 100.0 * D.RegionWeight / Total : 0.0,
        FromSamples ? "samples" : "warp instructions");
    A.Hotspots.push_back(std::move(H));
  }
  Out.push_back(std::move(A));
}

} // namespace

std::unique_ptr<Optimizer> makeDivergenceOptimizer() {
  return std::make_unique<DivergenceOptimizer>();
}

} // namespace warpscope::advise
