//===- Exec.cpp - SIMT execution of decoded PTX ----------------------------===//
//
// One warp-instruction is dispatched once, then its lanes run in a loop over
// the 32 lanes under the active mask. Divergence uses a per-frame
// reconvergence stack (PC, reconvergence PC, mask) with reconvergence at the
// immediate post-dominator of the branch. Warps of a CTA run one after the
// other until they reach a barrier or finish.
//
//===----------------------------------------------------------------------===//
#include "Exec.h"
#include "Round.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <type_traits>

namespace warpscope::emu {

// ---------------------------------------------------------------------------
// Allocation table and printf sink.
// ---------------------------------------------------------------------------
namespace {
std::mutex AllocMu;
std::map<uintptr_t, size_t> &allocs() {
  static std::map<uintptr_t, size_t> M;
  return M;
}
void defaultSink(const char *T, size_t N) {
  std::fwrite(T, 1, N, stdout);
  std::fflush(stdout);
}
void (*PrintfSinkFn)(const char *, size_t) = defaultSink;
} // namespace

void registerAllocation(void *Ptr, size_t Size) {
  std::lock_guard<std::mutex> L(AllocMu);
  allocs()[(uintptr_t)Ptr] = Size;
}
void unregisterAllocation(void *Ptr) {
  std::lock_guard<std::mutex> L(AllocMu);
  allocs().erase((uintptr_t)Ptr);
}
void setPrintfSink(void (*Sink)(const char *, size_t)) {
  PrintfSinkFn = Sink ? Sink : defaultSink;
}

namespace core {

static bool inAllocTable(uintptr_t A, size_t N) {
  std::lock_guard<std::mutex> L(AllocMu);
  auto &M = allocs();
  auto It = M.upper_bound(A);
  if (It == M.begin()) return false;
  --It;
  return A >= It->first && A + N <= It->first + It->second;
}

// ---------------------------------------------------------------------------
// Value access helpers.
// ---------------------------------------------------------------------------
template <class T> static inline T get(uint64_t V) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B = (uint32_t)V;
    float F;
    std::memcpy(&F, &B, 4);
    return F;
  } else if constexpr (std::is_same_v<T, double>) {
    double D;
    std::memcpy(&D, &V, 8);
    return D;
  } else {
    return (T)V;
  }
}
template <class T> static inline uint64_t put(T V) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B;
    std::memcpy(&B, &V, 4);
    return B;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t B;
    std::memcpy(&B, &V, 8);
    return B;
  } else if constexpr (std::is_same_v<T, bool>) {
    return V ? 1 : 0;
  } else {
    return (uint64_t)(std::make_unsigned_t<T>)V;
  }
}

#define LANES(...)                                                             \
  do {                                                                         \
    if (EM == 0xffffffffu) {                                                   \
      for (int l = 0; l < 32; ++l) { __VA_ARGS__; }                            \
    } else {                                                                   \
      for (int l = 0; l < 32; ++l)                                             \
        if ((EM >> l) & 1u) { __VA_ARGS__; }                                   \
    }                                                                          \
  } while (0)

template <class T, class Fn>
static inline void un(uint32_t EM, uint64_t *D, const uint64_t *A, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]))));
}
template <class T, class Fn>
static inline void bin(uint32_t EM, uint64_t *D, const uint64_t *A, const uint64_t *B, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]), get<T>(B[l]))));
}
template <class T, class Fn>
static inline void tern(uint32_t EM, uint64_t *D, const uint64_t *A, const uint64_t *B,
                        const uint64_t *C, Fn F) {
  LANES(D[l] = put<T>(F(get<T>(A[l]), get<T>(B[l]), get<T>(C[l]))));
}

// Calls F with a value of the C++ type for an integer PTX type.
template <class Fn> static inline bool intDispatch(Ty T, Fn &&F) {
  switch (T) {
  case Ty::S8: F(int8_t{}); return true;
  case Ty::U8: case Ty::B8: F(uint8_t{}); return true;
  case Ty::S16: F(int16_t{}); return true;
  case Ty::U16: case Ty::B16: F(uint16_t{}); return true;
  case Ty::S32: F(int32_t{}); return true;
  case Ty::U32: case Ty::B32: F(uint32_t{}); return true;
  case Ty::S64: F(int64_t{}); return true;
  case Ty::U64: case Ty::B64: F(uint64_t{}); return true;
  default: return false;
  }
}
template <class Fn> static inline bool uintDispatch(Ty T, Fn &&F) {
  switch (tySize(T)) {
  case 1: F(uint8_t{}); return true;
  case 2: F(uint16_t{}); return true;
  case 4: F(uint32_t{}); return true;
  case 8: F(uint64_t{}); return true;
  default: return false;
  }
}

static inline float ftz32(float X) {
  return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(0.0f, X) : X;
}
static inline float sat32(float X) { return std::isnan(X) ? 0.0f : X < 0 ? 0.0f : X > 1 ? 1.0f : X; }
static inline double sat64(double X) { return std::isnan(X) ? 0.0 : X < 0 ? 0.0 : X > 1 ? 1.0 : X; }

// PTX canonical NaN (0x7fffffff for f32).
template <class T> static inline T canonicalNaN() {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t B = 0x7fffffffu;
    float F;
    std::memcpy(&F, &B, 4);
    return F;
  } else {
    uint64_t B = 0x7fffffffffffffffull;
    double D;
    std::memcpy(&D, &B, 8);
    return D;
  }
}
template <class T> static inline T fminPtx(T A, T B, bool Nan) {
  if (std::isnan(A) || std::isnan(B)) {
    if (Nan || (std::isnan(A) && std::isnan(B))) return canonicalNaN<T>();
    return std::isnan(A) ? B : A;
  }
  if (A == 0 && B == 0) return std::signbit(A) ? A : B;
  return A < B ? A : B;
}
template <class T> static inline T fmaxPtx(T A, T B, bool Nan) {
  if (std::isnan(A) || std::isnan(B)) {
    if (Nan || (std::isnan(A) && std::isnan(B))) return canonicalNaN<T>();
    return std::isnan(A) ? B : A;
  }
  if (A == 0 && B == 0) return std::signbit(A) ? B : A;
  return A > B ? A : B;
}

template <class T> static inline bool cmpF(uint8_t C, T A, T B) {
  bool U = std::isnan(A) || std::isnan(B);
  switch (C) {
  case CmpEq: return !U && A == B;
  case CmpNe: return !U && A != B;
  case CmpLt: case CmpLo: return !U && A < B;
  case CmpLe: case CmpLs: return !U && A <= B;
  case CmpGt: case CmpHi: return !U && A > B;
  case CmpGe: case CmpHs: return !U && A >= B;
  case CmpEqu: return U || A == B;
  case CmpNeu: return U || A != B;
  case CmpLtu: return U || A < B;
  case CmpLeu: return U || A <= B;
  case CmpGtu: return U || A > B;
  case CmpGeu: return U || A >= B;
  case CmpNum: return !U;
  case CmpNan: return U;
  }
  return false;
}
template <class T> static inline bool cmpI(uint8_t C, T A, T B) {
  using UT = std::make_unsigned_t<T>;
  switch (C) {
  case CmpEq: case CmpEqu: return A == B;
  case CmpNe: case CmpNeu: return A != B;
  case CmpLt: case CmpLtu: return A < B;
  case CmpLe: case CmpLeu: return A <= B;
  case CmpGt: case CmpGtu: return A > B;
  case CmpGe: case CmpGeu: return A >= B;
  case CmpLo: return (UT)A < (UT)B;
  case CmpLs: return (UT)A <= (UT)B;
  case CmpHi: return (UT)A > (UT)B;
  case CmpHs: return (UT)A >= (UT)B;
  default: return false;
  }
}

// Half-precision element access: f16/bf16 as float.
static inline float halfGet(uint32_t B, bool Bf) { return Bf ? fromBF16((uint16_t)B) : fromF16((uint16_t)B); }
static inline uint32_t halfPut(float F, bool Bf, int Mode = RndRn) {
  return Bf ? toBF16(F, Mode) : toF16(F, Mode);
}

// Portable SWAR popcount (the library is built without -mpopcnt, where
// __builtin_popcount becomes a libgcc call).
static inline uint32_t popc32(uint32_t X) {
  X = X - ((X >> 1) & 0x55555555u);
  X = (X & 0x33333333u) + ((X >> 2) & 0x33333333u);
  X = (X + (X >> 4)) & 0x0f0f0f0fu;
  return (X * 0x01010101u) >> 24;
}

// f32 fma over the lanes; cloned for FMA-capable CPUs (resolved at load time)
// so the common case does not call libm per lane.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("fma", "default")))
#endif
static void fmaLanesF32(uint32_t EM, uint64_t *D, const uint64_t *A, const uint64_t *B,
                        const uint64_t *C) {
  tern<float>(EM, D, A, B, C, [](float X, float Y, float Z) { return std::fma(X, Y, Z); });
}

// ---------------------------------------------------------------------------
// Launch-time state.
// ---------------------------------------------------------------------------
// Reconvergence stack entry. Entries pushed at one divergent branch are
// siblings (same Parent); a subtree is contiguous above its root.
struct Entry {
  uint32_t Pc, Rpc, Mask;
  uint32_t Id = 0, Parent = NoTarget;
  bool BarWait = false; // arrived at a barrier, waiting for release
  uint8_t BarId = 0;    // which barrier
  bool Parked = false;  // subtree moved aside while siblings run to the barrier
};

struct Frame {
  Function *F = nullptr;
  std::vector<uint64_t> Regs;
  std::vector<uint8_t> Param; // 32 lanes x F->ParamBytes
  uint32_t LocalBase = 0;
  uint32_t Retired = 0;
  uint32_t CallMask = 0;
  const Inst *CallInst = nullptr;
  std::vector<Entry> Stack;
  uint32_t NextId = 1;
  void push(uint32_t Pc, uint32_t Rpc, uint32_t Mask, uint32_t Parent) {
    Entry E{Pc, Rpc, Mask};
    E.Id = NextId++;
    E.Parent = Parent;
    Stack.push_back(E);
  }
};

struct Warp {
  std::vector<std::unique_ptr<Frame>> Frames;
  uint32_t Depth = 0;
  uint32_t Valid = 0, Exited = 0;
  bool Done = false, AtBar = false;
  uint32_t Index = 0;
  uint32_t Tid[3][32];
  uint8_t *LaneLocal[32];
  uint32_t BarMask = 0;   // barriers (bit per id 0..15) some path waits on
};

struct EmuError {
  std::string Msg;
};

class Launcher {
public:
  Launcher(ModuleImpl &M, Function &K, const LaunchParams &P) : M(M), K(K), P(P) {}
  void run();

private:
  ModuleImpl &M;
  Function &K;
  const LaunchParams &P;
  uint32_t Ctaid[3] = {0, 0, 0};
  uint32_t NThreads = 0, NWarps = 0;
  std::vector<uint8_t> SharedBuf, LocalBuf, KParams;
  uint8_t *Shared = nullptr;
  uint32_t SharedSize = 0;
  static constexpr uint32_t SharedGuard = 4096; // generic accesses past the end are caught here
  static constexpr uint32_t LocalGuard = 4096;
  uint32_t LocalStack = 0;
  std::vector<Warp> Warps;
  // Per named barrier: threads arrived, expected count (0: all live), last
  // instruction (for messages).
  uint32_t Arrived[16] = {}, Expect[16] = {};
  const Inst *BarInst[16] = {};
  const std::string *BarOpcode[16] = {};
  bool Check = false;
  uint64_t Clock = 0;

