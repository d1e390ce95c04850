//===- Memory.cpp - address spaces, loads, stores and atomics -------------===//
//
// The executor's memory concern: resolving shared, local, param and global
// (generic) addresses with their bounds and alignment checks, ld/st with
// fast paths per access size, width and direction, atom/red (host atomics
// on memory other CTAs see: CTAs run on several threads), cvta and
// isspacep. Device memory is host memory: a global address is a host
// pointer, checked against the allocation table (Addresses.cpp) through a
// per-instruction cache of the region it last fell in (one rotate and
// compare per lane on the hot path test bounds and alignment).
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "Lanes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace warpscope::emu::core {

inline uint8_t *Launcher::addr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space,
                               uint64_t A, int L, unsigned Size) {
  switch (Space) {
  case SpShared:
    // Past the touched mark (as often as the mark rises): raiseShared
    // checks the window and raises it; otherwise as cheap as before.
    if ((uint64_t)A + Size > SharedTouched || A > SharedTouched)
      raiseShared(W, Fr, I, L, A, Size);
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
    if (A - (uint64_t)(uintptr_t)Shared < SharedSize)
      noteShared(A - (uint64_t)(uintptr_t)Shared + Size);
    return (uint8_t *)(uintptr_t)A;
  }
}

uint8_t *Launcher::elemAddr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space,
                            uint64_t A, int L, unsigned Size) {
  return addr(W, Fr, I, Space == SpConst ? (uint8_t)SpGlobal : Space, A, L,
              Size);
}

