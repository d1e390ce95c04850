//===- CallingContext.cpp - Who calls whom, and totals with callees -------===//

#include "CallingContext.h"
#include "llvm/Demangle/Demangle.h"
#include <map>
#include <set>

using namespace warpscope;

namespace {

using Key = std::pair<std::string, std::string>; ///< module id, mangled

Key keyOf(const FunctionProfile &F) { return {F.ModuleId, F.Name}; }

bool callsKnown(const FunctionProfile &F) {
  for (const BlockCounts &B : F.Blocks)
    if (!B.Calls)
      return false;
  return true;
}

WarpThread executions(const FunctionProfile &F) {
  WarpThread T;
  for (const BlockCounts &B : F.Blocks)
    T += {B.WarpExecutions, B.ThreadExecutions};
  return T;
}

/// Every call site of the program: calls of one block to one callee are
/// one site.
std::vector<CallSite> allSites(const ProfileSet &Set) {
  std::map<Key, const FunctionProfile *> ByKey;
  for (const FunctionProfile &F : Set.Functions)
    ByKey[keyOf(F)] = &F;
  std::vector<CallSite> Sites;
  for (const FunctionProfile &F : Set.Functions)
    for (const BlockCounts &B : F.Blocks) {
      if (!B.Calls)
        continue;
      std::map<std::string, uint64_t> PerCallee;
      for (const std::string &C : *B.Calls)
        ++PerCallee[C];
      for (const auto &[Name, N] : PerCallee) {
        CallSite S;
        S.Caller = &F;
        S.Block = &B;
        S.CalleeName = Name;
        auto It = ByKey.find({F.ModuleId, Name});
        S.Callee = Name.empty() || It == ByKey.end() ? nullptr : It->second;
        S.WarpCalls = B.WarpExecutions * N;
        S.ThreadCalls = B.ThreadExecutions * N;
        Sites.push_back(S);
      }
    }
  std::map<const FunctionProfile *, unsigned> Count, Active;
  for (const CallSite &S : Sites)
    if (S.Callee) {
      ++Count[S.Callee];
      Active[S.Callee] += S.WarpCalls > 0;
    }
  for (CallSite &S : Sites) {
    S.CalleeSites = S.Callee ? Count[S.Callee] : 0;
    S.ActiveCalleeSites = S.Callee ? Active[S.Callee] : 0;
  }
  return Sites;
}

/// Why K's totals with its callees are not exact ("" when they are).
std::string inexact(const FunctionProfile &K,
                    const std::set<const FunctionProfile *> &Reach,
                    const std::vector<CallSite> &Sites) {
  for (const FunctionProfile *G : Reach)
    if (!callsKnown(*G))
      return "the program database of " + G->Demangled +
             " does not record calls (rebuild with this version of the "
             "plugin)";
  for (const CallSite &S : Sites) {
    bool FromHere = Reach.count(S.Caller);
    if (FromHere && S.CalleeName.empty())
      return S.Caller->Demangled + " makes an indirect call, whose callee "
                                   "is unknown";
    // A function K reaches, called from outside: its counts are shared,
    // unless that call site never ran (a kernel not launched, a branch not
    // taken): then every count is from calls K's functions made.
    if (S.Callee && Reach.count(S.Callee) && !FromHere && S.Callee != &K &&
        S.WarpCalls > 0)
      return S.Callee->Demangled + " is also called from " +
             S.Caller->Demangled +
             ", and its counts do not say which calls "
             "ran what";
  }
  return "";
}

} // namespace

CallingContext warpscope::callingContext(const ProfileSet &Set,
                                         const FunctionProfile &F) {
  CallingContext Out;
  Out.Known = callsKnown(F);
  if (!Out.Known) {
    Out.Why = "the program database does not record calls (rebuild with this "
              "version of the plugin)";
    return Out;
  }
  std::vector<CallSite> Sites = allSites(Set);
  for (const CallSite &S : Sites) {
    if (S.Caller == &F)
      Out.Sites.push_back(S);
    if (S.Callee == &F)
      Out.CalledBy.push_back(S);
  }
  if (!F.Kernel)
    return Out;
  // Everything F reaches through calls, F included.
  std::set<const FunctionProfile *> Reach = {&F};
  std::vector<const FunctionProfile *> Work = {&F};
  std::set<std::string> Uninstrumented;
  while (!Work.empty()) {
    const FunctionProfile *G = Work.back();
    Work.pop_back();
    for (const CallSite &S : Sites)
      if (S.Caller == G) {
        if (S.Callee && Reach.insert(S.Callee).second) {
          Work.push_back(S.Callee);
          Out.Callees.push_back(S.Callee);
        } else if (!S.Callee && !S.CalleeName.empty())
          Uninstrumented.insert(llvm::demangle(S.CalleeName));
      }
  }
  Out.Why = inexact(F, Reach, Sites);
  if (!Out.Why.empty())
    return Out;
  WarpThread Exec, Inst;
  bool InstructionsKnown = true;
  for (const FunctionProfile *G : Reach) {
    Exec += executions(*G);
    InstructionMix M = instructionMix(*G);
    InstructionsKnown &= M.Available && !M.unknownStatic();
    Inst += M.Total;
  }
  Out.InclusiveExecutions = Exec;
  if (InstructionsKnown)
    Out.InclusiveInstructions = Inst;
  if (!Uninstrumented.empty()) {
    Out.Why = "leaves out what uninstrumented callees ran:";
    for (const std::string &U : Uninstrumented)
      Out.Why += " " + U;
  }
  return Out;
}
