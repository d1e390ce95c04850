//===- BlockHistograms.cpp - PTX instructions per IR block ----------------===//

#include "warpscope/PTX/BlockHistograms.h"
#include <algorithm>
#include <optional>
#include <vector>

using namespace warpscope::ptx;

namespace {

/// Whom a PTX block's instructions run with: an IR block, or an edge.
struct Owner {
  bool IsEdge = false;
  uint64_t Word = 0; ///< IR block (!IsEdge && !IsPart)
  Edge E;            ///< IsEdge
  bool IsPart = false;
  SwitchPart P; ///< IsPart
};

/// Whether every path from From to a function exit passes through Through.
bool postDominates(const Function &F, unsigned Through, unsigned From) {
  std::vector<bool> Seen(F.Blocks.size());
  std::vector<unsigned> Work = {From};
  Seen[From] = true;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (B == Through)
      continue;
    if (F.Blocks[B].Successors.empty())
      return false;
    for (unsigned S : F.Blocks[B].Successors)
      if (!Seen[S]) {
        Seen[S] = true;
        Work.push_back(S);
      }
  }
  return true;
}

/// Blocks reachable from the successors of From through marker-less blocks,
/// never entering Avoid: the marker-less ones (in order found) and the
/// marked ones they lead to.
void walkUnmarked(const Function &F, const std::vector<bool> &Marked,
                  unsigned From, int Avoid, std::vector<unsigned> &Unmarked,
                  std::set<unsigned> &MarkedFound) {
  std::vector<bool> Seen(F.Blocks.size());
  std::vector<unsigned> Work(F.Blocks[From].Successors.begin(),
                             F.Blocks[From].Successors.end());
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (Seen[B] || int(B) == Avoid || B == From)
      continue;
    Seen[B] = true;
    if (Marked[B]) {
      MarkedFound.insert(B);
      continue;
    }
    Unmarked.push_back(B);
    for (unsigned S : F.Blocks[B].Successors)
      Work.push_back(S);
  }
}

} // namespace

