//===- Memory.cpp - address spaces, loads, stores and atomics -------------===//
//
// The executor's memory concern: resolving shared, local, param and global
// (generic) addresses with their bounds checks, ld/st with fast paths for
// the common scalar accesses, atom/red (host atomics on memory other CTAs
// see: CTAs run on several threads), cvta and isspacep, and the table of
// allocations that checked global accesses (the stand-in cudart's) must fall
// into. Device memory is host memory: a global address is a host pointer,
// checked against the allocation table through a per-instruction cache of
// the region it last fell in (one range compare per lane on the hot path).
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <shared_mutex>

namespace warpscope::emu {

namespace {
std::shared_mutex AllocMu;
std::map<uintptr_t, size_t> &allocs() {
  static std::map<uintptr_t, size_t> M;
  return M;
}
} // namespace

void registerAllocation(void *Ptr, size_t Size) {
  std::unique_lock<std::shared_mutex> L(AllocMu);
  allocs()[(uintptr_t)Ptr] = Size;
}
void unregisterAllocation(void *Ptr) {
  std::unique_lock<std::shared_mutex> L(AllocMu);
  allocs().erase((uintptr_t)Ptr);
}

namespace core {

// The registered allocation holding [A, A + N): its start and size.
static bool findAllocation(uint64_t A, uint64_t N, uint64_t &Lo,
                           uint64_t &Size) {
  std::shared_lock<std::shared_mutex> L(AllocMu);
  auto &M = allocs();
  auto It = M.upper_bound((uintptr_t)A);
  if (It == M.begin())
    return false;
  --It;
  if (A < It->first || A + N > It->first + It->second || A + N < A)
    return false;
  Lo = It->first;
  Size = It->second;
  return true;
}

std::string hexAddr(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
  return Buf;
}

// Where an illegal access of N bytes at A lies relative to the nearest
// registered allocation, as compute-sanitizer's memcheck words it.
std::string nearestAllocation(uint64_t A, uint64_t N) {
  std::shared_lock<std::shared_mutex> L(AllocMu);
  auto &M = allocs();
  if (M.empty())
    return "no allocation is registered";
  auto After = M.upper_bound((uintptr_t)A);
  uint64_t BestDist = UINT64_MAX;
  std::string Best;
  if (After != M.begin()) {
    auto B = std::prev(After);
    uint64_t End = B->first + B->second;
    uint64_t D = A >= End ? A - End : 0;
    BestDist = D;
    Best = A >= End ? std::to_string(D) + " bytes after"
                    : std::to_string(A + N - End) + " bytes past the end of";
    Best += " the nearest allocation, at " + hexAddr(B->first) + " of " +
            std::to_string(B->second) + " bytes";
  }
  if (After != M.end() && After->first - A < BestDist)
    Best = std::to_string(After->first - A) +
           " bytes before the nearest allocation, at " + hexAddr(After->first) +
           " of " + std::to_string(After->second) + " bytes";
  return Best;
}

// [A, E) inside the parameters of one of W's frames (cvta.param pointers
// may be passed down to callees).
static bool inFrameParams(const Warp &W, uint64_t A, uint64_t E) {
  for (uint32_t D = 0; D < W.Depth; ++D) {
    const std::vector<uint8_t> &P = W.Frames[D]->Param;
    uint64_t Lo = (uint64_t)(uintptr_t)P.data();
    if (A >= Lo && E <= Lo + P.size())
      return true;
  }
  return false;
}

// The alignment an access of Size bytes needs, minus one: its size when a
// power of two (every ld/st/atom, vectors included), else none (cp.async's
// partial source sizes).
static inline uint64_t alignMask(unsigned Size) {
  return (Size & (Size - 1)) ? 0 : Size - 1;
}

bool Launcher::memoryAt(const Warp &W, uint64_t A, uint64_t &Lo,
                        uint64_t &N) const {
  const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
  const uint64_t LoLo = (uint64_t)(uintptr_t)LocalBuf.data();
  const uint64_t LoEnd = LoLo + (uint64_t)LocalStack * NWarps * 32;
  if (A - ShLo < SharedSize) {
    Lo = ShLo, N = SharedSize;
    return true;
  }
  if (A - LoLo < LoEnd - LoLo) {
    Lo = LoLo, N = LoEnd - LoLo;
    return true;
  }
  for (uint32_t D = 0; D < W.Depth; ++D) {
    const std::vector<uint8_t> &P = W.Frames[D]->Param;
    uint64_t PLo = (uint64_t)(uintptr_t)P.data();
    if (A - PLo < P.size()) {
      Lo = PLo, N = P.size();
      return true;
    }
  }
  return findAllocation(A, 1, Lo, N);
}

void Launcher::failMisaligned(const Warp &W, const Frame &Fr, const Inst &I,
                              int Lane, uint8_t Space, uint64_t A,
                              unsigned Size) {
  std::string What = I.Op == OpLd                      ? "read"
                     : I.Op == OpSt                    ? "write"
                     : I.Op == OpAtom || I.Op == OpRed ? "atomic access"
                                                       : "access";
  std::string Where =
      Space == SpShared  ? "shared memory " + What + " of " +
                               std::to_string(Size) + " bytes at offset "
      : Space == SpLocal ? "local memory " + What + " of " +
                               std::to_string(Size) + " bytes at offset "
                         : What + " of " + std::to_string(Size) + " bytes at ";
  fail(W, *Fr.F, I, Lane,
       "misaligned address: " + Where +
           (Space == SpShared || Space == SpLocal ? std::to_string(A)
                                                  : hexAddr(A)) +
           " is not a multiple of " + std::to_string(Size),
       LaunchFault::MisalignedAddress);
}

// A generic/global access of Size bytes at A that missed the instruction's
// cached region: finds the memory holding it (the CTA's shared memory, the
// launch's local memory, the frame's parameters, a registered allocation or
// module variable), remembers it for the instruction, or fails the launch
// with cudaErrorIllegalAddress. Cold: an instruction misses once per region.
void Launcher::checkGlobal(Warp &W, Frame &Fr, const Inst &I, uint64_t A, int L,
                           unsigned Size) {
  const uint64_t E = A + Size;
  const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
  const uint64_t LoLo = (uint64_t)(uintptr_t)LocalBuf.data();
  const uint64_t LoEnd = LoLo + (uint64_t)LocalStack * NWarps * 32;
  uint64_t Lo = 0, N = 0;
  if (E < A) {
    // Wraps around: never memory.
  } else if (SharedSize && A >= ShLo && E <= ShLo + SharedSize) {
    Lo = ShLo, N = SharedSize;
  } else if (A >= ShLo && A < ShLo + SharedSize + SharedGuard) {
    failAddress(W, Fr, I, L,
                "shared memory access out of range (generic address, offset " +
                    std::to_string(A - ShLo) + ", size " +
                    std::to_string(SharedSize) + ")");
  } else if (LoEnd > LoLo && A >= LoLo && E <= LoEnd) {
    Lo = LoLo, N = LoEnd - LoLo;
  } else if (LoEnd > LoLo && E > LoEnd && A < LoEnd + LocalGuard) {
    failAddress(W, Fr, I, L,
                "local memory access out of range (generic address past the "
                "last thread's window)");
  } else if (inFrameParams(W, A, E)) {
    return; // a frame's parameters: the vector may move, so never cached
  } else {
    findAllocation(A, Size, Lo, N);
  }
  if (!N)
    failAddress(
        W, Fr, I, L,
        std::string(I.Op == OpLd   ? "read"
                    : I.Op == OpSt ? "write"
                                   : "access") +
            " of " + std::to_string(Size) + " bytes at " + hexAddr(A) +
            " is outside every allocation: " + nearestAllocation(A, Size));
  if (A & alignMask(Size))
    failMisaligned(W, Fr, I, L, SpGeneric, A, Size);
  // Cached from the region's first address aligned for this access: below
  // it every access is misaligned, so the fast paths' one rotate-and-compare
  // tests bounds and alignment at once.
  const uint64_t Up = (Lo + alignMask(Size)) & ~alignMask(Size);
  RegionCache &C = regionOf(I);
  C.Key = &I;
  C.Lo = Up;
  C.Size = N - (Up - Lo);
}

inline uint8_t *Launcher::addr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space,
                               uint64_t A, int L, unsigned Size) {
  switch (Space) {
  case SpShared:
    if ((uint64_t)A + Size > SharedSize || A > SharedSize)
      failAddress(W, Fr, I, L,
                  "shared memory access out of range (offset " +
                      std::to_string((int64_t)A) + ", size " +
                      std::to_string(SharedSize) + ")");
    if (A & alignMask(Size))
      failMisaligned(W, Fr, I, L, SpShared, A, Size);
    return Shared + A;
  case SpLocal:
    if ((uint64_t)A + Size > LocalStack || A > LocalStack)
      failAddress(W, Fr, I, L,
                  "local memory access out of range (offset " +
                      std::to_string((int64_t)A) + ", size " +
                      std::to_string(LocalStack) + ")");
    if (A & alignMask(Size))
      failMisaligned(W, Fr, I, L, SpLocal, A, Size);
    return W.LaneLocal[L] + A;
  case SpParam:
    if ((uint64_t)A + Size > Fr.F->ParamBytes || A > Fr.F->ParamBytes)
      fail(W, *Fr.F, I, L,
           "param access out of range (offset " + std::to_string((int64_t)A) +
               ")");
    return Fr.Param.data() + (size_t)L * Fr.F->ParamBytes + A;
  default:
    if (Check) {
      const RegionCache &C = regionOf(I);
      if (C.Key != &I || C.Size < Size || A - C.Lo > C.Size - Size ||
          (A & alignMask(Size)))
        checkGlobal(W, Fr, I, A, L, Size);
      return (uint8_t *)(uintptr_t)A;
    }
    if (!LocalBuf.empty()) {
      uint64_t LoEnd = (uint64_t)(uintptr_t)LocalBuf.data() +
                       (size_t)LocalStack * NWarps * 32;
      if (A + Size > LoEnd && A < LoEnd + LocalGuard)
        failAddress(W, Fr, I, L,
                    "local memory access out of range (generic address past "
                    "the last thread's window)");
    }
    if (A - (uint64_t)(uintptr_t)Shared < SharedSize + SharedGuard &&
        A + Size > (uint64_t)(uintptr_t)Shared + SharedSize)
      failAddress(W, Fr, I, L,
                  "shared memory access out of range (generic address, "
                  "offset " +
                      std::to_string(A - (uint64_t)(uintptr_t)Shared) +
                      ", size " + std::to_string(SharedSize) + ")");
    if (A < 4096)
      failAddress(W, Fr, I, L, "invalid global address " + hexAddr(A));
    // (A frame's parameters hold each lane's copy at a stride that may not
    // keep the alignment: never misaligned, as checkGlobal has it.)
    if ((A & alignMask(Size)) && !inFrameParams(W, A, A + Size))
      failMisaligned(W, Fr, I, L, Space, A, Size);
    return (uint8_t *)(uintptr_t)A;
  }
}

uint8_t *Launcher::elemAddr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space,
                            uint64_t A, int L, unsigned Size) {
  return addr(W, Fr, I, Space == SpConst ? (uint8_t)SpGlobal : Space, A, L,
              Size);
}

