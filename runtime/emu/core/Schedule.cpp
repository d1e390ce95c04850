//===- Schedule.cpp - warp scheduling, reconvergence, calls, barriers -----===//
//
// Everything about which lanes run when, except the hot path of a uniform or
// two-way branch (inline in Interp.cpp): a worker's per-launch setup and one
// CTA (LaunchGrid.cpp hands out the CTAs), running a CTA's warps until they
// finish or block at barriers and releasing those, call frames with their
// reconvergence stacks (calls and returns), indirect branches, and the sibling
// switching that lets the other paths of a warp reach a barrier. Errors of a
// launch are formatted here too (fail).
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpscope::emu::core {

void Launcher::fail(const Warp &W, const Function &F, const Inst &I, int Lane,
                    const std::string &Msg, LaunchFault Fault) {
  throw EmuError{site(W, F, I, Lane) + ": " + Msg, Fault};
}

void Launcher::initFrame(Warp &W, Frame &Fr, Function &F, uint32_t Mask,
                         uint32_t LocalBase) {
  Fr.F = &F;
  Ctr.enter(F);
  size_t NS = (size_t)F.NumSlots * 32;
  if (Fr.Regs.size() < NS)
    Fr.Regs.resize(NS);
  if (Fr.Param.size() < (size_t)F.ParamBytes * 32)
    Fr.Param.resize((size_t)F.ParamBytes * 32);
  Fr.LocalBase = LocalBase;
  Fr.Retired = 0;
  Fr.WsArrived = Fr.WsNeed = 0;
  Fr.Stack.clear();
  Fr.Stack.push_back({0, NoTarget, Mask});
  Fr.NextId = 1;
  uint64_t *R = Fr.Regs.data();
  for (int L = 0; L < 32; ++L) {
    R[SlotZero * 32 + L] = 0;
    R[SlotCC * 32 + L] = 0;
  }
  for (const SlotInit &In : F.Inits) {
    uint64_t *D = R + (size_t)In.Slot * 32;
    if (In.Kind == InitValue) {
      for (int L = 0; L < 32; ++L)
        D[L] = In.Value;
    } else if (In.Kind == InitLocalSym) {
      for (int L = 0; L < 32; ++L)
        D[L] = In.Value + LocalBase;
    } else if (In.Kind == InitSharedSym) {
      uint64_t V = (uint64_t)((int64_t)K.Shared.Off[In.Value] + In.Add);
      for (int L = 0; L < 32; ++L)
        D[L] = V;
    } else {
      uint64_t V = 0;
      for (int L = 0; L < 32; ++L) {
        switch (In.Value) {
        case SrTidX:
          V = W.Tid[0][L];
          break;
        case SrTidY:
          V = W.Tid[1][L];
          break;
        case SrTidZ:
          V = W.Tid[2][L];
          break;
        case SrNtidX:
          V = P.Block.X;
          break;
        case SrNtidY:
          V = P.Block.Y;
          break;
        case SrNtidZ:
          V = P.Block.Z;
          break;
        case SrCtaidX:
          V = Ctaid[0];
          break;
        case SrCtaidY:
          V = Ctaid[1];
          break;
        case SrCtaidZ:
          V = Ctaid[2];
          break;
        case SrNctaidX:
          V = P.Grid.X;
          break;
        case SrNctaidY:
          V = P.Grid.Y;
          break;
        case SrNctaidZ:
          V = P.Grid.Z;
          break;
        case SrLaneid:
          V = (uint64_t)L;
          break;
        case SrWarpid:
          V = W.Index;
          break;
        case SrNwarpid:
          V = 64;
          break;
        case SrSmid:
          V = 0;
          break;
        case SrNsmid:
          V = 1;
          break;
        case SrGridid:
          V = M.LaunchCount;
          break;
        case SrLanemaskEq:
          V = 1u << L;
          break;
        case SrLanemaskLt:
          V = (1u << L) - 1;
          break;
        case SrLanemaskLe:
          V = (uint32_t)((2ull << L) - 1);
          break;
        case SrLanemaskGt:
          V = (uint32_t)~((2ull << L) - 1);
          break;
        case SrLanemaskGe:
          V = (uint32_t)~((1u << L) - 1);
          break;
        case SrDynSmem:
          V = P.DynamicSharedBytes;
          break;
        case SrTotalSmem:
          V = SharedSize;
          break;
        case SrClock:
        case SrClock64:
        case SrGlobaltimer:
          V = Clock;
          break;
        case SrClusterOne:
          V = 1;
          break;
        default:
          V = 0;
          break;
        }
        D[L] = V;
      }
    }
  }
}

// The top entry of Fr reached a barrier. Lanes of the same warp that are
// still on other paths must get there too (independent thread scheduling),
// so instead of blocking the warp:
//  - if a sibling path (same parent entry) is runnable, move the waiting
//    subtree below it (sibling order does not matter for reconvergence) and
//    run the sibling;
//  - else, if the parent entry holds lanes that already reached its
//    reconvergence point (no live child covers them), split them off as a new
//    sibling of the parent and let them run ahead (e.g. the lanes of
//    "if (i >= n) return;" that wait at the return block);
//  - else climb to the parent and repeat.
// Returns false when nothing else in this frame can run.
bool switchToSibling(Frame &Fr, uint32_t Live) {
  auto &S = Fr.Stack;
  size_t Y = S.size() - 1;
  for (;;) {
    uint32_t Par = S[Y].Parent;
    size_t Z = Y;
    bool Found = false;
    size_t P = Y;
    while (P-- > 0) {
      if (S[P].Id == Par)
        break;
      if (S[P].Parent == Par && !S[P].Parked && !S[P].BarWait &&
          (S[P].Mask & Live)) {
        Z = P;
        Found = true;
        break;
      }
    }
    if (Found) {
      S[Y].Parked = true;
      size_t ZEnd = Z + 1; // Z's subtree ends at its next sibling
      while (ZEnd < Y && S[ZEnd].Parent != Par)
        ++ZEnd;
      std::rotate(S.begin() + Z, S.begin() + ZEnd, S.end());
      return true;
    }
    if (Par == NoTarget)
      return false;
    size_t Q = Y;
    while (Q-- > 0)
      if (S[Q].Id == Par)
        break;
    // Lanes of the parent not covered by any of its live children.
    uint32_t Covered = 0;
    for (size_t K = Q + 1; K < S.size(); ++K)
      if (S[K].Parent == Par)
        Covered |= S[K].Mask;
    uint32_t Extra = S[Q].Mask & ~Covered & Live;
    if (Extra) {
      Entry NE{S[Q].Pc, S[Q].Rpc, Extra};
      NE.Id = Fr.NextId++;
      NE.Parent = S[Q].Parent;
      S[Q].Mask &= ~Extra;
      S[Q].Parked = true;
      S.push_back(NE);
      return true;
    }
    Y = Q;
  }
}

// The innermost frame has no path left: returns to its caller (copying the
// return value into the caller's param space), or, for the kernel's frame,
// finishes the warp (returns false).
bool Launcher::finishFrame(Warp &W) {
  Frame &Fr = *W.Frames[W.Depth - 1];
  Function &Fn = *Fr.F;
  if (W.Depth == 1) {
    W.Exited |= W.Valid;
    W.Done = true;
    return false;
  }
  Frame &Caller = *W.Frames[W.Depth - 2];
  const Inst &CI = *Fr.CallInst;
  if (CI.HasRet && Fn.HasRet) {
    uint32_t Live = Fr.CallMask & ~W.Exited;
    uint32_t Sz = std::min(CI.RetSize, Fn.Ret.Size);
    for (int L = 0; L < 32; ++L)
      if ((Live >> L) & 1)
        std::memcpy(
            Caller.Param.data() + (size_t)L * Caller.F->ParamBytes + CI.RetOff,
            Fr.Param.data() + (size_t)L * Fn.ParamBytes + Fn.Ret.Off, Sz);
  }
  --W.Depth;
  return true;
}

// brx.idx at Pc: the executing lanes are grouped by the table entry they
// pick; several groups (or lanes whose guard is false) diverge into paths
// that reconverge at the immediate post-dominator. Returns where the warp
// goes on, or NoTarget when the frame's stack changed (the warp reschedules).
// (Pc is not passed by reference: that would keep the interpreter loop's Pc
// out of a register.)
uint32_t Launcher::branchIndexed(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc,
                                 uint32_t EM, uint32_t Mask) {
  Function &Fn = *Fr.F;
  const uint64_t *R = Fr.Regs.data();
  const std::vector<uint32_t> &Tab = Fn.BrxTables[I.Target];
  const uint64_t *Ix = R + (size_t)I.S[0] * 32;
  InstCounters &C = Ctr.Sets[Fn.Index];
  C.Visits[Pc]++;
  uint32_t Rest = EM;
  std::vector<std::pair<uint32_t, uint32_t>> Groups;
  while (Rest) {
    int L = __builtin_ctz(Rest);
    uint32_t Idx = (uint32_t)Ix[L];
    if (Idx >= Tab.size())
      fail(W, Fn, I, L, "brx.idx index out of range");
    uint32_t G = 0;
    for (int K = L; K < 32; ++K)
      if (((Rest >> K) & 1) && (uint32_t)Ix[K] == Idx)
        G |= 1u << K;
    Groups.push_back({Tab[Idx], G});
    Rest &= ~G;
  }
  if (Groups.size() > 1 || (EM != 0 && EM != Mask))
    C.Divergent[Pc]++;
  if (Groups.size() == 1 && EM == Mask)
    return Groups[0].first;
  if (Groups.empty())
    return Pc + 1;
  uint32_t Rc = I.Ipdom;
  Fr.Stack.back().Pc = Rc;
  uint32_t Par = Fr.Stack.back().Id;
  if (EM != Mask && Pc + 1 != Rc)
    Fr.push(Pc + 1, Rc, Mask & ~EM, Par);
  for (auto &G : Groups)
    if (G.first != Rc)
      Fr.push(G.first, Rc, G.second, Par);
  return NoTarget;
}

// call, Pc being the instruction after it. Lanes of an indirect call that
// want different functions split into one path per target, each of which
// re-issues the call. A callee without a body runs as a builtin; otherwise
// a new frame gets the arguments. Returns true when the warp reschedules
// (new paths or a new frame), false when it goes on at Pc.
bool Launcher::call(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc, uint32_t EM,
                    uint32_t Mask) {
  Function &Fn = *Fr.F;
  const uint64_t *R = Fr.Regs.data();
  InstCounters &C = Ctr.Sets[Fn.Index];
  uint64_t *WE = C.WarpExec.data(), *TE = C.ThreadExec.data(),
           *AE = C.ActiveExec.data();
  uint32_t CalleeIdx = I.Target;
  if (I.Flags & FIndirect) {
    // Group lanes by target; several targets: each group re-issues
    // the call as its own path (reconverging after the call).
    const uint64_t *T = R + (size_t)I.S[0] * 32;
    int L0 = __builtin_ctz(EM);
    uint32_t Same = 0;
    for (int L = 0; L < 32; ++L)
      if (((EM >> L) & 1) && T[L] == T[L0])
        Same |= 1u << L;
    if (Same != EM || EM != Mask) {
      WE[Pc - 1]--;
      TE[Pc - 1] -= popc32(EM);
      AE[Pc - 1] -= popc32(Mask);
      Fr.Stack.back().Pc = Pc;
      uint32_t Par = Fr.Stack.back().Id;
      uint32_t Rest = EM;
      while (Rest) {
        int L = __builtin_ctz(Rest);
        uint32_t G = 0;
        for (int J = L; J < 32; ++J)
          if (((Rest >> J) & 1) && T[J] == T[L])
            G |= 1u << J;
        Fr.push(Pc - 1, Pc, G, Par);
        Rest &= ~G;
      }
      return true;
    }
    uint64_t Addr = T[L0];
    if (Addr < FunctionAddressBase ||
        Addr - FunctionAddressBase >= M.PM->Functions.size())
      fail(W, Fn, I, L0, "indirect call to an address that is not a function");
    CalleeIdx = (uint32_t)(Addr - FunctionAddressBase);
  }
  Fr.Stack.back().Pc = Pc;
  Function &Callee = *M.PM->Functions[CalleeIdx];
  if (!Callee.HasBody) {
    builtin(W, Fr, I, Callee, EM);
    return false;
  }
  uint32_t Base = Fr.LocalBase + (Fn.LocalBytes + 15) / 16 * 16;
  if (Base + Callee.LocalBytes > LocalStack || W.Depth >= 256)
    fail(W, Fn, I, __builtin_ctz(EM),
         "call stack overflow (recursion too deep)");
  if (W.Frames.size() <= W.Depth)
    W.Frames.push_back(std::make_unique<Frame>());
  Frame &NF = *W.Frames[W.Depth];
  initFrame(W, NF, Callee, EM, Base);
  NF.CallMask = EM;
  NF.CallInst = &I;
  // Copy arguments.
  Frame &Caller = *W.Frames[W.Depth - 1];
  for (uint32_t K = 0; K < I.NArgs && K < Callee.Params.size(); ++K) {
    uint32_t Off = Fn.CallArgs[I.ArgBegin + 2 * K],
             Sz = Fn.CallArgs[I.ArgBegin + 2 * K + 1];
    const ParamDecl &PD = Callee.Params[K];
    Sz = std::min(Sz, PD.Size);
    for (int L = 0; L < 32; ++L)
      if ((EM >> L) & 1)
        std::memcpy(NF.Param.data() + (size_t)L * Callee.ParamBytes + PD.Off,
                    Caller.Param.data() + (size_t)L * Fn.ParamBytes + Off, Sz);
  }
  ++W.Depth;
  return true;
}

// Counts the lanes EM of a barrier instruction in (with bar.red's
// predicate) and returns the barrier's id.
uint32_t Launcher::countArrival(Warp &W, Frame &Fr, const Inst &I,
                                uint32_t EM) {
  Function &Fn = *Fr.F;
  const uint64_t *R = Fr.Regs.data();
  int FL = __builtin_ctz(EM);
  uint32_t Id = (uint32_t)R[(size_t)I.S[0] * 32 + FL] & 15;
  uint32_t Cnt = I.NS > 1 ? (uint32_t)R[(size_t)I.S[1] * 32 + FL] : 0;
  syncCheck(W, Fr, I, Id, EM);
  BarInst[Id] = &I;
  BarOpcode[Id] = &Fn.Opcodes[&I - Fn.Code.data()];
  Arrived[Id] += popc32(EM);
  if (Cnt)
    Expect[Id] = Cnt;
  if (I.Sub >= BarRedPopc) {
    const uint64_t *C = R + (size_t)I.S[2] * 32;
    uint32_t True = 0;
    for (int L = 0; L < 32; ++L)
      True |= (uint32_t)(C[L] & 1) << L;
    if (I.Flags & FNegC)
      True = ~True;
    True &= EM;
    RedTrue[Id] += popc32(True);
    RedSomeFalse[Id] |= True != EM;
  }
  return Id;
}

// The top path (lanes Mask) waits with the lanes EM whose guard was true;
// the others (Mask & ~EM) go on at Pc as a sibling path.
static void splitUnguarded(Frame &Fr, uint32_t Pc, uint32_t Mask, uint32_t EM) {
  Entry &Top = Fr.Stack.back();
  Entry NE{Pc, Top.Rpc, Mask & ~EM};
  NE.Id = Fr.NextId++;
  NE.Parent = Top.Parent;
  Top.Mask = EM;
  Fr.Stack.push_back(NE);
}

// bar.sync/barrier.sync/bar.red by the lanes EM of the top path, Pc being
// the instruction after it: counts them in and marks the path waiting.
// (bar.arrive counts in without waiting: runWarp calls countArrival.)
// Returns true when another path of the frame can run meanwhile, false when
// the warp blocks at the barrier.
bool Launcher::arriveAtBarrier(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc,
                               uint32_t EM, uint32_t Mask) {
  Fr.Stack.back().Pc = Pc;
  uint32_t Id = countArrival(W, Fr, I, EM);
  W.BarMask |= 1u << Id;
  Entry &Top = Fr.Stack.back();
  Top.BarWait = true;
  Top.BarId = (uint8_t)Id;
  Top.Red = I.Sub >= BarRedPopc ? &I : nullptr;
  if (EM != Mask) {
    // Guarded barrier: lanes whose guard is false go on as a sibling.
    splitUnguarded(Fr, Pc, Mask, EM);
    return true;
  }
  // Paths waiting at bar.warp.sync are let go in runWarpT when nothing else
  // can run.
  return switchToSibling(Fr, ~W.Exited & ~Fr.Retired) || Fr.WsArrived;
}

// bar.warp.sync by the lanes EM of the top path, Pc being the instruction
// after it. Member lanes of the frame that are on other paths must get to a
// bar.warp.sync too before any of them goes on (PTX ISA: the executing
// thread waits until all threads of membermask have executed one; for
// sm_70+ it need not be the same instruction), so that values stored before
// it are seen after it: the path waits while the others run, as at a CTA
// barrier. When every waiting path's members have arrived (or exited), all
// go on; when nothing else can run (members outside the frame, at a CTA
// barrier or at a reconvergence point they cannot leave), they go on too
// (runWarpT), as they did when bar.warp.sync was a no-op. Returns true when
// the path waits (the warp reschedules).
bool Launcher::warpSync(Warp &W, uint32_t Pc, uint32_t EM) {
  Frame &Fr = *W.Frames[W.Depth - 1];
  const Inst &I = Fr.F->Code[Pc - 1];
  uint32_t Live = frameLive(W, Fr, W.Depth);
  uint32_t Mask = Fr.Stack.back().Mask & Live; // the path's live lanes
  uint32_t Members =
      (uint32_t)Fr.Regs[(size_t)I.S[0] * 32 + __builtin_ctz(EM)] & Live;
  if (!Fr.WsArrived && !(Members & ~EM))
    return false; // all members are here: the common, converged case
  Fr.WsArrived |= EM;
  Fr.WsNeed |= Members;
  if (!(Fr.WsNeed & Live & ~Fr.WsArrived)) {
    releaseWarpSync(Fr);
    return false;
  }
  Entry &Top = Fr.Stack.back();
  Top.Pc = Pc;
  Top.BarWait = true;
  Top.BarId = WarpSyncBar;
  if (EM != Mask) // guarded: the lanes whose guard is false go on
    splitUnguarded(Fr, Pc, Mask, EM);
  return true;
}

bool Launcher::resumeWaiting(Warp &W, Frame &Fr) {
  uint32_t Live = frameLive(W, Fr, W.Depth);
  // bar.warp.sync: go on once the members arrived or exited, or when
  // nothing else in the frame can run (see warpSync).
  if (Fr.Stack.back().BarId == WarpSyncBar &&
      !(Fr.WsNeed & Live & ~Fr.WsArrived)) {
    releaseWarpSync(Fr);
    return true;
  }
  if (switchToSibling(Fr, ~W.Exited & ~Fr.Retired))
    return true;
  if (Fr.WsArrived) {
    releaseWarpSync(Fr);
    return true;
  }
  return false;
}

void releaseWarpSync(Frame &Fr) {
  for (Entry &E : Fr.Stack) {
    if (E.BarWait && E.BarId == WarpSyncBar)
      E.BarWait = false;
    E.Parked = false;
  }
  Fr.WsArrived = Fr.WsNeed = 0;
}

// Arrivals at barrier B with a thread count: the PTX ISA marks a warp's
// arrival once its non-exited threads arrived, so such a warp counts as a
// whole warp even when some of its lanes exited (or do not exist, in a
// partial last warp); a warp still arriving counts its arrived lanes.
uint32_t Launcher::countedArrivals(uint32_t B) const {
  uint32_t N = 0;
  for (const Warp &W : Warps) {
    uint32_t At = W.BarLanes[B];
    if (At)
      N += (W.Valid & ~W.Exited & ~At) ? popc32(At) : 32;
  }
  return N;
}

// Barrier B completed: its waiting paths go on, bar.red's get the result.
void Launcher::releaseBarrier(uint32_t B) {
  for (Warp &W : Warps) {
    if (W.Done || !((W.BarMask >> B) & 1))
      continue;
    W.BarMask &= ~(1u << B);
    W.AtBar = false;
    for (uint32_t D = 0; D < W.Depth; ++D) {
      Frame &Fr = *W.Frames[D];
      for (Entry &E : Fr.Stack) {
        if (E.BarWait && E.BarId == B) {
          E.BarWait = false;
          if (E.Red) {
            uint64_t V = E.Red->Sub == BarRedPopc  ? RedTrue[B]
                         : E.Red->Sub == BarRedAnd ? !RedSomeFalse[B]
                                                   : RedTrue[B] != 0;
            uint64_t *Dst = Fr.Regs.data() + (size_t)E.Red->D[0] * 32;
            for (int L = 0; L < 32; ++L)
              if ((E.Mask >> L) & 1)
                Dst[L] = V;
            E.Red = nullptr;
          }
        }
        E.Parked = false;
      }
    }
  }
  Arrived[B] = Expect[B] = 0;
  RedTrue[B] = 0;
  RedSomeFalse[B] = false;
  PhaseInst[B] = nullptr;
  for (Warp &W : Warps) {
    W.BarLanes[B] = 0;
    W.BarFirst[B] = nullptr;
  }
}

void Launcher::setup() {
  const Dim3 &Bk = P.Block;
  NThreads = Bk.X * Bk.Y * Bk.Z;
  NWarps = (NThreads + 31) / 32;
  Check = P.CheckAddresses;
  Ctr.prepare(M.PM->Functions.size());
  CountMemLaunch = M.CountMemory;
  Race = M.RaceCheck;
  // Kernel parameter bytes into the frame param area of each lane.
  KParams.assign(K.ParamBytes, 0);
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (P.Args && P.Args[I])
      std::memcpy(KParams.data() + K.Params[I].Off, P.Args[I],
                  K.Params[I].Size);
  // Shared memory.
  SharedSize = P.DynamicSharedBytes ? K.Shared.DynOff + P.DynamicSharedBytes
                                    : K.Shared.StaticBytes;
  SharedBuf.assign(SharedSize + SharedGuard + 64, 0);
  Shared = (uint8_t *)(((uintptr_t)SharedBuf.data() + 63) / 64 * 64);
  // Local memory: enough for the kernel plus any non-recursive call chain.
  LocalStack = K.LocalStack;
  LocalBuf.assign((size_t)LocalStack * NWarps * 32 + LocalGuard, 0);
  Warps.resize(NWarps);
  if (Race) { // racecheck runs on one worker (LaunchGrid.cpp)
    M.RaceChecked = true;
    M.Race.prepare(SharedSize);
  }
}

void Launcher::runCta(uint64_t Linear) {
  const Dim3 &G = P.Grid;
  Ctaid[0] = (uint32_t)(Linear % G.X);
  Ctaid[1] = (uint32_t)(Linear / G.X % G.Y);
  Ctaid[2] = (uint32_t)(Linear / G.X / G.Y);
  if (ProgressEvery.count()) {
    CtaStart = std::chrono::steady_clock::now();
    NextProgress = CtaStart + ProgressEvery;
  }
  if (!FirstCta) // no block wrote above the touched mark
    std::memset(Shared, 0, SharedTouched);
  FirstCta = false;
  if (Race)
    M.Race.nextEpoch(); // no ordering between different CTAs' shared
  Tracing = Trace && Trace->beginCta(Linear);
  CountMem = CountMemLaunch || Tracing; // the timing model needs the counts
  initWarps();
  runBlock();
  if (Tracing)
    Trace->endCta();
}

// Sets up the warps of CTA Ctaid: thread ids, local memory windows, and the
// kernel's frame holding the launch's arguments.
void Launcher::initWarps() {
  const Dim3 &Bk = P.Block;
  for (uint32_t Wi = 0; Wi < NWarps; ++Wi) {
    Warp &W = Warps[Wi];
    W.Index = Wi;
    W.Valid = 0;
    W.Exited = 0;
    W.Done = W.AtBar = false;
    W.BarMask = 0;
    std::fill(std::begin(W.BarLanes), std::end(W.BarLanes), 0u);
    std::fill(std::begin(W.BarFirst), std::end(W.BarFirst), nullptr);
    for (int L = 0; L < 32; ++L) {
      uint32_t T = Wi * 32 + L;
      if (T < NThreads)
        W.Valid |= 1u << L;
      W.Tid[0][L] = T % Bk.X;
      W.Tid[1][L] = (T / Bk.X) % Bk.Y;
      W.Tid[2][L] = T / (Bk.X * Bk.Y);
      W.LaneLocal[L] = LocalBuf.data() + (size_t)T * LocalStack;
    }
    W.Exited = ~W.Valid;
    if (W.Frames.empty())
      W.Frames.push_back(std::make_unique<Frame>());
    W.Depth = 1;
    Frame &Fr = *W.Frames[0];
    initFrame(W, Fr, K, W.Valid, 0);
    for (int L = 0; L < 32; ++L)
      if (K.ParamBytes)
        std::memcpy(Fr.Param.data() + (size_t)L * K.ParamBytes, KParams.data(),
                    K.ParamBytes);
  }
}

// Runs the warps of the current CTA, each until it blocks at a barrier or
// finishes, and releases a barrier once all live threads (or its expected
// count) arrived. Throws on a deadlock: no warp can go on.
void Launcher::runBlock() {
  // Schedule: run each warp until it blocks at a barrier or finishes.
  std::fill(std::begin(Arrived), std::end(Arrived), 0u);
  std::fill(std::begin(Expect), std::end(Expect), 0u);
  std::fill(std::begin(RedTrue), std::end(RedTrue), 0u);
  std::fill(std::begin(RedSomeFalse), std::end(RedSomeFalse), false);
  std::fill(std::begin(PhaseInst), std::end(PhaseInst), nullptr);
  for (;;) {
    bool AllDone = true, Progress = false;
    for (Warp &W : Warps) {
      if (W.Done)
        continue;
      AllDone = false;
      if (W.AtBar)
        continue;
      Progress = true;
      if (runWarp(W))
        W.AtBar = true;
    }
    if (AllDone)
      break;
    uint32_t Live = 0, Waiting = 0;
    for (Warp &W : Warps)
      if (!W.Done) {
        Live += popc32(W.Valid & ~W.Exited);
        Waiting |= W.BarMask;
      }
    bool Released = false;
    for (uint32_t B = 0; B < 16; ++B) {
      if (!((Waiting >> B) & 1))
        continue;
      uint32_t Need = Expect[B] ? std::min(Expect[B], Live) : Live;
      if ((Expect[B] ? countedArrivals(B) : Arrived[B]) < Need)
        continue;
      releaseBarrier(B);
      Released = true;
    }
    // Racecheck: accesses before a release are ordered before those after.
    // Any release counts, also a named barrier that only some warps use:
    // racecheck may then miss a hazard but never reports a false one.
    if (Released && Race)
      M.Race.nextEpoch();
    if (Released)
      continue;
    if (!Progress)
      failDeadlock(Waiting, Live);
  }
}

} // namespace warpscope::emu::core
