// WARPSCOPE_EMU_RACECHECK: shared-memory hazards between warps, on the
// kernels of ptx/racecheck.cu (clang -O2 -gline-tables-only). The expected
// source lines are found by their "// @tag" comments in racecheck.cu.
#include "TestUtil.h"
#include "warpscope/Support/Demangle.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>

using namespace emutest;
using Json = nlohmann::json;

namespace {

unsigned lineOf(const std::string &Tag) {
  std::istringstream In(readPtx("racecheck.cu"));
  std::string L;
  for (unsigned N = 1; std::getline(In, L); ++N)
    if (L.find("// @" + Tag) != std::string::npos)
      return N;
  ADD_FAILURE() << "no tag " << Tag;
  return 0;
}

class Racecheck : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("WARPSCOPE_EMU_RACECHECK", "1", 1);
    M = load("racecheck_O2.ptx");
    ASSERT_TRUE(M);
  }
  void TearDown() override { unsetenv("WARPSCOPE_EMU_RACECHECK"); }
  std::string kernel(const std::string &Plain) {
    for (auto &K : M->kernels())
      if (K.Name.find(std::to_string(Plain.size()) + Plain) !=
          std::string::npos)
        return K.Name;
    ADD_FAILURE() << "no kernel " << Plain;
    return "";
  }
  // Runs Plain with Threads threads; returns its hazards from the ground
  // truth and what was printed on stderr in Err.
  std::vector<Json> run(const std::string &Plain, unsigned Threads,
                        const Args &A, unsigned Blocks = 1) {
    std::string Name = kernel(Plain);
    testing::internal::CaptureStderr();
    std::string LaunchErr;
    EXPECT_TRUE(
        launch(*M, Name, {Blocks, 1, 1}, {Threads, 1, 1}, A, &LaunchErr))
        << LaunchErr;
    Err = testing::internal::GetCapturedStderr();
    Json Doc = Json::parse(M->groundTruthJson());
    EXPECT_TRUE(Doc.contains("hazards"));
    std::vector<Json> Out;
    for (auto &H : Doc["hazards"])
      if (H["kernel"] == Name)
        Out.push_back(H);
    return Out;
  }
  std::unique_ptr<Module> M;
  std::vector<int> Buf = std::vector<int>(256, 0);
  std::string Err;
};

void expectSide(const Json &S, unsigned Line, unsigned Warp) {
  EXPECT_EQ(S["file"],
            "racecheck.cu"); // the .file "./racecheck.cu", normalized
  EXPECT_EQ(S["line"], Line);
  EXPECT_EQ(S["warp"], Warp);
}

size_t lines(const std::string &S) {
  return std::count(S.begin(), S.end(), '\n');
}