  [[noreturn]] void fail(const Warp &W, const Function &F, const Inst &I, int Lane,
                         const std::string &Msg);
  void initFrame(Warp &W, Frame &Fr, Function &F, uint32_t Mask, uint32_t LocalBase);
  bool runWarp(Warp &W); // true: reached barrier
  uint8_t *addr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space, uint64_t A, int L,
                unsigned Size);
  void checkGlobal(Warp &W, Frame &Fr, const Inst &I, uint64_t A, int L, unsigned Size);
  void exec(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execAtom(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execCvt(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execFloat(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execHalf(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execWarpOp(Warp &W, Frame &Fr, const Inst &I, uint32_t EM, uint32_t Active);
  void builtin(Warp &W, Frame &Fr, const Inst &I, Function &Callee, uint32_t EM);
  std::string formatPrintf(const char *Fmt, const uint8_t *Args);
};

std::string srcLoc(const ParsedModule &PM, const Inst &I) {
  std::string S = "PTX line " + std::to_string(I.PtxLine);
  if (I.File) {
    auto It = PM.Files.find(I.File);
    S += " (" + (It != PM.Files.end() ? It->second : std::string("?")) + ":" +
         std::to_string(I.Line) + ":" + std::to_string(I.Col) + ")";
  }
  return S;
}

void Launcher::fail(const Warp &W, const Function &F, const Inst &I, int Lane,
                    const std::string &Msg) {
  std::string S = "kernel " + K.Name;
  if (&F != &K) S += " (in " + F.Name + ")";
  S += ", block (" + std::to_string(Ctaid[0]) + "," + std::to_string(Ctaid[1]) + "," +
       std::to_string(Ctaid[2]) + ")";
  if (Lane >= 0)
    S += ", thread (" + std::to_string(W.Tid[0][Lane]) + "," + std::to_string(W.Tid[1][Lane]) +
         "," + std::to_string(W.Tid[2][Lane]) + ")";
  else
    S += ", warp " + std::to_string(W.Index);
  size_t Idx = &I - F.Code.data();
  S += ", '" + (Idx < F.Opcodes.size() ? F.Opcodes[Idx] : std::string("?")) + "' at " +
       srcLoc(*M.PM, I) + ": " + Msg;
  throw EmuError{S};
}

void Launcher::initFrame(Warp &W, Frame &Fr, Function &F, uint32_t Mask, uint32_t LocalBase) {
  Fr.F = &F;
  size_t NS = (size_t)F.NumSlots * 32;
  if (Fr.Regs.size() < NS) Fr.Regs.resize(NS);
  if (Fr.Param.size() < (size_t)F.ParamBytes * 32) Fr.Param.resize((size_t)F.ParamBytes * 32);
  Fr.LocalBase = LocalBase;
  Fr.Retired = 0;
  Fr.Stack.clear();
  Fr.Stack.push_back({0, NoTarget, Mask});
  Fr.NextId = 1;
  uint64_t *R = Fr.Regs.data();
  for (int L = 0; L < 32; ++L) { R[SlotZero * 32 + L] = 0; R[SlotCC * 32 + L] = 0; }
  for (const SlotInit &In : F.Inits) {
    uint64_t *D = R + (size_t)In.Slot * 32;
    if (In.Kind == InitValue) {
      for (int L = 0; L < 32; ++L) D[L] = In.Value;
    } else if (In.Kind == InitLocalSym) {
      for (int L = 0; L < 32; ++L) D[L] = In.Value + LocalBase;
    } else if (In.Kind == InitSharedSym) {
      uint64_t V = (uint64_t)((int64_t)K.Shared.Off[In.Value] + In.Add);
      for (int L = 0; L < 32; ++L) D[L] = V;
    } else {
      uint64_t V = 0;
      for (int L = 0; L < 32; ++L) {
        switch (In.Value) {
        case SrTidX: V = W.Tid[0][L]; break;
        case SrTidY: V = W.Tid[1][L]; break;
        case SrTidZ: V = W.Tid[2][L]; break;
        case SrNtidX: V = P.Block.X; break;
        case SrNtidY: V = P.Block.Y; break;
        case SrNtidZ: V = P.Block.Z; break;
        case SrCtaidX: V = Ctaid[0]; break;
        case SrCtaidY: V = Ctaid[1]; break;
        case SrCtaidZ: V = Ctaid[2]; break;
        case SrNctaidX: V = P.Grid.X; break;
        case SrNctaidY: V = P.Grid.Y; break;
        case SrNctaidZ: V = P.Grid.Z; break;
        case SrLaneid: V = (uint64_t)L; break;
        case SrWarpid: V = W.Index; break;
        case SrNwarpid: V = 64; break;
        case SrSmid: V = 0; break;
        case SrNsmid: V = 1; break;
        case SrGridid: V = M.LaunchCount; break;
        case SrLanemaskEq: V = 1u << L; break;
        case SrLanemaskLt: V = (1u << L) - 1; break;
        case SrLanemaskLe: V = (uint32_t)((2ull << L) - 1); break;
        case SrLanemaskGt: V = (uint32_t)~((2ull << L) - 1); break;
        case SrLanemaskGe: V = (uint32_t)~((1u << L) - 1); break;
        case SrDynSmem: V = P.DynamicSharedBytes; break;
        case SrTotalSmem: V = SharedSize; break;
        case SrClock: case SrClock64: case SrGlobaltimer: V = Clock; break;
        case SrClusterOne: V = 1; break;
        default: V = 0; break;
        }
        D[L] = V;
      }
    }
  }
}

void Launcher::checkGlobal(Warp &W, Frame &Fr, const Inst &I, uint64_t A, int L, unsigned Size) {
  uintptr_t E = A + Size;
  auto In = [&](const void *B, size_t N) {
    return A >= (uintptr_t)B && E <= (uintptr_t)B + N;
  };
  if (Shared && In(Shared, SharedSize)) return;
  if (!LocalBuf.empty() && In(LocalBuf.data(), LocalBuf.size())) return;
  if (In(Fr.Param.data(), Fr.Param.size())) return;
  for (auto &G : M.PM->Globals)
    if (G->Data && In(G->Data, G->Size)) return;
  if (inAllocTable((uintptr_t)A, Size)) return;
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)A);
  fail(W, *Fr.F, I, L,
       std::string("out-of-bounds global access of ") + std::to_string(Size) + " bytes at " + Buf);
}

inline uint8_t *Launcher::addr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space, uint64_t A,
                               int L, unsigned Size) {
  switch (Space) {
  case SpShared:
    if ((uint64_t)A + Size > SharedSize || A > SharedSize)
      fail(W, *Fr.F, I, L, "shared memory access out of range (offset " + std::to_string((int64_t)A) +
                               ", size " + std::to_string(SharedSize) + ")");
    return Shared + A;
  case SpLocal:
    if ((uint64_t)A + Size > LocalStack || A > LocalStack)
      fail(W, *Fr.F, I, L, "local memory access out of range (offset " + std::to_string((int64_t)A) +
                               ", size " + std::to_string(LocalStack) + ")");
    return W.LaneLocal[L] + A;
  case SpParam:
    if ((uint64_t)A + Size > Fr.F->ParamBytes || A > Fr.F->ParamBytes)
      fail(W, *Fr.F, I, L, "param access out of range (offset " + std::to_string((int64_t)A) + ")");
    return Fr.Param.data() + (size_t)L * Fr.F->ParamBytes + A;
  default:
    if (!LocalBuf.empty()) {
      uint64_t LoEnd = (uint64_t)(uintptr_t)LocalBuf.data() + (size_t)LocalStack * NWarps * 32;
      if (A + Size > LoEnd && A < LoEnd + LocalGuard)
        fail(W, *Fr.F, I, L, "local memory access out of range (generic address past the last thread's window)");
    }
    if (A - (uint64_t)(uintptr_t)Shared < SharedSize + SharedGuard &&
        A + Size > (uint64_t)(uintptr_t)Shared + SharedSize)
      fail(W, *Fr.F, I, L, "shared memory access out of range (generic address, offset " +
                               std::to_string(A - (uint64_t)(uintptr_t)Shared) + ", size " +
                               std::to_string(SharedSize) + ")");
    if (Check) checkGlobal(W, Fr, I, A, L, Size);
    else if (A < 4096) {
      char Buf[64];
      std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)A);
      fail(W, *Fr.F, I, L, std::string("invalid global address ") + Buf);
    }
    return (uint8_t *)(uintptr_t)A;
  }
}

static inline uint64_t loadBits(const uint8_t *P, unsigned Size, bool Signed) {
  switch (Size) {
  case 1: { uint8_t V; std::memcpy(&V, P, 1); return Signed ? (uint64_t)(int64_t)(int8_t)V : V; }
  case 2: { uint16_t V; std::memcpy(&V, P, 2); return Signed ? (uint64_t)(int64_t)(int16_t)V : V; }
  case 4: { uint32_t V; std::memcpy(&V, P, 4); return Signed ? (uint64_t)(int64_t)(int32_t)V : V; }
  default: { uint64_t V; std::memcpy(&V, P, 8); return V; }
  }
}
static inline void storeBits(uint8_t *P, unsigned Size, uint64_t V) { std::memcpy(P, &V, Size); }

void Launcher::execMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  const unsigned ES = tySize(I.T);
  const unsigned N = I.Vec;
  const bool Signed = tySigned(I.T);
  const uint8_t Sp = I.Space == SpConst ? (uint8_t)SpGlobal : I.Space;
  if (!Check && Sp != SpShared && Sp != SpLocal && Sp != SpParam && N == 1) {
    // Fast path: global/generic scalar access, no allocation table.
    const uint64_t ShLo = (uint64_t)(uintptr_t)Shared;
    const uint64_t ShEnd = ShLo + SharedSize;
    const uint64_t LoEnd = (uint64_t)(uintptr_t)LocalBuf.data() + (size_t)LocalStack * NWarps * 32;
    uint64_t *D = R + (size_t)I.D[0] * 32;
    const uint64_t *S = R + (size_t)I.S[0] * 32;
    const bool Ld = I.Op == OpLd;
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint64_t Ad = A[L] + (uint64_t)I.Off;
      if (__builtin_expect(Ad < 4096 || (Ad - ShLo < SharedSize + SharedGuard && Ad + ES > ShEnd) ||
                               (Ad + ES > LoEnd && Ad < LoEnd + LocalGuard), 0))
        addr(W, Fr, I, Sp, Ad, L, ES); // reports the error
      uint8_t *H = (uint8_t *)(uintptr_t)Ad;
      if (Ld) D[L] = loadBits(H, ES, Signed);
      else storeBits(H, ES, S[L]);
    }
    return;
  }
  if ((Sp == SpShared || Sp == SpLocal) && N == 1) {
    // Fast path: shared/local scalar access with an inline bounds check.
    const uint64_t Limit = Sp == SpShared ? SharedSize : LocalStack;
    uint64_t *D = R + (size_t)I.D[0] * 32;
    const uint64_t *S = R + (size_t)I.S[0] * 32;
    const bool Ld = I.Op == OpLd;
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint64_t Ad = A[L] + (uint64_t)I.Off;
      if (__builtin_expect(Ad > Limit || Ad + ES > Limit, 0)) addr(W, Fr, I, Sp, Ad, L, ES);
      uint8_t *H = (Sp == SpShared ? Shared : W.LaneLocal[L]) + Ad;
      if (Ld) D[L] = loadBits(H, ES, Signed);
      else storeBits(H, ES, S[L]);
    }
    return;
  }
  if (I.Op == OpLd) {
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint8_t *H = addr(W, Fr, I, Sp, A[L] + (uint64_t)I.Off, L, ES * N);
      for (unsigned V = 0; V < N; ++V)
        R[(size_t)I.D[V] * 32 + L] = loadBits(H + V * ES, ES, Signed);
    }
  } else {
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint8_t *H = addr(W, Fr, I, Sp, A[L] + (uint64_t)I.Off, L, ES * N);
      for (unsigned V = 0; V < N; ++V) storeBits(H + V * ES, ES, R[(size_t)I.S[V] * 32 + L]);
    }
  }
}

template <class T> static T atomicApply(uint8_t Op, T Old, T B, T C) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (Op) {
    case AtAdd: return Old + B;
    case AtMin: return fminPtx(Old, B, false);
    case AtMax: return fmaxPtx(Old, B, false);
    case AtExch: return B;
    case AtCas: return Old == B ? C : Old;
    default: return Old;
    }
  } else {
    switch (Op) {
    case AtAdd: return (T)(Old + B);
    case AtMin: return Old < B ? Old : B;
    case AtMax: return Old > B ? Old : B;
    case AtInc: return (std::make_unsigned_t<T>)Old >= (std::make_unsigned_t<T>)B ? 0 : (T)(Old + 1);
    case AtDec: return (Old == 0 || (std::make_unsigned_t<T>)Old > (std::make_unsigned_t<T>)B) ? B : (T)(Old - 1);
    case AtAnd: return Old & B;
    case AtOr: return Old | B;
    case AtXor: return Old ^ B;
    case AtExch: return B;
    case AtCas: return Old == B ? C : Old;
    }
    return Old;
  }
}