static inline uint64_t loadBits(const uint8_t *P, unsigned Size, bool Signed) {
  switch (Size) {
  case 1: {
    uint8_t V;
    std::memcpy(&V, P, 1);
    return Signed ? (uint64_t)(int64_t)(int8_t)V : V;
  }
  case 2: {
    uint16_t V;
    std::memcpy(&V, P, 2);
    return Signed ? (uint64_t)(int64_t)(int16_t)V : V;
  }
  case 4: {
    uint32_t V;
    std::memcpy(&V, P, 4);
    return Signed ? (uint64_t)(int64_t)(int32_t)V : V;
  }
  default: {
    uint64_t V;
    std::memcpy(&V, P, 8);
    return V;
  }
  }
}
static inline void storeBits(uint8_t *P, unsigned Size, uint64_t V) {
  std::memcpy(P, &V, Size);
}

// The fast paths' access kinds.
enum LaneKind { KStore, KLoad, KLoadSigned };

template <unsigned ES, int Kind>
static inline void laneAccess(uint8_t *H, uint64_t &D, uint64_t S) {
  if constexpr (Kind == KStore)
    storeBits(H, ES, S);
  else
    D = loadBits(H, ES, Kind == KLoadSigned);
}

// X rotated right by Sh bits (0 <= Sh < 64): one instruction.
static inline uint64_t rotr(uint64_t X, unsigned Sh) {
  return (X >> Sh) | (X << ((64 - Sh) & 63));
}

