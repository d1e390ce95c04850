//===- ModelCode.cpp - The timing model's view of a module's code ---------===//
//
// describe() is where PTX meets the timing model: each instruction's pipe,
// registers, memory path, and how many SASS instructions it stands for
// (docs/timing-model.md, "PTX is not SASS"), from the opcode table's unit
// (warpscope/ABI/PtxOpcodes.def) refined by the decoded operation; then
// what ptxas makes of several instructions together (SassShape.cpp), the
// marks of the loads ptxas issues ahead of their uses (StaticInst::
// Unrolled, Leader, Hoists) and the code's layout. TimingSink.cpp builds the
// table once per module (describeModule) and feeds the model the traces.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "SassShape.h"
#include "warpscope/ABI/PtxOpcodes.h"

#include <algorithm>

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
    if (I.T2 != Ty::None && !tyFloat(I.T) && !tyFloat(I.T2)) {
      // Between integer types there is nothing to convert: dropping or
      // zeroing the high word is register naming (RZ), a sign extension to
      // 64 bits one SHF, a narrow or saturated result one integer op.
      S.P = Pipe::Int;
      const unsigned To = tySize(I.T), From = tySize(I.T2);
      if ((I.Flags & FSat) || To < 4 || From < 4)
        S.Expand = 1;
      else
        S.Expand = To > From && tySigned(I.T2) ? 1 : 0;
      return;
    }
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

// Memory instructions: the kind of access and its space. Opcode: I's PTX
// opcode.
void describeMemory(const Function &F, const Inst &I, std::string_view Opcode,
                    PtxUnit Unit, StaticInst &S, uint32_t &AddrSrc) {
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
  case PtxUnit::AsyncCopy: // its lines: MemCount.cpp, cpAsyncTraced
    S.K = Kind::AsyncCopy;
    S.BypassL1 = ptxHasModifier(Opcode, "cg");
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
// function's start), which skips free probe instructions. Opcode: I's PTX
// opcode, whose unit is ptxUnitOf()'s (the opcode table,
// warpscope/ABI/PtxOpcodes.def, whose forms refine a row: bar.warp.sync is
// Free, cp.async's commit and wait are AsyncGroup).
StaticInst describe(const Function &F, const Inst &I, const Inst *Prev,
                    std::string_view Opcode) {
  PtxUnit Unit = ptxUnitOf(Opcode);
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
    describeMemory(F, I, Opcode, Unit, S, AddrSrc);
    Src(AddrSrc);
    return S;
  }
  case PtxUnit::AsyncGroup:
    S.K = I.Sub == AsyncCommit ? Kind::AsyncCommit : Kind::AsyncWait;
    S.AsyncAll = I.Sub == AsyncWaitAll;
    S.AsyncKeep =
        I.Sub == AsyncWaitGroup ? (uint8_t)std::min<int64_t>(I.Off, 255) : 0;
    return S;
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
// branch's target) and the global and shared loads after which their block
// holds another such load with nothing between that keeps it in place (a
// barrier, fence, call or compare-and-swap loop; for a global load a store
// or atomic to memory other than shared, for a shared load any store,
// atomic or asynchronous copy: StaticInst::Hoists), which ptxas may issue
// before the first load's uses (SmSim::blockAhead decides, per execution,
// from where the later load's address comes).
void markBlockLoads(const Function &F, StaticInst *Table, bool Probes) {
  const std::vector<Inst> &Code = F.Code;
  auto Skip = [&](uint32_t J) { return F.Instrumentation[J] && !Probes; };
  for (uint32_t J = 0; J < Code.size(); ++J)
    if (Code[J].Op == OpBra && Code[J].Target < Code.size() && !Skip(J))
      Table[Code[J].Target].Leader = true;
  for (uint32_t K = 0; K < Code.size(); ++K) {
    if (!Table[K].movableLoad() || Skip(K))
      continue;
    bool SharedKept = false;
    for (uint32_t J = K + 1; J < Code.size() && !Table[J].Leader; ++J) {
      if (Skip(J))
        continue;
      const StaticInst &O = Table[J];
      if (O.movableLoad() && (O.Sp == timing::Space::Global || !SharedKept)) {
        Table[K].Hoists = true;
        break;
      }
      if (O.endsBlock() || O.keepsLoadsAfter())
        break;
      SharedKept |= O.keepsSharedLoadsAfter();
    }
  }
}

} // namespace

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
    const uint32_t Base = (uint32_t)C->Table.size();
    C->FuncBase.push_back(Base);
    C->NumSlots = std::max(C->NumSlots, F->NumSlots);
    const Inst *Prev = nullptr;
    for (size_t K = 0; K < F->Code.size(); ++K) {
      const Inst &I = F->Code[K];
      C->Table.push_back(describe(*F, I, Prev, F->Opcodes[K]));
      const bool Probe = F->Instrumentation[K];
      C->HasProbes |= Probe;
      if (Probe && !ProbesModeled) {
        C->Roles.push_back(ModelCode::Free);
        continue;
      }
      Prev = &I;
      Kind Kd = C->Table.back().K;
      C->Roles.push_back(Kd == Kind::Load || Kd == Kind::Store ||
                                 Kd == Kind::Atomic || Kd == Kind::AsyncCopy
                             ? ModelCode::Memory
                             : ModelCode::Op);
    }
    StaticInst *Table = &C->Table[Base];
    shapeAsSass(*F, Table, ProbesModeled);
    markUnrolledLoads(*F, Table, ProbesModeled);
    markBlockLoads(*F, Table, ProbesModeled);
    Code = (Code + 127) & ~127u;
    for (size_t K = 0; K < F->Code.size(); ++K) {
      Table[K].Code = Code;
      if (C->Roles[Base + K] != ModelCode::Free)
        Code += 16u * Table[K].Expand;
    }
  }
  return C;
}

} // namespace warpscope::emu::core
