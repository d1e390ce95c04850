//===- ExecInternal.h - the SIMT executor's launch state --------*- C++ -*-===//
//
// Private to the executor's sources: warps, call frames and their
// reconvergence stacks, and the Launcher that runs one kernel launch. The
// Launcher keeps scheduling, memory and error reporting; its member
// functions live in one file per concern:
//   Interp.cpp    the interpreter loop and instruction dispatch
//   Schedule.cpp  warp scheduling, reconvergence, calls and barriers
//   Memory.cpp    address spaces, loads/stores, atomics
//   Addresses.cpp the allocation table, address resolution and diagnoses
//   MatrixOps.cpp the warp matrix loads and stores (wmma, ldmatrix)
//   Builtins.cpp  calls without a body: vprintf, malloc, free, assert
//   TextureOps.cpp tex, suld, sust on texture and surface objects
//   MemCount.cpp  memory-efficiency counts (sectors, wavefronts) of ld/st/atom
//   Racecheck.cpp shared-memory hazards between warps (Racecheck.h)
// The bodies of the instructions that only compute on registers are free
// functions over (instruction, registers, mask), with no launch state:
//   IntOps.h, CmpOps.h, VideoOps.h  integer, compare, video (inlined into
//                 exec's switch; Lanes.h: the helpers every body shares)
//   FloatOps.h    f32/f64 (Arith.cpp), f16/bf16 (HalfOps.cpp) and cvt
//   WarpOps.h     shfl, vote, match, redux, elect, activemask
//   MatrixOps.h   mma and wmma.mma
// One that meets a form it does not implement returns that, and the dispatch
// (Interp.cpp) reports it with the instruction's site.
// A Launcher is one worker thread's executor for one launch: it runs the
// CTAs LaunchGrid.cpp hands it, one at a time. Exec.cpp holds the module
// (launch entry) and GroundTruth.cpp its counts as JSON.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_EXECINTERNAL_H
#define WARPSCOPE_EMU_CORE_EXECINTERNAL_H

#include "Exec.h"
#include "warpscope/Support/Settings.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::emu::core {

// Reconvergence stack entry. Entries pushed at one divergent branch are
// siblings (same Parent); a subtree is contiguous above its root.
struct Entry {
  uint32_t Pc, Rpc, Mask;
  uint32_t Id = 0, Parent = NoTarget;
  bool BarWait = false; // arrived at a barrier, waiting for release
  uint8_t BarId = 0;    // which barrier
  bool Parked = false;  // subtree moved aside while siblings run to the barrier
  const Inst *Red = nullptr; // bar.red waiting: writes its result on release
};

struct Frame {
  Function *F = nullptr;
  std::vector<uint64_t> Regs;
  std::vector<uint8_t> Param; // 32 lanes x F->ParamBytes
  uint32_t LocalBase = 0;
  uint32_t Retired = 0;
  uint32_t CallMask = 0;
  const Inst *CallInst = nullptr;
  // bar.warp.sync: lanes of this frame waiting at one, and the member lanes
  // they wait for (Schedule.cpp, warpSync).
  uint32_t WsArrived = 0, WsNeed = 0;
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
  uint32_t BarMask = 0; // barriers (bit per id 0..15) some path waits on
  // Per barrier, in its current phase (SyncCheck.cpp): the lanes that
  // arrived and the instruction of their first arrival.
  uint32_t BarLanes[16] = {};
  const Inst *BarFirst[16] = {};
};

struct EmuError {
  std::string Msg;
  LaunchFault Fault = LaunchFault::Failure;
};

/// The in-block progress lines of one launch's workers (WARPSCOPE_EMU_PROGRESS,
/// Launcher::checkWatchdog): at most one per interval, the interval doubling
/// after each line up to 32 times the setting, so a hung kernel on many
/// workers does not flood stderr.
class BlockReports {
public:
  explicit BlockReports(std::chrono::steady_clock::duration Every)
      : Every(Every) {}
  /// Whether a line may be printed now (then it is counted).
  bool claim(std::chrono::steady_clock::time_point Now) {
    std::lock_guard<std::mutex> L(Mu);
    if (Now < Next)
      return false;
    Next = Now + Every * Factor;
    Factor = std::min(Factor * 2, 32);
    return true;
  }

private:
  std::mutex Mu;
  std::chrono::steady_clock::duration Every;
  std::chrono::steady_clock::time_point Next{};
  int Factor = 1;
};

