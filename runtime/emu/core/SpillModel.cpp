//===- SpillModel.cpp - Where ptxas's register spills run -----------------===//

#include "SpillModel.h"
#include "Exec.h"

#include <algorithm>

namespace warpscope::emu::core {
namespace {

using Bits = std::vector<uint64_t>;

bool test(const Bits &B, uint32_t S) { return B[S >> 6] >> (S & 63) & 1; }
void set(Bits &B, uint32_t S) { B[S >> 6] |= uint64_t(1) << (S & 63); }

/// 32-bit words a register slot takes: 0 for predicates and non-registers.
uint32_t wordsOf(const Function &F, uint32_t Slot) {
  if (Slot >= F.SlotBits.size() || F.SlotBits[Slot] <= 1)
    return 0;
  return F.SlotBits[Slot] > 32 ? 2 : 1;
}

bool isRegister(const Function &F, uint32_t Slot) {
  return Slot >= FirstRegSlot && Slot < F.SlotBits.size() && F.SlotBits[Slot];
}

template <class Fn> void eachUse(const Function &F, const Inst &I, Fn Use) {
  for (unsigned K = 0; K < I.NS && K < 5; ++K)
    if (isRegister(F, I.S[K]))
      Use(I.S[K]);
  if (isRegister(F, I.Addr))
    Use(I.Addr);
  if (I.Guard >= 0 && isRegister(F, (uint32_t)I.Guard))
    Use((uint32_t)I.Guard);
}

template <class Fn> void eachDef(const Function &F, const Inst &I, Fn Def) {
  for (unsigned K = 0; K < I.ND && K < 4; ++K)
    if (isRegister(F, I.D[K]))
      Def(I.D[K]);
}

// The instructions control may reach after K within the function.
template <class Fn> void eachSucc(const Function &F, uint32_t K, Fn Succ) {
  eachSuccessor(F, K, [&](uint32_t S) {
    if (S < F.Code.size())
      Succ(S);
  });
}

/// Live registers before each instruction (backward dataflow to a fixed
/// point). A guarded definition does not kill: the old value may survive.
std::vector<Bits> liveIn(const Function &F) {
  const uint32_t N = (uint32_t)F.Code.size();
  const size_t W = (F.NumSlots + 63) / 64;
  std::vector<Bits> In(N, Bits(W, 0));
  Bits Out(W);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (uint32_t K = N; K-- > 0;) {
      std::fill(Out.begin(), Out.end(), 0);
      eachSucc(F, K, [&](uint32_t S) {
        for (size_t J = 0; J < W; ++J)
          Out[J] |= In[S][J];
      });
      const Inst &I = F.Code[K];
      if (I.Guard < 0)
        eachDef(F, I,
                [&](uint32_t S) { Out[S >> 6] &= ~(uint64_t(1) << (S & 63)); });
      eachUse(F, I, [&](uint32_t S) { set(Out, S); });
      if (Out != In[K]) {
        In[K] = Out;
        Changed = true;
      }
    }
  }
  return In;
}

/// Per instruction: the live registers before it (In) and those after it
/// together with its results (Across), as bitsets.
struct Liveness {
  std::vector<Bits> In, Across;
};

Liveness liveness(const Function &F) {
  Liveness L;
  L.In = liveIn(F);
  const uint32_t N = (uint32_t)F.Code.size();
  const size_t W = (F.NumSlots + 63) / 64;
  L.Across.assign(N, Bits(W, 0));
  for (uint32_t K = 0; K < N; ++K) {
    Bits &A = L.Across[K];
    eachSucc(F, K, [&](uint32_t S) {
      for (size_t J = 0; J < W; ++J)
        A[J] |= L.In[S][J];
    });
    eachDef(F, F.Code[K], [&](uint32_t S) { set(A, S); });
  }
  return L;
}

uint32_t words(const Function &F, const Bits &B) {
  uint32_t Sum = 0;
  for (size_t J = 0; J < B.size(); ++J)
    for (uint64_t V = B[J]; V; V &= V - 1)
      Sum += wordsOf(F, uint32_t(J * 64 + __builtin_ctzll(V)));
  return Sum;
}

/// Each instruction's loop depth (the backward branches around it) and,
/// from it, each register's cost of living in memory: its definitions and
/// uses, an inner loop's weighing 8 times its outer one's.
std::vector<double> spillCosts(const Function &F) {
  const uint32_t N = (uint32_t)F.Code.size();
  std::vector<uint32_t> Depth(N, 0);
  for (uint32_t J = 0; J < N; ++J)
    if (F.Code[J].Op == OpBra && F.Code[J].Target <= J)
      for (uint32_t K = F.Code[J].Target; K <= J; ++K)
        ++Depth[K];
  std::vector<double> Cost(F.NumSlots, 0);
  for (uint32_t K = 0; K < N; ++K) {
    double Weight = 1;
    for (uint32_t D = 0; D < std::min(Depth[K], 5u); ++D)
      Weight *= 8;
    auto Add = [&](uint32_t S) { Cost[S] += Weight * wordsOf(F, S); };
    eachUse(F, F.Code[K], Add);
    eachDef(F, F.Code[K], Add);
  }
  return Cost;
}

/// Registers ptxas need not spill: a kernel's parameters, which SASS reads
/// from the constant bank at each use (ld.param vanishes into an operand),
/// and their cvta.to.global (the identity). Kept in pressure, they are the
/// first to give up their registers, at no cost and with no spill code.
std::vector<bool> rematerializable(const Function &F) {
  // Every definition must be one of the two (a fixed point: a cvta's
  // source may lose the property later in the code).
  std::vector<bool> Remat(F.NumSlots, F.IsKernel);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Inst &I : F.Code) {
      const bool Keeps =
          (I.Op == OpLd && I.Space == SpParam) ||
          (I.Op == OpCvta && (I.Flags & FToSpace) && I.Space == SpGlobal &&
           I.NS > 0 && I.S[0] < F.NumSlots && Remat[I.S[0]]);
      eachDef(F, I, [&](uint32_t S) {
        if (!Keeps && Remat[S]) {
          Remat[S] = false;
          Changed = true;
        }
      });
    }
  }
  return Remat;
}

