//===- TimingSink.cpp - The functional executor feeds the timing model ----===//
//
// With WARPSCOPE_EMU_MODEL set (`warpscope run --emulate` sets it), each
// launch runs with one TimingSink per worker: it records the warp
// instructions of the CTAs the model wants (those of the simulated SMs and
// of the SMs before them, timing::LaunchModel::wanted) with their exact
// memory counts and lines, and submits each CTA's trace when it ends. Other
// CTAs run untraced, at full speed. describe() is where PTX meets the model:
// each instruction's pipe, registers, and how many SASS instructions it stands
// for (docs/timing-model.md, "PTX is not SASS"). A probe's instructions stay
// out of the trace unless WARPSCOPE_EMU_MODEL_PROBES is set, so that modeled
// time and samples of an instrumented run describe the user's program
// (docs/timing-model.md, "Probes").
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "SpillModel.h"
#include "warpscope/ABI/PtxOpcodes.h"
#include "warpscope/Support/Settings.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace warpscope::emu::core {

using timing::Kind;
using timing::Pipe;
using timing::StaticInst;

namespace {

// The value of a slot that holds a constant (an immediate operand), or -1.
int64_t constantSlot(const Function &F, uint32_t Slot) {
  for (const SlotInit &I : F.Inits)
    if (I.Slot == Slot && I.Kind == InitValue)
      return (int64_t)I.Value;
  return -1;
}

Pipe arithPipe(Ty T) {
  if (T == Ty::F64)
    return Pipe::Fp64;
  if (tyFloat(T))
    return Pipe::Fp32;
  return Pipe::Int;
}

timing::Space spaceOf(uint8_t Sp) {
  switch (Sp) {
  case SpShared:
    return timing::Space::Shared;
  case SpLocal:
    return timing::Space::Local;
  case SpConst:
    return timing::Space::Const;
  default:
    return timing::Space::Global;
  }
}

// Arithmetic: the pipe, and the SASS sequence a PTX instruction becomes
// (integer division and remainder, IEEE division, square root and
// reciprocal, 64-bit integer arithmetic; docs/timing-model.md). The unit is
// the opcode table's; the decoded operation and its modifiers refine it.
void describeArith(const Inst &I, PtxUnit Unit, StaticInst &S) {
  const bool Wide64 = tySize(I.T) == 8 && !tyFloat(I.T);
  S.P = arithPipe(I.T);
  switch (Unit) {
  case PtxUnit::Free:
    S.Expand = 0;
    return;
  case PtxUnit::Divide:
    S.Chain = true;
    if (!tyFloat(I.T))
      S.Expand = Wide64 ? 70 : 20;
    else if (I.Flags & FApprox)
      S.Expand = 2;
    else
      S.Expand = I.T == Ty::F64 ? 20 : 10;
    return;
  case PtxUnit::Root:
    if (I.T == Ty::F64) {
      S.Chain = true;
      S.Expand = (I.Flags & FApprox) && I.Op != OpSqrt ? 2 : 16;
    } else if (I.Flags & FApprox) {
      S.P = Pipe::Sfu;
    } else {
      S.Chain = true;
      S.Expand = 8;
    }
    return;
  case PtxUnit::Sfu:
    S.P = Pipe::Sfu;
    if (I.Op == OpSin || I.Op == OpCos)
      S.Expand = 2; // range reduction, then MUFU
    return;
  case PtxUnit::Convert:
    S.P = Pipe::Conv;
    return;
  case PtxUnit::Tensor:
    S.P = Pipe::Tensor;
    return;
  default:
    break;
  }
  switch (I.Op) {
  case OpCvta:
    // cvta.to.global is the identity on the GPU: no SASS.
    S.Expand = (I.Flags & FToSpace) && I.Space == SpGlobal ? 0 : 1;
    S.P = Pipe::Int;
    return;
  case OpMul:
  case OpMad:
    if (Wide64)
      S.Expand = (I.Flags & FHi) ? 4 : 3;
    return;
  case OpAdd:
  case OpSub:
  case OpMin:
  case OpMax:
  case OpSetp:
  case OpShl:
  case OpShr:
  case OpAnd:
  case OpOr:
  case OpXor:
  case OpNeg:
  case OpAbs:
    if (Wide64)
      S.Expand = 2; // low and high halves (carry chain)
    return;
  default:
    return;
  }
}

// Whether any instruction of F reads Slot (an atomic's old value).
bool slotRead(const Function &F, uint32_t Slot) {
  if (Slot < FirstRegSlot)
    return false;
  for (const Inst &J : F.Code) {
    if (J.Addr == Slot || J.Guard == (int32_t)Slot)
      return true;
    for (unsigned K = 0; K < J.NS && K < 5; ++K)
      if (J.S[K] == Slot)
        return true;
    if (J.Op == OpSust) // lists the values it stores as D
      for (unsigned K = 0; K < J.ND && K < 4; ++K)
        if (J.D[K] == Slot)
          return true;
  }
  return false;
}

// Which shared-memory atomics sm_90 does in one ATOMS and which ptxas
// builds as a compare-and-swap loop (LDS, the operation, ATOMS.CAST.SPIN,
// repeated until the store succeeds), by operation and operand type: a
// float add on shared memory is the loop in sm_90 SASS (kmeans_accumulate,
// test/fixtures/gpu/h200/sass/kmeans), 32-bit integer operations and
// inc/dec are ATOMS (hist_shared's ATOMS.POPC.INC); 64-bit integer add,
// min, max, and, or, xor are taken to loop like the floats (an assumption:
// no sm_90 SASS of one was read; docs/timing-model.md "Atomics"). Others
// (16-bit, 128-bit) are not known and are charged as one ATOMS.
struct SharedAtomicForm {
  bool Int32, Int64, Float; ///< one ATOMS for operands of this type
};
constexpr SharedAtomicForm SharedAtomicForms[] = {
    /* AtAdd  */ {true, false, false},
    /* AtMin  */ {true, false, false},
    /* AtMax  */ {true, false, false},
    /* AtInc  */ {true, false, false},
    /* AtDec  */ {true, false, false},
    /* AtAnd  */ {true, false, false},
    /* AtOr   */ {true, false, false},
    /* AtXor  */ {true, false, false},
    /* AtExch */ {true, true, true},
    /* AtCas  */ {true, true, true},
};
static_assert(sizeof(SharedAtomicForms) / sizeof(SharedAtomicForms[0]) ==
                  AtCas + 1,
              "one row per AtomOp");

bool sharedAtomicLoops(uint8_t Sub, Ty T) {
  if (Sub > AtCas)
    return false;
  const SharedAtomicForm &F = SharedAtomicForms[Sub];
  if (tyFloat(T))
    return !F.Float;
  if (tySize(T) == 4)
    return !F.Int32;
  if (tySize(T) == 8)
    return !F.Int64;
  return false;
}

// Memory instructions: the kind of access and its space.
void describeMemory(const Function &F, const Inst &I, PtxUnit Unit,
                    StaticInst &S, uint32_t &AddrSrc) {
  AddrSrc = I.Addr;
  switch (Unit) {
  case PtxUnit::Load:
  case PtxUnit::Store:
    if (I.Space == SpParam) {
      // A kernel's ld.param is a constant-bank operand in SASS; a device
      // function's param traffic is register moves.
      S.Expand = F.IsKernel && Unit == PtxUnit::Load ? 0 : 1;
      return;
    }
    S.K = Unit == PtxUnit::Load ? Kind::Load : Kind::Store;
    S.Sp = I.Op == OpLdmatrix ? timing::Space::Shared : spaceOf(I.Space);
    return;
  case PtxUnit::Atomic:
    S.K = Kind::Atomic;
    S.Sp = spaceOf(I.Space);
    S.CasLoop = I.Space == SpShared && sharedAtomicLoops(I.Sub, I.T);
    S.Aggregable =
        !tyFloat(I.T) && (I.Sub == AtAdd || I.Sub == AtMin || I.Sub == AtMax ||
                          I.Sub == AtAnd || I.Sub == AtOr || I.Sub == AtXor);
    S.Returns = I.Op == OpAtom && I.ND > 0 && slotRead(F, I.D[0]);
    // `atomicAdd(&shared[i], 1)` with the result unused: ATOMS.POPC.INC
    // (hist_shared's and kmeans_accumulate's in test/fixtures/gpu/h200/sass).
    S.MergesLanes = I.Space == SpShared && I.Sub == AtAdd && !tyFloat(I.T) &&
                    !S.Returns && I.NS > 0 && constantSlot(F, I.S[0]) == 1;
    return;
  case PtxUnit::AsyncCopy: // its commit and wait forms are free forms
    S.K = Kind::Load;
    return;
  case PtxUnit::Texture:
    if (I.Op == OpSust) {
      S.K = Kind::Store;
      AddrSrc = SlotZero; // the handle: no register the model waits on
      return;
    }
    S.K = Kind::Load;
    return;
  default: // Matrix: wmma.load, wmma.store
    S.K = I.Op == OpWmmaLoad ? Kind::Load : Kind::Store;
    S.Sp = spaceOf(I.Space);
    return;
  }
}

// Prev: the instruction the model sees before I in the code (null at the
// function's start), which skips free probe instructions. Unit: ptxUnitOf()
// of I's PTX opcode (the opcode table, warpscope/ABI/PtxOpcodes.def, whose
// free forms, bar.warp.sync and cp.async's commit and wait, are Free).
StaticInst describe(const Function &F, const Inst &I, const Inst *Prev,
                    PtxUnit Unit) {
  StaticInst S;
  auto Src = [&](uint32_t Slot) {
    if (Slot >= FirstRegSlot && S.NSrc < 8)
      S.Src[S.NSrc++] = Slot;
  };
  for (unsigned K = 0; K < I.ND && K < 4; ++K)
    if (I.D[K] >= FirstRegSlot)
      S.Dst[S.NDst++] = I.D[K];
  for (unsigned K = 0; K < I.NS && K < 5; ++K)
    Src(I.S[K]);
  if (I.Guard >= 0)
    Src((uint32_t)I.Guard);
  // wmma's multiply (the tensor pipe) refines the unit.
  if (I.Op == OpMma)
    Unit = PtxUnit::Tensor;
  else if (I.Op == OpUnsupported)
    Unit = PtxUnit::Alu; // the run stops before it issues
  switch (Unit) {
  case PtxUnit::Load:
  case PtxUnit::Store:
  case PtxUnit::Atomic:
  case PtxUnit::AsyncCopy:
  case PtxUnit::Texture:
  case PtxUnit::Matrix: {
    uint32_t AddrSrc;
    describeMemory(F, I, Unit, S, AddrSrc);
    Src(AddrSrc);
    return S;
  }
  case PtxUnit::Shuffle:
    // Through the MIO like a shared access: short scoreboard.
    S.K = Kind::Load;
    S.Sp = timing::Space::Shared;
    return S;
  case PtxUnit::Barrier: {
    S.K = I.Sub == BarArrive ? Kind::Arrive : Kind::Barrier;
    int64_t Id = I.NS > 0 ? constantSlot(F, I.S[0]) : 0;
    int64_t Count = I.NS > 1 ? constantSlot(F, I.S[1]) : 0;
    S.BarrierId = Id < 0 ? 0 : (uint32_t)Id & 15;
    S.BarrierThreads = Count < 0 ? 0 : (uint32_t)Count;
    S.NSrc = 0; // the id and count are immediates or uniform values
    return S;
  }
  case PtxUnit::Branch:
    S.K = Kind::Branch;
    S.P = Pipe::Branch;
    // What ptxas makes of them (test/fixtures/gpu/h200/sass/interp): an
    // indexed branch scales the index, loads the target from a jump table
    // in the constant bank and branches (IMAD.SHL, LDC, SHF, BRX); a call
    // moves the return address into a register first (MOV, CALL.REL), a
    // device function's return sets its high half (MOV, RET.REL).
    if (I.Op == OpBrx) {
      S.JumpTable = true;
      S.Expand = 4;
    } else if (I.Op == OpCall || (I.Op == OpRet && !F.IsKernel)) {
      S.Expand = 2;
    }
    // `@p bra A; bra.uni B` is one SASS branch (ptxas inverts the
    // condition): the unconditional half costs nothing.
    if (I.Op == OpBra && I.Guard < 0 && Prev && Prev->Op == OpBra &&
        Prev->Guard >= 0)
      S.Expand = 0;
    return S;
  case PtxUnit::Exit:
    S.K = Kind::Exit;
    S.P = Pipe::Branch;
    return S;
  case PtxUnit::Fence:
    S.K = Kind::Fence;
    return S;
  default:
    describeArith(I, Unit, S);
    return S;
  }
}

// Spills: the launch places spill code (SpillModel.h); Paths: the model
// wants the points where a warp resumes a divergent path
// (LaunchModel::wantsResumes). Separate instantiations, so that launches
// without them pay nothing for them.
template <bool Spills, bool Paths> class TimingSink final : public TraceSink {
public:
  TimingSink(timing::LaunchModel &M, const ModelCode &Code, uint32_t NWarps,
             const SpillCode *Spill = nullptr)
      : M(M), Code(Code), NWarps(NWarps), Spill(Spill) {
    if constexpr (Spills)
      Due.assign(NWarps, {NoTarget, 0});
  }
  bool beginCta(uint64_t Cta) override {
    if (!M.wanted(Cta))
      return false;
    Cur = timing::CtaTrace();
    Cur.Cta = Cta;
    Cur.Warps.resize(NWarps);
    LinesOnly = M.linesOnly(Cta);
    LastActive.assign(NWarps, 0);
    return true;
  }
  void endCta() override {
    if constexpr (Spills)
      for (uint32_t W = 0; W < NWarps; ++W)
        storesDue(W);
    M.submit(std::move(Cur));
  }
  void instruction(uint32_t Warp, const Function &F, uint32_t Pc,
                   uint32_t Active, uint32_t Exec) override {
    timing::WarpTrace &W = Cur.Warps[Warp];
    if constexpr (Spills) {
      storesDue(Warp);
      if (F.Index == Spill->Function &&
          Code.Roles[Code.FuncBase[F.Index] + Pc] != ModelCode::Free) {
        if (Spill->at(Pc, true))
          Spill->record(W, Pc, true, Cur.Cta, Warp, Exec);
        if (Spill->at(Pc, false))
          Due[Warp] = {Pc, Exec};
      }
    }
    uint32_t Id = Code.FuncBase[F.Index] + Pc;
    timing::TraceOp Op{Id, timing::NoMem};
    // One test on the common path (an ALU instruction): Op is 0.
    if (const uint8_t Role = Code.Roles[Id]) {
      if (Role == ModelCode::Free) {
        Last = nullptr; // its memory() is not the model's either
        return;
      }
      timing::MemAccess A;
      A.Off = Exec == 0;
      Op.Mem = (uint32_t)W.Mems.size();
      W.Mems.push_back(A);
    } else if (LinesOnly) {
      Last = nullptr; // a neighbour's CTA: only its lines are used
      return;
    }
    if constexpr (Paths)
      notePath(W, Warp, Active);
    W.Ops.push_back(Op);
    Last = &W;
  }
  void memory(const MemCounts &D, const uint64_t *Lines, unsigned NLines,
              const AtomicLanes &AL) override {
    if (!Last || Last->Ops.empty() || Last->Ops.back().Mem == timing::NoMem)
      return; // not an instruction the model treats as a memory access
    timing::MemAccess &A = Last->Mems.back();
    A.Counted = true;
    A.Sectors = (uint32_t)(D.GlobalSectors + D.LocalSectors);
    A.Wavefronts = (uint32_t)D.SharedWavefronts;
    A.Atomics = (uint32_t)D.AtomicAddresses;
    A.Global = D.GlobalRequests + D.LocalRequests > 0;
    A.Shared = D.SharedRequests > 0;
    A.LineBegin = (uint32_t)Last->Lines.size();
    A.NLines = NLines;
    Last->Lines.insert(Last->Lines.end(), Lines, Lines + NLines);
    A.AtomBegin = (uint32_t)Last->Lines.size();
    A.NAtoms = AL.NGlobal;
    Last->Lines.insert(Last->Lines.end(), AL.Global, AL.Global + AL.NGlobal);
    A.NSharedAtoms = (uint16_t)AL.NShared;
    Last->Lines.insert(Last->Lines.end(), AL.Shared, AL.Shared + AL.NShared);
    A.SharedPasses = (uint16_t)AL.SharedPasses;
    A.SharedMaxSame = (uint16_t)AL.SharedMaxSame;
  }

private:
  // The warp goes on with lanes that were not on the path before while
  // lanes of that path wait: it resumes another divergent path (a
  // reconvergence's BSYNC switching to the lanes waiting elsewhere).
  void notePath(timing::WarpTrace &W, uint32_t Warp, uint32_t Active) {
    const uint32_t Before = LastActive[Warp];
    if ((Active & ~Before) && (Before & ~Active))
      W.Resumes.push_back((uint32_t)W.Ops.size());
    LastActive[Warp] = Active;
  }
  // The spill stores after a warp's last instruction: recorded before its
  // next one, once the last one's memory() has come.
  void storesDue(uint32_t Warp) {
    auto &[Pc, Exec] = Due[Warp];
    if (Pc == NoTarget)
      return;
    Spill->record(Cur.Warps[Warp], Pc, false, Cur.Cta, Warp, Exec);
    Pc = NoTarget;
  }

  timing::LaunchModel &M;
  const ModelCode &Code;
  uint32_t NWarps;
  const SpillCode *Spill;
  std::vector<std::pair<uint32_t, uint32_t>> Due; ///< per warp: Pc, Exec
  std::vector<uint32_t> LastActive; ///< per warp: the lanes of its last op
  timing::CtaTrace Cur;
  timing::WarpTrace *Last = nullptr;
  bool LinesOnly = false; ///< Cur is a neighbour's (LaunchModel::linesOnly)
};

std::unique_ptr<TraceSink> makeSink(timing::LaunchModel &M,
                                    const ModelCode &Code, uint32_t NWarps,
                                    const SpillCode *Spill) {
  const bool Paths = M.wantsResumes();
  if (Spill && Paths)
    return std::make_unique<TimingSink<true, true>>(M, Code, NWarps, Spill);
  if (Spill)
    return std::make_unique<TimingSink<true, false>>(M, Code, NWarps, Spill);
  if (Paths)
    return std::make_unique<TimingSink<false, true>>(M, Code, NWarps);
  return std::make_unique<TimingSink<false, false>>(M, Code, NWarps);
}

bool isConstant(const Function &F, uint32_t Slot) {
  for (const SlotInit &I : F.Inits)
    if (I.Slot == Slot)
      return I.Kind == InitValue;
  return false;
}

// Whether ptxas unrolls the loop [Head, Back] (Back: its backward branch),
// as the SASS in test/fixtures/gpu/h200/sass shows it doing: when the
// backward branch is conditional and tests a setp whose operand is stepped
// in the loop by an add or sub of a constant (nw_tile_diag, spmv_warp). A
// grid-stride loop (a step of nctaid x ntid: hist_shared, reduce_sum_f32)
// stays rolled, and so does one that leaves by a conditional branch and
// repeats by `bra.uni` (spmv_scalar's, which clang unrolled by 2).
bool countedLoop(const Function &F, uint32_t Head, uint32_t Back) {
  const std::vector<Inst> &Code = F.Code;
  const int32_t Pred = Code[Back].Guard;
  if (Pred < 0)
    return false;
  for (uint32_t K = Back; K-- > Head;) {
    const Inst &Test = Code[K];
    if (Test.Op != OpSetp || Test.ND == 0 || Test.D[0] != (uint32_t)Pred)
      continue;
    for (unsigned O = 0; O < 2 && O < Test.NS; ++O)
      for (uint32_t J = Head; J < Back; ++J) {
        const Inst &Step = Code[J];
        if ((Step.Op == OpAdd || Step.Op == OpSub) && Step.ND > 0 &&
            Step.D[0] == Test.S[O] && Step.NS >= 2 &&
            (isConstant(F, Step.S[0]) || isConstant(F, Step.S[1])))
          return true;
      }
    return false;
  }
  return false;
}

// Marks the global loads that ptxas issues ahead of their uses across
// unrolled iterations (StaticInst::Unrolled): those of an innermost
// counted loop without a barrier, fence, call, or a store or atomic to
// memory other than shared, which may alias the load (lu_step's loop is
// unrolled, its loads stay after the stores before them; nw_tile_diag's
// staging loop and spmv's row loops issue four loads before their uses).
// Probes' instructions do not count unless they are modeled, so that an
// instrumented run models the user's program.
void markUnrolledLoads(const Function &F, StaticInst *Table, bool Probes) {
  const std::vector<Inst> &Code = F.Code;
  auto Skip = [&](uint32_t J) { return F.Instrumentation[J] && !Probes; };
  std::vector<std::pair<uint32_t, uint32_t>> Loops; // (head, back edge)
  for (uint32_t J = 0; J < Code.size(); ++J)
    if (Code[J].Op == OpBra && Code[J].Target <= J && !Skip(J))
      Loops.push_back({Code[J].Target, J});
  for (uint32_t K = 0; K < Code.size(); ++K) {
    StaticInst &S = Table[K];
    if (S.K != Kind::Load || S.Sp != timing::Space::Global || !S.Expand)
      continue;
    const std::pair<uint32_t, uint32_t> *In = nullptr;
    for (const auto &L : Loops)
      if (L.first <= K && K < L.second &&
          (!In || L.second - L.first < In->second - In->first))
        In = &L;
    if (!In || !countedLoop(F, In->first, In->second))
      continue;
    bool Keeps = false;
    for (uint32_t J = In->first; J <= In->second && !Keeps; ++J) {
      if (Skip(J))
        continue;
      const StaticInst &O = Table[J];
      Keeps = O.keepsLoadsAfter() || Code[J].Op == OpCall;
    }
    S.Unrolled = !Keeps;
  }
}

// Marks the first instruction of each basic block (StaticInst::Leader: a
// branch's target) and the global loads after which their block holds
// another global load with no store or atomic to memory other than shared,
// barrier, fence, call or compare-and-swap loop between (StaticInst::
// Hoists), which ptxas may issue before the first load's uses
// (SmSim::blockAhead decides, per execution, from where the later load's
// address comes).
void markBlockLoads(const Function &F, StaticInst *Table, bool Probes) {
  const std::vector<Inst> &Code = F.Code;
  auto Skip = [&](uint32_t J) { return F.Instrumentation[J] && !Probes; };
  for (uint32_t J = 0; J < Code.size(); ++J)
    if (Code[J].Op == OpBra && Code[J].Target < Code.size() && !Skip(J))
      Table[Code[J].Target].Leader = true;
  auto GlobalLoad = [&](uint32_t J) {
    const StaticInst &S = Table[J];
    return S.K == Kind::Load && S.Sp == timing::Space::Global && S.Expand;
  };
  for (uint32_t K = 0; K < Code.size(); ++K) {
    if (!GlobalLoad(K) || Skip(K))
      continue;
    for (uint32_t J = K + 1; J < Code.size() && !Table[J].Leader; ++J) {
      if (Skip(J))
        continue;
      if (GlobalLoad(J)) {
        Table[K].Hoists = true;
        break;
      }
      const StaticInst &O = Table[J];
      if (O.endsBlock() || O.keepsLoadsAfter())
        break;
    }
  }
}

std::unique_ptr<ModelCode> describeModule(const ParsedModule &PM,
                                          bool ProbesModeled) {
  auto C = std::make_unique<ModelCode>();
  C->ProbesModeled = ProbesModeled;
  // The module's code layout for the instruction fetch model: functions in
  // the module's order, each at a 128-byte boundary (as a cubin aligns its
  // code sections), an instruction Expand SASS instructions of 16 bytes
  // (sm_70 and later); free probes take no space.
  uint32_t Code = 0;
  for (const auto &F : PM.Functions) {
    C->FuncBase.push_back((uint32_t)C->Table.size());
    C->NumSlots = std::max(C->NumSlots, F->NumSlots);
    Code = (Code + 127) & ~127u;
    const Inst *Prev = nullptr;
    for (size_t K = 0; K < F->Code.size(); ++K) {
      const Inst &I = F->Code[K];
      C->Table.push_back(describe(*F, I, Prev, ptxUnitOf(F->Opcodes[K])));
      C->Table.back().Code = Code;
      const bool Probe = F->Instrumentation[K];
      C->HasProbes |= Probe;
      if (Probe && !ProbesModeled) {
        C->Roles.push_back(ModelCode::Free);
        continue;
      }
      Code += 16u * C->Table.back().Expand;
      Prev = &I;
      Kind Kd = C->Table.back().K;
      C->Roles.push_back(Kd == Kind::Load || Kd == Kind::Store ||
                                 Kd == Kind::Atomic
                             ? ModelCode::Memory
                             : ModelCode::Op);
    }
    markUnrolledLoads(*F, &C->Table[C->FuncBase.back()], ProbesModeled);
    markBlockLoads(*F, &C->Table[C->FuncBase.back()], ProbesModeled);
  }
  return C;
}

} // namespace

