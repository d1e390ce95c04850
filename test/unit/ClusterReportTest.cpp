//===- ClusterReportTest.cpp - The report over MPI ranks ------------------===//
//
// Hand-made rank profiles with worked-out spreads: the median of an even
// number of ranks, a rank that never launched a kernel, deviations in each
// metric and their order, --rank lists, and the file names a rank's process
// leaves.
//
//===----------------------------------------------------------------------===//

#include "ClusterReport.h"
#include "Ranks.h"
#include "gtest/gtest.h"

using namespace warpscope;

namespace {

RankKernel kernel(uint64_t Instructions, std::optional<double> Time,
                  uint64_t Visits, uint64_t Divergent) {
  RankKernel K;
  K.Launches = 1;
  K.Instructions = Instructions;
  K.InstructionsArePtx = true;
  K.Timed = Time.has_value();
  K.TimeMs = Time.value_or(0);
  K.Visits = Visits;
  K.Divergent = Divergent;
  return K;
}

/// Ranks 0..N-1 with the kernel "_Z1kv" of module "m" as Kernels gives it
/// (none: the rank did not launch it).
ProfileSet job(std::vector<std::optional<RankKernel>> Kernels) {
  ProfileSet S;
  FunctionProfile F;
  F.ModuleId = "m";
  F.Name = "_Z1kv";
  F.Demangled = "k()";
  F.Kernel = true;
  S.Functions.push_back(F);
  for (size_t R = 0; R < Kernels.size(); ++R) {
    RankProfile P;
    P.Rank = int(R);
    if (Kernels[R])
      P.Kernels[{"m", "_Z1kv"}] = *Kernels[R];
    S.Ranks.push_back(P);
  }
  return S;
}

bool deviates(const ClusterKernel &K, int Rank, const std::string &Metric) {
  for (const Deviation &D : K.Deviating)
    if (D.Rank == Rank && D.Metric == Metric)
      return true;
  return false;
}

TEST(ClusterView, SpreadsMedianAndDeviations) {
  ProfileSet S = job({kernel(100, 1.0, 10, 1), kernel(104, 1.02, 10, 1),
                      kernel(300, 3.1, 10, 5), kernel(96, 0.98, 10, 1)});
  S.WorldSize = 6;
  std::optional<ClusterView> V = clusterView(S, "");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Ranks, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(V->Missing, (std::vector<int>{4, 5}));
  ASSERT_EQ(V->Kernels.size(), 1u);
  const ClusterKernel &K = V->Kernels[0];
  ASSERT_TRUE(K.Instructions && K.TimeMs && K.Divergence);
  EXPECT_EQ(K.Instructions->Min, 96);
  EXPECT_EQ(K.Instructions->MinRank, 3);
  EXPECT_EQ(K.Instructions->Median, 102) << "the mean of the middle two";
  EXPECT_EQ(K.Instructions->Max, 300);
  EXPECT_EQ(K.Instructions->MaxRank, 2);
  EXPECT_DOUBLE_EQ(K.Divergence->Median, 0.1);
  EXPECT_TRUE(deviates(K, 2, "instructions"));
  EXPECT_TRUE(deviates(K, 2, "time_ms"));
  EXPECT_TRUE(deviates(K, 2, "divergence")) << "0.5 is 40 points off 0.1";
  EXPECT_FALSE(deviates(K, 0, "instructions")) << "2% off is balanced";
  EXPECT_FALSE(deviates(K, 3, "time_ms"));
  EXPECT_EQ(K.Deviating.size(), 3u);
  EXPECT_EQ(K.Deviating.front().Metric, "time_ms")
      << "the largest relative deviation first";
  EXPECT_NEAR(K.Imbalance, 3.1 / ((1.0 + 1.02 + 3.1 + 0.98) / 4), 1e-9);
}

TEST(ClusterView, RankWithoutTheKernelCountsZero) {
  ProfileSet S = job({kernel(100, std::nullopt, 0, 0),
                      kernel(100, std::nullopt, 0, 0), std::nullopt});
  std::optional<ClusterView> V = clusterView(S, "");
  ASSERT_TRUE(V);
  const ClusterKernel &K = V->Kernels[0];
  EXPECT_FALSE(K.TimeMs) << "no rank was timed";
  EXPECT_FALSE(K.Divergence) << "no probed branch ran";
  EXPECT_EQ(K.Instructions->Min, 0);
  EXPECT_EQ(K.Instructions->MinRank, 2);
  EXPECT_EQ(K.Instructions->Median, 100);
  EXPECT_TRUE(deviates(K, 2, "instructions"));
  EXPECT_NEAR(K.Imbalance, 1.5, 1e-9) << "instructions where untimed";
}

TEST(ClusterView, NoneForOneRankAndFilteredKernels) {
  EXPECT_FALSE(clusterView(job({kernel(1, 1.0, 1, 0)}), ""));
  ProfileSet S = job({kernel(1, 1.0, 1, 0), kernel(1, 1.0, 1, 0)});
  EXPECT_EQ(clusterView(S, "other")->Kernels.size(), 0u);
  EXPECT_EQ(clusterView(S, "^k")->Kernels.size(), 1u);
}

TEST(Ranks, Lists) {
  auto L = parseRankList("0,3,8-10");
  ASSERT_TRUE(bool(L));
  EXPECT_EQ(*L, (std::set<int>{0, 3, 8, 9, 10}));
  EXPECT_EQ(rankRanges(*L), "0,3,8-10");
  for (const char *Bad : {"", "x", "3-1", "1,,2", "-2", "1-", "2147483648"}) {
    auto E = parseRankList(Bad);
    ASSERT_FALSE(bool(E)) << Bad;
    EXPECT_EQ(toString(E.takeError()),
              "--rank '" + std::string(Bad) +
                  "' is not a list of ranks such as 0,3,8-15");
  }
}

} // namespace
