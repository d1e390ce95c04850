//===- pair.h - Shared helpers of the advisor's before/after programs -----===//
//
// Each program of benchmarks/advisor/pairs/<name>/{before,after}.cu fills
// its inputs from a fixed-seed LCG, runs one kernel, and prints
//   checksum <sum of the outputs, %.9e>
//   PASS
// evaluate.py checks that a pair's two programs print the same checksum
// (within the manifest's tolerance). Only CUDA runtime calls the emulator
// implements are used.
//
//===----------------------------------------------------------------------===//
#ifndef WARPSCOPE_ADVISOR_PAIR_H
#define WARPSCOPE_ADVISOR_PAIR_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s returned CUDA error %d\n", __FILE__,          \
              __LINE__, #call, (int)e_);                                       \
      printf("FAIL\n");                                                        \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

namespace pair {

/// Uniform floats in [Lo, Hi) from a 64-bit LCG (Knuth MMIX constants).
inline std::vector<float> randomFloats(size_t N, float Lo, float Hi,
                                       uint64_t Seed = 1) {
  std::vector<float> V(N);
  uint64_t S = Seed * 2862933555777941757ULL + 1;
  for (float &X : V) {
    S = S * 6364136223846793005ULL + 1442695040888963407ULL;
    X = Lo + (Hi - Lo) * (float)((uint32_t)(S >> 40) * (1.0 / 16777216.0));
  }
  return V;
}

/// A device copy of Host.
template <typename T> T *toDevice(const std::vector<T> &Host) {
  T *D = nullptr;
  CHECK(cudaMalloc(&D, Host.size() * sizeof(T)));
  CHECK(cudaMemcpy(D, Host.data(), Host.size() * sizeof(T),
                   cudaMemcpyHostToDevice));
  return D;
}

/// Copies N values back, prints their checksum and PASS.
template <typename T> void finish(const T *Device, size_t N) {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<T> Host(N);
  CHECK(cudaMemcpy(Host.data(), Device, N * sizeof(T), cudaMemcpyDeviceToHost));
  double Sum = 0;
  for (size_t I = 0; I < N; ++I)
    Sum += (double)Host[I] * (double)(1 + I % 7);
  printf("checksum %.9e\nPASS\n", Sum);
}

} // namespace pair

#endif // WARPSCOPE_ADVISOR_PAIR_H