// A global/generic scalar access of ES bytes per lane, checked against the
// region this instruction last accessed (its start aligned to ES). A lane
// passes when its offset from that start, rotated right by log2(ES), is
// below Lim: one subtract, rotate and compare test bounds and alignment
// (a misaligned offset's low bits rotate to the top and make it huge).
template <unsigned ES, int Kind>
void Launcher::globalLanes(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  constexpr unsigned Sh = __builtin_ctz(ES);
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const uint64_t *S = R + (size_t)I.S[0] * 32;
  // In locals: the stores below could alias the cache as far as the
  // compiler knows. Lim 0 sends every lane to checkGlobal (a cached region
  // holds at least one access: Size >= ES).
  // (So are I.Off and the shared window's base: copies, read once.)
  const RegionCache &C = regionOf(I);
  const uint64_t Off = (uint64_t)I.Off;
  uint64_t Lo = C.Lo, Lim = C.Key == &I ? ((C.Size - ES) >> Sh) + 1 : 0;
  for (uint32_t M = EM; M; M &= M - 1) {
    const int L = __builtin_ctz(M);
    const uint64_t Ad = A[L] + Off;
    if (__builtin_expect(rotr(Ad - Lo, Sh) >= Lim, 0)) {
      checkGlobal(W, Fr, I, Ad, L, ES); // caches the region, or fails
      if (C.Key == &I)                  // not for a parameter address
        Lo = C.Lo, Lim = ((C.Size - ES) >> Sh) + 1;
    }
    laneAccess<ES, Kind>((uint8_t *)(uintptr_t)Ad, D[L], S[L]);
  }
}

