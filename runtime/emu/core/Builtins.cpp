//===- Builtins.cpp - calls to vprintf, malloc, free and __assertfail -----===//
//
// Functions that PTX declares but does not define are emulated here, per
// lane: device printf (vprintf: the format string plus a packed argument
// buffer, formatted with the host's snprintf, collected per CTA and written
// in CTA order by LaunchGrid.cpp), device malloc/free (host heap, registered
// in the allocation table) and failed device assertions.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace warpscope::emu {

namespace {
void defaultSink(const char *T, size_t N) {
  std::fwrite(T, 1, N, stdout);
  std::fflush(stdout);
}
void (*PrintfSinkFn)(const char *, size_t) = defaultSink;
} // namespace

void setPrintfSink(void (*Sink)(const char *, size_t)) {
  PrintfSinkFn = Sink ? Sink : defaultSink;
}

namespace core {

void emitPrintf(const std::string &Text) {
  if (!Text.empty())
    PrintfSinkFn(Text.data(), Text.size());
}

std::string Launcher::formatPrintf(const char *Fmt, const uint8_t *Args) {
  std::string Out;
  size_t Off = 0;
  auto Take = [&](size_t Size) {
    Off = (Off + Size - 1) / Size * Size;
    uint64_t V = 0;
    if (Args)
      std::memcpy(&V, Args + Off, Size);
    Off += Size;
    return V;
  };
  const char *P = Fmt;
  while (*P) {
    if (*P != '%') {
      Out += *P++;
      continue;
    }
    if (P[1] == '%') {
      Out += '%';
      P += 2;
      continue;
    }
    std::string Spec = "%";
    ++P;
    while (*P && std::strchr("-+ #0", *P))
      Spec += *P++;
    if (*P == '*') {
      Spec += std::to_string((int32_t)Take(4));
      ++P;
    }
    while (*P >= '0' && *P <= '9')
      Spec += *P++;
    if (*P == '.') {
      Spec += *P++;
      if (*P == '*') {
        Spec += std::to_string((int32_t)Take(4));
        ++P;
      }
      while (*P >= '0' && *P <= '9')
        Spec += *P++;
    }
    int Long = 0;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' ||
          *P == 't')
        ++Long;
      ++P;
    }
    char Conv = *P;
    if (!Conv)
      break;
    ++P;
    char Buf[512];
    switch (Conv) {
    case 'd':
    case 'i': {
      int64_t V = Long ? (int64_t)Take(8) : (int64_t)(int32_t)Take(4);
      std::snprintf(Buf, sizeof Buf, (Spec + "lld").c_str(), (long long)V);
      Out += Buf;
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      uint64_t V = Long ? Take(8) : (uint32_t)Take(4);
      std::snprintf(Buf, sizeof Buf, (Spec + "ll" + Conv).c_str(),
                    (unsigned long long)V);
      Out += Buf;
      break;
    }
    case 'c': {
      int V = (int)(int32_t)Take(Long ? 8 : 4);
      std::snprintf(Buf, sizeof Buf, (Spec + "c").c_str(), V);
      Out += Buf;
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double V = get<double>(Take(8));
      std::snprintf(Buf, sizeof Buf, (Spec + Conv).c_str(), V);
      Out += Buf;
      break;
    }
    case 's': {
      const char *S = (const char *)(uintptr_t)Take(8);
      std::string Str = S ? S : "(null)";
      std::vector<char> B2(Str.size() + 512);
      std::snprintf(B2.data(), B2.size(), (Spec + "s").c_str(), Str.c_str());
      Out += B2.data();
      break;
    }
    case 'p': {
      uint64_t V = Take(8);
      std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
      Out += Buf;
      break;
    }
    default:
      Out += Spec;
      Out += Conv;
    }
  }
  return Out;
}

void Launcher::builtin(Warp &W, Frame &Fr, const Inst &I, Function &Callee,
                       uint32_t EM) {
  const uint32_t PB = Fr.F->ParamBytes;
  auto Arg = [&](int L, uint32_t K) {
    if (K >= I.NArgs)
      fail(W, *Fr.F, I, L, "missing argument to " + Callee.Name);
    uint32_t Off = Fr.F->CallArgs[I.ArgBegin + 2 * K];
    uint32_t Size = Fr.F->CallArgs[I.ArgBegin + 2 * K + 1];
    uint64_t V = 0;
    std::memcpy(&V, Fr.Param.data() + (size_t)L * PB + Off,
                std::min<uint32_t>(Size, 8));
    return V;
  };
  auto SetRet = [&](int L, uint64_t V) {
    if (I.HasRet)
      std::memcpy(Fr.Param.data() + (size_t)L * PB + I.RetOff, &V,
                  std::min<uint32_t>(I.RetSize, 8));
  };
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    switch (Callee.Bi) {
    case BiVprintf: {
      const char *Fmt = (const char *)(uintptr_t)Arg(L, 0);
      const uint8_t *Args = (const uint8_t *)(uintptr_t)Arg(L, 1);
      std::string S = Fmt ? formatPrintf(Fmt, Args) : std::string();
      Out += S; // emitted in CTA order by LaunchGrid.cpp
      SetRet(L, (uint64_t)S.size());
      break;
    }
    case BiMalloc: {
      void *Ptr = std::malloc(Arg(L, 0) ? Arg(L, 0) : 1);
      if (Ptr)
        registerAllocation(Ptr, Arg(L, 0));
      SetRet(L, (uint64_t)(uintptr_t)Ptr);
      break;
    }
    case BiFree: {
      void *Ptr = (void *)(uintptr_t)Arg(L, 0);
      if (Ptr) {
        unregisterAllocation(Ptr);
        std::free(Ptr);
        // This worker's instructions may have cached the freed block.
        std::fill(std::begin(Regions), std::end(Regions), RegionCache());
      }
      break;
    }
    case BiAssert: {
      const char *Msg = (const char *)(uintptr_t)Arg(L, 0);
      const char *File = (const char *)(uintptr_t)Arg(L, 1);
      uint32_t Line = (uint32_t)Arg(L, 2);
      fail(W, *Fr.F, I, L,
           std::string("device assertion failed: ") + (Msg ? Msg : "?") +
               " at " + (File ? File : "?") + ":" + std::to_string(Line),
           LaunchFault::Assert);
    }
    default:
      fail(W, *Fr.F, I, L,
           "call to external function '" + Callee.Name + "' without a body");
    }
  }
}

} // namespace core
} // namespace warpscope::emu
