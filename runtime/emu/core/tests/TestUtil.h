#pragma once
#include "warpscope/Emu/Emulator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace emutest {
using namespace warpscope::emu;

std::string readPtx(const std::string &Name); // from tests/ptx
std::unique_ptr<Module> load(const std::string &Name);
std::unique_ptr<Module> loadText(const std::string &Text,
                                 std::string *Err = nullptr);

// Launches with arguments given as a list of (pointer to value, size) blobs.
struct Args {
  std::vector<std::vector<unsigned char>> Blobs;
  template <class T> Args &add(const T &V) {
    Blobs.emplace_back((const unsigned char *)&V,
                       (const unsigned char *)&V + sizeof(T));
    return *this;
  }
};
// Checked: global accesses against the allocation table (as the stand-in
// cudart launches); Fault: what a failure amounts to.
bool launch(Module &M, const std::string &K, Dim3 G, Dim3 B, const Args &A,
            std::string *Err = nullptr, uint32_t Dyn = 0, bool Checked = false,
            LaunchFault *Fault = nullptr);
std::string firstKernel(Module &M);
// The kernel of M whose mangled name holds Plain (<length><name>); a test
// failure and "" where there is none.
std::string kernelNamed(Module &M, const std::string &Plain);

// PTX's module header: version, target sm_90, 64-bit addresses.
constexpr const char *PtxHeader =
    ".version 8.0\n.target sm_90\n.address_size 64\n";
// The module of PtxHeader and Body; a test failure (with the parser's
// error) and null where it does not load.
std::unique_ptr<Module> loadBody(const std::string &Body);

// Device printf's output appended to *Into from now on, until
// setPrintfSink(nullptr).
void capturePrintf(std::string *Into);
// The h100-sxm timing model's cycles of kernel "k" of Text, launched once
// as one block of 32 threads without arguments; 0 (and a test failure,
// naming What) where it does not load or run.
uint64_t modeledCycles(const std::string &Text, const std::string &What);
// The same launch's modeled SASS warp instructions (ModeledTime::
// Instructions).
uint64_t modeledInstructions(const std::string &Text, const std::string &What);

// Very small JSON helpers for ground-truth checks.
struct InstTruth {
  std::string Opcode, Marker;
  uint64_t Warp = 0, Thread = 0, Visits = 0, Divergent = 0;
  bool HasVisits = false;
  unsigned PtxLine = 0, Line = 0;
};
std::vector<InstTruth> truthOf(const std::string &Json,
                               const std::string &Func);
// A test parameterized by a checked-in PTX file, with its kernels looked up
// by plain name (the mangled name contains <length><name>).
class ModuleFixture : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    M = load(GetParam());
    ASSERT_TRUE(M);
  }
  std::string mangled(const std::string &Plain) {
    return kernelNamed(*M, Plain);
  }
  std::unique_ptr<Module> M;
};

// Bits of a float or double and back, for expected register contents.
inline uint32_t floatBits(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}
inline float bitsToFloat(uint32_t U) {
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}
inline uint64_t doubleBits(double D) {
  uint64_t U;
  std::memcpy(&U, &D, 8);
  return U;
}

// The tests' deterministic input generator.
inline uint32_t lcg(uint32_t &S) {
  S = S * 1664525u + 1013904223u;
  return S;
}
} // namespace emutest