// A shared or local scalar access: the same rotate-and-compare against the
// window (its offsets start at 0, aligned).
template <unsigned ES, int Kind, bool IsShared>
void Launcher::windowLanes(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  constexpr unsigned Sh = __builtin_ctz(ES);
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const uint64_t *S = R + (size_t)I.S[0] * 32;
  const uint64_t Limit = IsShared ? SharedSize : LocalStack;
  const uint64_t Lim = Limit >= ES ? ((Limit - ES) >> Sh) + 1 : 0;
  const uint64_t Off = (uint64_t)I.Off;
  uint8_t *const Base = Shared;
  for (uint32_t M = EM; M; M &= M - 1) {
    const int L = __builtin_ctz(M);
    const uint64_t Ad = A[L] + Off;
    if (__builtin_expect(rotr(Ad, Sh) >= Lim, 0)) // reports the error
      addr(W, Fr, I, IsShared ? (uint8_t)SpShared : (uint8_t)SpLocal, Ad, L,
           ES);
    laneAccess<ES, Kind>((IsShared ? Base : W.LaneLocal[L]) + Ad, D[L], S[L]);
  }
}

// Picks the fast path's instance for I's size and kind; false when there is
// none (other sizes).
#define WS_SCALAR_DISPATCH(CALL)                                               \
  switch (ES * 4 + Kind) {                                                     \
  case 1 * 4 + KStore:                                                         \
    CALL(1, KStore);                                                           \
    return;                                                                    \
  case 1 * 4 + KLoad:                                                          \
    CALL(1, KLoad);                                                            \
    return;                                                                    \
  case 1 * 4 + KLoadSigned:                                                    \
    CALL(1, KLoadSigned);                                                      \
    return;                                                                    \
  case 2 * 4 + KStore:                                                         \
    CALL(2, KStore);                                                           \
    return;                                                                    \
  case 2 * 4 + KLoad:                                                          \
    CALL(2, KLoad);                                                            \
    return;                                                                    \
  case 2 * 4 + KLoadSigned:                                                    \
    CALL(2, KLoadSigned);                                                      \
    return;                                                                    \
  case 4 * 4 + KStore:                                                         \
    CALL(4, KStore);                                                           \
    return;                                                                    \
  case 4 * 4 + KLoad:                                                          \
    CALL(4, KLoad);                                                            \
    return;                                                                    \
  case 4 * 4 + KLoadSigned:                                                    \
    CALL(4, KLoadSigned);                                                      \
    return;                                                                    \
  case 8 * 4 + KStore:                                                         \
    CALL(8, KStore);                                                           \
    return;                                                                    \
  case 8 * 4 + KLoad:                                                          \
  case 8 * 4 + KLoadSigned:                                                    \
    CALL(8, KLoad);                                                            \
    return;                                                                    \
  default:                                                                     \
    break;                                                                     \
  }