class Launcher {
public:
  Launcher(ModuleImpl &M, Function &K, const LaunchParams &P,
           WorkerCounters &Ctr, TraceSink *Trace)
      : M(M), K(K), P(P), Ctr(Ctr), Trace(Trace) {}
  /// Per-launch state: parameters, shared and local memory (Schedule.cpp).
  void setup();
  /// Runs CTA Linear (x + y * nx + z * nx * ny) to completion; throws
  /// EmuError. Its printf output collects in Out.
  void runCta(uint64_t Linear);
  std::string Out;
  /// WARPSCOPE_EMU_TIMEOUT: past this moment the launch fails at the next
  /// watchdog check (none when unset). A requestInterrupt stops it there
  /// too.
  std::optional<std::chrono::steady_clock::time_point> Deadline;
  /// WARPSCOPE_EMU_PROGRESS: a CTA running longer than this reports itself
  /// (zero: never), so one long block is not silent; Reports spaces the
  /// lines of all workers.
  std::chrono::steady_clock::duration ProgressEvery{};
  BlockReports *Reports = nullptr;
  /// The end of the highest shared-memory byte this worker's blocks of the
  /// launch touched, as an offset into a block's window (LaunchRecord).
  uint32_t sharedTouched() const { return SharedTouched; }

private:
  ModuleImpl &M;
  Function &K;
  const LaunchParams &P;
  WorkerCounters &Ctr;  // this worker's counts
  TraceSink *Trace;     // null: untraced
  bool Tracing = false; // Trace wants the running CTA
  bool FirstCta = true;
  uint32_t Ctaid[3] = {0, 0, 0};
  uint32_t NThreads = 0, NWarps = 0;
  std::vector<uint8_t> SharedBuf, LocalBuf, KParams;
  uint8_t *Shared = nullptr;
  uint32_t SharedSize = 0;
  // The end of the highest shared byte any access touched so far (never
  // above SharedSize). It is the limit of the shared fast paths and of the
  // cached region of a generic access into shared memory: an access above
  // it takes the checked slow path (addr, checkGlobal), which raises it
  // (noteShared). So the fast paths cost nothing more, and the slow path
  // runs only while the mark rises. Bytes above it were never written:
  // runCta clears only up to it.
  uint32_t SharedTouched = 0;
  void noteShared(uint64_t End) {
    if (End > SharedTouched)
      SharedTouched = (uint32_t)End;
  }
  // Generic accesses just past the end of shared memory are caught here.
  static constexpr uint32_t SharedGuard = 4096;
  static constexpr uint32_t LocalGuard = 4096;
  uint32_t LocalStack = 0;
  std::vector<Warp> Warps;
  // Per named barrier: threads arrived, expected count (0: all live), last
  // instruction (for messages).
  uint32_t Arrived[16] = {}, Expect[16] = {};
  const Inst *BarInst[16] = {};
  const std::string *BarOpcode[16] = {};
  // bar.red per barrier: threads whose predicate was true, and whether one
  // was false.
  uint32_t RedTrue[16] = {};
  bool RedSomeFalse[16] = {};
  bool Check = false; // global accesses against the allocation table
  // Per instruction (direct-mapped by its address), the memory region its
  // last checked global access fell in: the hot path compares one range.
  struct RegionCache {
    const Inst *Key = nullptr;
    uint64_t Lo = 0, Size = 0;
  };
  static constexpr unsigned RegionSlots = 256;
  RegionCache Regions[RegionSlots];
  RegionCache &regionOf(const Inst &I) {
    return Regions[(reinterpret_cast<uintptr_t>(&I) / sizeof(Inst)) %
                   RegionSlots];
  }
  bool CountMem = true; // memory-efficiency counts (MemCount.cpp) this CTA
  bool CountMemLaunch = true; // ... for every CTA of the launch
  bool Race = false;          // WARPSCOPE_EMU_RACECHECK for this launch
  uint64_t Clock = 0; // %clock: this worker's instructions in this launch
  // Branches between two looks at the watchdog's clock (a power of two
  // minus one: an increment, an AND and a predictable branch per branch).
  static constexpr uint64_t WatchdogMask = (1u << 16) - 1;
  uint64_t Branches = 0;
  std::chrono::steady_clock::time_point CtaStart, NextProgress;
  [[gnu::cold]] void checkWatchdog(Warp &W, const Function &Fn, const Inst &I,
                                   uint32_t Mask);