void readModelSettings(ModuleImpl &M, support::SettingsReader &R) {
  std::string Want = R.text("WARPSCOPE_EMU_MODEL");
  if (Want == "off" || Want == "0")
    Want.clear();
  // The clock cycles convert at (docs/timing-model.md, "Clocks").
  const std::string Clock = R.text("WARPSCOPE_EMU_MODEL_CLOCK");
  if (Want != M.ModelSetting || Clock != M.ModelClock) {
    M.ModelSetting = Want;
    M.ModelClock = Clock;
    M.Model.reset();
    if (!Want.empty()) {
      timing::Config C;
      std::string Error;
      if (timing::loadConfig(Want, C, Error) &&
          timing::selectClock(C, Clock, Error))
        M.Model = C;
      else { // once per process and setting
        static std::set<std::string> Said;
        static std::mutex SaidMu;
        std::lock_guard<std::mutex> L(SaidMu);
        if (Said.insert(Error).second)
          std::fprintf(stderr,
                       "warpscope-emu: %s; running without the timing model\n",
                       Error.c_str());
      }
    }
  }
  // How many SMs a launch simulates at most (docs/timing-model.md, "Large
  // grids"); more is slower and, on uneven grids, closer.
  M.ModelSms = (unsigned)R
                   .integer("WARPSCOPE_EMU_MODEL_SMS", 1, timing::MaxModelSms,
                            std::to_string(timing::DefaultModelSms).c_str())
                   .value_or(timing::DefaultModelSms);
  // Probe instructions are free (left out of the trace) unless this is set:
  // the probe-overhead tools need their modeled cost.
  M.ModelProbes = R.flag("WARPSCOPE_EMU_MODEL_PROBES", false);
  M.ExactStalls = R.flag("WARPSCOPE_EMU_STALL_CYCLES", false);
  M.SamplePeriod = 0;
  if (R.flag("WARPSCOPE_EMU_PC_SAMPLING", false))
    M.SamplePeriod = (unsigned)R
                         .integer("WARPSCOPE_SAMPLING_PERIOD",
                                  MinSamplingPeriod, MaxSamplingPeriod, "9")
                         .value_or(9);
}