FunctionHistograms
warpscope::ptx::attribute(const Function &F,
                          const std::set<uint64_t> &SwitchBlocks) {
  size_t N = F.Blocks.size();
  // Whom each PTX block starts and ends with (its first and last marker).
  std::vector<std::optional<Owner>> First(N), Last(N);
  std::vector<bool> Marked(N);
  for (size_t K = 0; K < N; ++K)
    for (const Item &I : F.Blocks[K].Items)
      if (I.Kind != Item::Instruction) {
        Owner O;
        O.Word = I.Word;
        if (!First[K])
          First[K] = O;
        Last[K] = O;
        Marked[K] = true;
      }

  std::vector<std::vector<unsigned>> Preds(N);
  for (unsigned K = 0; K < N; ++K)
    for (unsigned S : F.Blocks[K].Successors)
      Preds[S].push_back(K);
  // A switch's lowering: the marker-less blocks after the PTX block that
  // ends with the switch's marker, entered from nowhere else. Each runs for
  // the lanes going to the IR blocks it leads to, if every way from the
  // switch to those passes it.
  for (unsigned R = 0; R < N; ++R) {
    if (!Last[R] || !SwitchBlocks.count(Last[R]->Word))
      continue;
    std::vector<unsigned> Region;
    std::set<unsigned> Targets;
    walkUnmarked(F, Marked, R, -1, Region, Targets);
    std::set<unsigned> InRegion(Region.begin(), Region.end());
    for (unsigned K : Region) {
      bool Closed = true;
      for (unsigned P : Preds[K])
        Closed &= P == R || InRegion.count(P);
      std::vector<unsigned> Below, Avoiding;
      std::set<unsigned> Reached, ReachedAvoiding;
      walkUnmarked(F, Marked, K, -1, Below, Reached);
      walkUnmarked(F, Marked, R, K, Avoiding, ReachedAvoiding);
      for (unsigned T : Reached)
        Closed &= !ReachedAvoiding.count(T) && !First[T]->IsEdge;
      if (!Closed || Reached.empty() || First[K])
        continue;
      Owner O;
      O.IsPart = true;
      O.P.From = Last[R]->Word;
      for (unsigned T : Reached)
        O.P.Reaches.push_back(First[T]->Word);
      std::sort(O.P.Reaches.begin(), O.P.Reaches.end());
      First[K] = Last[K] = O;
    }
  }
  auto SingleSuccessor = [&](unsigned K) {
    return F.Blocks[K].Successors.size() == 1;
  };
  // Marker-less blocks inherit along edges that no lane can leave or join
  // from elsewhere; failing that, they may sit on one side of a branch.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned K = 0; K < N; ++K) {
      if (First[K])
        continue;
      std::optional<Owner> From;
      if (Preds[K].size() == 1 && SingleSuccessor(Preds[K][0]))
        From = Last[Preds[K][0]];
      if (!From && SingleSuccessor(K) &&
          Preds[F.Blocks[K].Successors[0]].size() == 1)
        From = First[F.Blocks[K].Successors[0]];
      if (!From && Preds[K].size() == 1) {
        unsigned P = Preds[K][0];
        const std::vector<unsigned> &PS = F.Blocks[P].Successors;
        unsigned V = PS.size() == 2 ? PS[PS[0] == K ? 1 : 0] : K;
        if (V != K && Preds[V].size() == 1 && Marked[V] && Last[P] &&
            !Last[P]->IsEdge && !Last[P]->IsPart && !First[V]->IsEdge) {
          Owner O;
          O.IsEdge = true;
          O.E.From = Last[P]->Word;
          O.E.Other = First[V]->Word;
          O.E.OtherReconverges = postDominates(F, V, P);
          O.E.SelfReconverges = postDominates(F, K, P);
          From = O;
        }
      }
      if (!From && Preds[K].size() == 1 && Last[Preds[K][0]] &&
          !Last[Preds[K][0]]->IsEdge && !Last[Preds[K][0]]->IsPart &&
          F.Blocks[Preds[K][0]].Successors.size() == 2) {
        // Follow the straight line this side runs down to a marked block.
        unsigned At = K;
        for (unsigned Steps = 0;
             Steps < 16 && !Marked[At] && SingleSuccessor(At); ++Steps)
          At = F.Blocks[At].Successors[0];
        if (Marked[At] && !First[At]->IsEdge && !First[At]->IsPart) {
          Owner O;
          O.IsEdge = true;
          O.E.From = Last[Preds[K][0]]->Word;
          O.E.Other = First[At]->Word;
          O.E.Toward = true;
          O.E.SelfReconverges = postDominates(F, K, Preds[K][0]);
          From = O;
        }
      }
      if (From) {
        First[K] = Last[K] = From;
        Changed = true;
      }
    }
  }

  FunctionHistograms Out;
  Out.InstrumentationInstructions = F.InstrumentationInstructions;
  for (size_t K = 0; K < N; ++K) {
    std::optional<Owner> Cur = First[K];
    bool HasInstructions = false;
    for (const Item &I : F.Blocks[K].Items) {
      if (I.Kind != Item::Instruction) {
        Cur = Owner();
        Cur->Word = I.Word;
        continue;
      }
      HasInstructions = true;
      if (!Cur) {
        ++Out.Unattributed[I.Opcode];
        Out.UnattributedLines.push_back(I.Line);
      } else if (Cur->IsPart)
        ++Out.SwitchParts[Cur->P][I.Opcode];
      else if (Cur->IsEdge)
        ++Out.Edges[Cur->E][I.Opcode];
      else
        ++Out.Blocks[Cur->Word][I.Opcode];
    }
    Out.UnattributedBlocks += !Cur && HasInstructions;
  }
  return Out;
}
