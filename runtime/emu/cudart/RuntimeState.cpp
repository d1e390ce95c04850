//===- RuntimeState.cpp - the stand-in runtime's process-wide state -------===//
//
// Creates the State that every CUDA call locks: on first use, which may be
// a static constructor of the program (registration), and never destroyed.
// Also drops it all again between unit tests.
//
//===----------------------------------------------------------------------===//
#include "RuntimeState.h"

#include <cstdio>
#include <cstdlib>

using namespace warpscope::emu;

namespace {

void printfSink(const char *Text, size_t Len) { fwrite(Text, 1, Len, stdout); }

} // namespace

namespace warpscope::emu::cudart {

State &S() {
  // Leaked on purpose: registration happens in static constructors and
  // unregistration in atexit handlers of the user's program, in any order
  // relative to our own static objects.
  static State *St = [] {
    auto *P = new State();
    setPrintfSink(printfSink);
    atexit(atExitHandler);
    return P;
  }();
  return *St;
}

void syncPoint() { fflush(stdout); }

void resetStateForTesting() {
  State &St = S();
  Lock L(St.Mu);
  St.Modules.clear();
  St.Funcs.clear();
  St.Vars.clear();
  for (auto *M : {&St.DeviceAllocs, &St.HostAllocs})
    for (auto &A : *M) {
      unregisterAllocation(reinterpret_cast<void *>(A.first));
      if (M == &St.DeviceAllocs)
        deviceRelease(reinterpret_cast<void *>(A.first), A.second);
      else
        free(reinterpret_cast<void *>(A.first));
    }
  St.DeviceAllocs.clear();
  St.HostAllocs.clear();
  St.HostAllocFlags.clear();
  St.DeviceBytes = 0;
  St.Streams.clear();
  St.Events.clear();
  St.Last = St.Sticky = cudaSuccess;
  St.NextModuleIndex = 0;
  ConfigStack.clear();
}

} // namespace warpscope::emu::cudart