void Launcher::execMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  const unsigned ES = tySize(I.T);
  const unsigned N = I.Vec;
  const bool Signed = tySigned(I.T);
  const uint8_t Sp = I.Space == SpConst ? (uint8_t)SpGlobal : I.Space;
  if (CountMem)
    countMem(W, Fr, I, EM);
  if (__builtin_expect(Race, 0))
    raceAccess(W, Fr, I, EM, Sp, ES * N, I.Op == OpLd ? RaceRead : RaceWrite);
  const int Kind = I.Op == OpSt ? KStore : Signed ? KLoadSigned : KLoad;
  if (Check && Sp != SpShared && Sp != SpLocal && Sp != SpParam && N == 1) {
#define WS_GLOBAL(E, K) globalLanes<E, K>(W, Fr, I, EM)
    WS_SCALAR_DISPATCH(WS_GLOBAL)
#undef WS_GLOBAL
  }
  if (Sp == SpShared && N == 1) {
#define WS_SHARED(E, K) windowLanes<E, K, true>(W, Fr, I, EM)
    WS_SCALAR_DISPATCH(WS_SHARED)
#undef WS_SHARED
  }
  if (Sp == SpLocal && N == 1) {
#define WS_LOCAL(E, K) windowLanes<E, K, false>(W, Fr, I, EM)
    WS_SCALAR_DISPATCH(WS_LOCAL)
#undef WS_LOCAL
  }
  if (!Check && Sp != SpShared && Sp != SpLocal && Sp != SpParam && N == 1 &&
      ES <= 8) {
    // Unchecked (a core user without an allocation table): only null
    // pages, misaligned addresses and the guards past shared and local
    // memory are caught.
    const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
    const uint64_t ShEnd = ShLo + SharedSize;
    const uint64_t LoEnd =
        (uint64_t)(uintptr_t)LocalBuf.data() + (size_t)LocalStack * NWarps * 32;
    uint64_t *D = R + (size_t)I.D[0] * 32;
    const uint64_t *S = R + (size_t)I.S[0] * 32;
    const bool Ld = I.Op == OpLd;
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1))
        continue;
      uint64_t Ad = A[L] + (uint64_t)I.Off;
      if (__builtin_expect(
              Ad < 4096 || (Ad & (ES - 1)) ||
                  (Ad - ShLo < SharedSize + SharedGuard && Ad + ES > ShEnd) ||
                  (Ad + ES > LoEnd && Ad < LoEnd + LocalGuard),
              0))
        addr(W, Fr, I, Sp, Ad, L, ES); // reports the error
      uint8_t *H = (uint8_t *)(uintptr_t)Ad;
      if (Ld)
        D[L] = loadBits(H, ES, Signed);
      else
        storeBits(H, ES, S[L]);
    }
    return;
  }
  if (I.Op == OpLd) {
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1))
        continue;
      uint8_t *H = addr(W, Fr, I, Sp, A[L] + (uint64_t)I.Off, L, ES * N);
      for (unsigned V = 0; V < N; ++V)
        R[(size_t)I.D[V] * 32 + L] = loadBits(H + V * ES, ES, Signed);
    }
  } else {
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1))
        continue;
      uint8_t *H = addr(W, Fr, I, Sp, A[L] + (uint64_t)I.Off, L, ES * N);
      for (unsigned V = 0; V < N; ++V)
        storeBits(H + V * ES, ES, R[(size_t)I.S[V] * 32 + L]);
    }
  }
}
#undef WS_SCALAR_DISPATCH

