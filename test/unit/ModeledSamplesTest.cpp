//===- ModeledSamplesTest.cpp - The timing model's PC samples, end to end -===//
//
// Runs an instrumented kernel (the emulator's probes_O2.ptx) with the timing
// model sampling, and checks that the samples' ptx_index numbers program
// instructions exactly as the driver's PTX listing does, and that the same
// run gives the same samples whatever the number of emulator threads.
//
//===----------------------------------------------------------------------===//
#include "warpscope/ABI/PcSampling.h"
#include "warpscope/Emu/Emulator.h"
#include "warpscope/PTX/PtxListing.h"
#include "llvm/Support/JSON.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

using namespace warpscope;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

const std::string Ptx =
    readFile(std::string(WARPSCOPE_EMU_PTX_DIR) + "/probes_O2.ptx");

struct ModeledRun {
  std::vector<emu::ModeledPcSamples> Samples;
  std::string Truth;
};

ModeledRun runModeled(const char *Threads) {
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  setenv("WARPSCOPE_EMU_PC_SAMPLING", "1", 1);
  setenv("WARPSCOPE_SAMPLING_PERIOD", "5", 1);
  setenv("WARPSCOPE_EMU_THREADS", Threads, 1);
  std::string Error;
  std::unique_ptr<emu::Module> M = emu::loadPtx(Ptx, "probes", Error);
  EXPECT_TRUE(M) << Error;
  ModeledRun R;
  if (!M)
    return R;
  // Aligned as cudaMalloc aligns (256 bytes): the sectors an access
  // touches, and so the modeled time, depend on the address modulo 32.
  struct Free {
    void operator()(void *P) const { std::free(P); }
  };
  std::unique_ptr<unsigned long long, Free> C(
      static_cast<unsigned long long *>(std::aligned_alloc(256, 16 * 8)));
  std::unique_ptr<int, Free> Out(
      static_cast<int *>(std::aligned_alloc(256, 400 * sizeof(int))));
  std::fill_n(C.get(), 16, 0ull);
  std::fill_n(Out.get(), 400, -1);
  unsigned long long *CP = C.get();
  int *OP = Out.get();
  int N = 250;
  void *Args[] = {&CP, &OP, &N};
  emu::LaunchParams P;
  P.Grid = {40, 1, 1};
  P.Block = {96, 1, 1};
  P.Args = Args;
  EXPECT_TRUE(M->launch(M->kernels()[0].Name, P, Error)) << Error;
  R.Samples = M->modeledSamples();
  R.Truth = M->groundTruthJson();
  EXPECT_EQ(M->modelConfigName(), "h100-sxm");
  EXPECT_EQ(M->samplingPeriod(), 5u);
  for (const char *V : {"WARPSCOPE_EMU_MODEL", "WARPSCOPE_EMU_PC_SAMPLING",
                        "WARPSCOPE_SAMPLING_PERIOD", "WARPSCOPE_EMU_THREADS"})
    unsetenv(V);
  return R;
}

} // namespace

TEST(ModeledSamples, PtxIndexNumbersAsThePtxListing) {
  ptx::Module L;
  std::string Error;
  ASSERT_TRUE(ptx::parse(Ptx, L, Error)) << Error;
  ASSERT_EQ(L.Functions.size(), 1u);
  std::vector<std::string> Listed;
  for (const ptx::Block &B : L.Functions[0].Blocks)
    for (const ptx::Item &I : B.Items)
      if (I.Kind == ptx::Item::Instruction)
        Listed.push_back(I.Opcode);
  ASSERT_GT(L.Functions[0].InstrumentationInstructions, 0u);

  ModeledRun R = runModeled("1");
  // The emulator's program instructions (probe instructions left out), in
  // its order, are the listing's.
  llvm::Expected<llvm::json::Value> J = llvm::json::parse(R.Truth);
  ASSERT_TRUE(bool(J));
  const llvm::json::Array *Insts = J->getAsObject()
                                       ->getArray("functions")
                                       ->front()
                                       .getAsObject()
                                       ->getArray("instructions");
  std::vector<std::string> Program;
  for (const llvm::json::Value &V : *Insts) {
    const llvm::json::Object *O = V.getAsObject();
    if (!O->getBoolean("instrumentation").value_or(false))
      Program.push_back(O->getString("opcode")->str());
  }
  EXPECT_EQ(Program, Listed);
  // Samples are at listed instructions, with consistent counts.
  ASSERT_FALSE(R.Samples.empty());
  uint64_t Total = 0;
  std::set<uint32_t> Seen;
  for (const emu::ModeledPcSamples &S : R.Samples) {
    EXPECT_EQ(S.Function, L.Functions[0].Name);
    EXPECT_LT(S.PtxIndex, Listed.size());
    EXPECT_TRUE(Seen.insert(S.PtxIndex).second) << "pc listed twice";
    uint64_t Base = 0, NotIssued = 0;
    for (const auto &[Name, N] : S.Stalls) {
      EXPECT_EQ(Name.rfind("smsp__pcsamp_warps_issue_stalled_", 0), 0u);
      (isNotIssuedStall(Name) ? NotIssued : Base) += N;
    }
    EXPECT_EQ(S.Samples, Base);
    EXPECT_LE(NotIssued, Base);
    Total += S.Samples;
  }
  EXPECT_GT(Total, 20u);
}

namespace {
bool sameSamples(const ModeledRun &X, const ModeledRun &Y) {
  if (X.Samples.size() != Y.Samples.size())
    return false;
  for (size_t K = 0; K < X.Samples.size(); ++K)
    if (X.Samples[K].PtxIndex != Y.Samples[K].PtxIndex ||
        X.Samples[K].Stalls != Y.Samples[K].Stalls)
      return false;
  return true;
}
std::string modeledTime(const std::string &T) {
  return T.substr(T.find("\"modeled\""));
}
} // namespace

TEST(ModeledSamples, SameRunSameSamplesAndTime) {
  ModeledRun A = runModeled("1"), C = runModeled("1");
  ASSERT_FALSE(A.Samples.empty());
  EXPECT_TRUE(sameSamples(A, C));
  EXPECT_EQ(modeledTime(A.Truth), modeledTime(C.Truth));
}

TEST(ModeledSamples, SameSamplesWhateverTheThreads) {
  ModeledRun A = runModeled("1"), B = runModeled("2");
  ASSERT_FALSE(A.Samples.empty());
  EXPECT_TRUE(sameSamples(A, B));
}

TEST(ModeledSamples, SameTimeWhateverTheThreads) {
  ModeledRun A = runModeled("1"), B = runModeled("2");
  EXPECT_EQ(modeledTime(A.Truth), modeledTime(B.Truth));
}
