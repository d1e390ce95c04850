//===- SyncCheck.cpp - barrier divergence and deadlock reports ------------===//
//
// What compute-sanitizer's synccheck reports, checked at every barrier
// arrival (a few compares; barriers are rare next to other instructions):
//  - divergent threads in a warp: a warp arrives at an aligned barrier
//    (bar.*, barrier.*.aligned; __syncthreads()) in parts within one phase,
//    e.g. lanes skipping one __syncthreads() and reaching another;
//  - divergent threads in a block: warps arrive at different instructions
//    of one aligned barrier with no thread count (two __syncthreads()
//    matched with each other).
// Lanes that never arrive because they exited are not divergence: exited
// threads do not hold a barrier (PTX: a barrier waits for the non-exited
// threads), so "if (i >= n) return; __syncthreads();" is fine. Both are
// launch failures, as is a deadlock, whose report names the arrivals.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

#include <cstdio>

namespace warpscope::emu::core {

static std::string lanesText(uint32_t Mask) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%u threads (lanes 0x%08x)", popc32(Mask),
                Mask);
  return Buf;
}

std::string Launcher::barrierAt(const Inst &I) const {
  for (const auto &F : M.PM->Functions) {
    size_t Idx = &I - F->Code.data();
    if (Idx < F->Code.size())
      return "'" + F->Opcodes[Idx] + "' at " + srcLoc(*M.PM, I);
  }
  return "? at " + srcLoc(*M.PM, I);
}

void Launcher::syncCheck(Warp &W, Frame &Fr, const Inst &I, uint32_t Id,
                         uint32_t EM) {
  uint32_t Before = W.BarLanes[Id];
  const Inst *First = W.BarFirst[Id];
  W.BarLanes[Id] |= EM;
  if (!First)
    W.BarFirst[Id] = &I;
  if (!(I.Flags & FAligned))
    return;
  int Lane = __builtin_ctz(EM);
  // Built only on failure: this runs at every __syncthreads().
  auto Head = [Id] {
    return "barrier divergence (as compute-sanitizer synccheck reports it): "
           "barrier " +
           std::to_string(Id) + ": ";
  };
  if (Before)
    fail(W, *Fr.F, I, Lane,
         Head() + "divergent threads in warp " + std::to_string(W.Index) +
             ": " + lanesText(Before) + " arrived at " + barrierAt(*First) +
             ", then " + lanesText(EM) +
             " here; all non-exited threads of a warp must reach an aligned "
             "barrier (__syncthreads()) together");
  if (I.NS > 1)
    return; // a thread count: warps may use different instructions
  if (!PhaseInst[Id]) {
    PhaseInst[Id] = &I;
    PhaseWarp[Id] = W.Index;
  } else if (PhaseInst[Id] != &I) {
    fail(W, *Fr.F, I, Lane,
         Head() + "divergent threads in block: warp " +
             std::to_string(W.Index) + " arrived here, warp " +
             std::to_string(PhaseWarp[Id]) + " at " +
             barrierAt(*PhaseInst[Id]) +
             "; all threads of a block must reach the same __syncthreads()");
  }
}

void Launcher::failDeadlock(uint32_t Waiting, uint32_t Live) {
  std::string S = "kernel " + K.Name + ", block (" + std::to_string(Ctaid[0]) +
                  "," + std::to_string(Ctaid[1]) + "," +
                  std::to_string(Ctaid[2]) + "): deadlock:";
  bool First = true;
  for (uint32_t B = 0; B < 16; ++B) {
    if (!((Waiting >> B) & 1))
      continue;
    S += std::string(First ? "" : ";") + " barrier " + std::to_string(B) +
         " ('" + *BarOpcode[B] + "' at " + srcLoc(*M.PM, *BarInst[B]) +
         "): " + std::to_string(Arrived[B]) + " of " +
         std::to_string(Expect[B] ? Expect[B] : Live) + " threads arrived (";
    bool FirstWarp = true;
    for (const Warp &W : Warps)
      if (W.BarLanes[B]) {
        S += std::string(FirstWarp ? "" : ", ") + "warp " +
             std::to_string(W.Index) + ": " + lanesText(W.BarLanes[B]);
        FirstWarp = false;
      }
    S += ")";
    First = false;
  }
  std::string Missing;
  for (const Warp &W : Warps) {
    uint32_t Arr = 0;
    for (uint32_t B = 0; B < 16; ++B)
      Arr |= W.BarLanes[B];
    uint32_t Left = W.Valid & ~W.Exited & ~Arr;
    if (!W.Done && Left)
      Missing += std::string(Missing.empty() ? "" : ", ") + "warp " +
                 std::to_string(W.Index) + ": " + lanesText(Left);
  }
  if (!Missing.empty())
    S += "; at no barrier: " + Missing;
  throw EmuError{S};
}

} // namespace warpscope::emu::core