void Launcher::execAtom(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.Addr * 32;
  const uint64_t *B = R + (size_t)I.S[0] * 32;
  const uint64_t *C = R + (size_t)I.S[1] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  unsigned ES = tySize(I.T);
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1)) continue;
    uint8_t *H = addr(W, Fr, I, I.Space, A[L] + (uint64_t)I.Off, L, ES);
    uint64_t Old = loadBits(H, ES, false), New = Old;
    auto Do = [&](auto Tag) {
      using T = decltype(Tag);
      New = put<T>(atomicApply<T>(I.Sub, get<T>(Old), get<T>(B[L]), get<T>(C[L])));
    };
    switch (I.T) {
    case Ty::F32: Do(float{}); break;
    case Ty::F64: Do(double{}); break;
    case Ty::F16: case Ty::BF16: {
      bool Bf = I.T == Ty::BF16;
      if (I.Sub == AtAdd) New = halfPut(halfGet((uint32_t)Old, Bf) + halfGet((uint32_t)B[L], Bf), Bf);
      else if (I.Sub == AtExch) New = B[L];
      else if (I.Sub == AtCas) New = (uint16_t)Old == (uint16_t)B[L] ? C[L] : Old;
      else fail(W, *Fr.F, I, L, "unsupported atomic");
      break;
    }
    case Ty::F16x2: case Ty::BF16x2: {
      bool Bf = I.T == Ty::BF16x2;
      if (I.Sub != AtAdd) fail(W, *Fr.F, I, L, "unsupported atomic");
      uint32_t Lo = halfPut(halfGet((uint32_t)Old & 0xffff, Bf) + halfGet((uint32_t)B[L] & 0xffff, Bf), Bf);
      uint32_t Hi = halfPut(halfGet((uint32_t)(Old >> 16) & 0xffff, Bf) + halfGet((uint32_t)(B[L] >> 16) & 0xffff, Bf), Bf);
      New = Lo | (Hi << 16);
      break;
    }
    default:
      if (!intDispatch(I.T, Do)) fail(W, *Fr.F, I, L, "unsupported atomic type");
    }
    storeBits(H, ES, New);
    if (I.Op == OpAtom) D[L] = Old;
  }
}

// Converts lane values for cvt.
void Launcher::execCvt(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty DT = I.T, ST = I.T2;
  const bool Sat = I.Flags & FSat, Ftz = I.Flags & FFtz;
  const int Mode = I.Rnd;
  // Fast common paths.
  if (!Sat && !Ftz) {
    if (DT == Ty::F32 && ST == Ty::S32 && (Mode == RndRn || Mode == RndNone)) {
      LANES(D[l] = put<float>((float)get<int32_t>(A[l]))); return;
    }
    if (DT == Ty::F32 && ST == Ty::U32 && (Mode == RndRn || Mode == RndNone)) {
      LANES(D[l] = put<float>((float)get<uint32_t>(A[l]))); return;
    }
    if (DT == Ty::F64 && ST == Ty::F32) { LANES(D[l] = put<double>((double)get<float>(A[l]))); return; }
    if (DT == Ty::S64 && ST == Ty::S32) { LANES(D[l] = (uint64_t)(int64_t)get<int32_t>(A[l])); return; }
    if ((DT == Ty::U64 || DT == Ty::S64) && ST == Ty::U32) { LANES(D[l] = get<uint32_t>(A[l])); return; }
    if ((DT == Ty::U32 || DT == Ty::S32) && (ST == Ty::U64 || ST == Ty::S64)) {
      LANES(D[l] = get<uint32_t>(A[l])); return;
    }
  }
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1)) continue;
    uint64_t V = A[L];
    bool SrcFloat = tyFloat(ST);
    double FV = 0;
    int64_t IV = 0;
    uint64_t UV = 0;
    if (SrcFloat) {
      switch (ST) {
      case Ty::F16: FV = fromF16((uint16_t)V); break;
      case Ty::BF16: FV = fromBF16((uint16_t)V); break;
      case Ty::F32: FV = get<float>(V); if (Ftz) FV = ftz32((float)FV); break;
      case Ty::F64: FV = get<double>(V); break;
      default: fail(W, *Fr.F, I, L, "unsupported cvt source type");
      }
    } else {
      unsigned SS = tySize(ST);
      uint64_t Mask = SS >= 8 ? ~0ull : ((1ull << (SS * 8)) - 1);
      UV = V & Mask;
      if (tySigned(ST) && SS < 8 && (UV >> (SS * 8 - 1)) & 1) IV = (int64_t)(UV | ~Mask);
      else IV = (int64_t)UV;
      if (!tySigned(ST)) IV = (int64_t)UV;
    }
    uint64_t Out = 0;
    if (tyFloat(DT)) {
      if (SrcFloat) {
        double X = FV;
        if (ST == DT || Mode >= RndRni) X = (Mode >= RndRni) ? roundToInt(X, Mode) : X;
        switch (DT) {
        case Ty::F64: Out = put<double>(Sat ? sat64(X) : X); break;
        case Ty::F32: {
          float F = (ST == Ty::F64 && Mode != RndRn && Mode != RndNone && Mode < RndRni)
                        ? f64ToF32(X, Mode) : (float)X;
          if (Ftz) F = ftz32(F);
          if (Sat) F = sat32(F);
          Out = put<float>(F);
          break;
        }
        case Ty::F16: Out = toF16(Sat ? sat64(X) : X, Mode >= RndRni ? RndRn : Mode); break;
        case Ty::BF16: Out = toBF16(Sat ? sat64(X) : X, Mode >= RndRni ? RndRn : Mode); break;
        default: fail(W, *Fr.F, I, L, "unsupported cvt destination");
        }
      } else {
        bool S = tySigned(ST);
        switch (DT) {
        case Ty::F64: Out = put<double>(Mode == RndRn || Mode == RndNone ? (S ? (double)IV : (double)UV) : intToF64(IV, S, Mode)); break;
        case Ty::F32: {
          float F = Mode == RndRn || Mode == RndNone ? (S ? (float)IV : (float)UV) : intToF32(IV, S, Mode);
          if (Sat) F = sat32(F);
          Out = put<float>(F);
          break;
        }
        case Ty::F16: Out = toF16(S ? (double)IV : (double)UV, Mode); break;
        case Ty::BF16: Out = toBF16(S ? (double)IV : (double)UV, Mode); break;
        default: fail(W, *Fr.F, I, L, "unsupported cvt destination");
        }
      }
    } else {
      unsigned DS = tySize(DT);
      bool DSgn = tySigned(DT);
      int64_t Lo, Hi; // saturation range (as int64 for <64-bit)
      if (SrcFloat) {
        double X = roundToInt(FV, Mode == RndNone ? RndRzi : Mode);
        if (std::isnan(X)) { Out = 0; }
        else if (DSgn) {
          double Mn = DS >= 8 ? -9223372036854775808.0 : -std::ldexp(1.0, DS * 8 - 1);
          double Mx = DS >= 8 ? 9223372036854775807.0 : std::ldexp(1.0, DS * 8 - 1) - 1;
          int64_t Vv = X <= Mn ? (int64_t)Mn : X >= Mx ? (DS >= 8 ? INT64_MAX : (int64_t)Mx) : (int64_t)X;
          Out = (uint64_t)Vv;
        } else {
          double Mx = DS >= 8 ? 18446744073709551615.0 : std::ldexp(1.0, DS * 8) - 1;
          uint64_t Vv = X <= 0 ? 0 : X >= Mx ? (DS >= 8 ? UINT64_MAX : (uint64_t)Mx) : (uint64_t)X;
          Out = Vv;
        }
      } else {
        Out = (uint64_t)IV;
        if (Sat) {
          if (DSgn) {
            Lo = DS >= 8 ? INT64_MIN : -(1ll << (DS * 8 - 1));
            Hi = DS >= 8 ? INT64_MAX : (1ll << (DS * 8 - 1)) - 1;
            if (tySigned(ST)) Out = (uint64_t)std::min(std::max(IV, Lo), Hi);
            else Out = UV > (uint64_t)Hi ? (uint64_t)Hi : UV;
          } else {
            uint64_t UHi = DS >= 8 ? UINT64_MAX : (1ull << (DS * 8)) - 1;
            if (tySigned(ST) && IV < 0) Out = 0;
            else Out = UV > UHi ? UHi : UV;
          }
        }
      }
      if (DS < 8) {
        uint64_t Mask = (1ull << (DS * 8)) - 1;
        if (DSgn && DS < 4) Out = (uint64_t)(int64_t)(((int64_t)(Out << (64 - DS * 8))) >> (64 - DS * 8)) & 0xffffffffull;
        else Out &= Mask;
      }
    }
    D[L] = Out;
  }
}

// Float ops (f32/f64) with modifiers.
void Launcher::execFloat(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Ftz = I.Flags & FFtz, Sat = I.Flags & FSat;
  const int Mode = I.Rnd;
  const bool Directed = Mode == RndRz || Mode == RndRm || Mode == RndRp;
  const bool Plain = !Ftz && !Sat && !Directed;
  int ROp = -1;
  switch (I.Op) {
  case OpAdd: ROp = ROpAdd; break;
  case OpSub: ROp = ROpSub; break;
  case OpMul: ROp = ROpMul; break;
  case OpDiv: ROp = ROpDiv; break;
  case OpFma: ROp = ROpFma; break;
  case OpSqrt: ROp = ROpSqrt; break;
  case OpRcp: ROp = ROpRcp; break;
  default: break;
  }
  if (I.T == Ty::F32) {
    if (Plain) {
      switch (I.Op) {
      case OpAdd: bin<float>(EM, D, A, B, [](float X, float Y) { return X + Y; }); return;
      case OpSub: bin<float>(EM, D, A, B, [](float X, float Y) { return X - Y; }); return;
      case OpMul: bin<float>(EM, D, A, B, [](float X, float Y) { return X * Y; }); return;
      case OpFma: fmaLanesF32(EM, D, A, B, C); return;
      case OpDiv: bin<float>(EM, D, A, B, [](float X, float Y) { return X / Y; }); return;
      default: break;
      }
    }
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      float X = get<float>(A[L]), Y = get<float>(B[L]), Z = get<float>(C[L]), Res;
      if (Ftz) { X = ftz32(X); Y = ftz32(Y); Z = ftz32(Z); }
      if (Directed && ROp >= 0) {
        Res = roundedF32(ROp, X, Y, Z, Mode);
      } else {
        switch (I.Op) {
        case OpAdd: Res = X + Y; break;
        case OpSub: Res = X - Y; break;
        case OpMul: Res = X * Y; break;
        case OpFma: Res = std::fma(X, Y, Z); break;
        case OpDiv: Res = X / Y; break;
        case OpMin: Res = fminPtx(X, Y, I.Flags & FNan); if (I.NS == 3) Res = fminPtx(Res, Z, I.Flags & FNan); break;
        case OpMax: Res = fmaxPtx(X, Y, I.Flags & FNan); if (I.NS == 3) Res = fmaxPtx(Res, Z, I.Flags & FNan); break;
        case OpAbs: Res = std::fabs(X); break;
        case OpNeg: Res = -X; break;
        case OpRcp: Res = 1.0f / X; break;
        case OpSqrt: Res = std::sqrt(X); break;
        case OpRsqrt: Res = 1.0f / std::sqrt(X); break;
        case OpEx2: Res = std::exp2(X); break;
        case OpLg2: Res = std::log2(X); break;
        case OpSin: Res = std::sin(X); break;
        case OpCos: Res = std::cos(X); break;
        case OpTanh: Res = std::tanh(X); break;
        case OpCopysign: Res = std::copysign(Y, X); break;
        default: fail(W, *Fr.F, I, L, "unsupported f32 operation");
        }
      }
      if (Ftz) Res = ftz32(Res);
      if (Sat) Res = sat32(Res);
      if (I.Flags & FRelu && !(Res >= 0)) Res = std::isnan(Res) ? Res : 0.0f;
      D[L] = put<float>(Res);
    }
    return;
  }
  // f64
  if (Plain) {
    switch (I.Op) {
    case OpAdd: bin<double>(EM, D, A, B, [](double X, double Y) { return X + Y; }); return;
    case OpSub: bin<double>(EM, D, A, B, [](double X, double Y) { return X - Y; }); return;
    case OpMul: bin<double>(EM, D, A, B, [](double X, double Y) { return X * Y; }); return;
    case OpFma: tern<double>(EM, D, A, B, C, [](double X, double Y, double Z) { return std::fma(X, Y, Z); }); return;
    case OpDiv: bin<double>(EM, D, A, B, [](double X, double Y) { return X / Y; }); return;
    default: break;
    }
  }
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1)) continue;
    double X = get<double>(A[L]), Y = get<double>(B[L]), Z = get<double>(C[L]), Res;
    if (Directed && ROp >= 0) {
      Res = roundedF64(ROp, X, Y, Z, Mode);
    } else {
      switch (I.Op) {
      case OpAdd: Res = X + Y; break;
      case OpSub: Res = X - Y; break;
      case OpMul: Res = X * Y; break;
      case OpFma: Res = std::fma(X, Y, Z); break;
      case OpDiv: Res = X / Y; break;
      case OpMin: Res = fminPtx(X, Y, I.Flags & FNan); break;
      case OpMax: Res = fmaxPtx(X, Y, I.Flags & FNan); break;
      case OpAbs: Res = std::fabs(X); break;
      case OpNeg: Res = -X; break;
      case OpRcp: Res = 1.0 / X; break;
      case OpSqrt: Res = std::sqrt(X); break;
      case OpRsqrt: Res = 1.0 / std::sqrt(X); break;
      case OpEx2: Res = std::exp2(X); break;
      case OpLg2: Res = std::log2(X); break;
      case OpSin: Res = std::sin(X); break;
      case OpCos: Res = std::cos(X); break;
      case OpTanh: Res = std::tanh(X); break;
      case OpCopysign: Res = std::copysign(Y, X); break;
      default: fail(W, *Fr.F, I, L, "unsupported f64 operation");
      }
    }
    if (Sat) Res = sat64(Res);
    D[L] = put<double>(Res);
  }
}