template <class T> static T atomicApply(uint8_t Op, T Old, T B, T C) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (Op) {
    case AtAdd:
      return Old + B;
    case AtMin:
      return fminPtx(Old, B, false);
    case AtMax:
      return fmaxPtx(Old, B, false);
    case AtExch:
      return B;
    case AtCas:
      return Old == B ? C : Old;
    default:
      return Old;
    }
  } else {
    switch (Op) {
    case AtAdd:
      return (T)(Old + B);
    case AtMin:
      return Old < B ? Old : B;
    case AtMax:
      return Old > B ? Old : B;
    case AtInc:
      return (std::make_unsigned_t<T>)Old >= (std::make_unsigned_t<T>)B
                 ? 0
                 : (T)(Old + 1);
    case AtDec:
      return (Old == 0 ||
              (std::make_unsigned_t<T>)Old > (std::make_unsigned_t<T>)B)
                 ? B
                 : (T)(Old - 1);
    case AtAnd:
      return Old & B;
    case AtOr:
      return Old | B;
    case AtXor:
      return Old ^ B;
    case AtExch:
      return B;
    case AtCas:
      return Old == B ? C : Old;
    }
    return Old;
  }
}

// An atom/red on memory other CTAs can see (global, or a generic address
// outside this worker's shared and local windows) is a host atomic on the
// emulated device memory: add/and/or/xor/exch on integers are fetch-ops,
// everything else a compare-and-swap loop around the same arithmetic the
// plain path does. Sequentially consistent, as a GPU atomic followed by a
// fence would be (on x86 every locked read-modify-write is a full fence).
template <class U, class F>
static uint64_t hostAtomic(uint8_t *H, uint8_t Op, bool IntFetchOp, uint64_t B,
                           const F &NewOf) {
  U *Ptr = reinterpret_cast<U *>(H);
  if (IntFetchOp) {
    switch (Op) {
    case AtAdd:
      return __atomic_fetch_add(Ptr, (U)B, __ATOMIC_SEQ_CST);
    case AtAnd:
      return __atomic_fetch_and(Ptr, (U)B, __ATOMIC_SEQ_CST);
    case AtOr:
      return __atomic_fetch_or(Ptr, (U)B, __ATOMIC_SEQ_CST);
    case AtXor:
      return __atomic_fetch_xor(Ptr, (U)B, __ATOMIC_SEQ_CST);
    case AtExch:
      return __atomic_exchange_n(Ptr, (U)B, __ATOMIC_SEQ_CST);
    default:
      break;
    }
  }
  U Old = __atomic_load_n(Ptr, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(Ptr, &Old, (U)NewOf(Old), true,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return Old;
}

bool Launcher::privateToCta(const Inst &I, const uint8_t *H) const {
  if (I.Space == SpShared || I.Space == SpLocal)
    return true;
  if (I.Space != SpGeneric)
    return false;
  uintptr_t A = (uintptr_t)H;
  return (A - (uintptr_t)Shared < SharedSize) ||
         (!LocalBuf.empty() &&
          A - (uintptr_t)LocalBuf.data() < LocalBuf.size());
}

void Launcher::execAtom(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  const uint64_t *B = R + (size_t)I.S[0] * 32;
  const uint64_t *C = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  unsigned ES = tySize(I.T);
  const bool IsInt = !tyFloat(I.T);
  if (CountMem)
    countMem(W, Fr, I, EM);
  if (I.Vec != 1) // atom/red.global.add.v2/.v4.f32 (the decoder allows no
    return atomAddVecF32(W, Fr, I, EM); // other vector form)
  // Atomics are no hazards against each other, only against plain accesses.
  if (__builtin_expect(Race, 0))
    raceAccess(W, Fr, I, EM, I.Space, ES, RaceAtomic);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint8_t *H = addr(W, Fr, I, I.Space, A[L] + (uint64_t)I.Off, L, ES);
    // The new value from the old one (both as raw bits).
    auto NewOf = [&](uint64_t Old) -> uint64_t {
      uint64_t New = Old;
      auto Do = [&](auto Tag) {
        using T = decltype(Tag);
        New = put<T>(
            atomicApply<T>(I.Sub, get<T>(Old), get<T>(B[L]), get<T>(C[L])));
      };
      switch (I.T) {
      case Ty::F32:
        Do(float{});
        break;
      case Ty::F64:
        Do(double{});
        break;
      case Ty::F16:
      case Ty::BF16: {
        bool Bf = I.T == Ty::BF16;
        if (I.Sub == AtAdd)
          New = halfPut(
              halfGet((uint32_t)Old, Bf) + halfGet((uint32_t)B[L], Bf), Bf);
        else if (I.Sub == AtExch)
          New = B[L];
        else if (I.Sub == AtCas)
          New = (uint16_t)Old == (uint16_t)B[L] ? C[L] : Old;
        else
          fail(W, *Fr.F, I, L, "unsupported atomic");
        break;
      }
      case Ty::F16x2:
      case Ty::BF16x2: {
        bool Bf = I.T == Ty::BF16x2;
        if (I.Sub != AtAdd)
          fail(W, *Fr.F, I, L, "unsupported atomic");
        uint32_t Lo = halfPut(halfGet((uint32_t)Old & 0xffff, Bf) +
                                  halfGet((uint32_t)B[L] & 0xffff, Bf),
                              Bf);
        uint32_t Hi = halfPut(halfGet((uint32_t)(Old >> 16) & 0xffff, Bf) +
                                  halfGet((uint32_t)(B[L] >> 16) & 0xffff, Bf),
                              Bf);
        New = Lo | (Hi << 16);
        break;
      }
      default:
        if (!intDispatch(I.T, Do))
          fail(W, *Fr.F, I, L, "unsupported atomic type");
      }
      return New;
    };
    uint64_t Old;
    if (privateToCta(I, H)) {
      Old = loadBits(H, ES, false);
      storeBits(H, ES, NewOf(Old));
    } else {
      bool FetchOp = IsInt && I.Sub != AtMin && I.Sub != AtMax &&
                     I.Sub != AtInc && I.Sub != AtDec && I.Sub != AtCas;
      switch (ES) {
      case 2:
        Old = hostAtomic<uint16_t>(H, I.Sub, FetchOp, B[L], NewOf);
        break;
      case 4:
        Old = hostAtomic<uint32_t>(H, I.Sub, FetchOp, B[L], NewOf);
        break;
      case 8:
        Old = hostAtomic<uint64_t>(H, I.Sub, FetchOp, B[L], NewOf);
        break;
      default:
        fail(W, *Fr.F, I, L,
             "unsupported atomic size " + std::to_string(ES) + " bytes");
      }
    }
    if (I.Op == OpAtom)
      D[L] = Old;
  }
}

// atom.global.add.v2/.v4.f32: each element is its own atomic f32 add (with
// the scalar form's rounding); atom returns the old values.
void Launcher::atomAddVecF32(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  if (__builtin_expect(Race, 0))
    raceAccess(W, Fr, I, EM, I.Space, 4 * I.Vec, RaceAtomic);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint8_t *H = addr(W, Fr, I, I.Space, A[L] + (uint64_t)I.Off, L, 4 * I.Vec);
    const bool Private = privateToCta(I, H);
    for (unsigned V = 0; V < I.Vec; ++V) {
      uint64_t B = R[(size_t)I.S[V] * 32 + L];
      auto NewOf = [&](uint64_t Old) -> uint64_t {
        return put<float>(get<float>(Old) + get<float>(B));
      };
      uint64_t Old;
      if (Private) {
        Old = loadBits(H + 4 * V, 4, false);
        storeBits(H + 4 * V, 4, NewOf(Old));
      } else { // shared with other workers' CTAs: a host atomic
        Old = hostAtomic<uint32_t>(H + 4 * V, AtAdd, false, B, NewOf);
      }
      if (I.Op == OpAtom)
        R[(size_t)I.D[V] * 32 + L] = Old;
    }
  }
}

