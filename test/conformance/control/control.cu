// Control-flow and barrier conformance suite of the PTX emulator (issue 16,
// item 2): bra, bra.uni, brx.idx, call, call.uni, ret, exit, trap, bar.sync,
// bar.red.popc, barrier.sync, bar.warp.sync and the f64 .approx forms, each
// written in inline PTX and checked against the host's evaluation of the
// same inputs (branches.h, calls.h, barriers.h, approx.h).
//   control [--dump FILE] [--filter SUBSTR]
//   control trap
// Prints one line per failing check and "N tests, M checks, K failed";
// exits 0 only when every check passes. `trap` runs a kernel in which one
// thread traps and checks that the launch fails, with a sticky error (a
// separate run: the error ends the process's use of CUDA).
#include "approx.h"
#include "barriers.h"
#include "branches.h"
#include "calls.h"
#include "harness.h"

#include <cstdlib>

using namespace ctl;

// Thread 37 of block 2 traps; every other thread writes its index.
__global__ void kTrap(uint32_t *Out) {
  unsigned T = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile(
      "{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %0, 1;\n\t@p trap;\n\t}" ::"r"(
          (unsigned)(blockIdx.x == 2 && threadIdx.x == 37))
      : "memory");
  Out[T] = T;
}

__global__ void kAfterTrap(uint32_t *Out) { Out[threadIdx.x] = 1; }

// CUDA documents only that a trap aborts the kernel and "raises an
// interrupt in the host program" (Programming Guide, __trap()); the runtime
// reports it as a launch failure (cudaErrorLaunchFailure on the emulator,
// which some GPUs report as cudaErrorIllegalInstruction). Either way it is
// sticky: every later call returns it.
static int runTrap() {
  uint32_t *Out = nullptr;
  if (cudaMalloc(&Out, 4 * 64 * sizeof(uint32_t)) != cudaSuccess) {
    std::printf("FAIL trap: cudaMalloc failed\n");
    return 1;
  }
  kTrap<<<4, 64>>>(Out);
  cudaError_t E = cudaDeviceSynchronize();
  int Bad = 0;
  if (E != cudaErrorLaunchFailure && E != cudaErrorIllegalInstruction) {
    std::printf("FAIL trap: cudaDeviceSynchronize returned %s (%d), want "
                "cudaErrorLaunchFailure or cudaErrorIllegalInstruction\n",
                cudaGetErrorName(E), (int)E);
    return 1;
  }
  // Sticky: the same error from every later call, also a new launch.
  void *P = nullptr;
  cudaError_t Later[4] = {cudaGetLastError(), cudaMalloc(&P, 16),
                          cudaMemset(Out, 0, 16), cudaSuccess};
  kAfterTrap<<<1, 32>>>(Out);
  Later[3] = cudaDeviceSynchronize();
  const char *What[4] = {"cudaGetLastError", "cudaMalloc", "cudaMemset",
                         "a later launch"};
  for (int K = 0; K < 4; ++K)
    if (Later[K] != E) {
      std::printf("FAIL trap: after the trap, %s returned %s, want the "
                  "sticky %s\n",
                  What[K], cudaGetErrorName(Later[K]), cudaGetErrorName(E));
      ++Bad;
    }
  if (Bad)
    return 1;
  std::printf("trap: PASS: the launch failed with %s, sticky\n",
              cudaGetErrorName(E));
  return 0;
}

struct Test {
  const char *Name;
  void (*Run)();
};

static const Test kTests[] = {
    {"bra.divergent", testBraDivergent},
    {"bra.nested", testBraNested},
    {"bra.loop", testBraLoop},
    {"bra.uni", testBraUni},
    {"brx.idx", testBrx},
    {"call.args", testCallArgs},
    {"call.returns", testCallReturns},
    {"call.recursive", testCallRec},
    {"ret.divergent", testCallEarly},
    {"exit.barrier", [] { testExitBar<0>("exit.barrier"); }},
    {"ret.barrier", [] { testExitBar<1>("ret.barrier"); }},
    {"exit.callee", [] { testExitBar<2>("exit.callee"); }},
    {"bar.sync.named", testNamed},
    {"exit.named", testExitNamed},
    {"bar.red.popc", testPopc},
    {"barrier.sync", testBarrierDiv},
    {"bar.warp.sync", testWarpSync},
    {"approx.f64", testApproxF64},
};

int main(int Argc, char **Argv) {
  const char *DumpPath = nullptr, *Filter = nullptr;
  bool Trap = false;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--dump") && I + 1 < Argc)
      DumpPath = Argv[++I];
    else if (!std::strcmp(Argv[I], "--filter") && I + 1 < Argc)
      Filter = Argv[++I];
    else if (!std::strcmp(Argv[I], "trap"))
      Trap = true;
    else {
      std::fprintf(stderr,
                   "control: unknown argument '%s'; use --dump FILE, "
                   "--filter SUBSTR or trap\n",
                   Argv[I]);
      return 2;
    }
  }
  int Count;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0) {
    std::printf("control: no CUDA device; skipped\n");
    return 77;
  }
  if (Trap)
    return runTrap();
  if (DumpPath && !(G.Dump = std::fopen(DumpPath, "w"))) {
    std::fprintf(stderr, "control: cannot write '%s'\n", DumpPath);
    return 2;
  }
  for (const Test &T : kTests)
    if (!Filter || std::strstr(T.Name, Filter))
      T.Run();
  if (G.Dump)
    std::fclose(G.Dump);
  if (!G.Tests)
    std::printf("control: no test name contains '%s'; see kTests in "
                "control.cu\n",
                Filter);
  std::printf("%u tests, %u checks, %u failed\n", G.Tests, G.Checked, G.Failed);
  return G.Failed || !G.Tests ? 1 : 0;
}
