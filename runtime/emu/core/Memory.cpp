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

static std::string hex(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
  return Buf;
}

// Where an illegal access of N bytes at A lies relative to the nearest
// registered allocation, as compute-sanitizer's memcheck words it.
static std::string nearestAllocation(uint64_t A, uint64_t N) {
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
    Best += " the nearest allocation, at " + hex(B->first) + " of " +
            std::to_string(B->second) + " bytes";
  }
  if (After != M.end() && After->first - A < BestDist)
    Best = std::to_string(After->first - A) +
           " bytes before the nearest allocation, at " + hex(After->first) +
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
            " of " + std::to_string(Size) + " bytes at " + hex(A) +
            " is outside every allocation: " + nearestAllocation(A, Size));
  RegionCache &C = regionOf(I);
  C.Key = &I;
  C.Lo = Lo;
  C.Size = N;
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
    return Shared + A;
  case SpLocal:
    if ((uint64_t)A + Size > LocalStack || A > LocalStack)
      failAddress(W, Fr, I, L,
                  "local memory access out of range (offset " +
                      std::to_string((int64_t)A) + ", size " +
                      std::to_string(LocalStack) + ")");
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
      if (C.Key != &I || C.Size < Size || A - C.Lo > C.Size - Size)
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
      failAddress(W, Fr, I, L, "invalid global address " + hex(A));
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

namespace {
template <unsigned ES> struct Bits;
template <> struct Bits<1> {
  using U = uint8_t;
  using S = int8_t;
};
template <> struct Bits<2> {
  using U = uint16_t;
  using S = int16_t;
};
template <> struct Bits<4> {
  using U = uint32_t;
  using S = int32_t;
};
template <> struct Bits<8> {
  using U = uint64_t;
  using S = int64_t;
};

/// The lanes of one access of N elements of ES bytes, specialised by size,
/// vector width, direction and sign extension so that a lane costs a bounds
/// compare and N moves: the hot loop of memory-bound kernels. Lanes go in
/// ascending order (the highest lane's store wins, the lowest bad lane is
/// reported). Host(L, Ad) gives the host address of lane L's access at Ad,
/// or reports a bad one and does not return. Regs[V] is element V's
/// register (destination of a load, source of a store).
template <unsigned ES, unsigned N, bool Ld, bool Signed, class HostFn>
inline void accessLanes(uint32_t EM, const uint64_t *A, uint64_t Off,
                        uint64_t *const *Regs, HostFn Host) {
  using U = typename Bits<ES>::U;
  auto Lane = [&](int L) {
    const uint64_t Ad = A[L] + Off;
    uint8_t *H = Host(L, Ad);
    for (unsigned V = 0; V < N; ++V) {
      if constexpr (Ld) {
        U X;
        std::memcpy(&X, H + V * ES, ES);
        if constexpr (Signed)
          Regs[V][L] = (uint64_t)(int64_t)(typename Bits<ES>::S)X;
        else
          Regs[V][L] = X;
      } else {
        const U X = (U)Regs[V][L];
        std::memcpy(H + V * ES, &X, ES);
      }
    }
  };
  if (EM == 0xffffffffu) // the common case: no mask to walk
    for (int L = 0; L < 32; ++L)
      Lane(L);
  else
    for (uint32_t M = EM; M; M &= M - 1)
      Lane(__builtin_ctz(M));
}

/// Calls F(size, width, load, signed) with each as a compile-time constant;
/// false for a shape with no specialisation (vectors other than 1, 2, 4).
template <class Fn>
inline bool byAccess(unsigned ES, unsigned N, bool Ld, bool Signed, Fn &&F) {
  auto Dir = [&](auto Size, auto Width) {
    constexpr unsigned E = decltype(Size)::value;
    if (!Ld)
      F(Size, Width, std::false_type{}, std::false_type{});
    else if (Signed && E < 8)
      F(Size, Width, std::true_type{}, std::true_type{});
    else
      F(Size, Width, std::true_type{}, std::false_type{});
  };
  auto Width = [&](auto Size) {
    switch (N) {
    case 1:
      Dir(Size, std::integral_constant<unsigned, 1>{});
      return true;
    case 2:
      Dir(Size, std::integral_constant<unsigned, 2>{});
      return true;
    case 4:
      Dir(Size, std::integral_constant<unsigned, 4>{});
      return true;
    default:
      return false;
    }
  };
  switch (ES) {
  case 1:
    return Width(std::integral_constant<unsigned, 1>{});
  case 2:
    return Width(std::integral_constant<unsigned, 2>{});
  case 4:
    return Width(std::integral_constant<unsigned, 4>{});
  case 8:
    return Width(std::integral_constant<unsigned, 8>{});
  default:
    return false;
  }
}
} // namespace

