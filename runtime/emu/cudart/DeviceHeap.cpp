//===- DeviceHeap.cpp - device memory laid out as a GPU lays it out -------===//
//
// cudaMalloc's memory comes from one reserved range of the address space,
// mapped in 2 MiB pages as a GPU maps device memory: small allocations are
// packed into pages 512 bytes apart, large ones (1 MiB and up) start on a
// page. Every mapped page is registered with the core
// (registerDeviceMemory): an access a little outside its allocation, but
// inside a mapped page, reads or writes what a GPU would (a neighbour's
// bytes, or zeros) and is reported instead of failing the launch; an access
// outside every page faults, as on a GPU. A page before the first
// allocation is mapped too, for reads just before it. Host allocations (malloc)
// never share a page with device memory, so such an access cannot corrupt them.
// The range is asked for at one fixed address, so device addresses do not
// move with address-space randomization: the timing model's hashed cache
// sets see the same addresses in every run, and modeled times and samples
// repeat from run to run. Without the reservation (a process limited to
// less address space) device memory falls back to the host heap, and every
// access outside an allocation fails the launch as before.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>

using namespace warpscope::emu;

namespace {

constexpr size_t Page = 2u << 20;         // a GPU's large page
constexpr size_t SmallAlign = 512;        // cudaMalloc's alignment in a page
constexpr size_t Reserved = 128ull << 30; // above the emulated 80 GiB
constexpr size_t FallbackAlign = 256;
// Where the range is asked for (a hint, never forced over a mapping): 32 TiB,
// far from where Linux puts the heap, libraries and stacks on x86-64 and
// AArch64 (47- and 48-bit user address spaces).
constexpr uintptr_t PreferredBase = 0x200000000000ull;

size_t roundUp(size_t V, size_t A) { return (V + A - 1) / A * A; }

class Heap {
public:
  void *allocate(size_t Size) {
    std::lock_guard<std::mutex> L(Mu);
    if (!reserve())
      return fallback(Size);
    size_t Align = Size >= Page / 2 ? Page : SmallAlign;
    size_t Need = roundUp(Size, Align == Page ? Page : SmallAlign);
    uintptr_t A = takeFree(Need, Align);
    if (!A)
      A = grow(Need, Align);
    if (A)
      memset(reinterpret_cast<void *>(A), 0, Need); // deterministic runs
    return reinterpret_cast<void *>(A);
  }

  void release(void *P, size_t Size) {
    std::lock_guard<std::mutex> L(Mu);
    uintptr_t A = reinterpret_cast<uintptr_t>(P);
    if (!Base || A < Base || A >= End) {
      free(P);
      return;
    }
    size_t Align = Size >= Page / 2 ? Page : SmallAlign;
    addFree(A, roundUp(Size, Align == Page ? Page : SmallAlign));
  }

private:
  std::mutex Mu;
  uintptr_t Base = 0, Top = 0, End = 0;
  bool Tried = false;
  std::map<uintptr_t, size_t> Free; // start -> bytes, coalesced

  bool reserve() {
    if (Tried)
      return Base != 0;
    Tried = true;
    void *R =
        mmap(reinterpret_cast<void *>(PreferredBase), Reserved + Page,
             PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (R == MAP_FAILED) {
      fprintf(stderr,
              "warpscope-emu: warning: cannot reserve %zu GiB of "
              "address space for device memory (%s); device memory "
              "comes from the host heap, and every access outside "
              "an allocation fails the launch\n",
              Reserved >> 30, strerror(errno));
      return false;
    }
    Base = roundUp(reinterpret_cast<uintptr_t>(R), Page);
    End = Base + Reserved;
    // A page no allocation gets, before the first: a stencil's read a
    // little before its first buffer finds zeros there, as it finds device
    // memory on a GPU, instead of faulting.
    Top = Base + Page;
    if (mprotect(reinterpret_cast<void *>(Base), Page,
                 PROT_READ | PROT_WRITE) == 0)
      registerDeviceMemory(reinterpret_cast<void *>(Base), Page);
    return true;
  }

  static void *fallback(size_t Size) {
    void *P = aligned_alloc(FallbackAlign, roundUp(Size, FallbackAlign));
    if (P)
      memset(P, 0, roundUp(Size, FallbackAlign));
    return P;
  }

  /// First fit among the free ranges, aligned; 0 when none fits.
  uintptr_t takeFree(size_t Need, size_t Align) {
    for (auto It = Free.begin(); It != Free.end(); ++It) {
      uintptr_t Lo = It->first, Hi = It->first + It->second;
      uintptr_t A = roundUp(Lo, Align);
      if (A + Need > Hi)
        continue;
      Free.erase(It);
      if (A > Lo)
        Free[Lo] = A - Lo;
      if (A + Need < Hi)
        Free[A + Need] = Hi - (A + Need);
      return A;
    }
    return 0;
  }

  /// Maps the pages after Top that Need takes; 0 when the range is full.
  uintptr_t grow(size_t Need, size_t Align) {
    uintptr_t A = roundUp(Top, Align);
    uintptr_t NewTop = roundUp(A + Need, Page);
    if (NewTop > End || NewTop < A)
      return 0;
    if (mprotect(reinterpret_cast<void *>(Top), NewTop - Top,
                 PROT_READ | PROT_WRITE) != 0)
      return 0;
    registerDeviceMemory(reinterpret_cast<void *>(Top), NewTop - Top);
    if (A > Top)
      addFree(Top, A - Top);
    if (A + Need < NewTop)
      addFree(A + Need, NewTop - (A + Need));
    Top = NewTop;
    return A;
  }

  /// Returns [A, A + N) to the free ranges, merged with its neighbours;
  /// whole pages go back to the system (they read as zeros again).
  void addFree(uintptr_t A, size_t N) {
    auto Next = Free.lower_bound(A);
    if (Next != Free.end() && A + N == Next->first) {
      N += Next->second;
      Next = Free.erase(Next);
    }
    if (Next != Free.begin()) {
      auto Prev = std::prev(Next);
      if (Prev->first + Prev->second == A) {
        A = Prev->first;
        N += Prev->second;
        Free.erase(Prev);
      }
    }
    Free[A] = N;
    uintptr_t Lo = roundUp(A, Page), Hi = (A + N) / Page * Page;
    if (Hi > Lo)
      madvise(reinterpret_cast<void *>(Lo), Hi - Lo, MADV_DONTNEED);
  }
};

Heap &heap() {
  static Heap *H = new Heap; // used by exit handlers too
  return *H;
}

} // namespace

namespace warpscope::emu::cudart {

void *deviceAllocate(size_t Size) { return heap().allocate(Size); }

void deviceRelease(void *P, size_t Size) { heap().release(P, Size); }

} // namespace warpscope::emu::cudart