void runModeled(ModuleImpl &M, Function &K, const LaunchParams &P,
                uint32_t RegistersPerThread, LaunchRecord &Rec) {
  if (!M.Code || M.Code->ProbesModeled != M.ModelProbes)
    M.Code = describeModule(*M.PM, M.ModelProbes);
  if (M.Code->HasProbes)
    Rec.Probes = M.ModelProbes ? "modeled" : "free";
  const uint64_t Threads = (uint64_t)P.Block.X * P.Block.Y * P.Block.Z;
  timing::LaunchShape Shape;
  Shape.Ctas = (uint64_t)P.Grid.X * P.Grid.Y * P.Grid.Z;
  Shape.GridX = P.Grid.X;
  Shape.ThreadsPerCta = (uint32_t)Threads;
  Shape.RegistersPerThread = RegistersPerThread;
  // A what-if's shared memory per block (WhatIf.h) places the blocks; the
  // functional run keeps the kernel's own.
  Shape.SharedPerCta =
      P.ModelSharedBytes >= 0
          ? (uint64_t)P.ModelSharedBytes
          : (uint64_t)K.Shared.StaticBytes + P.DynamicSharedBytes;
  const uint32_t NWarps = (uint32_t)((Threads + 31) / 32);
  // Where ptxas spilled: its spill code, after the module's instructions.
  std::vector<StaticInst> WithSpills;
  std::unique_ptr<SpillCode> Spill =
      launchSpills(M, K, P, NWarps, Rec, WithSpills, Shape.RegistersPerThread);
  timing::LaunchModel Model(*M.Model, Spill ? WithSpills : M.Code->Table,
                            M.Code->NumSlots, Shape, M.SamplePeriod, M.ModelSms,
                            M.ModeledLaunches++, M.ExactStalls);
  std::vector<std::unique_ptr<TraceSink>> Sinks;
  for (unsigned W = 0; W < std::max(1u, M.Threads); ++W) {
    Sinks.push_back(makeSink(Model, *M.Code, NWarps, Spill.get()));
    M.TraceSinks.push_back(Sinks.back().get());
  }
  struct Restore { // the sinks die with this launch
    ModuleImpl &M;
    ~Restore() { M.TraceSinks.clear(); }
  } R{M};
  runGrid(M, K, P, Rec);
  Rec.Time = Model.finish();
  Rec.Modeled = true;
  if (!M.SamplePeriod && !M.ExactStalls)
    return;
  if (M.ExactStalls)
    timing::addStalls(M.Exact,
                      SpillCode::folded(Spill.get(), Model.stallCycles()));
  if (M.SamplePeriod) {
    timing::addStalls(M.Samples,
                      SpillCode::folded(Spill.get(), Model.samples()));
    M.SampledPeriod = M.SamplePeriod;
  }
  M.SampledConfig = M.Model->Name;
  if (M.Code->HasProbes)
    M.SampledProbes |= M.ModelProbes ? 2u : 1u;
}

