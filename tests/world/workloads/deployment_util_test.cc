#include "core/world/workloads/deployment_util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace world {
namespace {

using api::Json;

TEST(SafeEncodeString, MapsBytesOntoTheVowelFreeAlphabet) {
  // '0' is 48 -> 48 % 27 = 21 -> '4'; '9' is 57 -> 3 -> 'f'.
  EXPECT_EQ(SafeEncodeString("0"), "4");
  EXPECT_EQ(SafeEncodeString("9"), "f");
  EXPECT_EQ(SafeEncodeString(""), "");
  for (char c : SafeEncodeString("1234567890")) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos);
  }
}

TEST(Fnv32a, MatchesTheReferenceVectors) {
  EXPECT_EQ(Fnv32a(""), 2166136261u);
  EXPECT_EQ(Fnv32a("a"), 0xe40c292cu);
  EXPECT_EQ(Fnv32a("foobar"), 0xbf9cf968u);
}

TEST(ComputeHash, IsStableAndChangesWithTheTemplateOrCollisions) {
  Json a = {{"spec", {{"containers", Json::array({Json{{"image", "nginx:1.27"}}})}}}};
  Json b = {{"spec", {{"containers", Json::array({Json{{"image", "nginx:1.28"}}})}}}};
  const std::string ha = ComputeHash(a, std::nullopt);
  EXPECT_EQ(ha, ComputeHash(a, std::nullopt));
  EXPECT_NE(ha, ComputeHash(b, std::nullopt));
  EXPECT_NE(ha, ComputeHash(a, 1));
  EXPECT_GE(ha.size(), 1u);
  EXPECT_LE(ha.size(), 10u);  // the decimal digits of a uint32
}

struct ScaledCase {
  Json value;
  int64_t total;
  bool round_up;
  int64_t want;  // -1 = invalid
};

TEST(ScaledValue, ResolvesIntsAndPercentages) {
  const std::vector<ScaledCase> cases = {
      {2, 10, true, 2},     {"25%", 10, true, 3}, {"25%", 10, false, 2},
      {"25%", 4, false, 1}, {"0%", 10, true, 0},  {"100%", 3, false, 3},
      {"x%", 10, true, -1}, {"25", 10, true, -1}, {Json(nullptr), 1, true, -1},
  };
  for (const ScaledCase& c : cases) {
    SCOPED_TRACE(c.value.dump());
    auto v = ScaledValue(c.value, c.total, c.round_up);
    if (c.want < 0) {
      EXPECT_FALSE(v.ok());
    } else {
      ASSERT_TRUE(v.ok());
      EXPECT_EQ(v.value(), c.want);
    }
  }
}

TEST(ResolveFenceposts, RoundsSurgeUpUnavailableDownAndNeverBothZero) {
  Fenceposts f = ResolveFenceposts("25%", "25%", 3);
  EXPECT_EQ(f.max_surge, 1);
  EXPECT_EQ(f.max_unavailable, 0);
  f = ResolveFenceposts(0, 0, 3);
  EXPECT_EQ(f.max_surge, 0);
  EXPECT_EQ(f.max_unavailable, 1);
  f = ResolveFenceposts("50%", 2, 5);
  EXPECT_EQ(f.max_surge, 3);
  EXPECT_EQ(f.max_unavailable, 2);
}

TEST(EqualIgnoreHash, IgnoresOnlyThePodTemplateHashLabel) {
  Json a = {{"metadata", {{"labels", {{"app", "x"}}}}}, {"spec", {{"x", 1}}}};
  Json b = a;
  b["metadata"]["labels"][kPodTemplateHashLabel] = "abc";
  EXPECT_TRUE(EqualIgnoreHash(a, b));
  b["spec"]["x"] = 2;
  EXPECT_FALSE(EqualIgnoreHash(a, b));
}

}  // namespace
}  // namespace world