// f16 / bf16 / x2 arithmetic via float.
void Launcher::execHalf(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const bool Bf = I.T == Ty::BF16 || I.T == Ty::BF16x2;
  const bool X2 = I.T == Ty::F16x2 || I.T == Ty::BF16x2;
  const int Mode = I.Rnd == RndNone ? (int)RndRn : (int)I.Rnd;
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1)) continue;
    uint32_t Out = 0;
    for (int E = 0; E < (X2 ? 2 : 1); ++E) {
      unsigned Sh = E * 16;
      uint32_t Ab = (uint32_t)(A[L] >> Sh) & 0xffff, Bb = (uint32_t)(B[L] >> Sh) & 0xffff,
               Cb = (uint32_t)(C[L] >> Sh) & 0xffff;
      float X = halfGet(Ab, Bf), Y = halfGet(Bb, Bf), Z = halfGet(Cb, Bf);
      uint32_t Res;
      switch (I.Op) {
      case OpAdd: Res = halfPut((double)X + Y, Bf, Mode); break;
      case OpSub: Res = halfPut((double)X - Y, Bf, Mode); break;
      case OpMul: Res = halfPut((double)X * Y, Bf, Mode); break;
      case OpFma: Res = halfPut(std::fma((double)X, (double)Y, (double)Z), Bf, Mode); break;
      case OpNeg: Res = Ab ^ 0x8000; break;
      case OpAbs: Res = Ab & 0x7fff; break;
      case OpMin: Res = halfPut(fminPtx(X, Y, I.Flags & FNan), Bf); break;
      case OpMax: Res = halfPut(fmaxPtx(X, Y, I.Flags & FNan), Bf); break;
      case OpEx2: Res = halfPut(std::exp2(X), Bf); break;
      case OpTanh: Res = halfPut(std::tanh(X), Bf); break;
      default: fail(W, *Fr.F, I, L, "unsupported half-precision operation");
      }
      if (I.Flags & FSat) Res = halfPut(sat32(halfGet(Res, Bf)), Bf);
      if (I.Flags & FRelu) { float V = halfGet(Res, Bf); if (V < 0) Res = 0; }
      Out |= (Res & 0xffff) << Sh;
    }
    D[L] = Out;
  }
}

void Launcher::execWarpOp(Warp &W, Frame &Fr, const Inst &I, uint32_t EM, uint32_t Active) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  switch (I.Op) {
  case OpShfl: {
    uint64_t Tmp[32];
    uint64_t Pr[32];
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint32_t Bv = (uint32_t)B[L], Cv = (uint32_t)C[L];
      uint32_t Clamp = Cv & 31, Seg = (Cv >> 8) & 31;
      int MinL = L & Seg, MaxL = (L & Seg) | (Clamp & ~Seg);
      int J;
      bool Ok;
      switch (I.Sub) {
      case ShUp: J = L - (int)(Bv & 31); Ok = J >= MaxL; break; // sic: PTX ISA pseudocode
      case ShDown: J = L + (int)(Bv & 31); Ok = J <= MaxL; break;
      case ShBfly: J = L ^ (int)(Bv & 31); Ok = J <= MaxL; break;
      default: J = MinL | (int)(Bv & 31 & ~Seg); Ok = J <= MaxL; break;
      }
      if (!Ok || J < 0 || J > 31) J = L;
      Tmp[L] = A[J];
      Pr[L] = Ok;
    }
    for (int L = 0; L < 32; ++L)
      if ((EM >> L) & 1) {
        D[L] = Tmp[L];
        if (I.Flags & FHasPredOut) R[(size_t)I.D[1] * 32 + L] = Pr[L];
      }
    return;
  }
  case OpVote: {
    uint32_t Ballot = 0;
    bool Neg = I.Flags & FNegC;
    for (int L = 0; L < 32; ++L)
      if ((EM >> L) & 1) Ballot |= (uint32_t)(((A[L] & 1) != 0) != Neg) << L;
    uint64_t V;
    switch (I.Sub) {
    case VoAll: V = Ballot == EM; break;
    case VoAny: V = Ballot != 0; break;
    case VoUni: V = Ballot == 0 || Ballot == EM; break;
    default: V = Ballot; break;
    }
    LANES(D[l] = V);
    return;
  }
  case OpActivemask: {
    LANES(D[l] = Active);
    return;
  }
  case OpElect: {
    // One deterministic leader among the executing lanes: the lowest.
    int Leader = __builtin_ctz(EM);
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      D[L] = (uint64_t)Leader;
      R[(size_t)I.D[1] * 32 + L] = L == Leader;
    }
    return;
  }
  case OpMatch: {
    unsigned S = tySize(I.T);
    uint64_t Msk = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
    uint64_t Res[32];
    bool AllEq = true;
    int First = __builtin_ctz(EM);
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint32_t M2 = 0;
      for (int J = 0; J < 32; ++J)
        if (((EM >> J) & 1) && (A[J] & Msk) == (A[L] & Msk)) M2 |= 1u << J;
      Res[L] = M2;
      if ((A[L] & Msk) != (A[First] & Msk)) AllEq = false;
    }
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      if (I.Sub == 1) {
        D[L] = AllEq ? EM : 0;
        if (I.Flags & FHasPredOut) R[(size_t)I.D[1] * 32 + L] = AllEq;
      } else {
        D[L] = Res[L];
      }
    }
    return;
  }
  case OpRedux: {
    bool S = tySigned(I.T);
    uint64_t Acc = 0;
    bool FirstV = true;
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      uint32_t V = (uint32_t)A[L];
      if (FirstV) { Acc = V; FirstV = false; continue; }
      switch (I.Sub) {
      case AtAdd: Acc = (uint32_t)(Acc + V); break;
      case AtMin: Acc = S ? (uint32_t)std::min((int32_t)Acc, (int32_t)V) : std::min((uint32_t)Acc, V); break;
      case AtMax: Acc = S ? (uint32_t)std::max((int32_t)Acc, (int32_t)V) : std::max((uint32_t)Acc, V); break;
      case AtAnd: Acc &= V; break;
      case AtOr: Acc |= V; break;
      case AtXor: Acc ^= V; break;
      }
    }
    LANES(D[l] = Acc);
    return;
  }
  default:
    fail(W, *Fr.F, I, -1, "internal: bad warp op");
  }
}

