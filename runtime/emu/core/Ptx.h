//===- Ptx.h - decoded PTX: the emulator core's internal form -------------===//
//
// The parser turns PTX text into Functions holding flat arrays of Inst. All
// operands are "slots": indices into a frame's register file, which holds
// 32 lanes x 64 bits per slot. Declared registers, immediates, symbol
// addresses and special registers all get slots, so execution never looks
// up a name and every source operand is just a pointer to 32 lane values.
//
// Register value convention: a slot holds a value in its low bits; readers
// always truncate to their operand width, so upper bits are don't-care.
// Predicates hold exactly 0 or 1.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_EMU_CORE_PTX_H
#define WARPSCOPE_EMU_CORE_PTX_H

#include "warpscope/Emu/MemoryCounts.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace warpscope::emu::core {

enum class Ty : uint8_t {
  None,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  F32,
  F64,
  Pred
};
unsigned tySize(Ty T);
bool tySigned(Ty T);
bool tyFloat(Ty T);
Ty parseTy(const std::string &S); // Ty::None when not a type name

enum Space : uint8_t {
  SpGeneric,
  SpGlobal,
  SpShared,
  SpLocal,
  SpParam,
  SpConst
};

enum Op : uint16_t {
  OpNop,
  OpMov,
  OpClock32,
  OpClock64,
  OpGlobalTimer,
  OpPack,
  OpUnpack,
  OpAdd,
  OpSub,
  OpMul,
  OpMad,
  OpMul24,
  OpMad24,
  OpDiv,
  OpRem,
  OpAbs,
  OpNeg,
  OpMin,
  OpMax,
  OpAnd,
  OpOr,
  OpXor,
  OpNot,
  OpCnot,
  OpShl,
  OpShr,
  OpPopc,
  OpClz,
  OpBrev,
  OpBfind,
  OpBfe,
  OpBfi,
  OpPrmt,
  OpLop3,
  OpShf,
  OpSad,
  OpFma,
  OpRcp,
  OpSqrt,
  OpRsqrt,
  OpEx2,
  OpLg2,
  OpSin,
  OpCos,
  OpTanh,
  OpTestp,
  OpCopysign,
  OpSetp,
  OpSet,
  OpSelp,
  OpSlct,
  OpCvt,
  OpCvta,
  OpCvtPack,
  OpLd,
  OpSt,
  OpAtom,
  OpRed,
  OpBra,
  OpBrx,
  OpCall,
  OpRet,
  OpExit,
  OpTrap,
  OpBar,
  OpWarpSync, // bar.warp.sync: S0 = member mask
  OpShfl,
  OpVote,
  OpActivemask,
  OpMatch,
  OpRedux,
  OpElect,
  OpIsspacep,
  OpDp4a,
  OpDp2a,
  OpTex,     // Addr: object handle; S: coordinates (S3: layer); Sub: dimensions
             // | SubLayered; Bool: 0 for tex, 1 + component for tld4 (gather)
  OpSuld,    // ... Sub: dimensions | SubLayered | boundary mode << 4 (0 trap,
             // 1 clamp, 2 zero)
  OpSust,    // ... S: coordinates; D: the values stored (read, not written)
  OpTxq,     // txq/suq (Bool 1): Addr: object handle; Sub: ImageQuery
  OpCvtTf32, // cvt.{rna,rn,rz}.tf32.f32 (Rnd)
  OpCpAsync, // Addr/Off: shared dst; S0: global src base; S2: src offset;
             // S1: src-size, or (Bool 1) the ignore-src predicate; Sub: cp-size
  // cp.async.commit_group / wait_group N / wait_all (Sub: AsyncGroupForm;
  // Off: N): nothing to do, the copy is done at issue; the timing model's
  // groups (ModelCode.cpp).
  OpCpAsyncGroup,
  // Warp matrix operations, collective over the warp (MatrixOps.cpp). Their
  // long operand lists live in Function::MatrixSlots from ArgBegin.
  OpMma,       // mma.sync: Sub = MatrixShape
  OpWmmaLoad,  // wmma.load.{a,b,c}: Sub = MatrixShape, Bool = fragment
  OpWmmaStore, // wmma.store.d
  OpLdmatrix,  // ldmatrix.sync: Vec = matrices, FLeft = .trans
  OpFence,     // membar, fence, __threadfence: a host memory fence
  OpVideo,     // vop2/vop4 (VideoOps.h): Sub = VideoKind | Cmp << 3, Vec =
           // elements, T/T2 = a/b types, Bool = 1 for a signed d, FWide = .add
  OpUnsupported,
};

/// OpTex/OpSuld/OpSust: Sub bit of the layered geometries (.a1d, .a2d).
constexpr uint8_t SubLayered = 8;

