//===- Blame.cpp - GPA's instruction blamer -------------------------------===//

#include "Blame.h"
#include <algorithm>
#include <set>

using namespace llvm;

namespace warpscope::advise {

StringRef shortReason(StringRef Reason) {
  Reason.consume_front("smsp__pcsamp_warps_issue_stalled_");
  return Reason;
}

StallKind stallKind(StringRef Reason) {
  StringRef R = shortReason(Reason);
  if (R == "selected")
    return StallKind::Active;
  if (R == "long_scoreboard")
    return StallKind::MemoryDep;
  if (R == "short_scoreboard" || R == "wait")
    return StallKind::ExecDep;
  if (R == "barrier" || R == "membar")
    return StallKind::Sync;
  if (R == "no_instruction" || R == "no_instructions")
    return StallKind::InstFetch;
  if (R == "lg_throttle" || R == "mio_throttle" || R == "tex_throttle" ||
      R == "drain")
    return StallKind::MemThrottle;
  return StallKind::Other;
}

void InstrStalls::add(StringRef Reason, double N) {
  Total += N;
  ByKind[size_t(stallKind(Reason))] += N;
  ByReason[shortReason(Reason).str()] += N;
}

const char *depClassName(DepClass C) {
  switch (C) {
  case DepClass::GlobalMemory:
    return "global memory";
  case DepClass::LocalMemory:
    return "local memory";
  case DepClass::ConstantMemory:
    return "constant memory";
  case DepClass::SharedMemory:
    return "shared memory";
  case DepClass::Arithmetic:
    return "arithmetic";
  case DepClass::WriteAfterRead:
    return "write-after-read";
  }
  return "arithmetic";
}

namespace {

/// An L1TEX result: what long_scoreboard waits on.
bool isL1Tex(const Instr &I) {
  return I.Class == OpClass::Memory && I.Load &&
         (I.Mem == Space::Global || I.Mem == Space::Local ||
          I.Mem == Space::Generic || I.Mem == Space::Texture ||
          I.Mem == Space::Constant);
}

struct Discovery {
  unsigned MinAll = UINT32_MAX, MinFree = UINT32_MAX, Max = 0;
  bool Free = false; ///< reached on a path with no unguarded use between
};

/// Predicates covered on a search path: (register, negated) pairs; "_"
/// (All) once an unguarded def or both polarities of one register are met.
struct Cover {
  std::vector<std::pair<int, bool>> Preds;
  bool All = false;
  bool covers(int Guard, bool Neg) const {
    if (All)
      return true;
    return Guard >= 0 && std::find(Preds.begin(), Preds.end(),
                                   std::make_pair(Guard, Neg)) != Preds.end();
  }
  void add(int Guard, bool Neg) {
    if (Guard < 0) {
      All = true;
      return;
    }
    if (std::find(Preds.begin(), Preds.end(), std::make_pair(Guard, !Neg)) !=
        Preds.end())
      All = true;
    if (!covers(Guard, Neg))
      Preds.push_back({Guard, Neg});
    std::sort(Preds.begin(), Preds.end());
  }
  std::string key(bool Flag) const {
    std::string K = Flag ? "u" : "f";
    for (auto &[R, N] : Preds)
      K += std::to_string(R) + (N ? "!" : "") + ",";
    return K;
  }
};

/// Walks back from Use over the CFG. Match(k) says whether instruction k
/// is a source; Uses(k) whether it is an unguarded use of the operand
/// (GPA's dominator rule). Records each source's distances in Found.
template <typename MatchFn, typename UseFn>
void slice(const Function &F, unsigned Use, MatchFn Match, UseFn Uses,
           std::map<unsigned, Discovery> &Found) {
  struct State {
    unsigned Block;
    int From; ///< last instruction index to scan (inclusive), -1: all
    Cover C;
    bool Passed;
    unsigned Dist;
  };
  const unsigned Cap = 4096; // instructions; beyond any latency bound
  const Instr &U = F.Instrs[Use];
  std::vector<State> Work = {{U.Block, int(Use) - 1, Cover(), false, 0}};
  std::set<std::pair<unsigned, std::string>> Seen;
  while (!Work.empty()) {
    State S = std::move(Work.back());
    Work.pop_back();
    const BasicBlock &B = F.Blocks[S.Block];
    int K = S.From < 0 ? int(B.End) - 1 : S.From;
    bool Done = false;
    for (; K >= int(B.First) && !Done; --K, ++S.Dist) {
      if (S.Dist > Cap)
        break;
      const Instr &I = F.Instrs[K];
      if (Match(unsigned(K))) {
        Discovery &D = Found[unsigned(K)];
        D.MinAll = std::min(D.MinAll, S.Dist);
        D.Max = std::max(D.Max, S.Dist);
        if (!S.Passed) {
          D.Free = true;
          D.MinFree = std::min(D.MinFree, S.Dist);
        }
        S.C.add(I.Guard, I.GuardNegated);
        if (S.C.covers(U.Guard, U.GuardNegated))
          Done = true;
      } else if (I.Guard < 0 && Uses(unsigned(K))) {
        S.Passed = true;
      }
    }
    if (Done || S.Dist > Cap)
      continue;
    for (unsigned P : B.Preds)
      if (Seen.insert({P, S.C.key(S.Passed)}).second)
        Work.push_back({P, -1, S.C, S.Passed, S.Dist});
  }
}

bool contains(const std::vector<unsigned> &V, unsigned X) {
  return std::find(V.begin(), V.end(), X) != V.end();
}

/// Which stalls an edge explains: long_scoreboard waits on an L1TEX
/// result, short_scoreboard on another variable-latency one (shared
/// memory, special functions, S2R; or a write-after-read), wait on a
/// fixed-latency one.
enum class Group { Memory, ShortScoreboard, Wait };

DepClass classOf(const Instr &Def) {
  if (isL1Tex(Def))
    return Def.Mem == Space::Local      ? DepClass::LocalMemory
           : Def.Mem == Space::Constant ? DepClass::ConstantMemory
                                        : DepClass::GlobalMemory;
  if (Def.Class == OpClass::Memory && Def.Mem == Space::Shared)
    return DepClass::SharedMemory;
  return DepClass::Arithmetic;
}

/// Opcode pruning (GPA's rule 1, with Hopper's three scoreboard kinds).
bool opcodeAllows(const Instr &Def, Group G) {
  switch (G) {
  case Group::Memory:
    return isL1Tex(Def);
  case Group::ShortScoreboard:
    return Def.variableLatency() && !isL1Tex(Def);
  case Group::Wait:
    return !Def.variableLatency();
  }
  return false;
}

/// The candidate edges into J (before pruning), for one group of stalls.
void edgesInto(const Function &F, unsigned J, Group G,
               std::vector<BlameEdge> &Out) {
  const Instr &U = F.Instrs[J];
  std::map<unsigned, Discovery> Found;
  for (unsigned R : U.Uses)
    slice(
        F, J, [&](unsigned I) { return contains(F.Instrs[I].Defs, R); },
        [&](unsigned I) { return contains(F.Instrs[I].Uses, R); }, Found);
  // Write-after-read: a variable-latency instruction still reading (not
  // as its guard, read at issue) a register J overwrites.
  std::map<unsigned, Discovery> War;
  if (G == Group::ShortScoreboard)
    for (unsigned R : U.Defs)
      slice(
          F, J,
          [&](unsigned I) {
            const Instr &D = F.Instrs[I];
            return D.variableLatency() && contains(D.Uses, R) &&
                   D.Guard != int(R);
          },
          [&](unsigned) { return false; }, War);
  auto Add = [&](unsigned I, const Discovery &D, bool IsWar) {
    BlameEdge E;
    E.Def = I;
    E.Use = J;
    E.Kind = G == Group::Memory ? StallKind::MemoryDep : StallKind::ExecDep;
    E.MinDistance = D.MinAll;
    E.MaxDistance = D.Max;
    const Instr &Def = F.Instrs[I];
    E.Class = IsWar ? DepClass::WriteAfterRead : classOf(Def);
    if (!IsWar && !opcodeAllows(Def, G))
      E.PrunedBy = "opcode";
    else if (!IsWar && !D.Free)
      E.PrunedBy = "dominator";
    else if ((IsWar ? D.MinAll : D.MinFree) > latencyBound(Def.Latency))
      E.PrunedBy = "latency";
    Out.push_back(E);
  };
  for (auto &[I, D] : Found)
    Add(I, D, false);
  for (auto &[I, D] : War)
    if (!Found.count(I))
      Add(I, D, true);
}

/// Single dependency: no two incoming edges (distinct sources) of the
/// same dependency class (GPA Fig. 5: global/local/constant memory,
/// shared/arithmetic/WAR execution).
bool single(const std::vector<BlameEdge> &Edges, size_t From, size_t To,
            bool AfterPruning) {
  std::map<DepClass, std::set<unsigned>> ByClass;
  for (size_t K = From; K < To; ++K)
    if (!AfterPruning || !*Edges[K].PrunedBy)
      ByClass[Edges[K].Class].insert(Edges[K].Def);
  for (auto &[C, Defs] : ByClass)
    if (Defs.size() > 1)
      return false;
  return true;
}

double reason(const InstrStalls &S, const char *Name) {
  auto It = S.ByReason.find(Name);
  return It == S.ByReason.end() ? 0 : It->second;
}

} // namespace

FunctionBlame blame(const Function &F, std::vector<InstrStalls> Stalls,
                    const std::vector<double> *Executed) {
  if (Executed && Executed->size() != F.Instrs.size())
    Executed = nullptr;
  FunctionBlame Out;
  Out.Code = &F;
  Stalls.resize(F.Instrs.size());
  Out.Stalls = std::move(Stalls);
  Out.Unexplained.assign(F.Instrs.size(), 0);
  if (Executed)
    Out.Executed = *Executed;
  for (const InstrStalls &S : Out.Stalls) {
    Out.Total += S.Total;
    Out.Active += S.of(StallKind::Active);
  }
  for (unsigned J = 0; J < F.Instrs.size(); ++J) {
    const InstrStalls &S = Out.Stalls[J];
    if (S.of(StallKind::MemoryDep) <= 0 && S.of(StallKind::ExecDep) <= 0)
      continue;
    size_t First = Out.Edges.size();
    for (Group G : {Group::Memory, Group::ShortScoreboard, Group::Wait}) {
      double N =
          G == Group::Memory
              ? S.of(StallKind::MemoryDep)
              : reason(S, G == Group::Wait ? "wait" : "short_scoreboard");
      if (N <= 0)
        continue;
      size_t KFirst = Out.Edges.size();
      edgesInto(F, J, G, Out.Edges);
      if (Executed)
        for (size_t E = KFirst; E < Out.Edges.size(); ++E)
          if (!*Out.Edges[E].PrunedBy && (*Executed)[Out.Edges[E].Def] <= 0)
            Out.Edges[E].PrunedBy = "not executed";
      // Eq. 1: R_issue (samples at the source, where it issued; +1 so a
      // source that was never sampled still gets a share; in hybrid mode
      // its exact executions) x R_path (1 / the longest path), normalized
      // over the kept edges.
      double Sum = 0;
      unsigned Kept = 0;
      auto Weight = [&](const BlameEdge &E) {
        double Issue =
            Executed ? (*Executed)[E.Def] : Out.Stalls[E.Def].Total + 1.0;
        return Issue / (E.MaxDistance + 1.0);
      };
      for (size_t E = KFirst; E < Out.Edges.size(); ++E)
        if (!*Out.Edges[E].PrunedBy) {
          Sum += Weight(Out.Edges[E]);
          ++Kept;
        }
      if (!Kept) {
        Out.Unexplained[J] += N;
        continue;
      }
      for (size_t E = KFirst; E < Out.Edges.size(); ++E)
        if (!*Out.Edges[E].PrunedBy)
          Out.Edges[E].Samples = N * Weight(Out.Edges[E]) / Sum;
    }
    ++Out.Nodes;
    Out.SingleBefore += single(Out.Edges, First, Out.Edges.size(), false);
    Out.SingleAfter += single(Out.Edges, First, Out.Edges.size(), true);
  }
  return Out;
}

} // namespace warpscope::advise
