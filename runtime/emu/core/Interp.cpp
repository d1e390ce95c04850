//===- Interp.cpp - the SIMT interpreter loop and instruction dispatch ----===//
//
// One warp-instruction is dispatched once, then its lanes run in a loop over
// the 32 lanes under the active mask. Divergence uses a per-frame
// reconvergence stack (PC, reconvergence PC, mask) with reconvergence at the
// immediate post-dominator of the branch. Warps of a CTA run one after the
// other until they reach a barrier or finish (Schedule.cpp).
//
// This is the emulator's hot path: runWarp counts and dispatches every
// instruction, handling uniform and two-way branches inline; exec is one
// switch over the other instructions. Their bodies are free functions over
// (instruction, registers, mask): IntOps.h and CmpOps.h (inlined),
// FloatOps.h and WarpOps.h (one call each); those that need launch state
// (memory, barriers, calls) are Launcher members in the file of their
// concern. trap and unsupported instructions fail out of line
// (failExecuted), keeping the loop short.
//
//===----------------------------------------------------------------------===//
#include "CmpOps.h"
#include "ExecInternal.h"
#include "FloatOps.h"
#include "IntOps.h"
#include "VideoOps.h"
#include "WarpOps.h"
#include "warpscope/Support/Demangle.h"

#include <atomic>
#include <chrono>
#include <cstdio>

