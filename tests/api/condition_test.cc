#include "core/api/condition.h"

#include <gtest/gtest.h>

#include <utility>

namespace api {
namespace {

TEST(UpsertCondition, KeepsTransitionTimeWhileTheStatusHolds) {
  Json conditions =
      UpsertCondition(nullptr, Json{{"type", "Ready"}, {"status", "False"}}, 1 * base::kSecond);
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0]["lastTransitionTime"], "2026-01-01T00:00:01Z");
  conditions = UpsertCondition(
      conditions, Json{{"type", "Ready"}, {"status", "False"}, {"reason", "X"}}, 5 * base::kSecond);
  EXPECT_EQ(conditions[0]["lastTransitionTime"], "2026-01-01T00:00:01Z");
  EXPECT_EQ(conditions[0]["reason"], "X");
  conditions =
      UpsertCondition(conditions, Json{{"type", "Ready"}, {"status", "True"}}, 7 * base::kSecond);
  EXPECT_EQ(conditions[0]["lastTransitionTime"], "2026-01-01T00:00:07Z");
  conditions = UpsertCondition(conditions, Json{{"type", "Other"}, {"status", "True"}},
                               8 * base::kSecond, true);
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[1]["lastUpdateTime"], "2026-01-01T00:00:08Z");
}

TEST(UpsertCondition, ReplacesTheWholeConditionAndKeepsTheOrder) {
  // UpdatePodCondition stores the new condition as given: a reason or message the old one had
  // is gone when the new one has none, and the other conditions keep their places.
  Json conditions = Json::array(
      {Json{{"type", "Initialized"}, {"status", "True"}},
       Json{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"},
            {"message", "0/1 nodes are available: 1 Insufficient cpu."}},
       Json{{"type", "Ready"}, {"status", "False"}}});
  conditions = UpsertCondition(std::move(conditions),
                               Json{{"type", "PodScheduled"}, {"status", "True"}},
                               3 * base::kSecond);
  ASSERT_EQ(conditions.size(), 3u);
  EXPECT_EQ(conditions[0]["type"], "Initialized");
  EXPECT_EQ(conditions[1], (Json{{"type", "PodScheduled"},
                                 {"status", "True"},
                                 {"lastTransitionTime", "2026-01-01T00:00:03Z"}}));
  EXPECT_EQ(conditions[2]["type"], "Ready");
  EXPECT_FALSE(conditions[1].contains("lastUpdateTime"));  // only with update_time
}

// One finder for every layer: the entry whose type is the string asked for; a list that is not
// a list, an entry that is not an object or whose type is not that string, is passed over.
TEST(FindCondition, FindsTheEntryOfOneTypeAndPassesOverMalformedOnes) {
  const Json pod = Json::parse(R"({"status":{"conditions":[
      "not an object", {"status":"True"}, {"type":7,"status":"True"},
      {"type":"PodScheduled","status":"True"}, {"type":"Ready","status":"False"}]}})");
  const Json* ready = FindCondition(pod, "Ready");
  ASSERT_NE(ready, nullptr);
  EXPECT_EQ(ready, &pod["status"]["conditions"][4]);
  EXPECT_EQ(FindCondition(pod, "ContainersReady"), nullptr);
  // A missing type reads as Go's zero value, as FindStatusCondition's decoded structs would.
  EXPECT_EQ(FindCondition(pod, ""), &pod["status"]["conditions"][1]);
  EXPECT_TRUE(ConditionIs(pod, "PodScheduled", "True"));
  EXPECT_FALSE(ConditionIs(pod, "Ready", "True"));
  EXPECT_TRUE(ConditionIs(pod, "Ready", "False"));
  EXPECT_EQ(FindCondition(Json::parse(R"({"status":{"conditions":{"Ready":"True"}}})"), "Ready"),
            nullptr);
  EXPECT_EQ(FindCondition(Json::parse(R"({"status":"Ready"})"), "Ready"), nullptr);
  EXPECT_EQ(FindCondition(Json::array(), "Ready"), nullptr);
}

}  // namespace
}  // namespace api
