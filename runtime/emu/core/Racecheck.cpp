//===- Racecheck.cpp - shared-memory hazards between warps ----------------===//
//
// The executor's side of WARPSCOPE_EMU_RACECHECK (shadow: Racecheck.h):
// raceAccess runs before a load, store or atomic executes and hands the
// lanes' shared bytes (shared-space or generic addresses inside the CTA's
// shared window) to the shadow; raceReport records each distinct hazard of
// the module once and prints it as one line on stderr.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "warpscope/Support/Demangle.h"

#include <cstdio>

namespace warpscope::emu::core {

const char *hazardName(HazardKind K) {
  switch (K) {
  case HazRAW:
    return "read-after-write";
  case HazWAR:
    return "write-after-read";
  case HazWAW:
    return "write-after-write";
  }
  return "?";
}

void Launcher::raceAccess(const Warp &W, const Frame &Fr, const Inst &I,
                          uint32_t EM, uint8_t Sp, unsigned Bytes,
                          RaceAccess Kind) {
  // .global/.const/.local/.param accesses cannot reach shared memory.
  if (Sp != SpShared && Sp != SpGeneric)
    return;
  const uint64_t *A = Fr.Regs.data() + (size_t)I.Addr * 32;
  // Shared-space addresses are offsets; generic ones are host pointers,
  // which are shared bytes when inside the window.
  const uint64_t Base = Sp == SpShared ? 0 : (uint64_t)(uintptr_t)Shared;
  if (Sp == SpGeneric) {
    // Mostly global pointers: one branch-free pass over the lanes.
    bool Any = false;
    for (int L = 0; L < 32; ++L)
      Any |= ((EM >> L) & 1) & (A[L] + (uint64_t)I.Off - Base < SharedSize);
    if (!Any)
      return;
  }
  M.Race.lanes(
      EM, A, (uint64_t)I.Off - Base, SharedSize, Bytes, W.Index, &I, Kind,
      [&](int, uint32_t Off, const RaceHit &H) { raceReport(W, I, Off, H); });
}

// Like raceAccess for addresses the caller computed: A[L] is lane L's full
// address in Sp (wmma's strided elements).
void Launcher::raceAt(const Warp &W, const Inst &I, uint32_t EM, uint8_t Sp,
                      const uint64_t *A, unsigned Bytes, RaceAccess Kind) {
  if (Sp != SpShared && Sp != SpGeneric)
    return;
  const uint64_t Base = Sp == SpShared ? 0 : (uint64_t)(uintptr_t)Shared;
  M.Race.lanes(
      EM, A, (uint64_t)0 - Base, SharedSize, Bytes, W.Index, &I, Kind,
      [&](int, uint32_t Off, const RaceHit &H) { raceReport(W, I, Off, H); });
}

// The function whose code holds I (for its opcode text).
static const Function *functionOf(const ParsedModule &PM, const Inst *I) {
  for (auto &F : PM.Functions)
    if (!F->Code.empty() && I >= F->Code.data() &&
        I < F->Code.data() + F->Code.size())
      return F.get();
  return nullptr;
}

static std::string describe(const ParsedModule &PM, const Inst *I) {
  if (!I)
    return "'?'";
  const Function *F = functionOf(PM, I);
  std::string Opc = F ? F->Opcodes[I - F->Code.data()] : std::string("?");
  return "'" + Opc + "' at " + srcLoc(PM, *I);
}

void Launcher::raceReport(const Warp &W, const Inst &I, uint32_t Off,
                          const RaceHit &H) {
  auto Key = std::make_tuple(&K, H.Kind, H.Prev, &I);
  auto [It, New] = M.HazardIndex.try_emplace(Key, M.Hazards.size());
  if (!New) {
    ++M.Hazards[It->second].Count;
    return;
  }
  M.Hazards.push_back({&K,
                       H.Kind,
                       H.Prev,
                       &I,
                       H.PrevWarp,
                       W.Index,
                       Off,
                       {Ctaid[0], Ctaid[1], Ctaid[2]},
                       1});
  std::fprintf(stderr,
               "warpscope-emu: racecheck: kernel %s, block (%u,%u,%u): %s "
               "hazard on shared memory offset %u: %s by warp %u, then %s by "
               "warp %u, with no barrier in between\n",
               withDemangledNames(K.Name).c_str(), Ctaid[0], Ctaid[1], Ctaid[2],
               hazardName(H.Kind), Off, describe(*M.PM, H.Prev).c_str(),
               H.PrevWarp, describe(*M.PM, &I).c_str(), W.Index);
}

} // namespace warpscope::emu::core
