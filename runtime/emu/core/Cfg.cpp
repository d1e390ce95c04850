//===- Cfg.cpp - immediate post-dominators for SIMT reconvergence ---------===//
//
// Basic blocks are split at labels (branch targets) and after control
// transfers. ret/exit/trap edges go to a virtual exit node. The immediate
// post-dominator of the block ending in a branch is where divergent lanes
// of that branch reconverge. Cooper/Harvey/Kennedy's iterative algorithm on
// the reverse CFG.
//
//===----------------------------------------------------------------------===//
#include "Ptx.h"

#include <algorithm>
#include <functional>

namespace warpscope::emu::core {

void computeReconvergence(Function &F) {
  const uint32_t N = (uint32_t)F.Code.size();
  if (N == 0)
    return;
  std::vector<char> Leader(N + 1, 0);
  Leader[0] = 1;
  auto IsTerm = [&](const Inst &I) {
    return I.Op == OpBra || I.Op == OpBrx || I.Op == OpRet || I.Op == OpExit ||
           I.Op == OpTrap;
  };
  for (uint32_t K = 0; K < N; ++K) {
    const Inst &I = F.Code[K];
    if (I.Op == OpBra && I.Target < N)
      Leader[I.Target] = 1;
    if (I.Op == OpBrx)
      for (uint32_t T : F.BrxTables[I.Target])
        if (T < N)
          Leader[T] = 1;
    if (IsTerm(I))
      Leader[K + 1] = 1;
  }
  std::vector<uint32_t> BlockOf(N + 1), Start;
  for (uint32_t K = 0; K < N; ++K) {
    if (Leader[K])
      Start.push_back(K);
    BlockOf[K] = (uint32_t)Start.size() - 1;
  }
  const uint32_t NB = (uint32_t)Start.size();
  const uint32_t Exit = NB;
  BlockOf[N] = Exit;
  std::vector<std::vector<uint32_t>> Succ(NB + 1), Pred(NB + 1);
  for (uint32_t B = 0; B < NB; ++B) {
    uint32_t End = (B + 1 < NB ? Start[B + 1] : N) - 1;
    eachSuccessor(F, End, [&](uint32_t To) { Succ[B].push_back(BlockOf[To]); });
    std::sort(Succ[B].begin(), Succ[B].end());
    Succ[B].erase(std::unique(Succ[B].begin(), Succ[B].end()), Succ[B].end());
    for (uint32_t S : Succ[B])
      Pred[S].push_back(B);
  }
  // Postorder of the reverse graph starting at Exit (edges Exit -> preds).
  std::vector<int> PoNum(NB + 1, -1);
  std::vector<uint32_t> Order;
  {
    std::vector<std::pair<uint32_t, size_t>> Stack;
    std::vector<char> Seen(NB + 1, 0);
    Stack.push_back({Exit, 0});
    Seen[Exit] = 1;
    while (!Stack.empty()) {
      auto &Top = Stack.back();
      if (Top.second < Pred[Top.first].size()) {
        uint32_t Nx = Pred[Top.first][Top.second++];
        if (!Seen[Nx]) {
          Seen[Nx] = 1;
          Stack.push_back({Nx, 0});
        }
      } else {
        PoNum[Top.first] = (int)Order.size();
        Order.push_back(Top.first);
        Stack.pop_back();
      }
    }
  }
  std::vector<int> Idom(NB + 1, -1);
  Idom[Exit] = (int)Exit;
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (PoNum[A] < PoNum[B])
        A = Idom[A];
      while (PoNum[B] < PoNum[A])
        B = Idom[B];
    }
    return A;
  };
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (size_t K = Order.size(); K-- > 0;) {
      uint32_t B = Order[K];
      if (B == Exit)
        continue;
      int New = -1;
      for (uint32_t S : Succ[B]) {
        if (Idom[S] < 0)
          continue;
        New = New < 0 ? (int)S : Intersect((int)S, New);
      }
      if (New >= 0 && Idom[B] != New) {
        Idom[B] = New;
        Changed = true;
      }
    }
  }
  for (uint32_t B = 0; B < NB; ++B) {
    uint32_t End = (B + 1 < NB ? Start[B + 1] : N) - 1;
    Inst &I = F.Code[End];
    int P = Idom[B];
    uint32_t R = (P < 0 || (uint32_t)P == Exit) ? N : Start[P];
    I.Ipdom = R;
  }
  for (uint32_t K = 0; K < N; ++K)
    if (F.Code[K].Ipdom == NoTarget)
      F.Code[K].Ipdom = N;
}

} // namespace warpscope::emu::core
