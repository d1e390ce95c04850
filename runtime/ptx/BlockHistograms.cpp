//===- BlockHistograms.cpp - PTX instructions per IR block ----------------===//

#include "BlockHistograms.h"
#include <optional>
#include <vector>

using namespace warpscope::ptx;

namespace {

/// Whom a PTX block's instructions run with: an IR block, or an edge.
struct Owner {
  bool IsEdge = false;
  uint64_t Word = 0; ///< IR block (!IsEdge)
  Edge E;            ///< IsEdge
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

} // namespace

FunctionHistograms warpscope::ptx::attribute(const Function &F) {
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
            !Last[P]->IsEdge && !First[V]->IsEdge) {
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
          !Last[Preds[K][0]]->IsEdge &&
          F.Blocks[Preds[K][0]].Successors.size() == 2) {
        // Follow the straight line this side runs down to a marked block.
        unsigned At = K;
        for (unsigned Steps = 0; Steps < 16 && !Marked[At] && SingleSuccessor(At);
             ++Steps)
          At = F.Blocks[At].Successors[0];
        if (Marked[At] && !First[At]->IsEdge) {
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
        Cur = Owner{false, I.Word, {}};
        continue;
      }
      HasInstructions = true;
      if (!Cur) {
        ++Out.Unattributed[I.Opcode];
        Out.UnattributedLines.push_back(I.Line);
      }
      else if (Cur->IsEdge)
        ++Out.Edges[Cur->E][I.Opcode];
      else
        ++Out.Blocks[Cur->Word][I.Opcode];
    }
    Out.UnattributedBlocks += !Cur && HasInstructions;
  }
  return Out;
}
