//===- DecodeMemoryControl.cpp - decoding memory, control and warp ops ----===//
//
// Instruction decoder families that touch memory or other threads: loads,
// stores and atomics, branches and barriers, calls, and warp collectives.
//
//===----------------------------------------------------------------------===//
#include "ParserInternal.h"

namespace warpscope::emu::core::parser {

// Loads, stores and atomics (ld/ldu/st, atom/red) in every state space.
bool InstDecoder::memory() {
  if (B == "cp" && Md.has("async"))
    return asyncCopy();
  if (B == "ld" || B == "ldu" || B == "st") {
    needType();
    bool IsSt = B == "st";
    I.Op = IsSt ? OpSt : OpLd;
    I.Space = spaceOf(Md);
    needOps(2);
    const RawOp &Mem = IsSt ? Ops[0] : Ops[1];
    const RawOp &Val = IsSt ? Ops[1] : Ops[0];
    P.memOperand(Mem, I);
    if (I.Vec > 4)
      throw Unsupported("ld/st .v8 unsupported");
    if (Val.Kind == RawOp::Vec) {
      if (Val.Elems.size() != I.Vec)
        fail("vector operand size mismatch");
      for (size_t K = 0; K < Val.Elems.size(); ++K) {
        if (IsSt)
          setS(K, Val.Elems[K], I.T);
        else
          setD(K, Val.Elems[K]);
      }
    } else {
      if (I.Vec != 1)
        fail("vector ld/st needs a vector operand");
      if (IsSt)
        setS(0, Val, I.T);
      else
        setD(0, Val);
    }
    return true;
  }
  if (B == "atom" || B == "red") {
    needType();
    I.Op = B == "atom" ? OpAtom : OpRed;
    I.Space = spaceOf(Md);
    static const char *Names[] = {"add", "min", "max", "inc",  "dec",
                                  "and", "or",  "xor", "exch", "cas"};
    int AO = -1;
    for (auto &X : Md.List)
      for (int K = 0; K < 10; ++K)
        if (X == Names[K])
          AO = K;
    if (AO < 0)
      throw Unsupported("'" + Opc + "': unsupported atomic operation");
    if (I.Vec != 1 && !(AO == AtAdd && I.T == Ty::F32 &&
                        (I.Vec == 2 || I.Vec == 4) && I.Space == SpGlobal))
      throw Unsupported("'" + Opc +
                        "': vector atomics other than "
                        "atom/red.global.add.v2/.v4.f32 unsupported");
    I.Sub = (uint8_t)AO;
    // FFtz on an f32 add: flush subnormals where the address is global
    // memory (see execAtom); .noftz (PTX ISA 9.4) keeps them.
    I.Flags &= ~FFtz;
    if (AO == AtAdd && I.T == Ty::F32 && !Md.has("noftz"))
      I.Flags |= FFtz;
    size_t Base = I.Op == OpAtom ? 1 : 0;
    needOps(Base + (AO == AtCas ? 3 : 2));
    if (I.Vec != 1) { // atom.global.add.v4.f32 {d..}, [a], {b..}
      const RawOp &Src = Ops[Base + 1];
      if (Src.Kind != RawOp::Vec || Src.Elems.size() != I.Vec ||
          (I.Op == OpAtom &&
           (Ops[0].Kind != RawOp::Vec || Ops[0].Elems.size() != I.Vec)))
        fail("'" + Opc + "' needs vector operands of " + std::to_string(I.Vec) +
             " elements");
      for (size_t K = 0; K < I.Vec; ++K) {
        if (I.Op == OpAtom)
          setD(K, Ops[0].Elems[K]);
        setS(K, Src.Elems[K], I.T);
      }
      P.memOperand(Ops[Base], I);
      return true;
    }
    if (I.Op == OpAtom)
      setD(0, Ops[0]);
    P.memOperand(Ops[Base], I);
    setS(0, Ops[Base + 1], I.T);
    if (AO == AtCas)
      setS(1, Ops[Base + 2], I.T);
    return true;
  }
  return false;
}

// Control flow and barriers: bra, brx, ret, exit, trap, bar; fences and
// hints execute as nops.
bool InstDecoder::control() {
  if (B == "bra") {
    I.Op = OpBra;
    needOps(1);
    if (Ops[0].Kind != RawOp::Reg)
      fail("bra target must be a label");
    P.Scopes.back().Pending.push_back(
        {(uint32_t)P.F->Code.size(), Ops[0].Name});
    return true;
  }
  if (B == "brx") {
    I.Op = OpBrx;
    needOps(2);
    setS(0, Ops[0], Ty::U32);
    auto It = P.BrxTargets.find(Ops[1].Name);
    if (It == P.BrxTargets.end())
      fail("unknown .branchtargets '" + Ops[1].Name + "'");
    I.Target = It->second[0];
    return true;
  }
  if (B == "ret") {
    I.Op = OpRet;
    return true;
  }
  if (B == "exit") {
    I.Op = OpExit;
    return true;
  }
  if (B == "trap" || B == "brkpt") {
    I.Op = OpTrap;
    return true;
  }
  if (B == "bar" || B == "barrier")
    return barrier();
  if (B == "membar" || B == "fence") {
    // CTAs run on several host threads: ordering must hold on the host too.
    I.Op = OpFence;
    return true;
  }
  if (B == "prefetch" || B == "prefetchu" || B == "nanosleep" ||
      B == "pmevent" || B == "discard" || B == "griddepcontrol") {
    I.Op = OpNop;
    return true;
  }
  return false;
}

// bar/barrier{.cta}: .sync, .arrive, .red.{popc.u32,and.pred,or.pred}, with
// or without .aligned (the emulator's barriers never need the warp's lanes
// to be converged). Operands: [d,] id [, count] [, {!}c]. bar.warp.sync
// takes the member mask (Schedule.cpp, warpSync); cluster barriers stay
// unsupported.
bool InstDecoder::barrier() {
  if (Md.has("warp")) {
    I.Op = OpWarpSync;
    needOps(1);
    setS(0, Ops[0], Ty::U32);
    return true;
  }
  if (Md.has("cluster"))
    throw Unsupported("'" + Opc + "': cluster barriers unsupported");
  I.Op = OpBar;
  // bar.* is barrier.*.aligned (PTX ISA): the synccheck of Schedule.cpp
  // holds a warp to arriving at it with all its non-exited lanes at once.
  if (Opc.rfind("bar.", 0) == 0 || Opc.rfind("bar.cta.", 0) == 0 ||
      Md.has("aligned"))
    I.Flags |= FAligned;
  size_t K = 0;
  if (Md.has("red")) {
    I.Sub = Md.has("popc")  ? BarRedPopc
            : Md.has("and") ? BarRedAnd
            : Md.has("or")  ? BarRedOr
                            : 255;
    if (I.Sub == 255)
      fail("'" + Opc + "' needs .popc, .and or .or");
    if (Ops.size() != 3 && Ops.size() != 4)
      fail("'" + Opc + "' expects d, a, {b,} {!}c");
    setD(0, Ops[0]);
    setS(2, Ops.back(), Ty::Pred);
    if (Ops.back().Not)
      I.Flags |= FNegC;
    K = 1;
    Ops.pop_back();
  } else if (Md.has("arrive")) {
    I.Sub = BarArrive;
    if (Ops.size() != 2)
      fail("'" + Opc + "' expects a barrier and a thread count");
  } else if (Ops.empty() || Ops.size() > 2) {
    fail("'" + Opc + "' expects a barrier and an optional thread count");
  }
  setS(0, Ops[K], Ty::U32);
  if (Ops.size() > K + 1)
    setS(1, Ops[K + 1], Ty::U32);
  return true;
}

// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size
// {, src-size | , ignore-src}: performed at issue (Memory.cpp,
// execCpAsync); commit_group/wait_group/wait_all then do nothing, but the
// timing model keeps the groups (OpCpAsyncGroup).
bool InstDecoder::asyncCopy() {
  if (Md.has("commit_group") || Md.has("wait_all")) {
    I.Op = OpCpAsyncGroup;
    I.Sub = Md.has("wait_all") ? AsyncWaitAll : AsyncCommit;
    return true;
  }
  if (Md.has("wait_group")) {
    int64_t N = 0;
    if (Ops.size() != 1 || Ops[0].Kind != RawOp::Num ||
        !parseIntLit(Ops[0].Name, N) || N < 0)
      fail("'" + Opc + "' expects a literal count of groups");
    I.Op = OpCpAsyncGroup;
    I.Sub = AsyncWaitGroup;
    I.Off = N;
    return true;
  }
  if (Md.has("bulk") || Md.has("mbarrier") || spaceOf(Md) != SpShared ||
      !Md.has("global"))
    throw Unsupported("'" + Opc +
                      "': only cp.async.{ca,cg}.shared.global and its "
                      "commit/wait forms are supported");
  if (Md.has("L2::cache_hint") && !Ops.empty())
    Ops.pop_back(); // the cache policy: a hint
  if (Ops.size() < 3 || Ops.size() > 4)
    fail("'" + Opc + "' expects [dst], [src], cp-size{, src-size}");
  I.Op = OpCpAsync;
  I.Space = SpShared;
  P.memOperand(Ops[0], I);
  Inst Src;
  P.memOperand(Ops[1], Src);
  I.S[0] = Src.Addr;
  I.S[2] = P.constSlot((uint64_t)Src.Off);
  if (Ops[2].Kind != RawOp::Num)
    fail("cp.async cp-size must be a literal");
  int64_t Size = 0;
  if (!parseIntLit(Ops[2].Name, Size) ||
      !(Size == 4 || Size == 8 || Size == 16) || (Md.has("cg") && Size != 16))
    fail("'" + Opc + "': cp-size must be 4, 8 or 16 (16 for .cg)");
  I.Sub = (uint8_t)Size;
  I.S[1] = P.constSlot((uint64_t)Size);
  I.NS = 3;
  // A fourth operand is src-size (an integer) or ignore-src (a predicate).
  if (Ops.size() > 3) {
    uint32_t Slot = P.srcSlot(Ops[3], Ty::U32);
    if (Ops[3].Kind == RawOp::Reg && P.PredSlots.count(Slot)) {
      I.Bool = 1;
      if (Ops[3].Not)
        I.Flags |= FNegC;
    }
    I.S[1] = Slot;
  }
  return true;
}

// call: direct or through a register; arguments and the return value are
// .param symbols, passed as offsets into the parameter area.
bool InstDecoder::call() {
  if (B == "call") {
    I.Op = OpCall;
    size_t K = 0;
    const RawOp *Rets = nullptr, *Args = nullptr;
    if (K < Ops.size() && Ops[K].Kind == RawOp::Paren)
      Rets = &Ops[K++];
    if (K >= Ops.size() || Ops[K].Kind != RawOp::Reg)
      fail("call without callee");
    std::string Callee = Ops[K++].Name;
    uint32_t CalleeReg;
    if (P.lookupReg(Callee, CalleeReg)) {
      // call (ret), %rd, (args), prototype: target chosen per lane at run time
      I.Flags |= FIndirect;
      I.S[0] = CalleeReg;
      I.NS = 1;
    } else {
      auto It = P.M.FuncIndex.find(Callee);
      if (It == P.M.FuncIndex.end())
        fail("call to undeclared function '" + Callee + "'");
      I.Target = It->second;
    }
    if (K < Ops.size() && Ops[K].Kind == RawOp::Paren)
      Args = &Ops[K++];
    auto ParamOf = [&](const RawOp &O, uint32_t &Off, uint32_t &Size) {
      for (size_t S = P.Scopes.size(); S-- > 0;) {
        auto P2 = P.Scopes[S].Params.find(O.Name);
        if (P2 != P.Scopes[S].Params.end()) {
          Off = P2->second;
          Size = P.Scopes[S].ParamSize[O.Name];
          return;
        }
      }
      fail("call operand '" + O.Name + "' is not a .param");
    };
    if (Rets) {
      if (Rets->Elems.size() > 1)
        throw Unsupported("multiple return values unsupported");
      if (Rets->Elems.size() == 1) {
        ParamOf(Rets->Elems[0], I.RetOff, I.RetSize);
        I.HasRet = true;
      }
    }
    I.ArgBegin = (uint32_t)P.F->CallArgs.size();
    if (Args) {
      for (auto &A : Args->Elems) {
        uint32_t Off, Size;
        ParamOf(A, Off, Size);
        P.F->CallArgs.push_back(Off);
        P.F->CallArgs.push_back(Size);
      }
      I.NArgs = (uint32_t)Args->Elems.size();
    }
    return true;
  }
  return false;
}

// Warp-level collectives: shfl, vote, activemask, elect, match, redux.
bool InstDecoder::warp() {
  if (B == "shfl") {
    needType();
    I.Op = OpShfl;
    if (Md.has("up"))
      I.Sub = ShUp;
    else if (Md.has("down"))
      I.Sub = ShDown;
    else if (Md.has("bfly"))
      I.Sub = ShBfly;
    else if (Md.has("idx"))
      I.Sub = ShIdx;
    else
      fail("shfl without mode");
    if (Ops.size() == 4) { // non-.sync form
      RawOp All;
      All.Kind = RawOp::Num;
      All.Name = "-1";
      setS(3, All, Ty::U32);
    } else {
      needOps(5);
      setS(3, Ops[4], Ty::U32);
    }
    I.D[0] = P.dstSlot(Ops[0]);
    I.ND = 1;
    if (!Ops[0].Name2.empty()) {
      RawOp Q;
      Q.Name = Ops[0].Name2;
      I.D[1] = P.dstSlot(Q);
      I.ND = 2;
      I.Flags |= FHasPredOut;
    }
    setS(0, Ops[1], I.T);
    setS(1, Ops[2], Ty::U32);
    setS(2, Ops[3], Ty::U32);
    return true;
  }
  if (B == "vote") {
    I.Op = OpVote;
    if (Md.has("all"))
      I.Sub = VoAll;
    else if (Md.has("any"))
      I.Sub = VoAny;
    else if (Md.has("uni"))
      I.Sub = VoUni;
    else if (Md.has("ballot"))
      I.Sub = VoBallot;
    else
      fail("vote without mode");
    if (Ops.size() < 2)
      fail("vote needs operands");
    setD(0, Ops[0]);
    setS(0, Ops[1], Ty::Pred);
    if (Ops[1].Not)
      I.Flags |= FNegC;
    memberMask(Ops.size() > 2 ? &Ops[2] : nullptr);
    return true;
  }
  if (B == "activemask") {
    I.Op = OpActivemask;
    needOps(1);
    setD(0, Ops[0]);
    return true;
  }
  if (B == "elect") { // elect.sync d|p, membermask (d may be the sink '_')
    I.Op = OpElect;
    if (Ops.size() < 2 || Ops[0].Name2.empty())
      fail("elect needs d|p, membermask");
    I.D[0] = P.dstSlot(Ops[0]);
    I.ND = 1;
    RawOp Q;
    Q.Name = Ops[0].Name2;
    I.D[1] = P.dstSlot(Q);
    I.ND = 2;
    I.Flags |= FHasPredOut;
    setS(0, Ops[1], Ty::U32);
    return true;
  }
  if (B == "match") {
    needType();
    I.Op = OpMatch;
    I.Sub = Md.has("all") ? 1 : 0;
    if (Ops.size() < 2)
      fail("match needs operands");
    I.D[0] = P.dstSlot(Ops[0]);
    I.ND = 1;
    if (!Ops[0].Name2.empty()) {
      RawOp Q;
      Q.Name = Ops[0].Name2;
      I.D[1] = P.dstSlot(Q);
      I.ND = 2;
      I.Flags |= FHasPredOut;
    }
    setS(0, Ops[1], I.T);
    memberMask(Ops.size() > 2 ? &Ops[2] : nullptr);
    return true;
  }
  if (B == "redux") {
    needType();
    I.Op = OpRedux;
    static const char *Names[] = {"add", "min", "max", "inc",
                                  "dec", "and", "or",  "xor"};
    int AO = -1;
    for (auto &X : Md.List)
      for (int K = 0; K < 8; ++K)
        if (X == Names[K])
          AO = K;
    if (AO < 0 || AO == AtInc || AO == AtDec)
      fail("bad redux op");
    I.Sub = (uint8_t)AO;
    if (Ops.size() < 2)
      fail("redux needs operands");
    setD(0, Ops[0]);
    setS(0, Ops[1], I.T);
    memberMask(Ops.size() > 2 ? &Ops[2] : nullptr);
    return true;
  }
  return false;
}

// S[1]: a collective's membermask, all lanes for the forms without one
// (vote without .sync).
void InstDecoder::memberMask(const RawOp *Mask) {
  if (Mask) {
    setS(1, *Mask, Ty::U32);
    return;
  }
  RawOp All;
  All.Kind = RawOp::Num;
  All.Name = "-1";
  setS(1, All, Ty::U32);
}

} // namespace warpscope::emu::core::parser