namespace warpscope::emu::core {

static inline uint32_t predMask(const uint64_t *P, bool Neg) {
  uint32_t M = 0;
  for (int L = 0; L < 32; ++L)
    M |= (uint32_t)(P[L] & 1) << L;
  return Neg ? ~M : M;
}

// %globaltimer: nanoseconds since the epoch, read from the steady clock
// (anchored to the wall clock once) so that it never goes back, on any
// worker thread.
static uint64_t globalTimerNs() {
  using namespace std::chrono;
  static const int64_t Anchor =
      duration_cast<nanoseconds>(system_clock::now().time_since_epoch())
          .count() -
      duration_cast<nanoseconds>(steady_clock::now().time_since_epoch())
          .count();
  return (uint64_t)(Anchor + duration_cast<nanoseconds>(
                                 steady_clock::now().time_since_epoch())
                                 .count());
}

// Arithmetic whose operand type picks float, half or integer code, and the
// failures of their bodies. Inlined into exec: the hot integer bodies stay
// one call away. (A member, not a free function taking a failure callback:
// that callback's closure was built on every exec call, +1% instructions.)
[[gnu::always_inline]] inline void
Launcher::execTyped(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const Ty T = I.T;
  auto Unsupported = [&]() {
    fail(W, *Fr.F, I, -1, "unsupported operand type for this instruction");
  };
  if (T == Ty::F32 || T == Ty::F64) {
    if ((I.Op == OpAbs || I.Op == OpNeg) && !(I.Flags & FFtz))
      return floatSignOp(I, R, EM);
    if (int Lane = floatOps(I, R, EM); Lane >= 0)
      fail(W, *Fr.F, I, Lane,
           T == Ty::F32 ? "unsupported f32 operation"
                        : "unsupported f64 operation");
    return;
  }
  bool IsH = T == Ty::F16 || T == Ty::F16x2 || T == Ty::BF16 || T == Ty::BF16x2;
  if (IsH && I.Op != OpDiv && I.Op != OpRem) {
    if (!halfOps(I, R, EM))
      fail(W, *Fr.F, I, -1, "unsupported half-precision operation");
    return;
  }
  switch (I.Op) {
  case OpAdd:
  case OpSub:
    return intAddSub(I, R, EM, Unsupported);
  case OpMul:
  case OpMad:
    return intMulMad(I, R, EM, Unsupported);
  case OpDiv:
  case OpRem:
    return intDivRem(I, R, EM, Unsupported);
  case OpAbs:
  case OpNeg:
    return intAbsNeg(I, R, EM, Unsupported);
  case OpMin:
  case OpMax:
    return intMinMax(I, R, EM, Unsupported);
  default: // fma and the math functions exist for float types only
    return Unsupported(); // never returns (fail is [[noreturn]])
  }
}

// Non-control instructions: one switch, each case a few lines (bodies in
// IntOps.h and CmpOps.h, inlined, or in the file of their concern).
void Launcher::exec(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  auto Unsupported = [&]() {
    fail(W, *Fr.F, I, -1, "unsupported operand type for this instruction");
  };
  switch (I.Op) {
  case OpNop:
  case OpCpAsyncGroup: // the copy was done at issue (execCpAsync)
    return;
  case OpFence:
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return;
  case OpMov:
    LANES(D[l] = A[l]);
    return;
  case OpClock32:
    LANES(D[l] = (uint32_t)Clock);
    return;
  case OpClock64:
    LANES(D[l] = Clock);
    return;
  case OpGlobalTimer: {
    uint64_t Ns = globalTimerNs();
    LANES(D[l] = Ns);
    return;
  }
  case OpPack:
    return opPack(I, R, EM);
  case OpUnpack:
    return opUnpack(I, R, EM);
  case OpAdd:
  case OpSub:
  case OpMul:
  case OpMad:
  case OpFma:
  case OpDiv:
  case OpRem:
  case OpAbs:
  case OpNeg:
  case OpMin:
  case OpMax:
  case OpRcp:
  case OpSqrt:
  case OpRsqrt:
  case OpEx2:
  case OpLg2:
  case OpSin:
  case OpCos:
  case OpTanh:
  case OpCopysign:
    return execTyped(W, Fr, I, EM);
  case OpMul24:
  case OpMad24:
    return intMul24(I, R, EM);
  case OpAnd:
  case OpOr:
  case OpXor:
    return opLogic(I, R, EM);
  case OpNot:
    return opNot(I, R, EM);
  case OpCnot:
    return opCnot(I, R, EM);
  case OpShl:
  case OpShr:
    return intShift(I, R, EM, Unsupported);
  case OpPopc:
    return opPopc(I, R, EM);
  case OpClz:
    return opClz(I, R, EM);
  case OpBrev:
    return opBrev(I, R, EM);
  case OpBfind:
    return opBfind(I, R, EM);
  case OpBfe:
    return opBfe(I, R, EM);
  case OpBfi:
    return opBfi(I, R, EM);
  case OpPrmt:
    return opPrmt(I, R, EM);
  case OpLop3:
    return opLop3(I, R, EM);
  case OpShf:
    return opShf(I, R, EM);
  case OpSad:
    return opSad(I, R, EM);
  case OpDp4a:
  case OpDp2a:
    return opDot(I, R, EM);
  case OpVideo:
    return opVideo(I, R, EM);
  case OpTestp:
    return opTestp(I, R, EM);
  case OpSetp:
  case OpSet:
    return opSetp(I, R, EM, Unsupported);
  case OpSelp:
    return opSelp(I, R, EM);
  case OpSlct:
    return opSlct(I, R, EM);
  case OpCvt:
    if (int Lane = cvtOps(I, R, EM); Lane >= 0)
      fail(W, *Fr.F, I, Lane, cvtUnsupported(I));
    return;
  case OpCvtPack:
    return opCvtPack(I, R, EM);
  case OpCvtTf32:
    return cvtTf32Ops(I, R, EM);
  case OpCpAsync:
    return execCpAsync(W, Fr, I, EM);
  case OpCvta:
    return execCvta(W, Fr, I, EM);
  case OpIsspacep:
    return execIsspacep(Fr, I, EM);
  case OpLd:
  case OpSt:
    return execMem(W, Fr, I, EM);
  case OpAtom:
  case OpRed:
    return execAtom(W, Fr, I, EM);
  case OpTex:
  case OpSuld:
  case OpSust:
  case OpTxq:
    return execTexture(W, Fr, I, EM);
  default:
    fail(W, *Fr.F, I, -1, "unsupported instruction");
  }
}

// Every 2^16 branches of a worker: an interrupt, the timeout, and the
// progress line of a CTA that runs long (with where one of its warps is).
void Launcher::checkWatchdog(Warp &W, const Function &Fn, const Inst &I,
                             uint32_t Mask) {
  if (int Signal = interruptSignal(); Signal && interruptGraceOver())
    throw EmuError{"interrupted by signal " + std::to_string(Signal),
                   LaunchFault::Interrupted}; // LaunchGrid.cpp words it
  if (!Deadline && ProgressEvery.count() == 0)
    return;
  auto Now = std::chrono::steady_clock::now();
  if (ProgressEvery.count() && Now >= NextProgress &&
      (!Reports || Reports->claim(Now))) {
    NextProgress = Now + ProgressEvery;
    std::string Line =
        "warpscope-emu: " + withDemangledNames(K.Name) + ": block (" +
        std::to_string(Ctaid[0]) + "," + std::to_string(Ctaid[1]) + "," +
        std::to_string(Ctaid[2]) + ") running for " +
        std::to_string(
            (long long)std::chrono::duration<double>(Now - CtaStart).count()) +
        " s, " + std::to_string(Clock) +
        " warp instructions so far on this worker; warp " +
        std::to_string(W.Index) + " at '" + Fn.Opcodes[&I - Fn.Code.data()] +
        "', " + srcLoc(*M.PM, I) + "\n";
    std::fputs(Line.c_str(), stderr);
  }
  if (!Deadline || Now < *Deadline)
    return;
  char Seconds[32];
  std::snprintf(Seconds, sizeof Seconds, "%g", M.TimeoutSeconds);
  fail(W, Fn, I, Mask ? __builtin_ctz(Mask) : -1,
       "still running after WARPSCOPE_EMU_TIMEOUT=" + std::string(Seconds) +
           " s (warpscope run --timeout; 0: no limit): a loop that never "
           "ends? This warp was at this instruction");
}

bool Launcher::leavePath(Warp &W, Frame &Fr, uint32_t Mask, uint32_t N) {
  Entry &E = Fr.Stack.back();
  if (Fr.Stack.size() == 1)
    return finishFrame(W); // the frame finished
  if (E.Pc >= N && E.Pc != E.Rpc) {
    if (W.Depth == 1)
      W.Exited |= Mask; // fell off the end of the kernel
    else
      Fr.Retired |= Mask;
  }
  Fr.Stack.pop_back();
  return true;
}

void Launcher::splitAtBranch(Frame &Fr, const Inst &I, uint32_t Pc, uint32_t EM,
                             uint32_t Mask) {
  uint32_t Rc = I.Ipdom;
  uint32_t NotTaken = Mask & ~EM;
  Fr.Stack.back().Pc = Rc;
  uint32_t Par = Fr.Stack.back().Id;
  if (Pc + 1 != Rc)
    Fr.push(Pc + 1, Rc, NotTaken, Par);
  if (I.Target != Rc)
    Fr.push(I.Target, Rc, EM, Par);
}

// Runs W until it finishes (false) or reaches a barrier (true). Traced: the
// worker's TraceSink sees each issued instruction (a separate instance, so
// the untraced loop has no check per instruction).
template <bool Traced> bool Launcher::runWarpT(Warp &W) {
  for (;;) {
    Frame &Fr = *W.Frames[W.Depth - 1];
    Function &Fn = *Fr.F;
    const uint32_t N = (uint32_t)Fn.Code.size();
    Entry &E = Fr.Stack.back();
    if (E.BarWait) { // still waiting for a barrier: run other paths if any
      if (resumeWaiting(W, Fr))
        continue;
      return true;
    }
    uint32_t Mask = E.Mask & ~W.Exited & ~Fr.Retired;
    if (Mask == 0 || E.Pc == E.Rpc || E.Pc >= N) {
      if (!leavePath(W, Fr, Mask, N))
        return false;
      continue;
    }
    uint32_t Pc = E.Pc;
    const uint32_t Rpc = E.Rpc;
    const Inst *Code = Fn.Code.data();
    uint64_t *R = Fr.Regs.data();
    InstCounters &C = Ctr.Sets[Fn.Index]; // this worker's counts
    uint64_t *WE = C.WarpExec.data(), *TE = C.ThreadExec.data(),
             *AE = C.ActiveExec.data();
    // Mask changes inside this loop only at exit/ret; its lane count is
    // kept beside it rather than recounted per instruction.
    uint32_t MaskLanes = popc32(Mask);
    for (;;) {
      if (Pc == Rpc || Pc >= N) {
        Fr.Stack.back().Pc = Pc;
        break;
      }
      const Inst &I = Code[Pc];
      ++Clock;
      WE[Pc]++;
      uint32_t EM = Mask, EMLanes = MaskLanes;
      if (I.Guard >= 0) {
        EM &= predMask(R + (size_t)I.Guard * 32, I.GuardNeg);
        EMLanes = popc32(EM);
      }
      TE[Pc] += EMLanes;
      AE[Pc] += MaskLanes;
      if constexpr (Traced)
        Trace->instruction(W.Index, Fn, Pc, Mask, EM);
      switch (I.Op) {
      case OpBra: {
        // Every loop takes a branch: the watchdog looks there.
        if (__builtin_expect((++Branches & WatchdogMask) == 0, 0))
          checkWatchdog(W, Fn, I, Mask);
        if (I.Guard >= 0) {
          C.Visits[Pc]++;
          if (EM != 0 && EM != Mask)
            C.Divergent[Pc]++;
        }
        if (EM == Mask) {
          Pc = I.Target;
          continue;
        }
        if (EM == 0) {
          ++Pc;
          continue;
        }
        splitAtBranch(Fr, I, Pc, EM, Mask);
        goto Resched;
      }
      case OpBrx:
        Pc = branchIndexed(W, Fr, I, Pc, EM, Mask);
        if (Pc == NoTarget)
          goto Resched;
        continue;
      case OpRet:
      case OpExit:
        if (I.Op == OpExit || W.Depth == 1)
          W.Exited |= EM;
        else
          Fr.Retired |= EM;
        Mask &= ~EM;
        MaskLanes = popc32(Mask);
        ++Pc;
        if (!Mask) {
          Fr.Stack.back().Pc = Pc;
          goto Resched;
        }
        continue;
      case OpBar:
        ++Pc;
        if (!EM)
          continue;
        if (I.Sub == BarArrive) {
          countArrival(W, Fr, I, EM);
          continue;
        }
        if (arriveAtBarrier(W, Fr, I, Pc, EM, Mask))
          goto Resched;
        return true;
      case OpWarpSync: // few arguments: keeps this loop's registers
        ++Pc;
        if (__builtin_expect(EM && warpSync(W, Pc, EM), 0))
          goto Resched;
        continue;
      case OpCall:
        ++Pc;
        if (!EM)
          continue;
        if (call(W, Fr, I, Pc, EM, Mask))
          goto Resched;
        continue;
      case OpUnsupported:
      case OpTrap:
        if (EM) // guarded off: not executed
          failExecuted(W, Fn, I, EM);
        ++Pc;
        continue;
      case OpMma:
      case OpWmmaLoad:
      case OpWmmaStore:
      case OpLdmatrix:
        if (EM)
          execMatrix(W, Fr, I, EM, Mask);
        ++Pc;
        continue;
      case OpShfl:
      case OpVote:
      case OpActivemask:
      case OpMatch:
      case OpRedux:
      case OpElect:
        if (EM)
          execWarpOp(W, Fr, I, EM, Mask);
        ++Pc;
        continue;
      default:
        if (EM)
          exec(W, Fr, I, EM);
        ++Pc;
        continue;
      }
    }
  Resched:;
  }
}

// warpOps, and the failure it cannot have (runWarpT sends it only warp
// collectives). A member call, as before the body became a free function:
// calling warpOps from the loop itself changed the loop's register
// allocation, +0.5% instructions in emu-core-bench.
void Launcher::execWarpOp(Warp &W, Frame &Fr, const Inst &I, uint32_t EM,
                          uint32_t Active) {
  if (!warpOps(I, Fr.Regs.data(), EM, Active))
    fail(W, *Fr.F, I, -1, "internal: bad warp op");
}

// trap and the instructions the emulator does not implement, executed by
// the lanes EM.
void Launcher::failExecuted(const Warp &W, const Function &Fn, const Inst &I,
                            uint32_t EM) {
  switch (I.Op) {
  case OpUnsupported:
    fail(W, Fn, I, __builtin_ctz(EM),
         "unsupported instruction: " + Fn.UnsupportedWhy[I.Target]);
  default: // OpTrap
    fail(W, Fn, I, __builtin_ctz(EM), "trap");
  }
}

template bool Launcher::runWarpT<false>(Warp &W);
template bool Launcher::runWarpT<true>(Warp &W);

} // namespace warpscope::emu::core
