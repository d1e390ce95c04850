//===- Addresses.cpp - the allocation table and address checks ------------===//
//
// Which memory a device address falls in, and the one-line diagnoses of the
// accesses that fall in none or are misaligned: the table of allocations
// that checked global accesses (the stand-in cudart's) must fall into, the
// cold path that resolves an address that missed its instruction's cached
// region (and caches the new one), and the lookup printf and __assertfail
// strings are read through (Builtins.cpp). Device memory is host memory: a
// global address is a host pointer. The hot checks are in Memory.cpp.
//
//===----------------------------------------------------------------------===//
#include "ExecInternal.h"
#include "warpscope/Support/Demangle.h"

#include <cstdio>
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
/// Device memory's mapped pages (registerDeviceMemory), under AllocMu.
std::map<uintptr_t, size_t> &devicePages() {
  static std::map<uintptr_t, size_t> M;
  return M;
}
} // namespace

void registerDeviceMemory(void *Base, size_t Size) {
  std::unique_lock<std::shared_mutex> L(AllocMu);
  devicePages()[(uintptr_t)Base] = Size;
}

void registerAllocation(void *Ptr, size_t Size) {
  std::unique_lock<std::shared_mutex> L(AllocMu);
  allocs()[(uintptr_t)Ptr] = Size;
}
void unregisterAllocation(void *Ptr) {
  std::unique_lock<std::shared_mutex> L(AllocMu);
  allocs().erase((uintptr_t)Ptr);
}

namespace core {

// The range of M (start -> size) holding [A, A + N): its start and size.
template <typename RangeMap>
static bool findRange(const RangeMap &M, uint64_t A, uint64_t N, uint64_t &Lo,
                      uint64_t &Size) {
  std::shared_lock<std::shared_mutex> L(AllocMu);
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

// The registered allocation holding [A, A + N): its start and size.
static bool findAllocation(uint64_t A, uint64_t N, uint64_t &Lo,
                           uint64_t &Size) {
  return findRange(allocs(), A, N, Lo, Size);
}

// The mapped device pages holding [A, A + N): their start and size.
static bool findDevicePages(uint64_t A, uint64_t N, uint64_t &Lo,
                            uint64_t &Size) {
  return findRange(devicePages(), A, N, Lo, Size);
}

std::string hexAddr(uint64_t V) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)V);
  return Buf;
}

// Where an illegal access of N bytes at A lies relative to the nearest
// registered allocation, as compute-sanitizer's memcheck words it.
std::string nearestAllocation(uint64_t A, uint64_t N) {
  // The first 64 KiB are never mapped: an access there is a null pointer
  // (plus an offset), not a near miss of some allocation.
  if (A < 0x10000)
    return "a null pointer (plus " + std::to_string(A) + " bytes)";
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

std::string Launcher::site(const Warp &W, const Function &F, const Inst &I,
                           int Lane) const {
  std::string S = "kernel " + K.Name;
  if (&F != &K)
    S += " (in " + F.Name + ")";
  S += ", block (" + std::to_string(Ctaid[0]) + "," + std::to_string(Ctaid[1]) +
       "," + std::to_string(Ctaid[2]) + ")";
  if (Lane >= 0)
    S += ", thread (" + std::to_string(W.Tid[0][Lane]) + "," +
         std::to_string(W.Tid[1][Lane]) + "," + std::to_string(W.Tid[2][Lane]) +
         ")";
  else
    S += ", warp " + std::to_string(W.Index);
  size_t Idx = &I - F.Code.data();
  return S + ", '" +
         (Idx < F.Opcodes.size() ? F.Opcodes[Idx] : std::string("?")) +
         "' at " + srcLoc(*M.PM, I);
}

static const char *accessWord(const Inst &I) {
  return I.Op == OpLd ? "read" : I.Op == OpSt ? "write" : "access";
}

void Launcher::reportOutOfBounds(const Warp &W, const Frame &Fr, const Inst &I,
                                 int Lane, uint64_t A, unsigned Size) {
  {
    std::lock_guard<std::mutex> L(M.OutOfBoundsMu);
    if (!M.OutOfBoundsReported.insert(&I).second)
      return;
  }
  std::string Line =
      "warpscope-emu: warning: " + withDemangledNames(site(W, *Fr.F, I, Lane)) +
      ": out-of-bounds " + accessWord(I) + " of " + std::to_string(Size) +
      " bytes at " + hexAddr(A) + ", " + nearestAllocation(A, Size) +
      "; inside device memory's mapped pages, where a GPU does not fault, so "
      "the launch goes on (reported once per instruction; "
      "WARPSCOPE_EMU_MEMCHECK=1, warpscope run --memcheck, fails it)\n";
  std::fputs(Line.c_str(), stderr);
}

bool inFrameParams(const Warp &W, uint64_t A, uint64_t E) {
  for (uint32_t D = 0; D < W.Depth; ++D) {
    const std::vector<uint8_t> &P = W.Frames[D]->Param;
    uint64_t Lo = (uint64_t)(uintptr_t)P.data();
    if (A >= Lo && E <= Lo + P.size())
      return true;
  }
  return false;
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
    // Cached up to the touched mark only, so that an access above it
    // comes back here and raises it.
    noteShared(E - ShLo);
    Lo = ShLo, N = SharedTouched;
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
  } else if (!findAllocation(A, Size, Lo, N) && !M.Memcheck &&
             findDevicePages(A, Size, Lo, N)) {
    // As on a GPU: no fault inside mapped pages; the instruction's later
    // accesses there go unchecked (its region is the pages).
    reportOutOfBounds(W, Fr, I, L, A, Size);
  }
  if (!N)
    failAddress(
        W, Fr, I, L,
        std::string(accessWord(I)) + " of " + std::to_string(Size) +
            " bytes at " + hexAddr(A) +
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

} // namespace core
} // namespace warpscope::emu