// cp.async.{ca,cg}.shared.global: copied when issued, which is what a
// program may observe: it may read the destination only after
// cp.async.wait_group/wait_all. Bytes from src-size on (or all of them when
// ignore-src is true) are zero-filled.
void Launcher::execCpAsync(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  const uint64_t *R = Fr.Regs.data();
  const uint64_t *Dst = R + (size_t)I.Addr * 32;
  const uint64_t *Src = R + (size_t)I.S[0] * 32;
  const uint64_t *SrcSize = R + (size_t)I.S[1] * 32;
  const uint64_t *SrcOff = R + (size_t)I.S[2] * 32;
  const unsigned Size = I.Sub;
  if (__builtin_expect(Race, 0)) // the destination is written at issue
    raceAccess(W, Fr, I, EM, SpShared, Size, RaceWrite);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    unsigned N;
    if (I.Bool) // ignore-src predicate
      N = ((SrcSize[L] & 1) != 0) != ((I.Flags & FNegC) != 0) ? 0 : Size;
    else
      N = (unsigned)std::min<uint64_t>((uint32_t)SrcSize[L], Size);
    uint8_t *D = addr(W, Fr, I, SpShared, Dst[L] + (uint64_t)I.Off, L, Size);
    uint8_t Buf[16] = {};
    if (N)
      std::memcpy(Buf, addr(W, Fr, I, SpGlobal, Src[L] + SrcOff[L], L, N), N);
    std::memcpy(D, Buf, Size);
  }
}

