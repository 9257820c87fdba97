#include "core/world/scheduler/resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/api/object.h"

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

TEST(LeastRequestedScore, IsTheFreeShareOnAMillionPointScale) {
  EXPECT_EQ(LeastRequestedScore(0, 64000), 1'000'000);
  EXPECT_EQ(LeastRequestedScore(500, 64000), 992'187);  // 63.5 of 64 cores free, rounded down
  const int64_t gi = int64_t{1} << 30;
  EXPECT_EQ(LeastRequestedScore(gi, 256 * gi), 996'093);  // 255 of 256 GiB free
  EXPECT_EQ(LeastRequestedScore(64000, 64000), 0);
  EXPECT_EQ(LeastRequestedScore(64001, 64000), 0) << "over capacity";
  EXPECT_EQ(LeastRequestedScore(0, 0), 0) << "no capacity";
  // Beyond the 64-bit product: still exact.
  EXPECT_EQ(LeastRequestedScore(0, INT64_MAX), 1'000'000);
  EXPECT_EQ(LeastRequestedScore(INT64_MAX / 2, INT64_MAX), 500'000);
  EXPECT_EQ(LeastRequestedScore(1, INT64_MAX), 999'999);
}

TEST(LeastRequestedScore, AgreesWithExactArithmeticAroundThe64BitLimit) {
  // The fast path must not change a single score: compare with the 128-bit quotient where the
  // free amount crosses the largest value whose product with the scale fits in 64 bits.
  const int64_t limit = INT64_MAX / 1'000'000;
  for (int64_t capacity : {limit, limit + 1, 2 * limit + 7, INT64_MAX / 3, INT64_MAX}) {
    for (int64_t free : {limit - 1, limit, limit + 1, limit + 2, capacity / 2, capacity}) {
      if (free > capacity) continue;
      const int64_t want =
          static_cast<int64_t>(static_cast<__int128>(free) * 1'000'000 / capacity);
      EXPECT_EQ(LeastRequestedScore(capacity - free, capacity), want)
          << "capacity " << capacity << ", free " << free;
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

api::Json RequestingPod(const char* cpu) {
  return {{"spec",
           {{"containers",
             api::Json::array({api::Json{{"name", "ray-worker"},
                                         {"image", "rayproject/ray:2.9.0"},
                                         {"resources", {{"requests", {{"cpu", cpu}}}}}}})}}}};
}

bool SameSums(const api::Json& a, const api::Json& b) {
  const auto [plain_a, nonzero_a] = PodRequestsWithNonzero(a);
  const auto [plain_b, nonzero_b] = PodRequestsWithNonzero(b);
  return plain_a.cpu_milli == plain_b.cpu_milli && plain_a.memory == plain_b.memory &&
         plain_a.pods == plain_b.pods && nonzero_a.cpu_milli == nonzero_b.cpu_milli &&
         nonzero_a.memory == nonzero_b.memory && nonzero_a.pods == nonzero_b.pods;
}

TEST(SameRequestInputs, AStatusWriteKeepsTheInputs) {
  const api::Json stored = RequestingPod("1");
  api::Json written = stored;
  written["status"] = {{"phase", "Running"}, {"podIP", "10.244.1.7"}};
  written["metadata"] = {{"labels", {{"ray.io/node-type", "worker"}}}};
  written["spec"]["containers"][0]["image"] = "rayproject/ray:2.10.0";  // not a request
  written["spec"]["containers"][0]["resources"]["limits"] = {{"cpu", "2"}};
  EXPECT_TRUE(SameRequestInputs(stored, written));
  EXPECT_TRUE(SameSums(stored, written));
}

// The API server's status writes view the stored spec (api::ShareStored); the compare sees the
// one block and agrees with the sums.
TEST(SameRequestInputs, AVersionViewingTheStoredSpecKeepsTheInputs) {
  const api::Json stored = RequestingPod("1");
  api::Json written = api::Json::object();
  written["spec"] = api::ShareStored(stored.at("spec"));
  written["status"] = {{"phase", "Running"}};
  ASSERT_TRUE(written.at("spec").get_ref<const api::Json::object_t&>().SameMembers(
      stored.at("spec").get_ref<const api::Json::object_t&>()));
  EXPECT_TRUE(SameRequestInputs(stored, written));
  EXPECT_TRUE(SameSums(stored, written));
  EXPECT_FALSE(SameRequestInputs(RequestingPod("2"), written));
}

TEST(SameRequestInputs, AnyChangeTheSumsReadIsSeen) {
  const api::Json stored = RequestingPod("1");
  std::vector<api::Json> changed;
  changed.push_back(RequestingPod("2"));  // another cpu request
  api::Json more = stored;
  more["spec"]["containers"].push_back(api::Json{{"name", "sidecar"}});  // another container
  changed.push_back(more);
  api::Json init = stored;
  init["spec"]["initContainers"] =
      api::Json::array({api::Json{{"resources", {{"requests", {{"cpu", "4"}}}}}}});
  changed.push_back(init);
  api::Json no_requests = stored;
  no_requests["spec"]["containers"][0].erase("resources");
  changed.push_back(no_requests);
  api::Json no_spec = stored;
  no_spec.erase("spec");
  changed.push_back(no_spec);
  for (const api::Json& other : changed) {
    EXPECT_FALSE(SameRequestInputs(stored, other)) << other.dump();
    EXPECT_FALSE(SameRequestInputs(other, stored)) << other.dump();
  }
}

TEST(SameRequestInputs, InputsThatParseAlikeCompareAlike) {
  // A non-object resources (or requests) reads as no requests, as an absent one does.
  api::Json absent = RequestingPod("1");
  absent["spec"]["containers"][0].erase("resources");
  api::Json odd = RequestingPod("1");
  odd["spec"]["containers"][0]["resources"] = "none";
  api::Json odd_requests = RequestingPod("1");
  odd_requests["spec"]["containers"][0]["resources"]["requests"] = 3;
  for (const api::Json* other : {&odd, &odd_requests}) {
    EXPECT_TRUE(SameRequestInputs(absent, *other));
    EXPECT_TRUE(SameSums(absent, *other));
  }
  EXPECT_TRUE(SameRequestInputs(api::Json::object(), api::Json{{"spec", "x"}}));
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