  /// "kernel K, block (x,y,z), thread (x,y,z), 'opcode' at PTX line N
  /// (file:line:col)": where an error or report happened (Addresses.cpp).
  std::string site(const Warp &W, const Function &F, const Inst &I,
                   int Lane) const;
  /// An access outside its allocation that a GPU does not fault on: the
  /// first of each instruction is reported (Addresses.cpp).
  [[gnu::cold]] void reportOutOfBounds(const Warp &W, const Frame &Fr,
                                       const Inst &I, int Lane, uint64_t A,
                                       unsigned Size);

  // Schedule.cpp
  [[noreturn]] void fail(const Warp &W, const Function &F, const Inst &I,
                         int Lane, const std::string &Msg,
                         LaunchFault Fault = LaunchFault::Failure);
  /// An access outside memory: cudaErrorIllegalAddress, as on a GPU.
  [[noreturn, gnu::cold]] void failAddress(const Warp &W, const Frame &Fr,
                                           const Inst &I, int Lane,
                                           const std::string &Msg) {
    fail(W, *Fr.F, I, Lane, "illegal address: " + Msg,
         LaunchFault::IllegalAddress);
  }
  /// An access of Size bytes at A (in Space: an offset for shared and
  /// local) that is not a multiple of Size: cudaErrorMisalignedAddress.
  [[noreturn, gnu::cold, gnu::noinline]] void
  failMisaligned(const Warp &W, const Frame &Fr, const Inst &I, int Lane,
                 uint8_t Space, uint64_t A, unsigned Size);
  void initFrame(Warp &W, Frame &Fr, Function &F, uint32_t Mask,
                 uint32_t LocalBase);
  void initWarps();
  void runBlock();
  bool finishFrame(Warp &W);
  uint32_t branchIndexed(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc,
                         uint32_t EM, uint32_t Mask);
  bool call(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc, uint32_t EM,
            uint32_t Mask);
  bool arriveAtBarrier(Warp &W, Frame &Fr, const Inst &I, uint32_t Pc,
                       uint32_t EM, uint32_t Mask);
  uint32_t countArrival(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  bool warpSync(Warp &W, uint32_t Pc, uint32_t EM);
  /// The top path of Fr waits at a barrier: lets another path run, or
  /// releases bar.warp.sync waiters; false when the warp blocks.
  bool resumeWaiting(Warp &W, Frame &Fr);
  // SyncCheck.cpp: barrier divergence (as compute-sanitizer's synccheck)
  // and the deadlock report.
  void syncCheck(Warp &W, Frame &Fr, const Inst &I, uint32_t Id, uint32_t EM);
  [[noreturn]] void failDeadlock(uint32_t Waiting, uint32_t Live);
  std::string barrierAt(const Inst &I) const;
  // Per barrier in its current phase: the first warp to arrive at it with
  // no thread count, and where (different instructions: divergence).
  const Inst *PhaseInst[16] = {};
  uint32_t PhaseWarp[16] = {};
  void releaseBarrier(uint32_t B);
  uint32_t countedArrivals(uint32_t B) const;
  // Interp.cpp
  bool runWarp(Warp &W) { // true: reached barrier
    return Tracing ? runWarpT<true>(W) : runWarpT<false>(W);
  }
  template <bool Traced> bool runWarpT(Warp &W);
  // The current path of Fr ended (empty mask, reconvergence point or end of
  // code): pops it, or finishes the frame; false when the warp is done.
  bool leavePath(Warp &W, Frame &Fr, uint32_t Mask, uint32_t N);
  // A divergent two-way branch at Pc: pushes both sides, reconverging at
  // the branch's immediate post-dominator.
  void splitAtBranch(Frame &Fr, const Inst &I, uint32_t Pc, uint32_t EM,
                     uint32_t Mask);
  void exec(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  // Arithmetic whose operand type picks float, half or integer code.
  void execTyped(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  // The free function warpOps (WarpOps.h), and its failure.
  [[gnu::noinline]] void execWarpOp(Warp &W, Frame &Fr, const Inst &I,
                                    uint32_t EM, uint32_t Active);
  // trap or an unsupported instruction executed: fails the launch.
  [[noreturn, gnu::cold]] void failExecuted(const Warp &W, const Function &Fn,
                                            const Inst &I, uint32_t EM);
  // Memory.cpp (checkGlobal, memoryAt, failMisaligned: Addresses.cpp)
  uint8_t *addr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space, uint64_t A,
                int L, unsigned Size);
  // A shared access of Size bytes at offset A past the touched mark: fails
  // past the window, else raises the mark.
  [[gnu::cold, gnu::noinline]] void raiseShared(Warp &W, Frame &Fr,
                                                const Inst &I, int L,
                                                uint64_t A, unsigned Size);
  [[gnu::cold, gnu::noinline]] void checkGlobal(Warp &W, Frame &Fr,
                                                const Inst &I, uint64_t A,
                                                int L, unsigned Size);
  void execMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execAtom(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  bool privateToCta(const Inst &I, const uint8_t *H) const;
  /// Whether an atomic's host address H is in this CTA's shared memory.
  bool inShared(const Inst &I, const uint8_t *H) const;
  void atomAddVecF32(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execCpAsync(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  /// The bytes a cp.async lane reads from global memory, its src-size (or
  /// none, by the ignore-src predicate) up to cp-size; the rest is zeroed.
  static unsigned cpAsyncBytes(const Inst &I, uint64_t SrcSize) {
    if (I.Bool) // ignore-src predicate
      return ((SrcSize & 1) != 0) != ((I.Flags & FNegC) != 0) ? 0 : I.Sub;
    return (unsigned)std::min<uint64_t>((uint32_t)SrcSize, I.Sub);
  }
  /// A matrix operation's element at address A (bounds checked as ld/st).
  uint8_t *elemAddr(Warp &W, Frame &Fr, const Inst &I, uint8_t Space,
                    uint64_t A, int L, unsigned Size);
  void execCvta(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  void execIsspacep(Frame &Fr, const Inst &I, uint32_t EM);
  // MemCount.cpp
  void countMem(Warp &W, Frame &Fr, const Inst &I, uint32_t EM) {
    if (__builtin_expect(Tracing, 0))
      return countMemTraced(W, Fr, I, EM);
    countMemUntraced(W, Fr, I, EM);
  }
  void countMemUntraced(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  [[gnu::noinline]] void countMemTraced(Warp &W, Frame &Fr, const Inst &I,
                                        uint32_t EM);
  [[gnu::noinline]] void cpAsyncTraced(Frame &Fr, const Inst &I, uint32_t EM);
  void atomicLanes(const Frame &Fr, const Inst &I, uint32_t EM, uint64_t *G,
                   uint64_t *S, TraceSink::AtomicLanes &Out);
  // Racecheck.cpp
  void raceAccess(const Warp &W, const Frame &Fr, const Inst &I, uint32_t EM,
                  uint8_t Sp, unsigned Bytes, RaceAccess Kind);
  void raceAt(const Warp &W, const Inst &I, uint32_t EM, uint8_t Sp,
              const uint64_t *A, unsigned Bytes, RaceAccess Kind);
  [[gnu::noinline]] void raceReport(const Warp &W, const Inst &I, uint32_t Off,
                                    const RaceHit &H);
  // TextureOps.cpp
  void execTexture(Warp &W, Frame &Fr, const Inst &I, uint32_t EM);
  // MatrixOps.cpp (mma itself: mmaOps, MatrixOps.h)
  void execMatrix(Warp &W, Frame &Fr, const Inst &I, uint32_t EM,
                  uint32_t Active);
  void execWmmaMem(Warp &W, Frame &Fr, const Inst &I);
  void execLdmatrix(Warp &W, Frame &Fr, const Inst &I);
  // Builtins.cpp
  void builtin(Warp &W, Frame &Fr, const Inst &I, Function &Callee,
               uint32_t EM);
  std::string formatPrintf(Warp &W, Frame &Fr, const Inst &I, int L,
                           uint64_t Fmt, uint64_t Args);
  /// The NUL-terminated string at generic address A, read only from memory
  /// a kernel may read (at most Max bytes when the string need not end
  /// there: printf's %.Ns). False, with Why set, for an address outside
  /// memory or a string running past the end of its memory.
  bool deviceString(const Warp &W, uint64_t A, size_t Max, std::string &Out,
                    std::string &Why);
  /// The memory [Lo, Lo + N) that holds address A: the CTA's shared memory,
  /// the launch's local memory, a frame's parameters or a registered
  /// allocation. False when none does.
  bool memoryAt(const Warp &W, uint64_t A, uint64_t &Lo, uint64_t &N) const;
};

/// Runs launch P of kernel K on up to M.Threads worker threads; throws
/// EmuError with the error of the lowest-index failing CTA (LaunchGrid.cpp),
/// or, after requestInterrupt, an Interrupted one (Rec marked as such).
void runGrid(ModuleImpl &M, Function &K, const LaunchParams &P,
             LaunchRecord &Rec);
/// After requestInterrupt: whether the running CTAs had their time to
/// finish, counted from the first call (LaunchGrid.cpp).
bool interruptGraceOver();
/// The timing model (TimingSink.cpp): reads WARPSCOPE_EMU_MODEL and
/// WARPSCOPE_EMU_PC_SAMPLING / WARPSCOPE_SAMPLING_PERIOD; a bad
/// configuration is one line and the run goes on without the model.
void readModelSettings(ModuleImpl &M, support::SettingsReader &R);
/// The timing model's view of PM's code (ModelCode.cpp): a StaticInst per
/// instruction, probes' instructions free unless ProbesModeled.
std::unique_ptr<ModelCode> describeModule(const ParsedModule &PM,
                                          bool ProbesModeled);
/// runGrid with the model's sinks; fills Rec's modeled time.
void runModeled(ModuleImpl &M, Function &K, const LaunchParams &P,
                uint32_t RegistersPerThread, LaunchRecord &Rec);
/// Device printf output, in CTA order (Builtins.cpp).
void emitPrintf(const std::string &Text);
/// Addresses.cpp: an address as 0x..., where an illegal access of N bytes
/// at A lies relative to the nearest registered allocation, and whether
/// [A, E) lies in the parameters of one of W's frames (cvta.param pointers
/// may be passed down to callees).
std::string hexAddr(uint64_t V);
std::string nearestAllocation(uint64_t A, uint64_t N);
bool inFrameParams(const Warp &W, uint64_t A, uint64_t E);
/// The alignment an access of Size bytes needs, minus one: its size when a
/// power of two (every ld/st/atom, vectors included), else none (cp.async's
/// partial source sizes).
inline uint64_t alignMask(unsigned Size) {
  return (Size & (Size - 1)) ? 0 : Size - 1;
}

/// Lets other paths of the frame run while its top path waits at a barrier
/// (Schedule.cpp). Returns false when nothing else in the frame can run.
bool switchToSibling(Frame &Fr, uint32_t Live);

/// Entry::BarId of a path waiting at bar.warp.sync (CTA barriers are 0..15).
constexpr uint8_t WarpSyncBar = 16;
/// Lanes of Fr that can still reach a bar.warp.sync in it: not exited, not
/// returned, and (in a callee) among the calling lanes.
inline uint32_t frameLive(const Warp &W, const Frame &Fr, uint32_t Depth) {
  return ~W.Exited & ~Fr.Retired & (Depth > 1 ? Fr.CallMask : ~0u);
}
/// Lets the paths of Fr waiting at bar.warp.sync go on.
void releaseWarpSync(Frame &Fr);

} // namespace warpscope::emu::core

#endif