// Modifier flags (Inst::Flags).
enum : uint32_t {
  FFtz = 1u << 0,
  FSat = 1u << 1,
  FApprox = 1u << 2,
  FHi = 1u << 3,
  FWide = 1u << 4,
  FCcOut = 1u << 5,
  FCcIn = 1u << 6,
  FToSpace = 1u << 7,
  FNan = 1u << 8,
  FShiftAmt = 1u << 9,
  FWrap = 1u << 10,
  FLeft = 1u << 11,
  FNegC = 1u << 12,
  FHasPredOut = 1u << 13,
  FFull = 1u << 14,
  FRelu = 1u << 15,
  FUni = 1u << 16,
  FIndirect = 1u << 17,
  FAligned = 1u << 18, // bar.*, barrier.*.aligned: a warp arrives converged
};

enum Rnd : uint8_t {
  RndNone,
  RndRn,
  RndRz,
  RndRm,
  RndRp,
  RndRni,
  RndRzi,
  RndRmi,
  RndRpi,
  RndRna
};

enum Cmp : uint8_t {
  CmpEq,
  CmpNe,
  CmpLt,
  CmpLe,
  CmpGt,
  CmpGe,
  CmpLo,
  CmpLs,
  CmpHi,
  CmpHs,
  CmpEqu,
  CmpNeu,
  CmpLtu,
  CmpLeu,
  CmpGtu,
  CmpGeu,
  CmpNum,
  CmpNan
};
enum BoolOp : uint8_t { BoolNone, BoolAnd, BoolOr, BoolXor };
enum AtomOp : uint8_t {
  AtAdd,
  AtMin,
  AtMax,
  AtInc,
  AtDec,
  AtAnd,
  AtOr,
  AtXor,
  AtExch,
  AtCas
};
/// OpBar's Sub: what a barrier instruction does besides arriving.
enum BarKind : uint8_t { BarSync, BarArrive, BarRedPopc, BarRedAnd, BarRedOr };
/// Matrix operations' Sub: shape and element types.
enum MatrixShape : uint8_t {
  MmaM16N8K16F16,  // mma .m16n8k16, .f16 inputs
  MmaM16N8K16BF16, // .bf16 inputs
  MmaM16N8K8TF32,  // .m16n8k8 .tf32
  MmaM8N8K4F64,    // .m8n8k4 .f64
};
/// wmma's Sub: WmmaBit | geometry << 4 | multiplicand type (wmmaSub).
enum WmmaGeom : uint8_t {
  WmM16N16K16,
  WmM32N8K16,
  WmM8N32K16,
  WmM16N16K8, // .tf32
  WmM8N8K4    // .f64
};
enum WmmaElem : uint8_t { WeF16, WeBF16, WeTF32, WeF64, WeS8, WeU8 };
constexpr uint8_t WmmaBit = 0x80;
constexpr uint8_t wmmaSub(WmmaGeom G, WmmaElem E) {
  return (uint8_t)(WmmaBit | G << 4 | E);
}
/// Matrix operand list layout in Function::MatrixSlots (MatrixOps.cpp).
enum WmmaFrag : uint8_t { FragA, FragB, FragC };
/// OpVideo's operation (low 3 bits of Sub).
enum VideoKind : uint8_t {
  VidAdd,
  VidSub,
  VidAbsdiff,
  VidMin,
  VidMax,
  VidAvrg,
  VidSet
};
enum ShflMode : uint8_t { ShUp, ShDown, ShBfly, ShIdx };
enum VoteMode : uint8_t { VoAll, VoAny, VoUni, VoBallot };

constexpr uint32_t SlotZero = 0, SlotSink = 1, SlotCC = 2, FirstRegSlot = 3;
constexpr uint32_t NoTarget = 0xffffffffu;
/// A function's "address" (mov of a function symbol, vtable initializers):
/// FunctionAddressBase + function index. Indirect calls map it back.
constexpr uint64_t FunctionAddressBase = 0x1000;

/// Inst::Sub of OpCpAsyncGroup.
enum AsyncGroupForm : uint8_t { AsyncCommit, AsyncWaitGroup, AsyncWaitAll };

