// The instrumentation's probes (ptx/probes.cu) must count exactly what the
// emulator's ground truth reports for the instruction carrying the marker
// (and, for branch probes, for the first conditional bra after it).
#include "TestUtil.h"

using namespace emutest;

namespace {

// PTX as it comes out of a fatbin has no comments: markers must then come
// from the probes' marker registers (%ws_block_N / %ws_branch_N).
std::string stripComments(const std::string &T) {
  std::string O;
  for (size_t I = 0; I < T.size();) {
    if (T.compare(I, 2, "//") == 0) {
      while (I < T.size() && T[I] != '\n')
        ++I;
      continue;
    }
    O += T[I++];
  }
  return O;
}

void runProbes(const char *File, bool Strip = false) {
  std::string Text = readPtx(File);
  if (Strip) {
    Text = stripComments(Text);
    ASSERT_EQ(Text.find("// ws:"), std::string::npos);
  }
  std::string Err;
  auto M = loadPtx(Text, File, Err);
  ASSERT_TRUE(M) << Err;
  std::string K = firstKernel(*M);
  std::vector<unsigned long long> C(16, 0);
  std::vector<int> Out(400, -1);
  const int N = 250;
  launch(*M, K, {3, 1, 1}, {96, 1, 1},
         Args().add(C.data()).add(Out.data()).add(N));
  launch(*M, K, {1, 1, 1}, {40, 1, 1},
         Args().add(C.data()).add(Out.data()).add(N));
  for (int T = 0; T < N; ++T) {
    int V = T;
    if ((T * 7 + 3) % 5 < 2)
      for (int J = 0; J < (T & 7); ++J)
        V = V * 3 + J;
    EXPECT_EQ(Out[T], V) << T;
  }
  auto TI = truthOf(M->groundTruthJson(), K);
  bool SawB0 = false, SawB6 = false, SawBr = false, WantBra = false;
  uint64_t Odd = 0;
  for (int T = 0; T < 3 * 96; ++T)
    Odd += (T * 7 + 3) % 5 < 2;
  for (int T = 0; T < 40; ++T)
    Odd += (T * 7 + 3) % 5 < 2;
  for (auto &I : TI) {
    if (I.Marker == "ws:block 0") {
      SawB0 = true;
      EXPECT_EQ(I.Opcode, "activemask.b32");
      EXPECT_EQ(C[0], I.Warp);
      EXPECT_EQ(C[1], I.Thread);
      EXPECT_EQ(C[1], 3u * 96 + 40);
    } else if (I.Marker == "ws:block 6") {
      SawB6 = true;
      EXPECT_EQ(C[6], I.Warp);
      EXPECT_EQ(C[7], I.Thread);
      EXPECT_EQ(C[7], Odd);
    } else if (I.Marker == "ws:branch 2") {
      SawBr = true;
      EXPECT_EQ(C[2], I.Warp);
      EXPECT_EQ(C[4], I.Thread);
      EXPECT_EQ(C[5], Odd);
      WantBra = true;
    } else if (WantBra && I.HasVisits) {
      WantBra = false;
      EXPECT_EQ(C[2], I.Visits) << I.Opcode << " line " << I.PtxLine;
      EXPECT_EQ(C[3], I.Divergent) << I.Opcode << " line " << I.PtxLine;
      EXPECT_GT(I.Divergent, 0u);
    }
  }
  EXPECT_TRUE(SawB0 && SawB6 && SawBr);
  EXPECT_FALSE(WantBra) << "no conditional bra after the branch probe";
}

TEST(Probes, CountsMatchGroundTruthO2) { runProbes("probes_O2.ptx"); }
TEST(Probes, CountsMatchGroundTruthO0) { runProbes("probes_O0.ptx"); }
TEST(Probes, MarkerRegistersWithoutComments) {
  runProbes("probes_O2.ptx", true);
  runProbes("probes_O0.ptx", true);
}

} // namespace
