//===- SettingsTest.cpp - The runtimes' settings parser -------------------===//

#include "warpscope/Support/Settings.h"
#include <gtest/gtest.h>
#include <map>
#include <string>

using warpscope::support::SettingsReader;

namespace {

std::map<std::string, std::string> Env;

const char *lookup(const char *Name) {
  auto It = Env.find(Name);
  return It == Env.end() ? nullptr : It->second.c_str();
}

struct SettingsTest : ::testing::Test {
  void SetUp() override { Env.clear(); }
};

TEST_F(SettingsTest, FlagsAcceptEverySpellingAndWarnOnOthers) {
  for (const char *On : {"1", "on", "TRUE", "Yes"}) {
    Env["F"] = On;
    SettingsReader R(lookup);
    EXPECT_TRUE(R.flag("F", false)) << On;
    EXPECT_TRUE(R.warnings().empty());
  }
  for (const char *Off : {"0", "off", "False", "NO"}) {
    Env["F"] = Off;
    SettingsReader R(lookup);
    EXPECT_FALSE(R.flag("F", true)) << Off;
  }
  Env["F"] = "2";
  SettingsReader R(lookup);
  EXPECT_TRUE(R.flag("F", true));
  EXPECT_EQ(R.firstWarning(),
            "F='2' is not 1/0, on/off, true/false or yes/no; using 1");
}

TEST_F(SettingsTest, UnsetAndEmptyGiveTheDefaultSilently) {
  Env["EMPTY"] = "";
  SettingsReader R(lookup);
  EXPECT_TRUE(R.flag("UNSET", true));
  EXPECT_FALSE(R.flag("EMPTY", false));
  EXPECT_EQ(R.choice("EMPTY", {"a", "b"}, 1), 1u);
  EXPECT_FALSE(R.integer("UNSET", 0, 9, "nine").has_value());
  EXPECT_EQ(R.number("EMPTY", 0, 10, 2.5), 2.5);
  EXPECT_EQ(R.text("UNSET"), "");
  EXPECT_TRUE(R.warnings().empty());
}

TEST_F(SettingsTest, ChoicesNameEveryAlternative) {
  Env["M"] = "per-launch";
  Env["C"] = "fast";
  SettingsReader R(lookup);
  EXPECT_EQ(R.choice("M", {"aggregate", "per-launch"}, 0), 1u);
  EXPECT_EQ(R.choice("C", {"a", "b", "c"}, 2), 2u);
  ASSERT_EQ(R.warnings().size(), 1u);
  EXPECT_EQ(R.firstWarning(), "C='fast' is not 'a', 'b' or 'c'; using c");
}

TEST_F(SettingsTest, IntegersInRangeOnly) {
  Env["OK"] = "31";
  Env["BIG"] = "32";
  Env["JUNK"] = "7x";
  Env["HUGE"] = "99999999999999999999999";
  SettingsReader R(lookup);
  EXPECT_EQ(R.integer("OK", 5, 31, "the default"), 31);
  EXPECT_FALSE(R.integer("BIG", 5, 31, "the default"));
  EXPECT_FALSE(R.integer("JUNK", 5, 31, nullptr));
  EXPECT_FALSE(R.integer("HUGE", 0, 100, "zero"));
  ASSERT_EQ(R.warnings().size(), 2u);
  EXPECT_EQ(R.warnings()[0], "BIG='32' is not an integer in 5..31; using "
                             "the default");
  EXPECT_EQ(R.warnings()[1], "HUGE='99999999999999999999999' is not an "
                             "integer in 0..100; using zero");
}

TEST_F(SettingsTest, Numbers) {
  Env["S"] = "0.5";
  Env["NEG"] = "-1";
  Env["NAN"] = "nan";
  SettingsReader R(lookup);
  EXPECT_EQ(R.number("S", 0, 3600, 0), 0.5);
  EXPECT_EQ(R.number("NEG", 0, 3600, 2), 2);
  EXPECT_EQ(R.number("NAN", 0, 3600, 0), 0);
  ASSERT_EQ(R.warnings().size(), 2u);
  EXPECT_EQ(R.firstWarning(), "NEG='-1' is not a number in 0..3600; using 2");
}

} // namespace