struct Inst {
  uint16_t Op = OpNop;
  Ty T = Ty::None, T2 = Ty::None;
  uint8_t Space = SpGeneric, Space2 = SpGeneric;
  uint8_t Vec = 1;
  uint8_t Rnd = RndNone;
  uint8_t Sub = 0; // Cmp / AtomOp / ShflMode / VoteMode / builtin / ...
  uint8_t Bool = BoolNone;
  uint8_t ND = 0, NS = 0;
  uint32_t Flags = 0;
  int32_t Guard = -1; // predicate slot or -1
  bool GuardNeg = false;
  uint32_t D[4] = {SlotSink, SlotSink, SlotSink, SlotSink};
  uint32_t S[5] = {0, 0, 0, 0, 0};
  uint32_t Addr = SlotZero;         // address base slot for memory operands
  int64_t Off = 0;                  // address offset
  uint32_t Target = NoTarget;       // branch target / brx table / callee
  uint32_t Ipdom = NoTarget;        // reconvergence point (instruction index)
  uint32_t ArgBegin = 0, NArgs = 0; // call args in Function::CallArgs
  uint32_t RetOff = 0, RetSize = 0;
  bool HasRet = false;
  // Source information (not used on the hot path).
  uint32_t PtxLine = 0, File = 0, Line = 0, Col = 0;
  int32_t Marker = -1; // index into Module markers
};

struct ParamDecl {
  std::string Name;
  uint32_t Off = 0, Size = 0, Align = 1;
};

enum InitKind : uint8_t { InitValue, InitLocalSym, InitSpecial, InitSharedSym };
struct SlotInit {
  uint32_t Slot;
  uint8_t Kind;
  uint64_t Value;  // value / local depot offset / special-register id /
                   // shared variable index
  int64_t Add = 0; // InitSharedSym: byte offset added to the address
};

/// Per-kernel placement of .shared variables (only those the kernel and its
/// callees reference), dynamic shared memory after them.
struct SharedLayout {
  std::vector<uint32_t> Off; // by global variable index
  uint32_t StaticBytes = 0;
  uint32_t DynOff = 0;
};

/// Memory-efficiency counts of one ld/st/atom/red (docs/emulator.md, "Memory
/// efficiency"); the struct and its ground-truth names are the contract's.
using MemCounts = warpscope::MemoryCounts;

enum Builtin : uint8_t { BiNone, BiVprintf, BiMalloc, BiFree, BiAssert };

/// Per-instruction ground-truth counters of one function, one element per
/// instruction. A Function holds the totals over all launches; each emulator
/// worker thread counts into its own set (ExecInternal.h, WorkerCounters),
/// added into the totals after each launch, so counts do not depend on the
/// number of threads. To add a counter: declare it and list it in Members
/// (a vector of uint64_t) or add it to reset and moveInto (like Mem).
struct InstCounters {
  // WarpExec: warp-instruction issues; ThreadExec: guard-true lanes;
  // ActiveExec: active lanes, guard ignored; Visits/Divergent: conditional
  // branches.
  std::vector<uint64_t> WarpExec, ThreadExec, ActiveExec, Visits, Divergent;
  std::vector<MemCounts> Mem; // filled for memory instructions only
  std::vector<warpscope::StrideCounts> Strides; // likewise (MemCount.cpp)

  static constexpr std::vector<uint64_t> InstCounters::*Members[] = {
      &InstCounters::WarpExec, &InstCounters::ThreadExec,
      &InstCounters::ActiveExec, &InstCounters::Visits,
      &InstCounters::Divergent};
  /// N zeros in every counter.
  void reset(size_t N) {
    for (auto Mp : Members)
      (this->*Mp).assign(N, 0);
    Mem.assign(N, MemCounts());
    Strides.assign(N, warpscope::StrideCounts());
  }
  /// Total += *this, then zeroes *this.
  void moveInto(InstCounters &Total) {
    for (auto Mp : Members) {
      std::vector<uint64_t> &Src = this->*Mp, &Dst = Total.*Mp;
      for (size_t K = 0; K < Src.size() && K < Dst.size(); ++K) {
        Dst[K] += Src[K];
        Src[K] = 0;
      }
    }
    for (size_t K = 0; K < Mem.size() && K < Total.Mem.size(); ++K) {
      Total.Mem[K] += Mem[K];
      Mem[K] = MemCounts();
    }
    for (size_t K = 0; K < Strides.size() && K < Total.Strides.size(); ++K)
      if (Strides[K].LanePairs) {
        Total.Strides[K] += Strides[K];
        Strides[K] = warpscope::StrideCounts();
      }
  }
};