std::string Launcher::formatPrintf(const char *Fmt, const uint8_t *Args) {
  std::string Out;
  size_t Off = 0;
  auto Take = [&](size_t Size) {
    Off = (Off + Size - 1) / Size * Size;
    uint64_t V = 0;
    if (Args) std::memcpy(&V, Args + Off, Size);
    Off += Size;
    return V;
  };
  const char *P = Fmt;
  while (*P) {
    if (*P != '%') { Out += *P++; continue; }
    if (P[1] == '%') { Out += '%'; P += 2; continue; }
    std::string Spec = "%";
    ++P;
    while (*P && std::strchr("-+ #0", *P)) Spec += *P++;
    if (*P == '*') { Spec += std::to_string((int32_t)Take(4)); ++P; }
    while (*P >= '0' && *P <= '9') Spec += *P++;
    if (*P == '.') {
      Spec += *P++;
      if (*P == '*') { Spec += std::to_string((int32_t)Take(4)); ++P; }
      while (*P >= '0' && *P <= '9') Spec += *P++;
    }
    int Long = 0;
    while (*P && std::strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' || *P == 't') ++Long;
      ++P;
    }
    char Conv = *P;
    if (!Conv) break;
    ++P;
    char Buf[512];
    switch (Conv) {
    case 'd': case 'i': {
      int64_t V = Long ? (int64_t)Take(8) : (int64_t)(int32_t)Take(4);
      std::snprintf(Buf, sizeof Buf, (Spec + "lld").c_str(), (long long)V);
      Out += Buf;
      break;
    }
    case 'u': case 'x': case 'X': case 'o': {
      uint64_t V = Long ? Take(8) : (uint32_t)Take(4);
      std::snprintf(Buf, sizeof Buf, (Spec + "ll" + Conv).c_str(), (unsigned long long)V);
      Out += Buf;
      break;
    }
    case 'c': {
      int V = (int)(int32_t)Take(Long ? 8 : 4);
      std::snprintf(Buf, sizeof Buf, (Spec + "c").c_str(), V);
      Out += Buf;
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
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

void Launcher::builtin(Warp &W, Frame &Fr, const Inst &I, Function &Callee, uint32_t EM) {
  const uint32_t PB = Fr.F->ParamBytes;
  auto Arg = [&](int L, uint32_t K) {
    if (K >= I.NArgs) fail(W, *Fr.F, I, L, "missing argument to " + Callee.Name);
    uint32_t Off = Fr.F->CallArgs[I.ArgBegin + 2 * K];
    uint32_t Size = Fr.F->CallArgs[I.ArgBegin + 2 * K + 1];
    uint64_t V = 0;
    std::memcpy(&V, Fr.Param.data() + (size_t)L * PB + Off, std::min<uint32_t>(Size, 8));
    return V;
  };
  auto SetRet = [&](int L, uint64_t V) {
    if (I.HasRet) std::memcpy(Fr.Param.data() + (size_t)L * PB + I.RetOff, &V, std::min<uint32_t>(I.RetSize, 8));
  };
  for (int L = 0; L < 32; ++L) {
    if (!((EM >> L) & 1)) continue;
    switch (Callee.Bi) {
    case BiVprintf: {
      const char *Fmt = (const char *)(uintptr_t)Arg(L, 0);
      const uint8_t *Args = (const uint8_t *)(uintptr_t)Arg(L, 1);
      std::string S = Fmt ? formatPrintf(Fmt, Args) : std::string();
      PrintfSinkFn(S.data(), S.size());
      SetRet(L, (uint64_t)S.size());
      break;
    }
    case BiMalloc: {
      void *Ptr = std::malloc(Arg(L, 0) ? Arg(L, 0) : 1);
      if (Ptr) registerAllocation(Ptr, Arg(L, 0));
      SetRet(L, (uint64_t)(uintptr_t)Ptr);
      break;
    }
    case BiFree: {
      void *Ptr = (void *)(uintptr_t)Arg(L, 0);
      if (Ptr) { unregisterAllocation(Ptr); std::free(Ptr); }
      break;
    }
    case BiAssert: {
      const char *Msg = (const char *)(uintptr_t)Arg(L, 0);
      const char *File = (const char *)(uintptr_t)Arg(L, 1);
      uint32_t Line = (uint32_t)Arg(L, 2);
      fail(W, *Fr.F, I, L, std::string("device assertion failed: ") + (Msg ? Msg : "?") + " at " +
                               (File ? File : "?") + ":" + std::to_string(Line));
    }
    default:
      fail(W, *Fr.F, I, L, "call to external function '" + Callee.Name + "' without a body");
    }
  }
}

static inline uint32_t predMask(const uint64_t *P, bool Neg) {
  uint32_t M = 0;
  for (int L = 0; L < 32; ++L) M |= (uint32_t)(P[L] & 1) << L;
  return Neg ? ~M : M;
}

// Non-control instructions.
void Launcher::exec(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
  uint64_t *R = Fr.Regs.data();
  const uint64_t *A = R + (size_t)I.S[0] * 32;
  const uint64_t *B = R + (size_t)I.S[1] * 32;
  const uint64_t *C = R + (size_t)I.S[2] * 32;
  uint64_t *D = R + (size_t)I.D[0] * 32;
  const Ty T = I.T;
  auto Unsupported = [&]() {
    fail(W, *Fr.F, I, -1, "unsupported operand type for this instruction");
  };
  bool IsF = T == Ty::F32 || T == Ty::F64;
  bool IsH = T == Ty::F16 || T == Ty::F16x2 || T == Ty::BF16 || T == Ty::BF16x2;
  switch (I.Op) {
  case OpNop: return;
  case OpMov: LANES(D[l] = A[l]); return;
  case OpClock32: LANES(D[l] = (uint32_t)Clock); return;
  case OpClock64: LANES(D[l] = Clock); return;
  case OpGlobalTimer: {
    uint64_t Ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count();
    LANES(D[l] = Ns);
    return;
  }
  case OpPack: {
    unsigned N = I.NS, Total = tySize(T) * 8, Part = Total / N;
    uint64_t PM = Part >= 64 ? ~0ull : (1ull << Part) - 1;
    LANES({
      uint64_t V = 0;
      for (unsigned K = 0; K < N; ++K) V |= (R[(size_t)I.S[K] * 32 + l] & PM) << (K * Part);
      D[l] = V;
    });
    return;
  }
  case OpUnpack: {
    unsigned N = I.ND, Total = tySize(T) * 8, Part = Total / N;
    uint64_t PM = Part >= 64 ? ~0ull : (1ull << Part) - 1;
    LANES({
      uint64_t V = A[l];
      for (unsigned K = 0; K < N; ++K)
        if (I.D[K] != SlotSink) R[(size_t)I.D[K] * 32 + l] = (V >> (K * Part)) & PM;
    });
    return;
  }
  case OpAdd:
  case OpSub: {
    if (IsF) return execFloat(W, Fr, I, EM);
    if (IsH) return execHalf(W, Fr, I, EM);
    bool Sub = I.Op == OpSub;
    if (I.Flags & (FCcIn | FCcOut)) {
      uint64_t *CC = R + (size_t)SlotCC * 32;
      bool In = I.Flags & FCcIn, Out = I.Flags & FCcOut;
      if (tySize(T) == 4) {
        LANES({
          uint64_t X = (uint32_t)A[l], Y = (uint32_t)B[l], Ci = In ? CC[l] : 0;
          uint64_t Res = Sub ? X - Y - Ci : X + Y + Ci;
          D[l] = (uint32_t)Res;
          if (Out) CC[l] = Sub ? ((Res >> 32) & 1) : (Res >> 32);
        });
      } else {
        LANES({
          uint64_t X = A[l], Y = B[l], Ci = In ? CC[l] : 0;
          unsigned __int128 Res = Sub ? (unsigned __int128)X - Y - Ci : (unsigned __int128)X + Y + Ci;
          D[l] = (uint64_t)Res;
          if (Out) CC[l] = (uint64_t)(Res >> 64) & 1;
        });
      }
      return;
    }
    if (I.Flags & FSat && T == Ty::S32) {
      LANES({
        int64_t Res = Sub ? (int64_t)(int32_t)A[l] - (int32_t)B[l] : (int64_t)(int32_t)A[l] + (int32_t)B[l];
        Res = std::min<int64_t>(std::max<int64_t>(Res, INT32_MIN), INT32_MAX);
        D[l] = (uint32_t)(int32_t)Res;
      });
      return;
    }
    if (!uintDispatch(T, [&](auto Tag) {
          using U = decltype(Tag);
          if (Sub) bin<U>(EM, D, A, B, [](U X, U Y) { return (U)(X - Y); });
          else bin<U>(EM, D, A, B, [](U X, U Y) { return (U)(X + Y); });
        }))
      Unsupported();
    return;
  }
  case OpMul:
  case OpMad: {
    if (IsF) return execFloat(W, Fr, I, EM);
    if (IsH) return execHalf(W, Fr, I, EM);
    bool Mad = I.Op == OpMad;
    bool Hi = I.Flags & FHi, Wide = I.Flags & FWide;
    if (I.Flags & (FCcIn | FCcOut)) {
      // mad.lo.cc / madc.hi etc. (32/64-bit)
      uint64_t *CC = R + (size_t)SlotCC * 32;
      bool In = I.Flags & FCcIn, Out = I.Flags & FCcOut;
      bool S = tySigned(T);
      if (tySize(T) == 4) {
        LANES({
          uint64_t P = S ? (uint64_t)((int64_t)(int32_t)A[l] * (int64_t)(int32_t)B[l])
                         : (uint64_t)(uint32_t)A[l] * (uint32_t)B[l];
          uint64_t Part = Hi ? (P >> 32) & 0xffffffffu : P & 0xffffffffu;
          uint64_t Res = Part + (uint32_t)C[l] + (In ? CC[l] : 0);
          D[l] = (uint32_t)Res;
          if (Out) CC[l] = (Res >> 32) & 1;
        });
      } else {
        LANES({
          unsigned __int128 P = S ? (unsigned __int128)((__int128)(int64_t)A[l] * (int64_t)B[l])
                                  : (unsigned __int128)A[l] * B[l];
          uint64_t Part = Hi ? (uint64_t)(P >> 64) : (uint64_t)P;
          unsigned __int128 Res = (unsigned __int128)Part + C[l] + (In ? CC[l] : 0);
          D[l] = (uint64_t)Res;
          if (Out) CC[l] = (uint64_t)(Res >> 64) & 1;
        });
      }
      return;
    }
    if (!intDispatch(T, [&](auto Tag) {
          using X = decltype(Tag);
          using UX = std::make_unsigned_t<X>;
          constexpr unsigned Bits = sizeof(X) * 8;
          if (Wide || Hi) {
            if constexpr (Bits <= 32) {
              using WX = std::conditional_t<std::is_signed_v<X>, int64_t, uint64_t>;
              if (Wide) {
                using WT = std::conditional_t<Bits == 16, std::conditional_t<std::is_signed_v<X>, int32_t, uint32_t>, WX>;
                if (Mad) tern<WT>(EM, D, A, B, C, [](WT P, WT Q, WT Z) { return (WT)((WX)(X)P * (WX)(X)Q + Z); });
                else bin<WT>(EM, D, A, B, [](WT P, WT Q) { return (WT)((WX)(X)P * (WX)(X)Q); });
              } else {
                if (Mad) tern<X>(EM, D, A, B, C, [](X P, X Q, X Z) { return (X)((UX)(((WX)P * (WX)Q) >> Bits) + (UX)Z); });
                else bin<X>(EM, D, A, B, [](X P, X Q) { return (X)(((WX)P * (WX)Q) >> Bits); });
              }
            } else {
              using WX = std::conditional_t<std::is_signed_v<X>, __int128, unsigned __int128>;
              if (Wide) Unsupported();
              if (Mad) tern<X>(EM, D, A, B, C, [](X P, X Q, X Z) { return (X)((UX)(((WX)P * (WX)Q) >> 64) + (UX)Z); });
              else bin<X>(EM, D, A, B, [](X P, X Q) { return (X)(((WX)P * (WX)Q) >> 64); });
            }
          } else {
            if (Mad) tern<UX>(EM, D, A, B, C, [](UX P, UX Q, UX Z) { return (UX)(P * Q + Z); });
            else bin<UX>(EM, D, A, B, [](UX P, UX Q) { return (UX)(P * Q); });
          }
        }))
      Unsupported();
    return;
  }
  case OpMul24:
  case OpMad24: {
    bool S = tySigned(T), Hi = I.Flags & FHi, Mad = I.Op == OpMad24;
    LANES({
      int64_t X = S ? ((int64_t)((int32_t)((uint32_t)A[l] << 8)) >> 8) : (int64_t)(A[l] & 0xffffff);
      int64_t Y = S ? ((int64_t)((int32_t)((uint32_t)B[l] << 8)) >> 8) : (int64_t)(B[l] & 0xffffff);
      uint64_t P = (uint64_t)(X * Y);
      uint32_t Res = Hi ? (uint32_t)(P >> 16) : (uint32_t)P;
      if (Mad) Res += (uint32_t)C[l];
      D[l] = Res;
    });
    return;
  }
  case OpFma:
    if (IsF) return execFloat(W, Fr, I, EM);
    if (IsH) return execHalf(W, Fr, I, EM);
    Unsupported();
  case OpDiv:
  case OpRem: {
    if (IsF) return execFloat(W, Fr, I, EM);
    bool Rem = I.Op == OpRem;
    if (!intDispatch(T, [&](auto Tag) {
          using X = decltype(Tag);
          for (int L = 0; L < 32; ++L) {
            if (!((EM >> L) & 1)) continue;
            X P = get<X>(A[L]), Q = get<X>(B[L]);
            X Res;
            if (Q == 0) Res = Rem ? P : (X)-1;
            else if (std::is_signed_v<X> && Q == (X)-1) Res = Rem ? 0 : (X)(0 - (std::make_unsigned_t<X>)P);
            else Res = Rem ? P % Q : P / Q;
            D[L] = put<X>(Res);
          }
        }))
      Unsupported();
    return;
  }
  case OpAbs:
  case OpNeg: {
    if (IsF) {
      if (!(I.Flags & FFtz)) {
        uint64_t SB = T == Ty::F32 ? 0x80000000ull : 0x8000000000000000ull;
        if (I.Op == OpAbs) LANES(D[l] = A[l] & ~SB);
        else LANES(D[l] = (A[l] ^ SB) & (T == Ty::F32 ? 0xffffffffull : ~0ull));
        return;
      }
      return execFloat(W, Fr, I, EM);
    }
    if (IsH) return execHalf(W, Fr, I, EM);
    bool Neg = I.Op == OpNeg;
    if (!intDispatch(T, [&](auto Tag) {
          using X = decltype(Tag);
          using UX = std::make_unsigned_t<X>;
          if (Neg) un<X>(EM, D, A, [](X P) { return (X)(0 - (UX)P); });
          else un<X>(EM, D, A, [](X P) { return P < 0 ? (X)(0 - (UX)P) : P; });
        }))
      Unsupported();
    return;
  }
  case OpMin:
  case OpMax: {
    if (IsF) return execFloat(W, Fr, I, EM);
    if (IsH) return execHalf(W, Fr, I, EM);
    bool Min = I.Op == OpMin;
    if (!intDispatch(T, [&](auto Tag) {
          using X = decltype(Tag);
          if (Min) bin<X>(EM, D, A, B, [](X P, X Q) { return P < Q ? P : Q; });
          else bin<X>(EM, D, A, B, [](X P, X Q) { return P > Q ? P : Q; });
        }))
      Unsupported();
    if (I.Flags & FRelu) LANES(if ((int32_t)D[l] < 0) D[l] = 0);
    return;
  }
  case OpAnd:
  case OpOr:
  case OpXor: {
    if (I.Op == OpAnd) LANES(D[l] = A[l] & B[l]);
    else if (I.Op == OpOr) LANES(D[l] = A[l] | B[l]);
    else LANES(D[l] = A[l] ^ B[l]);
    return;
  }
  case OpNot: {
    if (T == Ty::Pred) LANES(D[l] = (A[l] & 1) ^ 1);
    else {
      unsigned S = tySize(T);
      uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
      LANES(D[l] = ~A[l] & M);
    }
    return;
  }
  case OpCnot: {
    unsigned S = tySize(T);
    uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
    LANES(D[l] = (A[l] & M) == 0 ? 1 : 0);
    return;
  }
  case OpShl:
  case OpShr: {
    bool Shl = I.Op == OpShl;
    if (!intDispatch(T, [&](auto Tag) {
          using X = decltype(Tag);
          using UX = std::make_unsigned_t<X>;
          constexpr unsigned Bits = sizeof(X) * 8;
          if (Shl)
            LANES({
              uint32_t Sh = (uint32_t)B[l];
              D[l] = put<X>(Sh >= Bits ? (X)0 : (X)((UX)get<X>(A[l]) << Sh));
            });
          else
            LANES({
              uint32_t Sh = (uint32_t)B[l];
              X V = get<X>(A[l]);
              X Res;
              if (Sh >= Bits) Res = std::is_signed_v<X> ? (V < 0 ? (X)-1 : (X)0) : (X)0;
              else Res = (X)(V >> Sh);
              D[l] = put<X>(Res);
            });
        }))
      Unsupported();
    return;
  }
  case OpPopc:
    if (tySize(T) == 8) LANES(D[l] = (uint64_t)__builtin_popcountll(A[l]));
    else LANES(D[l] = (uint64_t)__builtin_popcount((uint32_t)A[l]));
    return;
  case OpClz:
    if (tySize(T) == 8) LANES(D[l] = A[l] ? (uint64_t)__builtin_clzll(A[l]) : 64);
    else LANES(D[l] = (uint32_t)A[l] ? (uint64_t)__builtin_clz((uint32_t)A[l]) : 32);
    return;
  case OpBrev:
    if (tySize(T) == 8) {
      LANES({
        uint64_t V = A[l], Res = 0;
        for (int K = 0; K < 64; ++K) Res |= ((V >> K) & 1) << (63 - K);
        D[l] = Res;
      });
    } else {
      LANES({
        uint32_t V = (uint32_t)A[l], Res = 0;
        for (int K = 0; K < 32; ++K) Res |= ((V >> K) & 1) << (31 - K);
        D[l] = Res;
      });
    }
    return;
  case OpBfind: {
    bool S = tySigned(T), Amt = I.Flags & FShiftAmt;
    unsigned Bits = tySize(T) * 8;
    LANES({
      uint64_t V = Bits == 64 ? A[l] : (uint32_t)A[l];
      if (S) {
        bool NegV = Bits == 64 ? (int64_t)V < 0 : (int32_t)V < 0;
        if (NegV) V = ~V & (Bits == 64 ? ~0ull : 0xffffffffull);
      }
      uint32_t Res;
      if (V == 0) Res = 0xffffffffu;
      else {
        Res = 63 - (uint32_t)__builtin_clzll(V);
        if (Amt) Res = Bits - 1 - Res;
      }
      D[l] = Res;
    });
    return;
  }
  case OpBfe: {
    bool S = tySigned(T);
    unsigned Bits = tySize(T) * 8;
    LANES({
      uint64_t V = A[l];
      uint32_t Pos = (uint32_t)B[l] & 0xff, Len = (uint32_t)C[l] & 0xff;
      uint64_t Res;
      bool Sbit;
      if (S) {
        uint32_t SPos = std::min(Pos + Len - 1, Bits - 1);
        Sbit = Len == 0 ? false : ((V >> SPos) & 1);
        if (Pos >= Bits) Sbit = Bits == 64 ? ((int64_t)V < 0) : (((uint32_t)V >> 31) & 1);
        if (Len == 0) Sbit = false;
      } else {
        Sbit = false;
      }
      Res = 0;
      for (uint32_t K = 0; K < Bits; ++K) {
        bool Bit = (K < Len && Pos + K < Bits) ? ((V >> (Pos + K)) & 1) : Sbit;
        Res |= (uint64_t)Bit << K;
      }
      D[l] = Res;
    });
    return;
  }
  case OpBfi: {
    const uint64_t *Cc = R + (size_t)I.S[2] * 32, *Dd = R + (size_t)I.S[3] * 32;
    unsigned Bits = tySize(T) * 8;
    LANES({
      uint32_t Pos = (uint32_t)Cc[l] & 0xff, Len = (uint32_t)Dd[l] & 0xff;
      uint64_t Res = B[l];
      for (uint32_t K = 0; K < Len && Pos + K < Bits; ++K) {
        uint64_t Bit = (A[l] >> K) & 1;
        Res = (Res & ~(1ull << (Pos + K))) | (Bit << (Pos + K));
      }
      D[l] = Bits == 64 ? Res : (uint32_t)Res;
    });
    return;
  }
  case OpPrmt: {
    uint8_t Mode = I.Sub;
    LANES({
      uint64_t Src = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
      uint32_t Sel = (uint32_t)C[l];
      uint32_t Res = 0;
      uint8_t Bytes[8];
      for (int K = 0; K < 8; ++K) Bytes[K] = (uint8_t)(Src >> (8 * K));
      if (Mode == 0) {
        for (int K = 0; K < 4; ++K) {
          uint32_t Nib = (Sel >> (4 * K)) & 0xf;
          uint8_t By = Bytes[Nib & 7];
          if (Nib & 8) By = (By & 0x80) ? 0xff : 0;
          Res |= (uint32_t)By << (8 * K);
        }
      } else {
        uint32_t S2 = Sel & 3;
        int Idx[4];
        switch (Mode) {
        case 1: for (int K = 0; K < 4; ++K) Idx[K] = (S2 + K) & 7; break;             // f4e
        case 2: for (int K = 0; K < 4; ++K) Idx[K] = (S2 - K) & 7; break;             // b4e
        case 3: for (int K = 0; K < 4; ++K) Idx[K] = S2; break;                       // rc8
        case 4: for (int K = 0; K < 4; ++K) Idx[K] = std::max(K, (int)S2); break;    // ecl
        case 5: for (int K = 0; K < 4; ++K) Idx[K] = std::min(K, (int)S2); break;    // ecr
        default: { int Bb = (S2 & 1) * 2; Idx[0] = Bb; Idx[1] = Bb + 1; Idx[2] = Bb; Idx[3] = Bb + 1; } // rc16
        }
        for (int K = 0; K < 4; ++K) Res |= (uint32_t)Bytes[Idx[K]] << (8 * K);
      }
      D[l] = Res;
    });
    return;
  }
  case OpLop3: {
    const uint64_t *Lut = R + (size_t)I.S[3] * 32;
    unsigned S = tySize(T);
    uint64_t M = S >= 8 ? ~0ull : (1ull << (S * 8)) - 1;
    LANES({
      uint64_t X = A[l], Y = B[l], Z = C[l];
      uint32_t Tb = (uint32_t)Lut[l] & 0xff;
      uint64_t Res = 0;
      for (int K = 0; K < 8; ++K) {
        if (!((Tb >> K) & 1)) continue;
        uint64_t Term = ((K & 4) ? X : ~X) & ((K & 2) ? Y : ~Y) & ((K & 1) ? Z : ~Z);
        Res |= Term;
      }
      D[l] = Res & M;
    });
    return;
  }
  case OpShf: {
    bool Left = I.Flags & FLeft, Wrap = I.Flags & FWrap;
    LANES({
      uint64_t V = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
      uint32_t N = (uint32_t)C[l];
      N = Wrap ? (N & 31) : std::min(N, 32u);
      D[l] = Left ? (uint32_t)((V << N) >> 32) : (uint32_t)(V >> N);
    });
    return;
  }
  case OpSad: {
    bool S = tySigned(T);
    LANES({
      int64_t X = S ? (int64_t)(int32_t)A[l] : (int64_t)(uint32_t)A[l];
      int64_t Y = S ? (int64_t)(int32_t)B[l] : (int64_t)(uint32_t)B[l];
      D[l] = (uint32_t)((X > Y ? X - Y : Y - X) + (uint32_t)C[l]);
    });
    return;
  }
  case OpDp4a:
  case OpDp2a: {
    bool SA = tySigned(I.T), SB = tySigned(I.T2);
    bool Four = I.Op == OpDp4a;
    bool Hi = I.Flags & FHi;
    LANES({
      int64_t Acc = SA || SB ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
      for (int K = 0; K < (Four ? 4 : 2); ++K) {
        int64_t X, Y;
        if (Four) {
          X = SA ? (int8_t)(A[l] >> (8 * K)) : (uint8_t)(A[l] >> (8 * K));
          Y = SB ? (int8_t)(B[l] >> (8 * K)) : (uint8_t)(B[l] >> (8 * K));
        } else {
          X = SA ? (int16_t)(A[l] >> (16 * K)) : (uint16_t)(A[l] >> (16 * K));
          int BK = K + (Hi ? 2 : 0);
          Y = SB ? (int8_t)(B[l] >> (8 * BK)) : (uint8_t)(B[l] >> (8 * BK));
        }
        Acc += X * Y;
      }
      D[l] = (uint32_t)Acc;
    });
    return;
  }
  case OpRcp: case OpSqrt: case OpRsqrt: case OpEx2: case OpLg2: case OpSin:
  case OpCos: case OpTanh: case OpCopysign:
    if (IsF) return execFloat(W, Fr, I, EM);
    if (IsH) return execHalf(W, Fr, I, EM);
    Unsupported();
  case OpTestp: {
    LANES({
      double V = T == Ty::F32 ? (double)get<float>(A[l]) : get<double>(A[l]);
      int C2 = T == Ty::F32 ? std::fpclassify(get<float>(A[l])) : std::fpclassify(V);
      bool Res;
      switch (I.Sub) {
      case 0: Res = std::isfinite(V); break;
      case 1: Res = std::isinf(V); break;
      case 2: Res = !std::isnan(V); break;
      case 3: Res = std::isnan(V); break;
      case 4: Res = C2 == FP_NORMAL; break;
      default: Res = C2 == FP_SUBNORMAL; break;
      }
      D[l] = Res;
    });
    return;
  }
  case OpSetp:
  case OpSet: {
    uint8_t Cm = I.Sub;
    Ty ST = I.Op == OpSet ? I.T2 : T;
    bool Res[32];
    bool Ftz = I.Flags & FFtz;
    auto Cmp = [&](auto Tag) {
      using X = decltype(Tag);
      for (int L = 0; L < 32; ++L) {
        if (!((EM >> L) & 1)) continue;
        X P = get<X>(A[L]), Q = get<X>(B[L]);
        if constexpr (std::is_floating_point_v<X>) {
          if (Ftz && std::is_same_v<X, float>) { P = ftz32(P); Q = ftz32(Q); }
          Res[L] = cmpF<X>(Cm, P, Q);
        } else {
          Res[L] = cmpI<X>(Cm, P, Q);
        }
      }
    };
    switch (ST) {
    case Ty::F32: Cmp(float{}); break;
    case Ty::F64: Cmp(double{}); break;
    case Ty::F16: case Ty::BF16: {
      bool Bf = ST == Ty::BF16;
      for (int L = 0; L < 32; ++L)
        if ((EM >> L) & 1) Res[L] = cmpF<float>(Cm, halfGet((uint32_t)A[L] & 0xffff, Bf), halfGet((uint32_t)B[L] & 0xffff, Bf));
      break;
    }
    default:
      if (!intDispatch(ST, Cmp)) Unsupported();
    }
    bool NegC = I.Flags & FNegC;
    uint64_t *D2 = R + (size_t)I.D[1] * 32;
    for (int L = 0; L < 32; ++L) {
      if (!((EM >> L) & 1)) continue;
      bool V = Res[L], V2 = !Res[L];
      if (I.Bool) {
        bool Cv = ((C[L] & 1) != 0) != NegC;
        switch (I.Bool) {
        case BoolAnd: V = V && Cv; V2 = V2 && Cv; break;
        case BoolOr: V = V || Cv; V2 = V2 || Cv; break;
        default: V = V != Cv; V2 = V2 != Cv; break;
        }
      }
      if (I.Op == OpSetp) {
        D[L] = V;
        if (I.ND > 1) D2[L] = V2;
      } else {
        if (T == Ty::F32) D[L] = V ? 0x3f800000u : 0;
        else D[L] = V ? (tySize(T) == 8 ? ~0ull : 0xffffffffull) : 0;
      }
    }
    return;
  }
  case OpSelp: {
    bool Neg = I.Flags & FNegC;
    LANES(D[l] = (((C[l] & 1) != 0) != Neg) ? A[l] : B[l]);
    return;
  }
  case OpSlct: {
    if (I.T2 == Ty::F32) LANES(D[l] = get<float>(C[l]) >= 0.0f ? A[l] : B[l]);
    else LANES(D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
    return;
  }
  case OpCvt: return execCvt(W, Fr, I, EM);
  case OpCvtPack: {
    // cvt.rn.f16x2.f32 d, a, b: d = {a -> hi, b -> lo}
    bool Bf = T == Ty::BF16x2;
    int Mode = I.Rnd == RndNone ? (int)RndRn : (int)I.Rnd;
    LANES({
      float X = get<float>(A[l]), Y = get<float>(B[l]);
      if (I.Flags & FRelu) { if (X < 0) X = 0; if (Y < 0) Y = 0; }
      uint32_t Hi = Bf ? toBF16(X, Mode) : toF16(X, Mode), Lo = Bf ? toBF16(Y, Mode) : toF16(Y, Mode);
      D[l] = (Hi << 16) | Lo;
    });
    return;
  }
  case OpCvta: {
    bool To = I.Flags & FToSpace;
    switch (I.Space) {
    case SpShared: {
      uint64_t Base = (uint64_t)(uintptr_t)Shared;
      if (To) LANES(D[l] = A[l] - Base);
      else LANES(D[l] = A[l] + Base);
      break;
    }
    case SpLocal:
      if (To) LANES(D[l] = A[l] - (uint64_t)(uintptr_t)W.LaneLocal[l]);
      else LANES(D[l] = A[l] + (uint64_t)(uintptr_t)W.LaneLocal[l]);
      break;
    case SpParam: {
      uint64_t Base = (uint64_t)(uintptr_t)Fr.Param.data();
      uint32_t PB = Fr.F->ParamBytes;
      if (To) LANES(D[l] = A[l] - (Base + (uint64_t)l * PB));
      else LANES(D[l] = A[l] + (Base + (uint64_t)l * PB));
      break;
    }
    default:
      LANES(D[l] = A[l]);
    }
    if (tySize(T) == 4) LANES(D[l] &= 0xffffffffu);
    return;
  }
  case OpIsspacep: {
    LANES({
      uintptr_t V = (uintptr_t)A[l];
      bool Res;
      bool InSh = V >= (uintptr_t)Shared && V < (uintptr_t)Shared + SharedSize;
      bool InLo = !LocalBuf.empty() && V >= (uintptr_t)LocalBuf.data() && V < (uintptr_t)LocalBuf.data() + LocalBuf.size();
      switch (I.Space) {
      case SpShared: Res = InSh; break;
      case SpLocal: Res = InLo; break;
      case SpGlobal: Res = !InSh && !InLo; break;
      default: Res = false;
      }
      D[l] = Res;
    });
    return;
  }
  case OpLd:
  case OpSt: return execMem(W, Fr, I, EM);
  case OpAtom:
  case OpRed: return execAtom(W, Fr, I, EM);
  default:
    fail(W, *Fr.F, I, -1, "unsupported instruction");
  }
}

// The top entry of Fr reached a barrier. Lanes of the same warp that are
// still on other paths must get there too (independent thread scheduling),
// so instead of blocking the warp:
//  - if a sibling path (same parent entry) is runnable, move the waiting
//    subtree below it (sibling order does not matter for reconvergence) and
//    run the sibling;
//  - else, if the parent entry holds lanes that already reached its
//    reconvergence point (no live child covers them), split them off as a new
//    sibling of the parent and let them run ahead (e.g. the lanes of
//    "if (i >= n) return;" that wait at the return block);
//  - else climb to the parent and repeat.
// Returns false when nothing else in this frame can run.
static bool switchToSibling(Frame &Fr, uint32_t Live) {
  auto &S = Fr.Stack;
  size_t Y = S.size() - 1;
  for (;;) {
    uint32_t Par = S[Y].Parent;
    size_t Z = Y;
    bool Found = false;
    size_t P = Y;
    while (P-- > 0) {
      if (S[P].Id == Par) break;
      if (S[P].Parent == Par && !S[P].Parked && !S[P].BarWait && (S[P].Mask & Live)) {
        Z = P;
        Found = true;
        break;
      }
    }
    if (Found) {
      S[Y].Parked = true;
      size_t ZEnd = Z + 1; // Z's subtree ends at its next sibling
      while (ZEnd < Y && S[ZEnd].Parent != Par) ++ZEnd;
      std::rotate(S.begin() + Z, S.begin() + ZEnd, S.end());
      return true;
    }
    if (Par == NoTarget) return false;
    size_t Q = Y;
    while (Q-- > 0)
      if (S[Q].Id == Par) break;
    // Lanes of the parent not covered by any of its live children.
    uint32_t Covered = 0;
    for (size_t K = Q + 1; K < S.size(); ++K)
      if (S[K].Parent == Par) Covered |= S[K].Mask;
    uint32_t Extra = S[Q].Mask & ~Covered & Live;
    if (Extra) {
      Entry NE{S[Q].Pc, S[Q].Rpc, Extra};
      NE.Id = Fr.NextId++;
      NE.Parent = S[Q].Parent;
      S[Q].Mask &= ~Extra;
      S[Q].Parked = true;
      S.push_back(NE);
      return true;
    }
    Y = Q;
  }
}

// Runs W until it finishes (false) or reaches a barrier (true).
bool Launcher::runWarp(Warp &W) {
  for (;;) {
    Frame &Fr = *W.Frames[W.Depth - 1];
    Function &Fn = *Fr.F;
    const uint32_t N = (uint32_t)Fn.Code.size();
    Entry &E = Fr.Stack.back();
    if (E.BarWait) { // still waiting for a barrier: run other paths if any
      if (switchToSibling(Fr, ~W.Exited & ~Fr.Retired)) continue;
      return true;
    }
    uint32_t Mask = E.Mask & ~W.Exited & ~Fr.Retired;
    if (Mask == 0 || E.Pc == E.Rpc || E.Pc >= N) {
      if (Fr.Stack.size() > 1) {
        if (E.Pc >= N && E.Pc != E.Rpc) {
          if (W.Depth == 1) W.Exited |= Mask; // fell off the end of the kernel
          else Fr.Retired |= Mask;
        }
        Fr.Stack.pop_back();
        continue;
      }
      // Frame finished.
      if (W.Depth == 1) {
        W.Exited |= W.Valid;
        W.Done = true;
        return false;
      }
      Frame &Caller = *W.Frames[W.Depth - 2];
      const Inst &CI = *Fr.CallInst;
      if (CI.HasRet && Fn.HasRet) {
        uint32_t Live = Fr.CallMask & ~W.Exited;
        uint32_t Sz = std::min(CI.RetSize, Fn.Ret.Size);
        for (int L = 0; L < 32; ++L)
          if ((Live >> L) & 1)
            std::memcpy(Caller.Param.data() + (size_t)L * Caller.F->ParamBytes + CI.RetOff,
                        Fr.Param.data() + (size_t)L * Fn.ParamBytes + Fn.Ret.Off, Sz);
      }
      --W.Depth;
      continue;
    }
    uint32_t Pc = E.Pc;
    const uint32_t Rpc = E.Rpc;
    const Inst *Code = Fn.Code.data();
    uint64_t *R = Fr.Regs.data();
    uint64_t *WE = Fn.WarpExec.data(), *TE = Fn.ThreadExec.data(),
             *AE = Fn.ActiveExec.data();
    for (;;) {
      if (Pc == Rpc || Pc >= N) { Fr.Stack.back().Pc = Pc; break; }
      const Inst &I = Code[Pc];
      ++Clock;
      WE[Pc]++;
      uint32_t EM = Mask;
      if (I.Guard >= 0) EM &= predMask(R + (size_t)I.Guard * 32, I.GuardNeg);
      TE[Pc] += popc32(EM);
      AE[Pc] += popc32(Mask);
      switch (I.Op) {
      case OpBra: {
        if (I.Guard >= 0) {
          Fn.Visits[Pc]++;
          if (EM != 0 && EM != Mask) Fn.Divergent[Pc]++;
        }
        if (EM == Mask) { Pc = I.Target; continue; }
        if (EM == 0) { ++Pc; continue; }
        uint32_t Rc = I.Ipdom;
        uint32_t NotTaken = Mask & ~EM;
        Fr.Stack.back().Pc = Rc;
        uint32_t Par = Fr.Stack.back().Id;
        if (Pc + 1 != Rc) Fr.push(Pc + 1, Rc, NotTaken, Par);
        if (I.Target != Rc) Fr.push(I.Target, Rc, EM, Par);
        goto Resched;
      }
      case OpBrx: {
        const std::vector<uint32_t> &Tab = Fn.BrxTables[I.Target];
        const uint64_t *Ix = R + (size_t)I.S[0] * 32;
        Fn.Visits[Pc]++;
        uint32_t Rest = EM;
        std::vector<std::pair<uint32_t, uint32_t>> Groups;
        while (Rest) {
          int L = __builtin_ctz(Rest);
          uint32_t Idx = (uint32_t)Ix[L];
          if (Idx >= Tab.size()) fail(W, Fn, I, L, "brx.idx index out of range");
          uint32_t G = 0;
          for (int K = L; K < 32; ++K)
            if (((Rest >> K) & 1) && (uint32_t)Ix[K] == Idx) G |= 1u << K;
          Groups.push_back({Tab[Idx], G});
          Rest &= ~G;
        }
        if (Groups.size() > 1 || (EM != 0 && EM != Mask)) Fn.Divergent[Pc]++;
        if (Groups.size() == 1 && EM == Mask) { Pc = Groups[0].first; continue; }
        if (Groups.empty()) { ++Pc; continue; }
        uint32_t Rc = I.Ipdom;
        Fr.Stack.back().Pc = Rc;
        uint32_t Par = Fr.Stack.back().Id;
        if (EM != Mask && Pc + 1 != Rc) Fr.push(Pc + 1, Rc, Mask & ~EM, Par);
        for (auto &G : Groups)
          if (G.first != Rc) Fr.push(G.first, Rc, G.second, Par);
        goto Resched;
      }
      case OpRet:
      case OpExit:
        if (I.Op == OpExit || W.Depth == 1) W.Exited |= EM;
        else Fr.Retired |= EM;
        Mask &= ~EM;
        ++Pc;
        if (!Mask) { Fr.Stack.back().Pc = Pc; goto Resched; }
        continue;
      case OpUnsupported:
        if (!EM) { ++Pc; continue; } // guarded off: not executed
        fail(W, Fn, I, __builtin_ctz(EM), "unsupported instruction: " + Fn.UnsupportedWhy[I.Target]);
      case OpTrap:
        if (EM) fail(W, Fn, I, __builtin_ctz(EM), "trap");
        ++Pc;
        continue;
      case OpBar:
        ++Pc;
        if (!EM) continue;
        Fr.Stack.back().Pc = Pc;
        {
          int FL = __builtin_ctz(EM);
          uint32_t Id = I.NS > 0 ? (uint32_t)R[(size_t)I.S[0] * 32 + FL] & 15 : 0;
          uint32_t Cnt = I.NS > 1 ? (uint32_t)R[(size_t)I.S[1] * 32 + FL] : 0;
          BarInst[Id] = &I;
          BarOpcode[Id] = &Fn.Opcodes[&I - Code];
          Arrived[Id] += popc32(EM);
          if (Cnt) Expect[Id] = Cnt;
          W.BarMask |= 1u << Id;
          Entry &Top = Fr.Stack.back();
          Top.BarWait = true;
          Top.BarId = (uint8_t)Id;
          if (EM != Mask) {
            // Guarded barrier: lanes whose guard is false go on as a sibling.
            Entry NE{Pc, Top.Rpc, Mask & ~EM};
            NE.Id = Fr.NextId++;
            NE.Parent = Top.Parent;
            Top.Mask = EM;
            Fr.Stack.push_back(NE);
            goto Resched;
          }
        }
        if (switchToSibling(Fr, ~W.Exited & ~Fr.Retired)) goto Resched;
        return true;
      case OpCall: {
        ++Pc;
        if (!EM) continue;
        uint32_t CalleeIdx = I.Target;
        if (I.Flags & FIndirect) {
          // Group lanes by target; several targets: each group re-issues
          // the call as its own path (reconverging after the call).
          const uint64_t *T = R + (size_t)I.S[0] * 32;
          int L0 = __builtin_ctz(EM);
          uint32_t Same = 0;
          for (int L = 0; L < 32; ++L)
            if (((EM >> L) & 1) && T[L] == T[L0]) Same |= 1u << L;
          if (Same != EM || EM != Mask) {
            WE[Pc - 1]--;
            TE[Pc - 1] -= popc32(EM);
            AE[Pc - 1] -= popc32(Mask);
            Fr.Stack.back().Pc = Pc;
            uint32_t Par = Fr.Stack.back().Id;
            uint32_t Rest = EM;
            while (Rest) {
              int L = __builtin_ctz(Rest);
              uint32_t G = 0;
              for (int J = L; J < 32; ++J)
                if (((Rest >> J) & 1) && T[J] == T[L]) G |= 1u << J;
              Fr.push(Pc - 1, Pc, G, Par);
              Rest &= ~G;
            }
            goto Resched;
          }
          uint64_t Addr = T[L0];
          if (Addr < FunctionAddressBase || Addr - FunctionAddressBase >= M.PM->Functions.size())
            fail(W, Fn, I, L0, "indirect call to an address that is not a function");
          CalleeIdx = (uint32_t)(Addr - FunctionAddressBase);
        }
        Fr.Stack.back().Pc = Pc;
        Function &Callee = *M.PM->Functions[CalleeIdx];
        if (!Callee.HasBody) {
          builtin(W, Fr, I, Callee, EM);
          continue;
        }
        uint32_t Base = Fr.LocalBase + (Fn.LocalBytes + 15) / 16 * 16;
        if (Base + Callee.LocalBytes > LocalStack || W.Depth >= 256)
          fail(W, Fn, I, __builtin_ctz(EM), "call stack overflow (recursion too deep)");
        if (W.Frames.size() <= W.Depth) W.Frames.push_back(std::make_unique<Frame>());
        Frame &NF = *W.Frames[W.Depth];
        initFrame(W, NF, Callee, EM, Base);
        NF.CallMask = EM;
        NF.CallInst = &I;
        // Copy arguments.
        Frame &Caller = *W.Frames[W.Depth - 1];
        for (uint32_t K = 0; K < I.NArgs && K < Callee.Params.size(); ++K) {
          uint32_t Off = Fn.CallArgs[I.ArgBegin + 2 * K], Sz = Fn.CallArgs[I.ArgBegin + 2 * K + 1];
          const ParamDecl &PD = Callee.Params[K];
          Sz = std::min(Sz, PD.Size);
          for (int L = 0; L < 32; ++L)
            if ((EM >> L) & 1)
              std::memcpy(NF.Param.data() + (size_t)L * Callee.ParamBytes + PD.Off,
                          Caller.Param.data() + (size_t)L * Fn.ParamBytes + Off, Sz);
        }
        ++W.Depth;
        goto Resched;
      }
      case OpShfl: case OpVote: case OpActivemask: case OpMatch: case OpRedux: case OpElect:
        if (EM) execWarpOp(W, Fr, I, EM, Mask);
        ++Pc;
        if (Pc == Rpc) { Fr.Stack.back().Pc = Pc; goto Resched; }
        continue;
      default:
        if (EM) exec(W, Fr, I, EM);
        ++Pc;
        continue;
      }
    }
  Resched:;
  }
}

/// With WARPSCOPE_EMU_PROGRESS=<seconds> (`warpscope run` sets 2), a launch
/// running longer than that reports its blocks done on stderr that often.
class LaunchProgress {
public:
  LaunchProgress(const std::string &Kernel, uint64_t Blocks)
      : Kernel(Kernel), Blocks(Blocks), Start(std::chrono::steady_clock::now()),
        Last(Start) {
    const char *E = std::getenv("WARPSCOPE_EMU_PROGRESS");
    double Seconds = E ? std::atof(E) : 0;
    Enabled = Seconds > 0;
    Interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(Seconds));
  }
  void tick(uint64_t Done) {
    if (!Enabled || (Done & 15))
      return;
    auto Now = std::chrono::steady_clock::now();
    if (Now - Last < Interval)
      return;
    Last = Now;
    double Secs = std::chrono::duration<double>(Now - Start).count();
    std::fprintf(stderr, "warpscope-emu: %s: %llu/%llu blocks, %.0f s\n",
                 Kernel.c_str(), (unsigned long long)Done,
                 (unsigned long long)Blocks, Secs);
  }

private:
  std::string Kernel;
  uint64_t Blocks;
  std::chrono::steady_clock::time_point Start, Last;
  std::chrono::steady_clock::duration Interval{};
  bool Enabled = false;
};

void Launcher::run() {
  const Dim3 &G = P.Grid, &Bk = P.Block;
  NThreads = Bk.X * Bk.Y * Bk.Z;
  NWarps = (NThreads + 31) / 32;
  Check = M.CheckGlobal;
  // Kernel parameter bytes into the frame param area of each lane.
  KParams.assign(K.ParamBytes, 0);
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (P.Args && P.Args[I]) std::memcpy(KParams.data() + K.Params[I].Off, P.Args[I], K.Params[I].Size);
  // Shared memory.
  SharedSize = P.DynamicSharedBytes ? K.Shared.DynOff + P.DynamicSharedBytes : K.Shared.StaticBytes;
  SharedBuf.assign(SharedSize + SharedGuard + 64, 0);
  Shared = (uint8_t *)(((uintptr_t)SharedBuf.data() + 63) / 64 * 64);
  // Local memory: enough for the kernel plus any non-recursive call chain.
  LocalStack = K.LocalStack;
  LocalBuf.assign((size_t)LocalStack * NWarps * 32 + LocalGuard, 0);
  Warps.resize(NWarps);
  LaunchProgress Progress(K.Name, (uint64_t)G.X * G.Y * G.Z);
  for (uint32_t Z = 0; Z < G.Z; ++Z)
    for (uint32_t Y = 0; Y < G.Y; ++Y)
      for (uint32_t X = 0; X < G.X; ++X) {
        Progress.tick(((uint64_t)Z * G.Y + Y) * G.X + X);
        Ctaid[0] = X; Ctaid[1] = Y; Ctaid[2] = Z;
        if (X || Y || Z) std::memset(Shared, 0, SharedSize);
        for (uint32_t Wi = 0; Wi < NWarps; ++Wi) {
          Warp &W = Warps[Wi];
          W.Index = Wi;
          W.Valid = 0;
          W.Exited = 0;
          W.Done = W.AtBar = false;
          W.BarMask = 0;
          for (int L = 0; L < 32; ++L) {
            uint32_t T = Wi * 32 + L;
            if (T < NThreads) W.Valid |= 1u << L;
            W.Tid[0][L] = T % Bk.X;
            W.Tid[1][L] = (T / Bk.X) % Bk.Y;
            W.Tid[2][L] = T / (Bk.X * Bk.Y);
            W.LaneLocal[L] = LocalBuf.data() + (size_t)T * LocalStack;
          }
          W.Exited = ~W.Valid;
          if (W.Frames.empty()) W.Frames.push_back(std::make_unique<Frame>());
          W.Depth = 1;
          Frame &Fr = *W.Frames[0];
          initFrame(W, Fr, K, W.Valid, 0);
          for (int L = 0; L < 32; ++L)
            if (K.ParamBytes) std::memcpy(Fr.Param.data() + (size_t)L * K.ParamBytes, KParams.data(), K.ParamBytes);
        }
        // Schedule: run each warp until it blocks at a barrier or finishes.
        std::fill(std::begin(Arrived), std::end(Arrived), 0u);
        std::fill(std::begin(Expect), std::end(Expect), 0u);
        for (;;) {
          bool AllDone = true, Progress = false;
          for (Warp &W : Warps) {
            if (W.Done) continue;
            AllDone = false;
            if (W.AtBar) continue;
            Progress = true;
            if (runWarp(W)) W.AtBar = true;
          }
          if (AllDone) break;
          uint32_t Live = 0, Waiting = 0;
          for (Warp &W : Warps)
            if (!W.Done) {
              Live += popc32(W.Valid & ~W.Exited);
              Waiting |= W.BarMask;
            }
          bool Released = false;
          for (uint32_t B = 0; B < 16; ++B) {
            if (!((Waiting >> B) & 1)) continue;
            uint32_t Need = Expect[B] ? std::min(Expect[B], Live) : Live;
            if (Arrived[B] < Need) continue;
            for (Warp &W : Warps) {
              if (W.Done || !((W.BarMask >> B) & 1)) continue;
              W.BarMask &= ~(1u << B);
              W.AtBar = false;
              for (uint32_t D = 0; D < W.Depth; ++D)
                for (Entry &E : W.Frames[D]->Stack) {
                  if (E.BarWait && E.BarId == B) E.BarWait = false;
                  E.Parked = false;
                }
            }
            Arrived[B] = Expect[B] = 0;
            Released = true;
          }
          if (Released) continue;
          if (!Progress) {
            std::string S = "kernel " + K.Name + ", block (" + std::to_string(X) + "," +
                            std::to_string(Y) + "," + std::to_string(Z) + "): deadlock:";
            bool First = true;
            for (uint32_t B = 0; B < 16; ++B) {
              if (!((Waiting >> B) & 1)) continue;
              S += std::string(First ? "" : ";") + " barrier " + std::to_string(B) + " ('" +
                   *BarOpcode[B] + "' at " + srcLoc(*M.PM, *BarInst[B]) + "): " +
                   std::to_string(Arrived[B]) + " of " +
                   std::to_string(Expect[B] ? Expect[B] : Live) + " threads arrived";
              First = false;
            }
            throw EmuError{S};
          }
        }
      }
}

// ---------------------------------------------------------------------------
// Module.
// ---------------------------------------------------------------------------
ModuleImpl::ModuleImpl(std::unique_ptr<ParsedModule> P) : PM(std::move(P)) {
  for (auto &F : PM->Functions) {
    if (!F->IsKernel || !F->HasBody) continue;
    KernelInfo KI;
    KI.Name = F->Name;
    for (auto &PD : F->Params) KI.Params.push_back({PD.Name, PD.Size, PD.Align});
    KI.StaticSharedBytes = F->Shared.StaticBytes;
    KI.LocalBytesPerThread = F->LocalBytes;
    KI.NumRegisters = std::min<uint32_t>(std::max<uint32_t>(F->NumDeclaredRegs, 1), 255);
    KI.MaxThreadsPerBlock = F->MaxNtid ? F->MaxNtid : F->ReqNtid ? F->ReqNtid : 1024;
    Kernels.push_back(KI);
  }
  for (auto &G : PM->Globals) {
    if (G->Space == SpShared) continue;
    Globals.push_back({G->Name, G->Size, G->Data});
  }
}

const KernelInfo *ModuleImpl::findKernel(const std::string &Name) const {
  for (auto &K : Kernels) if (K.Name == Name) return &K;
  return nullptr;
}
const GlobalInfo *ModuleImpl::findGlobal(const std::string &Name) const {
  for (auto &G : Globals) if (G.Name == Name) return &G;
  return nullptr;
}

bool ModuleImpl::launch(const std::string &Kernel, const LaunchParams &P, std::string &Error) {
  std::lock_guard<std::mutex> Lock(Mu);
  auto It = PM->FuncIndex.find(Kernel);
  if (It == PM->FuncIndex.end() || !PM->Functions[It->second]->IsKernel ||
      !PM->Functions[It->second]->HasBody) {
    Error = "no kernel named '" + Kernel + "' in module " + PM->Name;
    return false;
  }
  Function &K = *PM->Functions[It->second];
  uint64_t NT = (uint64_t)P.Block.X * P.Block.Y * P.Block.Z;
  if (NT == 0 || NT > 1024 || P.Grid.X == 0 || P.Grid.Y == 0 || P.Grid.Z == 0) {
    Error = "kernel " + Kernel + ": invalid launch configuration";
    return false;
  }
  uint32_t MaxT = K.MaxNtid ? K.MaxNtid : K.ReqNtid ? K.ReqNtid : 1024;
  if (NT > MaxT) {
    Error = "kernel " + Kernel + ": block of " + std::to_string(NT) + " threads exceeds .maxntid " +
            std::to_string(MaxT);
    return false;
  }
  if (!K.Params.empty() && !P.Args) {
    Error = "kernel " + Kernel + ": missing arguments";
    return false;
  }
  const char *Env = std::getenv("WARPSCOPE_EMU_CHECK");
  CheckGlobal = Env && Env[0] && std::strcmp(Env, "0") != 0;
  Launches.push_back({Kernel, P.Grid, P.Block, P.DynamicSharedBytes});
  ++LaunchCount;
  try {
    Launcher L(*this, K, P);
    L.run();
  } catch (EmuError &E) {
    Error = E.Msg;
    return false;
  } catch (std::bad_alloc &) {
    Error = "kernel " + Kernel + ": out of host memory";
    return false;
  }
  return true;
}

static void jsonStr(std::string &O, const std::string &S) {
  O += '"';
  for (unsigned char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    case '\r': O += "\\r"; break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else {
        O += (char)C;
      }
    }
  }
  O += '"';
}

std::string ModuleImpl::groundTruthJson() const {
  std::lock_guard<std::mutex> Lock(Mu);
  std::string O = "{\"schema\":\"warpscope-emu/1\",\"module\":";
  jsonStr(O, PM->Name);
  O += ",\"functions\":[";
  bool FirstF = true;
  for (auto &F : PM->Functions) {
    if (!F->HasBody) continue;
    if (!FirstF) O += ",";
    FirstF = false;
    O += "\n{\"name\":";
    jsonStr(O, F->Name);
    O += ",\"kernel\":";
    O += F->IsKernel ? "true" : "false";
    O += ",\"instructions\":[";
    for (size_t K = 0; K < F->Code.size(); ++K) {
      const Inst &I = F->Code[K];
      if (K) O += ",";
      O += "\n {\"index\":" + std::to_string(K) + ",\"ptx_line\":" + std::to_string(I.PtxLine) +
           ",\"opcode\":";
      jsonStr(O, F->Opcodes[K]);
      if (I.File) {
        auto It = PM->Files.find(I.File);
        O += ",\"file\":";
        jsonStr(O, It != PM->Files.end() ? It->second : std::string());
        O += ",\"line\":" + std::to_string(I.Line) + ",\"column\":" + std::to_string(I.Col);
      }
      if (I.Marker >= 0) {
        O += ",\"marker\":";
        jsonStr(O, PM->Markers[I.Marker]);
      }
      O += ",\"warp_executions\":" + std::to_string(F->WarpExec[K]) +
           ",\"thread_executions\":" + std::to_string(F->ThreadExec[K]) +
           ",\"active_threads\":" + std::to_string(F->ActiveExec[K]);
      if (F->Instrumentation[K])
        O += ",\"instrumentation\":true";
      if ((I.Op == OpBra && I.Guard >= 0) || I.Op == OpBrx)
        O += ",\"visits\":" + std::to_string(F->Visits[K]) + ",\"divergent\":" + std::to_string(F->Divergent[K]);
      O += "}";
    }
    O += "]}";
  }
  O += "],\"launches\":[";
  for (size_t K = 0; K < Launches.size(); ++K) {
    const LaunchRecord &L = Launches[K];
    if (K) O += ",";
    O += "\n{\"kernel\":";
    jsonStr(O, L.Kernel);
    O += ",\"grid\":[" + std::to_string(L.Grid.X) + "," + std::to_string(L.Grid.Y) + "," +
         std::to_string(L.Grid.Z) + "],\"block\":[" + std::to_string(L.Block.X) + "," +
         std::to_string(L.Block.Y) + "," + std::to_string(L.Block.Z) +
         "],\"shared_bytes\":" + std::to_string(L.Shared) + "}";
  }
  O += "]}\n";
  return O;
}

} // namespace core

std::unique_ptr<Module> loadPtx(const std::string &PtxText, const std::string &ModuleName,
                                std::string &Error) {
  auto PM = core::parsePtx(PtxText, ModuleName, Error);
  if (!PM) return nullptr;
  return std::make_unique<core::ModuleImpl>(std::move(PM));
}

} // namespace warpscope::emu
