//===- ConfigTest.cpp - Architecture configurations as data ---------------===//
#include "warpscope/Emu/TimingConfig.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

using namespace warpscope::emu::timing;

TEST(TimingConfig, BuiltinsLoadAndDiffer) {
  std::vector<std::string> Names = builtinConfigs();
  ASSERT_EQ(Names.size(), 3u);
  EXPECT_EQ(Names[0], "h100-sxm");
  Config H, A, T;
  std::string Error;
  ASSERT_TRUE(loadConfig("h100-sxm", H, Error)) << Error;
  ASSERT_TRUE(loadConfig("a100", A, Error)) << Error;
  ASSERT_TRUE(loadConfig("t4", T, Error)) << Error;
  EXPECT_EQ(H.Sms, 132);
  EXPECT_EQ(A.Sms, 108);
  EXPECT_EQ(T.Sms, 40);
  EXPECT_EQ(H.ClockMhz, 1980);
  EXPECT_EQ(T.MaxWarpsPerSm, 32);
  EXPECT_EQ(H.Name, "h100-sxm");
}

TEST(TimingConfig, EveryBuiltinFigureCitesASource) {
  for (const std::string &N : builtinConfigs()) {
    std::ifstream In(std::string(TIMING_CONFIG_DIR) + "/" + N + ".json");
    nlohmann::json J = nlohmann::json::parse(In);
    for (auto &[Key, V] : J.items()) {
      if (Key == "name" || Key == "description")
        continue;
      ASSERT_TRUE(V.is_object()) << N << ": " << Key;
      EXPECT_TRUE(V["value"].is_number()) << N << ": " << Key;
      EXPECT_GT(V["source"].get<std::string>().size(), 10u) << N << ": " << Key;
    }
  }
}

TEST(TimingConfig, BadInputIsOneLine) {
  Config C;
  std::string Error;
  EXPECT_FALSE(loadConfig("h200", C, Error));
  EXPECT_EQ(Error, "unknown model configuration 'h200'; use one of h100-sxm, "
                   "a100, t4 or a JSON file (docs/timing-model.md)");
  EXPECT_FALSE(loadConfig("/nonexistent/x.json", C, Error));
  EXPECT_NE(Error.find("cannot read model configuration file"),
            std::string::npos);
  EXPECT_FALSE(parseConfig("{\"name\": \"x\"", "F", C, Error));
  EXPECT_EQ(Error, "F is not a JSON object");
  EXPECT_FALSE(parseConfig("{\"name\": \"x\"}", "F", C, Error));
  EXPECT_EQ(Error, "F lacks \"sm_count\"");
  EXPECT_EQ(Error.find('\n'), std::string::npos);
}

TEST(TimingConfig, FileWithPlainNumbers) {
  std::ifstream In(std::string(TIMING_CONFIG_DIR) + "/a100.json");
  nlohmann::json J = nlohmann::json::parse(In);
  for (auto &[Key, V] : J.items())
    if (V.is_object())
      V = V["value"];
  J["name"] = "mine";
  J["sm_count"] = 7;
  Config C;
  std::string Error;
  ASSERT_TRUE(parseConfig(J.dump(), "F", C, Error)) << Error;
  EXPECT_EQ(C.Name, "mine");
  EXPECT_EQ(C.Sms, 7);
  J["fp32_lanes"] = 0;
  EXPECT_FALSE(parseConfig(J.dump(), "F", C, Error));
  EXPECT_EQ(Error, "F: \"fp32_lanes\" is not a positive number");
}

TEST(TimingConfig, FingerprintFollowsEveryFigure) {
  // The timing model's version (docs/timing-model.md): the same for the
  // same figures, another when any figure changes.
  Config H, Again;
  std::string Error;
  ASSERT_TRUE(loadConfig("h100-sxm", H, Error)) << Error;
  ASSERT_TRUE(loadConfig("h100-sxm", Again, Error)) << Error;
  std::string F = fingerprint(H);
  ASSERT_EQ(F.size(), std::string("h100-sxm:").size() + 16) << F;
  EXPECT_EQ(F.rfind("h100-sxm:", 0), 0u) << F;
  EXPECT_EQ(fingerprint(Again), F);
  Config Clock = H;
  Clock.ClockMhz = 1755;
  EXPECT_NE(fingerprint(Clock), F);
  Config Pipe = H;
  Pipe.Pipes[(int)Pipe::Fp64].Latency += 1;
  EXPECT_NE(fingerprint(Pipe), F);
  Config Start = H;
  Start.WarpStartCycles += 1;
  EXPECT_NE(fingerprint(Start), F);
}
