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
  if (R == "no_instruction")
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

/// Opcode pruning and classification of an edge's source.
bool opcodeAllows(const Instr &Def, StallKind K, DepClass &Class) {
  if (K == StallKind::MemoryDep) {
    if (!isL1Tex(Def))
      return false;
    Class = Def.Mem == Space::Local      ? DepClass::LocalMemory
            : Def.Mem == Space::Constant ? DepClass::ConstantMemory
                                         : DepClass::GlobalMemory;
    return true;
  }
  if (isL1Tex(Def))
    return false;
  Class = Def.Class == OpClass::Memory && Def.Mem == Space::Shared
              ? DepClass::SharedMemory
              : DepClass::Arithmetic;
  return true;
}

/// The candidate edges into J (before pruning), for one stall kind.
void edgesInto(const Function &F, unsigned J, StallKind K,
               std::vector<BlameEdge> &Out) {
  const Instr &U = F.Instrs[J];
  std::map<unsigned, Discovery> Found;
  for (unsigned R : U.Uses)
    slice(
        F, J, [&](unsigned I) { return contains(F.Instrs[I].Defs, R); },
        [&](unsigned I) { return contains(F.Instrs[I].Uses, R); }, Found);
  std::map<unsigned, Discovery> War;
  if (K == StallKind::ExecDep)
    for (unsigned R : U.Defs)
      slice(
          F, J,
          [&](unsigned I) {
            return F.Instrs[I].variableLatency() &&
                   contains(F.Instrs[I].Uses, R);
          },
          [&](unsigned) { return false; }, War);
  auto Add = [&](unsigned I, const Discovery &D, bool IsWar) {
    BlameEdge E;
    E.Def = I;
    E.Use = J;
    E.Kind = K;
    E.MinDistance = D.MinAll;
    E.MaxDistance = D.Max;
    const Instr &Def = F.Instrs[I];
    if (IsWar)
      E.Class = DepClass::WriteAfterRead;
    else if (!opcodeAllows(Def, K, E.Class))
      E.PrunedBy = "opcode";
    if (!*E.PrunedBy && !IsWar && !D.Free)
      E.PrunedBy = "dominator";
    else if (!*E.PrunedBy &&
             (IsWar ? D.MinAll : D.MinFree) > latencyBound(Def.Latency))
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
/// same dependency, memory (an L1TEX source) or execution.
bool single(const Function &F, const std::vector<BlameEdge> &Edges,
            size_t From, size_t To, bool AfterPruning) {
  std::set<unsigned> Mem, Exec;
  for (size_t K = From; K < To; ++K) {
    if (AfterPruning && *Edges[K].PrunedBy)
      continue;
    (isL1Tex(F.Instrs[Edges[K].Def]) ? Mem : Exec).insert(Edges[K].Def);
  }
  return Mem.size() <= 1 && Exec.size() <= 1;
}

} // namespace

FunctionBlame blame(const Function &F, std::vector<InstrStalls> Stalls) {
  FunctionBlame Out;
  Out.Code = &F;
  Stalls.resize(F.Instrs.size());
  Out.Stalls = std::move(Stalls);
  Out.Unexplained.assign(F.Instrs.size(), 0);
  for (const InstrStalls &S : Out.Stalls) {
    Out.Total += S.Total;
    Out.Active += S.of(StallKind::Active);
  }
  for (unsigned J = 0; J < F.Instrs.size(); ++J) {
    const InstrStalls &S = Out.Stalls[J];
    if (S.of(StallKind::MemoryDep) <= 0 && S.of(StallKind::ExecDep) <= 0)
      continue;
    size_t First = Out.Edges.size();
    for (StallKind K : {StallKind::MemoryDep, StallKind::ExecDep}) {
      if (S.of(K) <= 0)
        continue;
      size_t KFirst = Out.Edges.size();
      edgesInto(F, J, K, Out.Edges);
      // Eq. 1: R_issue (samples at the source, where it issued; +1 so a
      // source that was never sampled still gets a share) x R_path
      // (1 / the longest path), normalized over the kept edges.
      double Sum = 0;
      unsigned Kept = 0;
      auto Weight = [&](const BlameEdge &E) {
        return (Out.Stalls[E.Def].Total + 1.0) / (E.MaxDistance + 1.0);
      };
      for (size_t E = KFirst; E < Out.Edges.size(); ++E)
        if (!*Out.Edges[E].PrunedBy) {
          Sum += Weight(Out.Edges[E]);
          ++Kept;
        }
      if (!Kept) {
        Out.Unexplained[J] += S.of(K);
        continue;
      }
      for (size_t E = KFirst; E < Out.Edges.size(); ++E)
        if (!*Out.Edges[E].PrunedBy)
          Out.Edges[E].Samples = S.of(K) * Weight(Out.Edges[E]) / Sum;
    }
    ++Out.Nodes;
    Out.SingleBefore += single(F, Out.Edges, First, Out.Edges.size(), false);
    Out.SingleAfter += single(F, Out.Edges, First, Out.Edges.size(), true);
  }
  return Out;
}

} // namespace warpscope::advise