/// Whether instruction I reads or writes Slot.
bool references(const Function &F, const Inst &I, uint32_t Slot) {
  bool Found = false;
  auto See = [&](uint32_t S) { Found |= S == Slot; };
  eachUse(F, I, See);
  eachDef(F, I, See);
  return Found;
}

/// Chooses the registers to spill: while some instruction's pressure
/// exceeds Avail, the cheapest register live there and not referenced by
/// it (by spillCosts; a tie goes to the one live over more instructions)
/// lives in memory from then on.
std::vector<bool> chooseSpills(const Function &F, const Liveness &L,
                               uint32_t Avail, uint32_t &Peak) {
  const uint32_t N = (uint32_t)F.Code.size();
  std::vector<uint32_t> In(N), Across(N);
  Peak = 0;
  for (uint32_t K = 0; K < N; ++K) {
    In[K] = words(F, L.In[K]);
    Across[K] = words(F, L.Across[K]);
    Peak = std::max({Peak, In[K], Across[K]});
  }
  std::vector<double> Cost = spillCosts(F);
  const std::vector<bool> Remat = rematerializable(F);
  for (uint32_t S = 0; S < F.NumSlots; ++S)
    Cost[S] = Remat[S] ? 0 : Cost[S];
  std::vector<bool> Spilled(F.NumSlots, false);
  std::vector<uint32_t> Span(F.NumSlots, 0);
  for (uint32_t K = 0; K < N; ++K)
    for (uint32_t S = FirstRegSlot; S < F.NumSlots; ++S)
      Span[S] += test(L.In[K], S) || test(L.Across[K], S);
  for (;;) {
    uint32_t Worst = N, Most = Avail;
    for (uint32_t K = 0; K < N; ++K)
      if (std::max(In[K], Across[K]) > Most) {
        Most = std::max(In[K], Across[K]);
        Worst = K;
      }
    if (Worst == N)
      break;
    uint32_t Best = 0;
    for (int Pass = 0; Pass < 2 && !Best; ++Pass)
      for (uint32_t S = FirstRegSlot; S < F.NumSlots; ++S) {
        if (Spilled[S] || !wordsOf(F, S) ||
            !(test(L.In[Worst], S) || test(L.Across[Worst], S)) ||
            (Pass == 0 && references(F, F.Code[Worst], S)))
          continue;
        if (!Best || Cost[S] < Cost[Best] ||
            (Cost[S] == Cost[Best] && Span[S] > Span[Best]))
          Best = S;
      }
    if (!Best)
      break; // nothing left to spill there (cannot happen with Avail >= 1)
    Spilled[Best] = true;
    for (uint32_t K = 0; K < N; ++K) {
      In[K] -= test(L.In[K], Best) ? wordsOf(F, Best) : 0;
      Across[K] -= test(L.Across[K], Best) ? wordsOf(F, Best) : 0;
    }
  }
  return Spilled;
}

} // namespace

