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
#include <cstdint>
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

bool Launcher::deviceString(const Warp &W, uint64_t A, size_t Max,
                            std::string &Out, std::string &Why) {
  uint64_t Lo = 0, N = 0;
  if (!memoryAt(W, A, Lo, N)) {
    if (Check || A < 4096) {
      Why = hexAddr(A) + " is outside every allocation" +
            (A < 4096 ? std::string()
                      : std::string(": ") + nearestAllocation(A, 1));
      return false;
    }
    // A core user's unregistered host memory: read as given.
    const char *P = (const char *)(uintptr_t)A;
    Out.assign(P, strnlen(P, Max));
    return true;
  }
  const char *P = (const char *)(uintptr_t)A;
  const uint64_t Room = Lo + N - A;
  const size_t Len = strnlen(P, (size_t)std::min<uint64_t>(Room, Max));
  if (Len == Room && Len < Max) {
    Why = "the string at " + hexAddr(A) + " runs past the end of its memory (" +
          std::to_string(N) + " bytes at " + hexAddr(Lo) +
          ") with no terminating NUL";
    return false;
  }
  if (Lo == (uint64_t)(uintptr_t)Shared) // a string in shared memory
    noteShared(A - Lo + std::min<uint64_t>(Len + 1, Room));
  Out.assign(P, Len);
  return true;
}