void Launcher::execMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  const unsigned ES = tySize(I.T);
  const unsigned N = I.Vec;
  const unsigned Bytes = ES * N;
  const bool Signed = tySigned(I.T);
  const bool Ld = I.Op == OpLd;
  const uint8_t Sp = I.Space == SpConst ? (uint8_t)SpGlobal : I.Space;
  if (CountMem)
    countMem(W, Fr, I, EM);
  if (__builtin_expect(Race, 0))
    raceAccess(W, Fr, I, EM, Sp, Bytes, Ld ? RaceRead : RaceWrite);
  uint64_t *Regs[4];
  for (unsigned V = 0; V < N && V < 4; ++V)
    Regs[V] = R + (size_t)(Ld ? I.D[V] : I.S[V]) * 32;
  const bool Global = Sp != SpShared && Sp != SpLocal && Sp != SpParam;
  bool Done = false;
  if (Global && Check) {
    // Checked against the region this instruction last accessed: one
    // compare per lane. In locals: the stores could alias the cache as far
    // as the compiler knows. Lanes in [Lo, Lo + Lim) pass; Lim 0 sends all
    // to checkGlobal (a cached region holds at least one access).
    const RegionCache &C = regionOf(I);
    uint64_t Lo = C.Lo, Lim = C.Key == &I ? C.Size - Bytes + 1 : 0;
    Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
      accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
        if (__builtin_expect(Ad - Lo >= Lim, 0)) {
          checkGlobal(W, Fr, I, Ad, Ln, Bytes); // caches the region, or fails
          if (C.Key == &I)                      // not for a parameter address
            Lo = C.Lo, Lim = C.Size - Bytes + 1;
        }
        return (uint8_t *)(uintptr_t)Ad;
      });
    });
  } else if (Global) {
    // Unchecked (a core user without an allocation table): only null
    // pages and the guards past shared and local memory are caught.
    const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
    const uint64_t ShEnd = ShLo + SharedSize;
    const uint64_t LoEnd =
        (uint64_t)(uintptr_t)LocalBuf.data() + (size_t)LocalStack * NWarps * 32;
    Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
      accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
        if (__builtin_expect(
                Ad < 4096 ||
                    (Ad - ShLo < SharedSize + SharedGuard &&
                     Ad + Bytes > ShEnd) ||
                    (Ad + Bytes > LoEnd && Ad < LoEnd + LocalGuard),
                0))
          addr(W, Fr, I, Sp, Ad, Ln, Bytes); // reports the error
        return (uint8_t *)(uintptr_t)Ad;
      });
    });
  } else if (Sp == SpShared || Sp == SpLocal) {
    // Offsets below Max hold the whole access (Max 0: none does).
    const uint64_t Limit = Sp == SpShared ? SharedSize : LocalStack;
    const uint64_t Max = Limit >= Bytes ? Limit - Bytes + 1 : 0;
    auto Bad = [&](int Ln, uint64_t Ad) {
      return addr(W, Fr, I, Sp, Ad, Ln, Bytes);
    };
    if (Sp == SpShared)
      Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
        accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
          return __builtin_expect(Ad < Max, 1) ? Shared + Ad : Bad(Ln, Ad);
        });
      });
    else
      Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
        accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
          return __builtin_expect(Ad < Max, 1) ? W.LaneLocal[Ln] + Ad
                                               : Bad(Ln, Ad);
        });
      });
  }
  if (Done)
    return;
  // Parameters and unusual shapes: one checked address per lane.
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    uint8_t *H = addr(W, Fr, I, Sp, A[L] + (uint64_t)I.Off, L, Bytes);
    for (unsigned V = 0; V < N; ++V) {
      uint64_t &Reg = R[(size_t)(Ld ? I.D[V] : I.S[V]) * 32 + L];
      if (Ld)
        Reg = loadBits(H + V * ES, ES, Signed);
      else
        storeBits(H + V * ES, ES, Reg);
    }
  }
}

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
      if ((uintptr_t)H % ES)
        fail(W, *Fr.F, I, L,
             "misaligned atomic address (" + std::to_string(ES) +
                 "-byte atomics need a multiple of " + std::to_string(ES) +
                 ")");
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
    if (!Private && (uintptr_t)H % 4)
      fail(W, *Fr.F, I, L, "misaligned atomic address");
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
