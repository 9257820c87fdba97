#include "core/base/time.h"

#include <gtest/gtest.h>

namespace base {
namespace {

TEST(ParseDuration, AcceptsGoSyntax) {
  struct Case {
    const char* text;
    Duration want;
  } cases[] = {
      {"0", 0},
      {"500ms", 500 * kMillisecond},
      {"1m30s", 90 * kSecond},
      {"2.5s", 2500 * kMillisecond},
      {"1h", kHour},
      {"-5s", -5 * kSecond},
      {"10us", 10},
      {"1000s", 1000 * kSecond},
      {"1.5ms", 1500},
  };
  for (const auto& c : cases) {
    auto got = ParseDuration(c.text);
    ASSERT_TRUE(got.ok()) << c.text << ": " << got.status().message();
    EXPECT_EQ(*got, c.want) << c.text;
  }
}

TEST(ParseDuration, RejectsBadInputWithGoMessages) {
  EXPECT_EQ(ParseDuration("5").status().message(), "time: missing unit in duration \"5\"");
  EXPECT_EQ(ParseDuration("5x").status().message(),
            "time: unknown unit \"x\" in duration \"5x\"");
  EXPECT_EQ(ParseDuration("").status().message(), "time: invalid duration \"\"");
  EXPECT_FALSE(ParseDuration("ms").ok());
  EXPECT_FALSE(ParseDuration("99999999999999999999h").ok());
}

TEST(FormatDuration, MatchesGoString) {
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(5 * kMillisecond), "5ms");
  EXPECT_EQ(FormatDuration(1500), "1.5ms");
  EXPECT_EQ(FormatDuration(90 * kSecond), "1m30s");
  EXPECT_EQ(FormatDuration(655360 * kMillisecond), "10m55.36s");
  EXPECT_EQ(FormatDuration(1000 * kSecond), "16m40s");
  EXPECT_EQ(FormatDuration(kHour), "1h0m0s");
  EXPECT_EQ(FormatDuration(7), "7µs");
}

TEST(FormatMillis, IsExactWithoutFloatingPoint) {
  EXPECT_EQ(FormatMillis(0), "0");
  EXPECT_EQ(FormatMillis(1500), "1.5");
  EXPECT_EQ(FormatMillis(1001), "1.001");
  EXPECT_EQ(FormatMillis(2000), "2");
  EXPECT_EQ(FormatMillis(655360000), "655360");
}

TEST(FormatRfc3339, StartsAtTheVirtualEpoch) {
  EXPECT_EQ(FormatRfc3339(0), "2026-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(5 * kSecond + 999), "2026-01-01T00:00:05Z");
  EXPECT_EQ(FormatRfc3339(31LL * 24 * kHour + kHour), "2026-02-01T01:00:00Z");
}

TEST(FormatRfc3339, PadsEveryFieldAndCrossesDaysYearsAndLeapDays) {
  EXPECT_EQ(FormatRfc3339(-1), "2025-12-31T23:59:59Z");  // before the epoch rounds down
  EXPECT_EQ(FormatRfc3339(9 * kHour + 8 * kMinute + 7 * kSecond), "2026-01-01T09:08:07Z");
  EXPECT_EQ(FormatRfc3339(365LL * 24 * kHour), "2027-01-01T00:00:00Z");
  // 2028 is a leap year: 2026 and 2027 have 730 days, then January and February 28 more.
  EXPECT_EQ(FormatRfc3339((730LL + 31 + 28) * 24 * kHour), "2028-02-29T00:00:00Z");
  const std::string ancient = FormatRfc3339(-2030LL * 366 * 24 * kHour);  // a year before 0
  EXPECT_EQ(ancient.front(), '-');
  EXPECT_EQ(ancient.back(), 'Z');
}

TEST(FormatAge, FollowsKubectlHumanDuration) {
  EXPECT_EQ(FormatAge(5 * kSecond), "5s");
  EXPECT_EQ(FormatAge(119 * kSecond), "119s");
  EXPECT_EQ(FormatAge(150 * kSecond), "2m30s");
  EXPECT_EQ(FormatAge(15 * kMinute), "15m");
  EXPECT_EQ(FormatAge(4 * kHour), "4h");
  EXPECT_EQ(FormatAge(72 * kHour), "3d");
}

}  // namespace
}  // namespace base