std::string ModuleImpl::modelProbes() const {
  std::lock_guard<std::mutex> Lock(Mu);
  static const char *const Names[] = {"", "free", "modeled", "mixed"};
  return Names[SampledProbes & 3];
}

std::vector<ModeledPcSamples> ModuleImpl::modeledSamples() const {
  std::lock_guard<std::mutex> Lock(Mu);
  std::vector<ModeledPcSamples> Out;
  if (!Code || (Samples.empty() && Exact.empty()))
    return Out;
  static const timing::StallCounts NoSamples;
  static const timing::StallCycles NoCycles;
  for (const auto &F : PM->Functions) {
    const uint32_t Base = Code->FuncBase[F->Index];
    // Program instructions are numbered as the PTX listing numbers them;
    // a probe's instruction's samples go to the program instruction after
    // it (the one it instruments), or before it at the function's end.
    std::vector<uint32_t> Index(F->Code.size());
    uint32_t N = 0;
    for (size_t K = 0; K < F->Code.size(); ++K)
      Index[K] = F->Instrumentation[K] ? NoTarget : N++;
    for (size_t K = F->Code.size(); K-- > 0;)
      if (Index[K] == NoTarget)
        Index[K] = K + 1 < F->Code.size() ? Index[K + 1] : NoTarget;
    for (size_t K = 0; K < F->Code.size(); ++K)
      if (Index[K] == NoTarget)
        Index[K] = K > 0 ? Index[K - 1] : 0;
    std::map<uint32_t, ModeledPcSamples> ByIndex;
    for (size_t K = 0; K < F->Code.size(); ++K) {
      const timing::StallCounts &C =
          Samples.empty() ? NoSamples : Samples[Base + K];
      const timing::StallCycles &E = Exact.empty() ? NoCycles : Exact[Base + K];
      uint64_t Total = 0;
      double Cycles = 0;
      for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
        Total += C.All[J];
        Cycles += E.All[J];
      }
      if (!Total && !Cycles)
        continue;
      ModeledPcSamples &P = ByIndex[Index[K]];
      std::map<std::string, uint64_t> Stalls(P.Stalls.begin(), P.Stalls.end());
      std::map<std::string, double> Held(P.StallCycles.begin(),
                                         P.StallCycles.end());
      for (unsigned J = 0; J < unsigned(ModelStall::Count); ++J) {
        std::string Name = ModelStallNames[J];
        std::string Twin = Name + std::string(NotIssuedSuffix);
        if (C.All[J])
          Stalls[Name] += C.All[J];
        if (C.NotIssued[J])
          Stalls[Twin] += C.NotIssued[J];
        if (E.All[J] > 0)
          Held[Name] += E.All[J];
        if (E.NotIssued[J] > 0)
          Held[Twin] += E.NotIssued[J];
      }
      P.Stalls.assign(Stalls.begin(), Stalls.end());
      P.StallCycles.assign(Held.begin(), Held.end());
      P.Samples += Total;
      P.Cycles += Cycles;
      P.Function = F->Name;
      P.PtxIndex = Index[K];
      // The location of the program instruction the samples are shown at.
      size_t At = K;
      while (At < F->Code.size() && F->Instrumentation[At])
        ++At;
      const Inst &I = F->Code[At < F->Code.size() ? At : K];
      if (I.File && P.File.empty()) {
        auto It = PM->Files.find(I.File);
        P.File = It != PM->Files.end() ? It->second : "";
        P.Line = I.Line;
      }
    }
    for (auto &[I, P] : ByIndex)
      Out.push_back(std::move(P));
  }
  return Out;
}

} // namespace warpscope::emu::core
