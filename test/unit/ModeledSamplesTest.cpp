//===- ModeledSamplesTest.cpp - The timing model's PC samples, end to end -===//
//
// Runs an instrumented kernel (the emulator's probes_O2.ptx) with the timing
// model sampling, and checks that the samples' ptx_index numbers program
// instructions exactly as the driver's PTX listing does, that the same
// run gives the same samples whatever the number of emulator threads, and
// that with the probes free (the default) the modeled time and samples are
// those of the same PTX with its probe scopes cut out, to the cycle. And
// that the core tells the model where a warp resumes another of its
// divergent paths (TimingSink.cpp: the active lanes neither include nor are
// included in those before): a kernel whose lanes split on a parameter pays
// divergence_switch_cycles once per warp when they split, nothing when every
// lane takes one path (docs/timing-model.md, "Divergence, calls and
// indirect branches").
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

// The instrumented PTX less its probes' inline-asm scopes: the program
// as it would run without them, instruction for instruction.
std::string withoutProbes(const std::string &T) {
  std::string O;
  const std::string Begin = "// begin inline asm", End = "// end inline asm";
  size_t At = 0;
  for (size_t B; (B = T.find(Begin, At)) != std::string::npos;) {
    O += T.substr(At, B - At);
    At = T.find(End, B) + End.size();
  }
  return O + T.substr(At);
}

uint64_t modeledCycles(const std::string &Truth, std::string *Probes) {
  llvm::Expected<llvm::json::Value> J = llvm::json::parse(Truth);
  if (!J) {
    llvm::consumeError(J.takeError());
    return 0;
  }
  const llvm::json::Object *M = J->getAsObject()
                                    ->getArray("launches")
                                    ->front()
                                    .getAsObject()
                                    ->getObject("modeled");
  *Probes = M->getString("probes").value_or("").str();
  return (uint64_t)M->getInteger("cycles").value_or(0);
}

ModeledRun runModeled(const char *Threads, const std::string &Text = Ptx,
                      const char *ModelProbes = nullptr,
                      std::string *ProbesLabel = nullptr) {
  if (ModelProbes)
    setenv("WARPSCOPE_EMU_MODEL_PROBES", ModelProbes, 1);
  setenv("WARPSCOPE_EMU_MODEL", "h100-sxm", 1);
  setenv("WARPSCOPE_EMU_PC_SAMPLING", "1", 1);
  setenv("WARPSCOPE_SAMPLING_PERIOD", "5", 1);
  setenv("WARPSCOPE_EMU_THREADS", Threads, 1);
  std::string Error;
  std::unique_ptr<emu::Module> M = emu::loadPtx(Text, "probes", Error);
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
  if (ProbesLabel)
    *ProbesLabel = M->modelProbes();
  for (const char *V : {"WARPSCOPE_EMU_MODEL", "WARPSCOPE_EMU_PC_SAMPLING",
                        "WARPSCOPE_SAMPLING_PERIOD", "WARPSCOPE_EMU_THREADS",
                        "WARPSCOPE_EMU_MODEL_PROBES"})
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

// Free probes: not issued, no slot, no sample, no memory traffic, no
// dependency. The instrumented kernel's program instructions are the cut
// PTX's, in the same order, so its modeled time and samples must be the
// same to the cycle and to the sample.
TEST(ModeledSamples, FreeProbesModelTheProgramAlone) {
  const std::string Cut = withoutProbes(Ptx);
  ASSERT_EQ(Cut.find("%ws_"), std::string::npos);
  ASSERT_NE(Cut.find("st.global.b32"), std::string::npos);
  std::string InstLabel, CutLabel, InstProbes, CutProbes;
  ModeledRun Inst = runModeled("1", Ptx, nullptr, &InstLabel);
  ModeledRun Plain = runModeled("1", Cut, nullptr, &CutLabel);
  const uint64_t Cycles = modeledCycles(Inst.Truth, &InstProbes);
  EXPECT_GT(Cycles, 0u);
  EXPECT_EQ(Cycles, modeledCycles(Plain.Truth, &CutProbes));
  EXPECT_EQ(InstProbes, "free");
  EXPECT_EQ(CutProbes, ""); // no probes, no label
  EXPECT_EQ(InstLabel, "free");
  EXPECT_EQ(CutLabel, "");
  ASSERT_FALSE(Plain.Samples.empty());
  ASSERT_EQ(Inst.Samples.size(), Plain.Samples.size());
  for (size_t K = 0; K < Plain.Samples.size(); ++K) {
    EXPECT_EQ(Inst.Samples[K].PtxIndex, Plain.Samples[K].PtxIndex);
    EXPECT_EQ(Inst.Samples[K].Samples, Plain.Samples[K].Samples);
    EXPECT_EQ(Inst.Samples[K].Stalls, Plain.Samples[K].Stalls)
        << "at ptx_index " << Plain.Samples[K].PtxIndex;
  }
}

// WARPSCOPE_EMU_MODEL_PROBES=1: the probes cost modeled cycles again (the
// probe-overhead tools' setting), and the outputs say so.
TEST(ModeledSamples, ModeledProbesCostCycles) {
  std::string Label, Probes, CutProbes;
  ModeledRun Inst = runModeled("1", Ptx, "1", &Label);
  ModeledRun Plain = runModeled("1", withoutProbes(Ptx));
  EXPECT_GT(modeledCycles(Inst.Truth, &Probes),
            modeledCycles(Plain.Truth, &CutProbes));
  EXPECT_EQ(Probes, "modeled");
  EXPECT_EQ(Label, "modeled");
}

namespace {

// Lanes with (tid & split) != 0 add 7, the others 9: one warp, two paths
// when split is 1, one when it is 0.
const char *const Kernel = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry diverge(.param .u64 out, .param .u32 split)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [split];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, %r5;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  add.u32 %r3, %r1, 7;
  bra.uni DONE;
EVEN:
  add.u32 %r3, %r1, 9;
DONE:
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r3;
  ret;
}
)";