uint64_t SpillPlan::storeBytes() const {
  uint64_t B = 0;
  for (const SpillOp &O : Stores)
    B += 4u * O.Words;
  return B;
}

uint64_t SpillPlan::loadBytes() const {
  uint64_t B = 0;
  for (const SpillOp &O : Loads)
    B += 4u * O.Words;
  return B;
}

std::vector<uint32_t> registerPressure(const Function &F) {
  const Liveness L = liveness(F);
  std::vector<uint32_t> P(F.Code.size());
  for (size_t K = 0; K < P.size(); ++K)
    P[K] = std::max(words(F, L.In[K]), words(F, L.Across[K]));
  return P;
}

SpillPlan planSpills(const Function &F, uint32_t Cap) {
  SpillPlan P;
  P.Cap = Cap;
  const uint32_t N = (uint32_t)F.Code.size();
  P.LoadBegin.assign(N + 1, 0);
  P.StoreBegin.assign(N + 1, 0);
  if (N == 0)
    return P;
  const Liveness L = liveness(F);
  const uint32_t Avail = Cap > SpillReserve + 1 ? Cap - SpillReserve : 1;
  std::vector<bool> Spilled = chooseSpills(F, L, Avail, P.Peak);
  P.Need = P.Peak + SpillReserve;
  const std::vector<bool> Remat = rematerializable(F);
  for (uint32_t S = 0; S < F.NumSlots; ++S)
    Spilled[S] = Spilled[S] && !Remat[S]; // read again from the constants
  std::vector<uint32_t> Word(F.NumSlots, 0);
  for (uint32_t S = FirstRegSlot; S < F.NumSlots; ++S)
    if (Spilled[S]) {
      Word[S] = P.AreaWords;
      P.AreaWords += wordsOf(F, S);
    }
  for (uint32_t K = 0; K < N; ++K) {
    P.LoadBegin[K] = (uint32_t)P.Loads.size();
    P.StoreBegin[K] = (uint32_t)P.Stores.size();
    const Inst &I = F.Code[K];
    eachUse(F, I, [&](uint32_t S) {
      if (!Spilled[S])
        return;
      for (uint32_t J = P.LoadBegin[K]; J < P.Loads.size(); ++J)
        if (P.Loads[J].Slot == S)
          return; // one reload serves every operand that names it
      P.Loads.push_back({S, Word[S], (uint8_t)wordsOf(F, S)});
    });
    eachDef(F, I, [&](uint32_t S) {
      if (Spilled[S])
        P.Stores.push_back({S, Word[S], (uint8_t)wordsOf(F, S)});
    });
  }
  P.LoadBegin[N] = (uint32_t)P.Loads.size();
  P.StoreBegin[N] = (uint32_t)P.Stores.size();
  return P;
}

