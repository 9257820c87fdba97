#include "core/world/scheduler/resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace world {
namespace {

struct QuantityCase {
  std::string text;
  int64_t milli;  // -1 = invalid
};

TEST(ParseQuantityMilli, ReadsKubernetesQuantities) {
  const std::vector<QuantityCase> cases = {
      {"500m", 500},
      {"2", 2000},
      {"1.5", 1500},
      {"0.1", 100},
      {"1Ki", 1024000},
      {"32Gi", 32LL * 1024 * 1024 * 1024 * 1000},
      {"1G", 1000LL * 1000 * 1000 * 1000},
      {"1e3", 1000000},
      {"100n", 1},  // rounds up to a whole milli-unit
      {"", -1},
      {"abc", -1},
      {"5Xi", -1},
      {"1.2.3", -1},
      {"9999999999999999999Ei", -1},
  };
  for (const QuantityCase& c : cases) {
    SCOPED_TRACE(c.text);
    auto parsed = ParseQuantityMilli(c.text);
    if (c.milli < 0) {
      EXPECT_FALSE(parsed.ok());
    } else {
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      EXPECT_EQ(parsed.value(), c.milli);
    }
  }
}

TEST(PodRequests, SumsContainersAndDefaultsForScoring) {
  api::Json pod = {
      {"spec",
       {{"containers",
         api::Json::array(
             {api::Json{{"resources", {{"requests", {{"cpu", "250m"}, {"memory", "64Mi"}}}}}},
              api::Json{{"name", "sidecar"}}})}}}};
  Resources r = PodRequests(pod);
  EXPECT_EQ(r.cpu_milli, 250);
  EXPECT_EQ(r.memory, 64LL * 1024 * 1024);
  EXPECT_EQ(r.pods, 1);
  Resources scored = NonzeroPodRequests(pod);
  EXPECT_EQ(scored.cpu_milli, 350);  // the sidecar counts 100m
  EXPECT_EQ(scored.memory, 264LL * 1024 * 1024);
}

TEST(NodeAllocatable, ReadsAllocatableOrCapacity) {
  api::Json node = {
      {"status", {{"capacity", {{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "110"}}}}}};
  Resources r = NodeAllocatable(node);
  EXPECT_EQ(r.cpu_milli, 8000);
  EXPECT_EQ(r.memory, 32LL * 1024 * 1024 * 1024);
  EXPECT_EQ(r.pods, 110);
  EXPECT_EQ(NodeAllocatable(api::Json::object()).cpu_milli, 0);
}

}  // namespace
}  // namespace world