TEST_F(Racecheck, ReadAfterWrite) {
  auto H = run("raw", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "read-after-write");
  expectSide(H[0]["first"], lineOf("raw-w"), 0);
  expectSide(H[0]["second"], lineOf("raw-r"), 1);
  EXPECT_EQ(H[0]["first"]["opcode"], "st.shared.b32");
  EXPECT_EQ(H[0]["second"]["opcode"], "ld.shared.b32");
  EXPECT_EQ(H[0]["count"], 32u); // each of warp 1's lanes
  EXPECT_EQ(H[0]["block"], Json::array({0, 0, 0}));
  // One line on stderr naming the kernel, the kind and both lines.
  ASSERT_EQ(lines(Err), 1u) << Err;
  // The kernel as "raw(...) [_Z...]": demangled, then its symbol.
  EXPECT_NE(warpscope::withDemangledNames(kernel("raw")), kernel("raw"));
  EXPECT_EQ(Err.rfind("warpscope-emu: racecheck: kernel " +
                          warpscope::withDemangledNames(kernel("raw")) +
                          ", block (0,0,0): read-after-write hazard",
                      0),
            0u)
      << Err;
  EXPECT_NE(Err.find("racecheck.cu:" + std::to_string(lineOf("raw-w")) + ":"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("racecheck.cu:" + std::to_string(lineOf("raw-r")) + ":"),
            std::string::npos)
      << Err;
}

TEST_F(Racecheck, WriteAfterRead) {
  auto H = run("war", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "write-after-read");
  expectSide(H[0]["first"], lineOf("war-r"), 0);
  expectSide(H[0]["second"], lineOf("war-w"), 1);
  EXPECT_EQ(lines(Err), 1u) << Err;
}

TEST_F(Racecheck, WriteAfterWrite) {
  auto H = run("waw", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "write-after-write");
  expectSide(H[0]["first"], lineOf("waw"), 0);
  expectSide(H[0]["second"], lineOf("waw"), 1);
}

// Each distinct hazard is reported once, however often it happens: every
// execution of the racy pair is counted (warp 0 runs its whole loop first,
// then each of warp 1's 32 lanes reads n times a word warp 0 wrote).
TEST_F(Racecheck, ReportedOnceCountedAlways) {
  const int N = 5;
  auto H = run("repeated", 64, Args().add(Buf.data()).add(N));
  ASSERT_FALSE(H.empty());
  uint64_t Count = 0;
  for (auto &X : H) {
    EXPECT_EQ(X["kind"], "read-after-write");
    expectSide(X["first"], lineOf("rep-w"), 0);
    expectSide(X["second"], lineOf("rep-r"), 1);
    Count += X["count"].get<uint64_t>();
  }
  EXPECT_EQ(Count, 32u * N);
  EXPECT_EQ(lines(Err), H.size()) << Err;
  // A second launch finds the same hazards: no new line, counts double.
  auto H2 = run("repeated", 64, Args().add(Buf.data()).add(N));
  EXPECT_EQ(H2.size(), H.size());
  EXPECT_EQ(Err, "");
}

TEST_F(Racecheck, PlainStoreAgainstAtomic) {
  auto H = run("atomicVsPlain", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "write-after-write");
  expectSide(H[0]["first"], lineOf("avp-w"), 0);
  // clang attributes the atomic to the inlined header's line.
  EXPECT_EQ(H[0]["second"]["opcode"], "atom.shared.add.u32");
  EXPECT_EQ(H[0]["second"]["warp"], 1);
}

TEST_F(Racecheck, GenericAddressInDeviceFunction) {
  auto H = run("generic", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "read-after-write");
  expectSide(H[0]["first"], lineOf("gen-w"), 0);
  EXPECT_EQ(H[0]["first"]["function"], "_Z3putPii");
  expectSide(H[0]["second"], lineOf("gen-r"), 1);
}

// The writer's warp also read the word, after another warp: the hazard
// names the other warp's read.
TEST_F(Racecheck, WriteAfterTwoWarpsRead) {
  auto H = run("readersThenWrite", 64, Args().add(Buf.data()));
  ASSERT_EQ(H.size(), 1u);
  EXPECT_EQ(H[0]["kind"], "write-after-read");
  expectSide(H[0]["first"], lineOf("rtw-r"), 0);
  expectSide(H[0]["second"], lineOf("rtw-w"), 1);
}

TEST_F(Racecheck, CleanKernelsReportNothing) {
  std::vector<char> Bytes(256);
  for (auto [Name, Threads] :
       {std::pair<const char *, unsigned>{"cleanSynced", 64},
        {"cleanSameWarp", 64},
        {"cleanBroadcast", 128},
        {"cleanAtomics", 64},
        {"cleanNamedBarriers", 128}}) {
    // Several blocks: nothing is cleared between them, stamps just age.
    auto H = run(Name, Threads, Args().add(Buf.data()), 3);
    EXPECT_TRUE(H.empty()) << Name << ": " << H.size() << " hazards";
    EXPECT_EQ(Err, "") << Name;
  }
  // Four warps write one byte each of every word.
  auto H = run("cleanBytes", 128, Args().add(Bytes.data()), 3);
  EXPECT_TRUE(H.empty());
  EXPECT_EQ(Err, "");
  for (int T = 0; T < 128; ++T)
    EXPECT_EQ(Bytes[T], (char)((T % 4) * 32 + T / 4)) << T;
}

TEST(RacecheckOff, NoHazardsKeyAndNothingPrinted) {
  unsetenv("WARPSCOPE_EMU_RACECHECK");
  auto M = load("racecheck_O2.ptx");
  ASSERT_TRUE(M);
  std::vector<int> Buf(64);
  std::string Name;
  for (auto &K : M->kernels())
    if (K.Name.find("3raw") != std::string::npos)
      Name = K.Name;
  testing::internal::CaptureStderr();
  ASSERT_TRUE(launch(*M, Name, {1, 1, 1}, {64, 1, 1}, Args().add(Buf.data())));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(Json::parse(M->groundTruthJson()).contains("hazards"));
}

} // namespace