// h100-sxm's configuration with divergence_switch_cycles set, as a file.
std::string configWith(double Cycles) {
  std::ifstream In(std::string(WARPSCOPE_TIMING_CONFIGS) + "/h100-sxm.json");
  std::stringstream SS;
  SS << In.rdbuf();
  llvm::Expected<llvm::json::Value> J = llvm::json::parse(SS.str());
  EXPECT_TRUE((bool)J);
  if (!J) {
    llvm::consumeError(J.takeError());
    return "";
  }
  (*J->getAsObject())["divergence_switch_cycles"] = Cycles;
  const std::string Path = ::testing::TempDir() + "divergence-" +
                           std::to_string((int)Cycles) + ".json";
  std::ofstream Out(Path);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << *J;
  Out << OS.str();
  return Path;
}

uint64_t cycles(double SwitchCycles, unsigned Split) {
  setenv("WARPSCOPE_EMU_MODEL", configWith(SwitchCycles).c_str(), 1);
  std::string Error;
  std::unique_ptr<emu::Module> M = emu::loadPtx(Kernel, "diverge", Error);
  EXPECT_TRUE(M) << Error;
  if (!M)
    return 0;
  struct Free {
    void operator()(void *P) const { std::free(P); }
  };
  std::unique_ptr<unsigned, Free> Out(
      static_cast<unsigned *>(std::aligned_alloc(256, 32 * sizeof(unsigned))));
  unsigned *OP = Out.get();
  void *Args[] = {&OP, &Split};
  emu::LaunchParams P;
  P.Grid = {1, 1, 1};
  P.Block = {32, 1, 1};
  P.Args = Args;
  EXPECT_TRUE(M->launch("diverge", P, Error)) << Error;
  unsetenv("WARPSCOPE_EMU_MODEL");
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(OP[L], L + ((L & Split) ? 7 : 9));
  std::string Probes;
  return modeledCycles(M->groundTruthJson(), &Probes);
}

} // namespace

TEST(ModeledDivergence, ResumingTheOtherPathCostsTheSwitch) {
  const uint64_t Free = cycles(0, 1);
  ASSERT_GT(Free, 0u);
  // The switch starts after the branch ending the first path resolves; the
  // ops after it may have waited a cycle or two for other reasons anyway.
  const uint64_t Paid = cycles(1000, 1);
  EXPECT_GE(Paid, Free + 990);
  EXPECT_LE(Paid, Free + 1000);
}

TEST(ModeledDivergence, AUniformBranchHasNoSwitch) {
  const uint64_t Free = cycles(0, 0);
  ASSERT_GT(Free, 0u);
  EXPECT_EQ(cycles(1000, 0), Free);
}
