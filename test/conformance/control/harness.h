// Shared pieces of the control-flow conformance suite (control.cu): failure
// lines, the dump, device buffers, and the per-warp lane patterns every test
// draws its divergence from.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

namespace ctl {

struct State {
  FILE *Dump = nullptr;
  unsigned Failed = 0, Checked = 0, Tests = 0;
  // Set by a launch error: CUDA errors of launches are sticky, so no later
  // test can run.
  const char *Stuck = nullptr;
};
inline State G;

// One line per failure: "FAIL test: ...".
inline void fail(const char *Test, const char *Fmt, ...) {
  ++G.Failed;
  std::printf("FAIL %s: ", Test);
  va_list Ap;
  va_start(Ap, Fmt);
  std::vprintf(Fmt, Ap);
  va_end(Ap);
  std::printf("\n");
}

// Compares one result with its expectation (and dumps the result).
inline void expect(const char *Test, const char *What, size_t I, uint64_t Got,
                   uint64_t Want) {
  ++G.Checked;
  if (G.Dump)
    std::fprintf(G.Dump, "%s\t%s\t%zu\t%llx\n", Test, What, I,
                 (unsigned long long)Got);
  if (Got != Want)
    fail(Test, "%s[%zu]: got 0x%llx want 0x%llx", What, I,
         (unsigned long long)Got, (unsigned long long)Want);
}

// False (and a failure line) when an earlier launch error is sticky.
inline bool canRun(const char *Test) {
  ++G.Tests;
  if (!G.Stuck)
    return true;
  fail(Test, "not run: the launch error of %s is sticky; rerun with --filter",
       G.Stuck);
  return false;
}

// Waits for the launch; a launch error fails the test and is remembered.
inline bool launched(const char *Test) {
  cudaError_t E = cudaGetLastError();
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  if (E == cudaSuccess)
    return true;
  fail(Test, "launch error: %s", cudaGetErrorString(E));
  G.Stuck = Test;
  return false;
}

// A device array, filled with a sentinel (0xcd bytes) or copied from host.
template <class T> struct Buf {
  T *D = nullptr;
  size_t N;
  explicit Buf(size_t N) : N(N) {
    cudaMalloc(&D, N * sizeof(T));
    cudaMemset(D, 0xcd, N * sizeof(T));
  }
  explicit Buf(const std::vector<T> &H) : Buf(H.size()) {
    cudaMemcpy(D, H.data(), N * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~Buf() { cudaFree(D); }
  Buf(const Buf &) = delete;
  Buf &operator=(const Buf &) = delete;
  std::vector<T> get() const {
    std::vector<T> H(N);
    cudaMemcpy(H.data(), D, N * sizeof(T), cudaMemcpyDeviceToHost);
    return H;
  }
};

constexpr uint32_t kSentinel = 0xcdcdcdcdu;

// Lane patterns (bit L = lane L): none, all, alternating, single lanes at
// both ends, halves, all but one, and pseudo-random masks (a fixed LCG, so
// the inputs never change).
inline std::vector<uint32_t> lanePatterns(size_t N) {
  std::vector<uint32_t> P = {0u,          ~0u,         0x55555555u,
                             0xaaaaaaaau, 1u,          0x80000000u,
                             0x0000ffffu, 0xffff0000u, 0x7fffffffu,
                             0xfffffffeu, 0x00010000u, 0x0f0f0f0fu};
  uint64_t S = 0x2545f4914f6cdd1dull;
  while (P.size() < N) {
    S = S * 6364136223846793005ull + 1442695040888963407ull;
    P.push_back((uint32_t)(S >> 32));
  }
  P.resize(N);
  return P;
}

// Lanes of warp W that exist in a block of N threads.
inline uint32_t liveLanes(unsigned N, unsigned W) {
  unsigned Left = N - W * 32;
  return Left >= 32 ? ~0u : (1u << Left) - 1;
}

} // namespace ctl
