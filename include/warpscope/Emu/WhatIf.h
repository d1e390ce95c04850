//===- WhatIf.h - A launch re-simulated under a changed parameter -*- C++ -*-=//
//
// WARPSCOPE_EMU_WHATIF=<kernel>:<key>=<n>[,<key>=<n>...] makes the emulator
// run every launch of the kernel (its mangled name) with these changes
// (issue 35, "what-if" modeling; `warpscope advise --what-if` writes it):
//   grid=N       N blocks instead of the launch's (1-D grids only)
//   block=N      N threads per block instead of the launch's (1-D only)
//   registers=N  the timing model places blocks as if each thread had N
//                registers (the functional run is unchanged)
//   shared=N     ... and as if each block had N bytes of shared memory
//   maxregs=N    a kernel ptxas spilled is compiled under a register cap
//                of N: the timing model's spill code (docs/timing-model.md,
//                "Register spills") is placed for N, and blocks are placed
//                by the registers it needs under N (255: no cap)
// grid and block change what the kernel computes unless its work is a
// grid-stride loop: the advisor asks for them only there. This header is
// the format's one writer (formatWhatIf) and one reader (parseWhatIf).
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_WHATIF_H
#define WARPSCOPE_EMU_WHATIF_H

#include <cstdint>
#include <cstdlib>
#include <string>

namespace warpscope::emu {

inline constexpr const char *WhatIfVariable = "WARPSCOPE_EMU_WHATIF";

struct WhatIf {
  std::string Kernel;        ///< mangled
  uint32_t Grid = 0;         ///< 0: unchanged
  uint32_t Block = 0;        ///< 0: unchanged
  uint32_t Registers = 0;    ///< 0: unchanged
  int64_t Shared = -1;       ///< bytes per block; -1: unchanged
  uint32_t MaxRegisters = 0; ///< 0: unchanged
  bool any() const {
    return Grid || Block || Registers || Shared >= 0 || MaxRegisters;
  }
};

inline std::string formatWhatIf(const WhatIf &W) {
  std::string S = W.Kernel + ":";
  auto Add = [&](const char *Key, uint64_t V) {
    if (S.back() != ':')
      S += ",";
    S += std::string(Key) + "=" + std::to_string(V);
  };
  if (W.Grid)
    Add("grid", W.Grid);
  if (W.Block)
    Add("block", W.Block);
  if (W.Registers)
    Add("registers", W.Registers);
  if (W.Shared >= 0)
    Add("shared", uint64_t(W.Shared));
  if (W.MaxRegisters)
    Add("maxregs", W.MaxRegisters);
  return S;
}

/// Parses Text into Out; false with Error (one line) when it is malformed.
inline bool parseWhatIf(const std::string &Text, WhatIf &Out,
                        std::string &Error) {
  Out = WhatIf();
  const size_t Colon = Text.rfind(':');
  if (Colon == std::string::npos || Colon == 0) {
    Error = "is not <kernel>:<key>=<n>,...";
    return false;
  }
  Out.Kernel = Text.substr(0, Colon);
  size_t Pos = Colon + 1;
  while (Pos <= Text.size()) {
    size_t End = Text.find(',', Pos);
    if (End == std::string::npos)
      End = Text.size();
    const std::string Item = Text.substr(Pos, End - Pos);
    const size_t Eq = Item.find('=');
    const std::string Key = Item.substr(0, Eq);
    const char *Num = Eq == std::string::npos ? "" : Item.c_str() + Eq + 1;
    char *Stop = nullptr;
    const unsigned long long V = std::strtoull(Num, &Stop, 10);
    if (!*Num || *Stop || *Num == '-' || V > UINT32_MAX) {
      Error = "has '" + Item + "', not <key>=<n> with n in 0..4294967295";
      return false;
    }
    if (Key == "grid" && V)
      Out.Grid = uint32_t(V);
    else if (Key == "block" && V)
      Out.Block = uint32_t(V);
    else if (Key == "registers" && V)
      Out.Registers = uint32_t(V);
    else if (Key == "shared")
      Out.Shared = int64_t(V);
    else if (Key == "maxregs" && V)
      Out.MaxRegisters = uint32_t(V);
    else {
      Error = "has '" + Item +
              "': the keys are grid, block, registers, maxregs (each > 0) "
              "and shared";
      return false;
    }
    Pos = End + 1;
  }
  if (!Out.any()) {
    Error = "changes nothing";
    return false;
  }
  return true;
}

} // namespace warpscope::emu

#endif // WARPSCOPE_EMU_WHATIF_H
