//===- ControlFlow.cpp - Predecessors, dominators and natural loops -------===//

#include "Code.h"
#include <algorithm>

namespace warpscope::advise {

unsigned latencyBound(LatencyClass C) {
  // In instructions issued by the warp in between; generous upper bounds
  // (GPA uses the TLB-miss latency for global memory), since pruning must
  // only drop edges that cannot have stalled.
  switch (C) {
  case LatencyClass::Fixed:
    return 6;
  case LatencyClass::Chain: // up to 70 dependent instructions (64-bit div)
    return 64;
  case LatencyClass::Sfu:
    return 40;
  case LatencyClass::Shared:
    return 64;
  case LatencyClass::Constant:
    return 256;
  case LatencyClass::GlobalLocal:
    return 2048;
  }
  return 6;
}

const char *opClassName(OpClass C) {
  switch (C) {
  case OpClass::Arith:
    return "arithmetic";
  case OpClass::LongArith:
    return "long-latency arithmetic";
  case OpClass::Memory:
    return "memory";
  case OpClass::Branch:
    return "branch";
  case OpClass::Sync:
    return "synchronization";
  case OpClass::Other:
    return "other";
  }
  return "other";
}

const char *spaceName(Space S) {
  switch (S) {
  case Space::None:
    return "none";
  case Space::Global:
    return "global";
  case Space::Local:
    return "local";
  case Space::Shared:
    return "shared";
  case Space::Constant:
    return "constant";
  case Space::Generic:
    return "generic";
  case Space::Texture:
    return "texture";
  }
  return "none";
}

unsigned Function::regId(const std::string &Name) {
  auto [It, New] = RegIndex.try_emplace(Name, unsigned(RegNames.size()));
  if (New)
    RegNames.push_back(Name);
  return It->second;
}

std::vector<int> Function::loopNest(unsigned I) const {
  std::vector<int> Nest;
  if (I >= Instrs.size())
    return Nest;
  for (int L = Blocks[Instrs[I].Block].Loop; L >= 0; L = Loops[L].Parent)
    Nest.push_back(L);
  return Nest;
}

/// Immediate dominators by the iterative algorithm of Cooper, Harvey and
/// Kennedy over a reverse post-order; -1 for unreachable blocks.
static std::vector<int> dominators(const Function &F,
                                   std::vector<unsigned> &Rpo) {
  unsigned N = unsigned(F.Blocks.size());
  std::vector<int> Order(N, -1);
  std::vector<char> Seen(N, 0);
  std::vector<std::pair<unsigned, unsigned>> Stack = {{0, 0}};
  Seen[0] = 1;
  std::vector<unsigned> Post;
  while (!Stack.empty()) {
    auto &[B, K] = Stack.back();
    if (K < F.Blocks[B].Succs.size()) {
      unsigned S = F.Blocks[B].Succs[K++];
      if (!Seen[S]) {
        Seen[S] = 1;
        Stack.push_back({S, 0});
      }
      continue;
    }
    Post.push_back(B);
    Stack.pop_back();
  }
  Rpo.assign(Post.rbegin(), Post.rend());
  for (unsigned I = 0; I < Rpo.size(); ++I)
    Order[Rpo[I]] = int(I);
  std::vector<int> Idom(N, -1);
  Idom[0] = 0;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B : Rpo) {
      if (B == 0)
        continue;
      int New = -1;
      for (unsigned P : F.Blocks[B].Preds) {
        if (Idom[P] < 0)
          continue;
        if (New < 0) {
          New = int(P);
          continue;
        }
        int X = int(P), Y = New;
        while (X != Y) {
          while (Order[X] > Order[Y])
            X = Idom[X];
          while (Order[Y] > Order[X])
            Y = Idom[Y];
        }
        New = X;
      }
      if (New >= 0 && Idom[B] != New) {
        Idom[B] = New;
        Changed = true;
      }
    }
  }
  return Idom;
}

static bool dominates(const std::vector<int> &Idom, unsigned A, unsigned B) {
  for (int X = int(B);; X = Idom[X]) {
    if (X == int(A))
      return true;
    if (X <= 0 || Idom[X] < 0)
      return false;
  }
}

void analyzeControlFlow(Function &F) {
  for (BasicBlock &B : F.Blocks)
    B.Preds.clear();
  for (unsigned B = 0; B < F.Blocks.size(); ++B)
    for (unsigned S : F.Blocks[B].Succs)
      F.Blocks[S].Preds.push_back(B);
  for (unsigned B = 0; B < F.Blocks.size(); ++B)
    for (unsigned I = F.Blocks[B].First; I < F.Blocks[B].End; ++I)
      F.Instrs[I].Block = B;
  F.Loops.clear();
  if (F.Blocks.empty())
    return;
  std::vector<unsigned> Rpo;
  std::vector<int> Idom = dominators(F, Rpo);
  // One natural loop per header: the union of its back edges' bodies.
  std::map<unsigned, std::vector<unsigned>> Bodies;
  for (unsigned B : Rpo)
    for (unsigned H : F.Blocks[B].Succs)
      if (Idom[H] >= 0 && dominates(Idom, H, B)) {
        std::vector<unsigned> &Body = Bodies[H];
        std::vector<unsigned> Work = {B};
        if (std::find(Body.begin(), Body.end(), H) == Body.end())
          Body.push_back(H);
        while (!Work.empty()) {
          unsigned X = Work.back();
          Work.pop_back();
          if (std::find(Body.begin(), Body.end(), X) != Body.end())
            continue;
          Body.push_back(X);
          for (unsigned P : F.Blocks[X].Preds)
            Work.push_back(P);
        }
      }
  for (auto &[H, Body] : Bodies) {
    Loop L;
    L.Header = H;
    L.Blocks = Body;
    std::sort(L.Blocks.begin(), L.Blocks.end());
    for (unsigned I = F.Blocks[H].First; I < F.Blocks[H].End; ++I)
      if (F.Instrs[I].Line) {
        L.File = F.Instrs[I].File;
        L.Line = F.Instrs[I].Line;
        break;
      }
    F.Loops.push_back(std::move(L));
  }
  // Nesting: a loop's parent is the smallest other loop holding its header.
  for (unsigned A = 0; A < F.Loops.size(); ++A) {
    size_t Best = SIZE_MAX;
    for (unsigned B = 0; B < F.Loops.size(); ++B) {
      const std::vector<unsigned> &Bl = F.Loops[B].Blocks;
      if (A != B && Bl.size() > F.Loops[A].Blocks.size() && Bl.size() < Best &&
          std::binary_search(Bl.begin(), Bl.end(), F.Loops[A].Header)) {
        Best = Bl.size();
        F.Loops[A].Parent = int(B);
      }
    }
  }
  for (Loop &L : F.Loops)
    for (int P = L.Parent; P >= 0; P = F.Loops[P].Parent)
      ++L.Depth;
  // A block's innermost loop is the smallest holding it.
  for (unsigned B = 0; B < F.Blocks.size(); ++B) {
    size_t Best = SIZE_MAX;
    for (unsigned L = 0; L < F.Loops.size(); ++L)
      if (F.Loops[L].Blocks.size() < Best &&
          std::binary_search(F.Loops[L].Blocks.begin(), F.Loops[L].Blocks.end(),
                             B)) {
        Best = F.Loops[L].Blocks.size();
        F.Blocks[B].Loop = int(L);
      }
  }
}

} // namespace warpscope::advise