namespace {

// One conversion of a printf format, read after its '%': the flags, width
// and precision as snprintf takes them ("%-08.3"), whether a length
// modifier (l, ll, L, q, j, z, t) makes its argument 64-bit, and the
// conversion character (0: the format ended inside it).
struct Conversion {
  std::string Spec = "%";
  bool Long = false;
  char Conv = 0;
};

// Reads the conversion at P, leaving P after it; a '*' width or precision
// is the next int argument (Take(4)).
template <class TakeFn>
Conversion parseConversion(const char *&P, TakeFn &Take) {
  Conversion C;
  // A width or a precision.
  auto Count = [&]() {
    if (*P == '*') {
      C.Spec += std::to_string((int32_t)Take(4));
      ++P;
    }
    while (*P >= '0' && *P <= '9')
      C.Spec += *P++;
  };
  while (*P && std::strchr("-+ #0", *P))
    C.Spec += *P++;
  Count();
  if (*P == '.') {
    C.Spec += *P++;
    Count();
  }
  while (*P && std::strchr("hlLqjzt", *P)) {
    if (*P != 'h')
      C.Long = true;
    ++P;
  }
  C.Conv = *P;
  if (C.Conv)
    ++P;
  return C;
}

// Appends conversion C of the next argument (Take(Size) reads it) to Out,
// formatted by the host's snprintf; a conversion it does not know is
// copied as written. Not %s, whose string is in device memory.
template <class TakeFn>
void formatValue(std::string &Out, const Conversion &C, TakeFn &Take) {
  const std::string &Spec = C.Spec;
  const char Conv = C.Conv;
  char Buf[512];
  switch (Conv) {
  case 'd':
  case 'i': {
    int64_t V = C.Long ? (int64_t)Take(8) : (int64_t)(int32_t)Take(4);
    std::snprintf(Buf, sizeof Buf, (Spec + "lld").c_str(), (long long)V);
    Out += Buf;
    break;
  }
  case 'u':
  case 'x':
  case 'X':
  case 'o': {
    uint64_t V = C.Long ? Take(8) : (uint32_t)Take(4);
    std::snprintf(Buf, sizeof Buf, (Spec + "ll" + Conv).c_str(),
                  (unsigned long long)V);
    Out += Buf;
    break;
  }
  case 'c': {
    int V = (int)(int32_t)Take(C.Long ? 8 : 4);
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

} // namespace

std::string Launcher::formatPrintf(Warp &W, Frame &Fr, const Inst &I, int L,
                                   uint64_t FmtAddr, uint64_t ArgsAddr) {
  std::string FmtStr, Why;
  if (!deviceString(W, FmtAddr, SIZE_MAX, FmtStr, Why))
    failAddress(W, Fr, I, L, "printf's format string: " + Why);
  // The format as C source writes it, for one-line messages.
  std::string Quoted = "\"";
  for (char C : FmtStr)
    Quoted += C == '\n' ? std::string("\\n") : std::string(1, C);
  Quoted += '"';
  // The argument buffer: the format may read only inside its memory.
  uint64_t ArgsLo = 0, ArgsN = 0;
  const uint8_t *Args = (const uint8_t *)(uintptr_t)ArgsAddr;
  uint64_t ArgsRoom = 0;
  std::string ArgsWhy = "none were passed";
  if (ArgsAddr && memoryAt(W, ArgsAddr, ArgsLo, ArgsN)) {
    ArgsRoom = ArgsLo + ArgsN - ArgsAddr;
    ArgsWhy = "the argument buffer at " + hexAddr(ArgsAddr) + " ends first";
  } else if (ArgsAddr && !Check && ArgsAddr >= 4096) {
    ArgsRoom = UINT64_MAX; // unregistered host memory (a core user)
  } else if (ArgsAddr) {
    ArgsWhy = "its argument buffer at " + hexAddr(ArgsAddr) +
              " is outside every allocation";
  }
  std::string Out;
  size_t Off = 0;
  auto Take = [&](size_t Size) {
    Off = (Off + Size - 1) / Size * Size;
    if (Off + Size > ArgsRoom)
      failAddress(W, Fr, I, L,
                  "printf format " + Quoted + " reads " +
                      std::to_string(Off + Size) + " bytes of arguments but " +
                      ArgsWhy);
    uint64_t V = 0;
    std::memcpy(&V, Args + Off, Size);
    Off += Size;
    return V;
  };
  const char *P = FmtStr.c_str();
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
    ++P;
    const Conversion C = parseConversion(P, Take);
    if (!C.Conv)
      break;
    if (C.Conv != 's') {
      formatValue(Out, C, Take);
      continue;
    }
    const uint64_t SA = Take(8);
    // %.Ns reads at most N bytes, which need not end in a NUL.
    size_t Dot = C.Spec.find('.');
    size_t Max =
        Dot == std::string::npos
            ? SIZE_MAX
            : (size_t)std::strtoull(C.Spec.c_str() + Dot + 1, nullptr, 10);
    std::string Str = "(null)";
    if (SA && !deviceString(W, SA, Max, Str, Why))
      failAddress(W, Fr, I, L,
                  "printf's %s argument: " + Why + " (format " + Quoted + ")");
    int Len = std::snprintf(nullptr, 0, (C.Spec + "s").c_str(), Str.c_str());
    if (Len > 0) {
      std::vector<char> B2((size_t)Len + 1);
      std::snprintf(B2.data(), B2.size(), (C.Spec + "s").c_str(), Str.c_str());
      Out.append(B2.data(), (size_t)Len);
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
      const uint64_t Fmt = Arg(L, 0);
      std::string S =
          Fmt ? formatPrintf(W, Fr, I, L, Fmt, Arg(L, 1)) : std::string();
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
      // __assertfail(message, file, line, function, charSize): each string
      // read from device memory; one that cannot be read is named instead.
      auto Str = [&](uint32_t K, const char *What) {
        std::string S, Why;
        uint64_t A = K < I.NArgs ? Arg(L, K) : 0;
        if (!A)
          return std::string("?");
        if (!deviceString(W, A, SIZE_MAX, S, Why))
          return "(" + std::string(What) + " unreadable: " + Why + ")";
        return S;
      };
      std::string Msg = Str(0, "message"), File = Str(1, "file"),
                  Func = Str(3, "function");
      uint32_t Line = I.NArgs > 2 ? (uint32_t)Arg(L, 2) : 0;
      fail(W, *Fr.F, I, L,
           "device assertion failed: " + Msg + " at " + File + ":" +
               std::to_string(Line) + " in " + Func,
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