void SpillCode::extend(std::vector<timing::StaticInst> &Table) const {
  auto Add = [&](const SpillOp &O, uint32_t Pc, bool Load) {
    timing::StaticInst S;
    S.K = Load ? timing::Kind::Load : timing::Kind::Store;
    S.Sp = timing::Space::Local;
    S.Code = Table[FuncBase + Pc].Code;
    // A reload defines the register its use waits for. A spill store
    // names no register: ptxas schedules the STL once its value is ready,
    // without holding the warp at the definition.
    if (Load) {
      S.NDst = 1;
      S.Dst[0] = O.Slot;
    }
    Table.push_back(S);
  };
  const uint32_t N = (uint32_t)Plan.LoadBegin.size() - 1;
  for (uint32_t Pc = 0; Pc < N; ++Pc)
    for (uint32_t J = Plan.LoadBegin[Pc]; J < Plan.LoadBegin[Pc + 1]; ++J)
      Add(Plan.Loads[J], Pc, true);
  for (uint32_t Pc = 0; Pc < N; ++Pc)
    for (uint32_t J = Plan.StoreBegin[Pc]; J < Plan.StoreBegin[Pc + 1]; ++J)
      Add(Plan.Stores[J], Pc, false);
}

void SpillCode::record(timing::WarpTrace &W, uint32_t Pc, bool Before,
                       uint64_t Cta, uint32_t Warp, uint32_t Exec) const {
  // Local memory interleaves the lanes' words: a warp's access to one
  // 32-bit word of its spill area is 128 contiguous bytes, one line, a
  // sector per 8 lanes that are on. The area lies far above any device
  // address (lines are addresses >> 7), one per warp of the launch.
  constexpr uint64_t AreaLine = uint64_t(1) << 58;
  uint32_t Sectors = 0;
  for (unsigned G = 0; G < 4; ++G)
    Sectors += (Exec >> (8 * G) & 0xff) != 0;
  const uint64_t First =
      AreaLine + (Cta * NWarps + Warp) * uint64_t(Plan.AreaWords);
  const auto &Begin = Before ? Plan.LoadBegin : Plan.StoreBegin;
  const auto &Ops = Before ? Plan.Loads : Plan.Stores;
  const uint32_t Id0 = Base + (Before ? 0u : (uint32_t)Plan.Loads.size());
  for (uint32_t J = Begin[Pc]; J < Begin[Pc + 1]; ++J) {
    timing::MemAccess A;
    A.Off = Exec == 0;
    A.Counted = true;
    A.Global = !A.Off;
    A.Sectors = Sectors * Ops[J].Words;
    A.LineBegin = (uint32_t)W.Lines.size();
    A.NLines = A.Off ? 0 : Ops[J].Words;
    for (uint32_t K = 0; K < A.NLines; ++K)
      W.Lines.push_back(First + Ops[J].Word + K);
    W.Ops.push_back({Id0 + J, (uint32_t)W.Mems.size()});
    W.Mems.push_back(A);
  }
}

std::unique_ptr<SpillCode> launchSpills(ModuleImpl &M, const Function &K,
                                        const LaunchParams &P, uint32_t NWarps,
                                        LaunchRecord &Rec,
                                        std::vector<timing::StaticInst> &Table,
                                        uint32_t &Registers) {
  if (!P.SpillCap)
    return nullptr;
  auto Key = std::make_pair(K.Index, P.SpillCap);
  auto It = M.SpillPlans.find(Key);
  if (It == M.SpillPlans.end())
    It = M.SpillPlans.emplace(Key, planSpills(K, P.SpillCap)).first;
  const SpillPlan &Plan = It->second;
  Rec.Spills = {P.SpillCap,
                Plan.Need,
                Plan.storeBytes(),
                Plan.loadBytes(),
                P.PtxasSpillStoreBytes,
                P.PtxasSpillLoadBytes};
  if (P.SpillCapChanged) // a what-if's cap: the registers it needs
    Registers = std::max(Registers, std::min(P.SpillCap, Plan.Need));
  if (!Plan.any())
    return nullptr;
  auto S = std::make_unique<SpillCode>();
  S->Plan = Plan;
  S->Function = K.Index;
  S->FuncBase = M.Code->FuncBase[K.Index];
  S->Base = (uint32_t)M.Code->Table.size();
  S->NWarps = NWarps;
  Table = M.Code->Table;
  S->extend(Table);
  return S;
}

} // namespace warpscope::emu::core
