// groundTruthJson() must be well-formed JSON with the documented fields.
#include "TestUtil.h"

#include <cctype>
#include <cstring>
#include <thread>

using namespace emutest;

namespace {

// Minimal JSON syntax checker (RFC 8259 subset, enough for our output).
struct JsonCheck {
  const std::string &S;
  size_t P = 0;
  explicit JsonCheck(const std::string &S) : S(S) {}
  void ws() {
    while (P < S.size() && std::isspace((unsigned char)S[P]))
      ++P;
  }
  bool lit(const char *L) {
    size_t N = std::strlen(L);
    if (S.compare(P, N, L) != 0)
      return false;
    P += N;
    return true;
  }
  bool str() {
    if (S[P] != '"')
      return false;
    for (++P; P < S.size(); ++P) {
      unsigned char C = S[P];
      if (C == '"') {
        ++P;
        return true;
      }
      if (C < 0x20)
        return false;
      if (C == '\\') {
        ++P;
        if (P >= S.size() || !std::strchr("\"\\/bfnrtu", S[P]))
          return false;
      }
    }
    return false;
  }
  bool num() {
    size_t B = P;
    if (S[P] == '-')
      ++P;
    while (P < S.size() &&
           (std::isdigit((unsigned char)S[P]) || S[P] == '.' || S[P] == 'e' ||
            S[P] == 'E' || S[P] == '+' || S[P] == '-'))
      ++P;
    return P > B;
  }
  bool value() {
    ws();
    if (P >= S.size())
      return false;
    bool Ok;
    switch (S[P]) {
    case '{': {
      ++P;
      ws();
      if (S[P] == '}') {
        ++P;
        Ok = true;
        break;
      }
      for (;;) {
        ws();
        if (!str())
          return false;
        ws();
        if (S[P++] != ':')
          return false;
        if (!value())
          return false;
        ws();
        if (S[P] == ',') {
          ++P;
          continue;
        }
        if (S[P] == '}') {
          ++P;
          break;
        }
        return false;
      }
      Ok = true;
      break;
    }
    case '[': {
      ++P;
      ws();
      if (S[P] == ']') {
        ++P;
        Ok = true;
        break;
      }
      for (;;) {
        if (!value())
          return false;
        ws();
        if (S[P] == ',') {
          ++P;
          continue;
        }
        if (S[P] == ']') {
          ++P;
          break;
        }
        return false;
      }
      Ok = true;
      break;
    }
    case '"':
      Ok = str();
      break;
    case 't':
      Ok = lit("true");
      break;
    case 'f':
      Ok = lit("false");
      break;
    case 'n':
      Ok = lit("null");
      break;
    default:
      Ok = num();
    }
    return Ok;
  }
  bool all() {
    bool Ok = value();
    ws();
    return Ok && P == S.size();
  }
};

TEST(GroundTruth, WellFormedJson) {
  for (const char *F :
       {"kernels_O2g.ptx", "features.ptx", "misc.ptx", "apps_O0.ptx"}) {
    auto M = load(F);
    ASSERT_TRUE(M);
    std::string J = M->groundTruthJson();
    JsonCheck C(J);
    EXPECT_TRUE(C.all()) << F << " invalid JSON near offset " << C.P << ": "
                         << J.substr(C.P > 40 ? C.P - 40 : 0, 80);
    EXPECT_EQ(J.find("{\"schema\":\"warpscope-emu/1\",\"module\":\""), 0u);
    EXPECT_NE(J.find("\"launches\":[]"), std::string::npos);
  }
  // Strings needing escapes (module name) stay valid.
  std::string Err;
  auto M = loadPtx(readPtx("features.ptx"), "we\"ird\\name\n", Err);
  ASSERT_TRUE(M) << Err;
  std::string J = M->groundTruthJson();
  JsonCheck C(J);
  EXPECT_TRUE(C.all());
  EXPECT_NE(J.find("\"module\":\"we\\\"ird\\\\name\\n\""), std::string::npos);
}

TEST(GroundTruth, CountersAccumulateAcrossLaunches) {
  auto M = load("kernels_O2.ptx");
  ASSERT_TRUE(M);
  std::string K;
  for (auto &KI : M->kernels())
    if (KI.Name.find("7diverge") != std::string::npos)
      K = KI.Name;
  std::vector<int> Out(128);
  for (int I = 0; I < 3; ++I)
    launch(*M, K, {1, 1, 1}, {128, 1, 1}, Args().add(Out.data()));
  auto TI = truthOf(M->groundTruthJson(), K);
  ASSERT_FALSE(TI.empty());
  EXPECT_EQ(TI[0].Warp, 12u);
  EXPECT_EQ(TI[0].Thread, 384u);
  for (auto &I : TI)
    if (I.HasVisits) {
      EXPECT_EQ(I.Visits, 12u);
      EXPECT_EQ(I.Divergent, 12u);
    }
}

TEST(GroundTruth, ConcurrentLaunchesFromThreads) {
  auto M = load("apps_O2.ptx");
  ASSERT_TRUE(M);
  std::string K;
  for (auto &KI : M->kernels())
    if (KI.Name.find("7warpsum") != std::string::npos)
      K = KI.Name;
  const int N = 1000;
  std::vector<int> In(N, 1);
  int Outs[4] = {0, 0, 0, 0};
  std::vector<std::thread> Ts;
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&, T] {
      std::vector<void *> Ptrs;
      int *InP = In.data(), *OutP = &Outs[T];
      int NN = N;
      void *Args[] = {&InP, &OutP, &NN};
      LaunchParams P;
      P.Grid = {8, 1, 1};
      P.Block = {128, 1, 1};
      P.Args = Args;
      std::string Err;
      EXPECT_TRUE(M->launch(K, P, Err)) << Err;
    });
  for (auto &T : Ts)
    T.join();
  for (int T = 0; T < 4; ++T)
    EXPECT_EQ(Outs[T], N);
}

} // namespace