void Launcher::execCvta(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  bool To = I.Flags & FToSpace;
  switch (I.Space) {
  case SpShared: {
    uint64_t Base = (uint64_t)(uintptr_t)Shared;
    if (To)
      LANES(D[l] = A[l] - Base);
    else
      LANES(D[l] = A[l] + Base);
    break;
  }
  case SpLocal:
    if (To)
      LANES(D[l] = A[l] - (uint64_t)(uintptr_t)W.LaneLocal[l]);
    else
      LANES(D[l] = A[l] + (uint64_t)(uintptr_t)W.LaneLocal[l]);
    break;
  case SpParam: {
    uint64_t Base = (uint64_t)(uintptr_t)Fr.Param.data();
    uint32_t PB = Fr.F->ParamBytes;
    if (To)
      LANES(D[l] = A[l] - (Base + (uint64_t)l * PB));
    else
      LANES(D[l] = A[l] + (Base + (uint64_t)l * PB));
    break;
  }
  default:
    LANES(D[l] = A[l]);
  }
  if (tySize(T) == 4)
    LANES(D[l] &= 0xffffffffu);
}

void Launcher::execIsspacep(Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  LANES({
    uintptr_t V = (uintptr_t)A[l];
    bool Res;
    bool InSh = V >= (uintptr_t)Shared && V < (uintptr_t)Shared + SharedSize;
    bool InLo = !LocalBuf.empty() && V >= (uintptr_t)LocalBuf.data() &&
                V < (uintptr_t)LocalBuf.data() + LocalBuf.size();
    switch (I.Space) {
    case SpShared:
      Res = InSh;
      break;
    case SpLocal:
      Res = InLo;
      break;
    case SpGlobal:
      Res = !InSh && !InLo;
      break;
    default:
      Res = false;
    }
    D[l] = Res;
  });
}

} // namespace core
} // namespace warpscope::emu