void Launcher::raiseShared(Warp &W, Frame &Fr, const Inst &I, int L, uint64_t A,
                           unsigned Size) {
  if ((uint64_t)A + Size > SharedSize || A > SharedSize)
    failAddress(W, Fr, I, L,
                "shared memory access out of range (offset " +
                    std::to_string((int64_t)A) + ", size " +
                    std::to_string(SharedSize) + ")");
  noteShared(A + Size);
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
/// The unsigned integer of ES bytes.
template <unsigned ES> struct Bits;
template <> struct Bits<1> {
  using U = uint8_t;
};
template <> struct Bits<2> {
  using U = uint16_t;
};
template <> struct Bits<4> {
  using U = uint32_t;
};
template <> struct Bits<8> {
  using U = uint64_t;
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
          Regs[V][L] = (uint64_t)(int64_t)(std::make_signed_t<U>)X;
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

/// X rotated right by Sh bits (0 <= Sh < 64): one instruction. Rotating a
/// lane's offset from an aligned start right by log2(size) leaves an aligned
/// offset divided by the size and makes a misaligned one huge (its low bits
/// go to the top), so one compare tests bounds and alignment together.
inline uint64_t rotr(uint64_t X, unsigned Sh) {
  return (X >> Sh) | (X << ((64 - Sh) & 63));
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
    // Checked against the region this instruction last accessed, which
    // starts at its first address aligned for the access: one rotate and
    // compare per lane test bounds and alignment. In locals: the stores
    // could alias the cache as far as the compiler knows. Lanes whose
    // rotated offset is below Lim pass; Lim 0 sends all to checkGlobal (a
    // cached region holds at least one access).
    const RegionCache &C = regionOf(I);
    Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
      constexpr unsigned Sh =
          __builtin_ctz(decltype(E)::value * decltype(Wd)::value);
      uint64_t Lo = C.Lo, Lim = C.Key == &I ? ((C.Size - Bytes) >> Sh) + 1 : 0;
      accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
        if (__builtin_expect(rotr(Ad - Lo, Sh) >= Lim, 0)) {
          checkGlobal(W, Fr, I, Ad, Ln, Bytes); // caches the region, or fails
          if (C.Key == &I)                      // not for a parameter address
            Lo = C.Lo, Lim = ((C.Size - Bytes) >> Sh) + 1;
        }
        return (uint8_t *)(uintptr_t)Ad;
      });
    });
  } else if (Global) {
    // Unchecked (a core user without an allocation table): only null
    // pages, misaligned addresses and the guards past shared and local
    // memory are caught; shared accesses above the touched mark go to addr
    // too, which raises it.
    const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
    const uint64_t ShEnd = ShLo + SharedTouched;
    const uint64_t LoEnd =
        (uint64_t)(uintptr_t)LocalBuf.data() + (size_t)LocalStack * NWarps * 32;
    Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
      accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
        if (__builtin_expect(
                Ad < 4096 || (Ad & (Bytes - 1)) ||
                    (Ad - ShLo < SharedSize + SharedGuard &&
                     Ad + Bytes > ShEnd) ||
                    (Ad + Bytes > LoEnd && Ad < LoEnd + LocalGuard),
                0))
          addr(W, Fr, I, Sp, Ad, Ln, Bytes); // reports the error
        return (uint8_t *)(uintptr_t)Ad;
      });
    });
  } else if (Sp == SpShared || Sp == SpLocal) {
    // Aligned offsets that hold the whole access, rotated right by
    // log2(Bytes) (as above), are below Max (Max 0: none is). Shared: below
    // the touched mark; addr checks and raises it for the others.
    const uint64_t Limit = Sp == SpShared ? SharedTouched : LocalStack;
    auto MaxOf = [&](unsigned Sh) -> uint64_t {
      return Limit >= Bytes ? ((Limit - Bytes) >> Sh) + 1 : 0;
    };
    auto Bad = [&](int Ln, uint64_t Ad) {
      return addr(W, Fr, I, Sp, Ad, Ln, Bytes);
    };
    uint8_t *const Base = Shared;
    if (Sp == SpShared)
      Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
        constexpr unsigned Sh =
            __builtin_ctz(decltype(E)::value * decltype(Wd)::value);
        const uint64_t Max = MaxOf(Sh);
        accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
          return __builtin_expect(rotr(Ad, Sh) < Max, 1) ? Base + Ad
                                                         : Bad(Ln, Ad);
        });
      });
    else
      Done = byAccess(ES, N, Ld, Signed, [&](auto E, auto Wd, auto L, auto S) {
        constexpr unsigned Sh =
            __builtin_ctz(decltype(E)::value * decltype(Wd)::value);
        const uint64_t Max = MaxOf(Sh);
        accessLanes<E, Wd, L, S>(EM, A, I.Off, Regs, [&](int Ln, uint64_t Ad) {
          return __builtin_expect(rotr(Ad, Sh) < Max, 1) ? W.LaneLocal[Ln] + Ad
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

// A NaN sum of atom/red.add (the ISA leaves its payload open): sm_90 gives
// the canonical NaN for f32; for f64 on global memory the operand's NaN,
// else the old value's, unquieted, and on shared memory the old value's,
// else the operand's, quieted (H200, 2026-11-27).
static float atomAddF(float Old, float B, bool) { return canonF32(Old + B); }
static double atomAddF(double Old, double B, bool Shared) {
  if (Shared)
    return nanPick64(Old + B, Old, B);
  return B != B ? B : Old != Old ? Old : Old + B;
}

template <class T>
static T atomicApply(uint8_t Op, T Old, T B, T C, bool Shared) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (Op) {
    case AtAdd: // NaNs as sm_90 gives them (see atomAddF)
      return atomAddF(Old, B, Shared);
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

// PTX ISA, atom and red: "The atom.add.f32 operation without .noftz,
// flushes subnormal inputs and results to sign-preserving zero on global
// memory but supports subnormal inputs and results and doesn't flush them to
// zero on shared memory." (red.add.f32 likewise; .add rounds to nearest
// even.)
static uint64_t addF32Ftz(uint64_t Old, uint64_t B) {
  return put<float>(
      canonF32(ftz32(ftz32(get<float>(Old)) + ftz32(get<float>(B)))));
}

bool Launcher::inShared(const Inst &I, const uint8_t *H) const {
  return I.Space == SpShared || (I.Space == SpGeneric &&
                                 (uintptr_t)H - (uintptr_t)Shared < SharedSize);
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
  const bool MayFtz = I.Flags & FFtz;
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
    if (MayFtz && !inShared(I, H)) { // f32 add on global memory: flushing
      uint64_t Old =
          hostAtomic<uint32_t>(H, AtAdd, false, B[L],
                               [&](uint64_t O) { return addF32Ftz(O, B[L]); });
      if (I.Op == OpAtom)
        D[L] = Old;
      continue;
    }
    // The new value from the old one (both as raw bits).
    auto NewOf = [&](uint64_t Old) -> uint64_t {
      uint64_t New = Old;
      auto Do = [&](auto Tag) {
        using T = decltype(Tag);
        New = put<T>(atomicApply<T>(I.Sub, get<T>(Old), get<T>(B[L]),
                                    get<T>(C[L]), inShared(I, H)));
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
// the scalar form's rounding and, global memory only, flushing); atom
// returns the old values.
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
        return I.Flags & FFtz ? addF32Ftz(Old, B)
                              : put<float>(atomAddF(get<float>(Old),
                                                    get<float>(B), false));
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
  if (__builtin_expect(Tracing, 0)) // its lines, for the timing model
    cpAsyncTraced(Fr, I, EM);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1))
      continue;
    const unsigned N = cpAsyncBytes(I, SrcSize[L]);
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

} // namespace warpscope::emu::core