/// A decoded function. Its InstCounters base holds the ground truth.
struct Function : InstCounters {
  std::string Name;
  bool IsKernel = false, HasBody = false, Declared = false;
  Builtin Bi = BiNone;
  std::vector<Inst> Code;
  std::vector<std::string> Opcodes;  // full opcode text per instruction
  std::vector<bool> Instrumentation; // inside a WarpScope probe's scope
  uint32_t NumSlots = FirstRegSlot;
  uint32_t NumDeclaredRegs = 0; // .reg names declared (all scopes)
  /// Per slot: the declared register's width in bits (1 for .pred), 0 for
  /// slots that are no declared register (constants, specials): the spill
  /// model's register pressure (SpillModel.h).
  std::vector<uint8_t> SlotBits;
  std::vector<SlotInit> Inits;
  uint32_t LocalBytes = 0, LocalAlign = 8;
  uint32_t ParamBytes = 0; // per lane
  std::vector<ParamDecl> Params;
  bool HasRet = false;
  ParamDecl Ret;
  std::vector<uint32_t> CallArgs; // pairs (caller param offset, size)
  std::vector<std::vector<uint32_t>> BrxTables;
  std::vector<std::string> UnsupportedWhy; // OpUnsupported: Target indexes this
  std::vector<uint32_t> MatrixSlots; // matrix ops' register lists (ArgBegin)
  uint32_t MaxNtid = 0, ReqNtid = 0;
  SharedLayout Shared;     // kernels only
  uint32_t LocalStack = 0; // kernels only: per-thread local bytes incl. callees
  uint32_t Index = 0;      // in ParsedModule::Functions
};

enum SpecialReg : uint8_t {
  SrTidX,
  SrTidY,
  SrTidZ,
  SrNtidX,
  SrNtidY,
  SrNtidZ,
  SrCtaidX,
  SrCtaidY,
  SrCtaidZ,
  SrNctaidX,
  SrNctaidY,
  SrNctaidZ,
  SrLaneid,
  SrWarpid,
  SrNwarpid,
  SrSmid,
  SrNsmid,
  SrGridid,
  SrLanemaskEq,
  SrLanemaskLt,
  SrLanemaskLe,
  SrLanemaskGt,
  SrLanemaskGe,
  SrDynSmem,
  SrTotalSmem,
  SrEnvreg,
  SrClock,
  SrClock64,
  SrGlobaltimer,
  SrClusterZero,
  SrClusterOne
};

struct GlobalVar {
  std::string Name;
  uint8_t Space = SpGlobal;
  size_t Size = 0;
  uint32_t Align = 1;
  uint8_t *Data = nullptr; // host storage (global/const)
  bool Dynamic = false;    // extern .shared name[]
};

/// Code nvcc inlined from a toolkit header (`.loc ... inlined_at`), which
/// the parser placed on the user's line (Inst::File/Line/Col): the frames
/// that line hides, innermost first (warpscope/Support/PtxLoc.h).
struct InlinedFrame {
  std::string File, Function; ///< Function: mangled; "" when not named
  uint32_t Line = 0, Col = 0;
};

struct ParsedModule {
  std::string Name;
  std::vector<std::unique_ptr<Function>> Functions;
  std::unordered_map<std::string, uint32_t> FuncIndex;
  std::vector<std::unique_ptr<GlobalVar>> Globals;
  std::unordered_map<std::string, uint32_t> GlobalIndex;
  std::vector<std::unique_ptr<uint8_t[]>> Storage;
  std::map<uint32_t, std::string> Files;
  std::vector<std::string> Markers;
  /// By Inst::PtxLine (messages only; Inst keeps no room for it): the
  /// header frames of code placed on a user's line.
  std::unordered_map<uint32_t, std::vector<InlinedFrame>> Inlined;
};

/// Parses and decodes; returns null and sets Error on failure.
std::unique_ptr<ParsedModule>
parsePtx(const std::string &Text, const std::string &Name, std::string &Error);

/// Post-dominator analysis: fills Inst::Ipdom for branches.
void computeReconvergence(Function &F);

/// Calls Succ with each instruction control may reach after instruction K
/// of F: a branch's target (brx: each of its table's), and K + 1 unless K
/// always transfers control (an unguarded bra, brx, ret, exit or trap).
/// F.Code.size() stands for leaving the function (ret, exit, trap, a
/// target past the end, falling off the end). The one rule of both the
/// reconvergence CFG (Cfg.cpp) and the spill model's liveness.
template <class Fn> void eachSuccessor(const Function &F, uint32_t K, Fn Succ) {
  const uint32_t N = (uint32_t)F.Code.size();
  const Inst &I = F.Code[K];
  if (I.Op == OpBra) {
    Succ(std::min(I.Target, N));
  } else if (I.Op == OpBrx) {
    if (I.Target < F.BrxTables.size())
      for (uint32_t T : F.BrxTables[I.Target])
        Succ(std::min(T, N));
  } else if (I.Op == OpRet || I.Op == OpExit || I.Op == OpTrap) {
    Succ(N);
  } else {
    Succ(K + 1);
    return;
  }
  if (I.Guard >= 0)
    Succ(K + 1);
}

} // namespace warpscope::emu::core

#endif
