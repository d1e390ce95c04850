// emu-core-bench: thread-instructions per second of the emulator core on an
// arithmetic-heavy kernel, a memory-bound kernel and a shared-memory heavy
// stencil with a barrier per step (ptx/bench.cu, -O3). Run it with
// WARPSCOPE_EMU_RACECHECK=0/1 to compare the shared-memory hazard detector.
// Global accesses are checked against the allocation table, as the
// stand-in cudart launches; --unchecked leaves that out, to compare.
#include "warpscope/Emu/Emulator.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace warpscope::emu;

static uint64_t sumField(const std::string &J, const std::string &Key) {
  uint64_t S = 0;
  std::string K = "\"" + Key + "\":";
  for (size_t P = J.find(K); P != std::string::npos; P = J.find(K, P + 1))
    S += std::strtoull(J.c_str() + P + K.size(), nullptr, 10);
  return S;
}

static bool Checked = true;

// The buffers a launch uses, registered like cudaMalloc'd memory.
template <class T> static void reg(std::vector<T> &V) {
  registerAllocation(V.data(), V.size() * sizeof(T));
}

static double runOne(const std::string &Ptx, const char *Kernel, Dim3 G, Dim3 B,
                     void **Args, const char *Label) {
  std::string Err;
  auto M = loadPtx(Ptx, "bench", Err);
  if (!M) {
    std::fprintf(stderr, "load: %s\n", Err.c_str());
    std::exit(1);
  }
  LaunchParams P;
  P.Grid = G;
  P.Block = B;
  P.Args = Args;
  P.CheckAddresses = Checked;
  // CPU time as well: on a loaded machine it varies less than wall time.
  timespec C0, C1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &C0);
  auto T0 = std::chrono::steady_clock::now();
  if (!M->launch(Kernel, P, Err)) {
    std::fprintf(stderr, "launch: %s\n", Err.c_str());
    std::exit(1);
  }
  auto T1 = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &C1);
  double S = std::chrono::duration<double>(T1 - T0).count();
  double Cpu = (C1.tv_sec - C0.tv_sec) + (C1.tv_nsec - C0.tv_nsec) * 1e-9;
  std::string J = M->groundTruthJson();
  uint64_t TI = sumField(J, "thread_executions"),
           WI = sumField(J, "warp_executions");
  std::printf("%-8s %12llu thread-instr %10llu warp-instr %8.3f s  %8.1f M "
              "thread-instr/s  %8.3f s cpu\n",
              Label, (unsigned long long)TI, (unsigned long long)WI, S,
              TI / S / 1e6, Cpu);
  return TI / S;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "--unchecked") {
    Checked = false;
    --Argc, ++Argv;
  }
  std::string Dir = Argc > 1 ? Argv[1] : EMU_TEST_PTX_DIR;
  std::ifstream In(Dir + "/bench_O3.ptx");
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Ptx = SS.str();
  {
    const int Blocks = 64, Threads = 256;
    std::vector<float> Out(Blocks * Threads);
    reg(Out);
    float *OutP = Out.data();
    int Iters = 2000;
    void *Args[] = {&OutP, &Iters};
    runOne(Ptx, "_Z5arithPfi", {Blocks, 1, 1}, {Threads, 1, 1}, Args, "arith");
  }
  {
    int N = 1 << 22;
    float A = 2.0f;
    std::vector<float> X(N, 1.0f), Y(N, 2.0f);
    reg(X), reg(Y);
    float *XP = X.data(), *YP = Y.data();
    void *Args[] = {&N, &A, &XP, &YP};
    runOne(Ptx, "_Z5saxpyifPKfPf", {256, 1, 1}, {256, 1, 1}, Args, "memory");
  }
  {
    const int Blocks = 64, Threads = 256;
    std::vector<float> In(Blocks * Threads, 1.0f), Out(Blocks * Threads);
    reg(In), reg(Out);
    float *InP = In.data(), *OutP = Out.data();
    int Iters = 300;
    void *Args[] = {&InP, &OutP, &Iters};
    runOne(Ptx, "_Z7stencilPKfPfi", {Blocks, 1, 1}, {Threads, 1, 1}, Args,
           "shared");
  }
  return 0;
}
