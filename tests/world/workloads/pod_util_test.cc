#include "core/world/workloads/pod_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace world {
namespace {

using api::Json;

Json Pod(const std::string& name, const std::string& node, const std::string& phase, bool ready,
         const std::string& ready_since = "2026-01-01T00:00:10Z", int restarts = 0,
         const std::string& created = "2026-01-01T00:00:00Z") {
  Json pod = {{"metadata", {{"name", name}, {"creationTimestamp", created}}},
              {"spec", {{"nodeName", node}}},
              {"status",
               {{"phase", phase},
                {"conditions", Json::array({Json{{"type", "Ready"},
                                                 {"status", ready ? "True" : "False"},
                                                 {"lastTransitionTime", ready_since}}})},
                {"containerStatuses", Json::array({Json{{"restartCount", restarts}}})}}}};
  return pod;
}

TEST(DeleteFirst, RanksPodsLikeTheReplicaSetController) {
  // Expected deletion order, most deletable first.
  std::vector<Json> pods = {
      Pod("unassigned", "", "Pending", false),
      Pod("pending", "n1", "Pending", false),
      Pod("unknown", "n1", "Unknown", false),
      Pod("running-not-ready", "n1", "Running", false),
      Pod("ready-recently", "n1", "Running", true, "2026-01-01T00:00:20Z"),
      Pod("ready-long-restarts", "n1", "Running", true, "2026-01-01T00:00:10Z", 3),
      Pod("ready-long-new", "n1", "Running", true, "2026-01-01T00:00:10Z", 0,
          "2026-01-01T00:00:05Z"),
      Pod("ready-long-old", "n1", "Running", true, "2026-01-01T00:00:10Z", 0,
          "2026-01-01T00:00:01Z"),
  };
  std::vector<Json> shuffled = {pods[5], pods[0], pods[7], pods[3],
                                pods[1], pods[6], pods[2], pods[4]};
  std::sort(shuffled.begin(), shuffled.end(), DeleteFirst);
  for (size_t i = 0; i < pods.size(); ++i)
    EXPECT_EQ(api::Name(shuffled[i]), api::Name(pods[i])) << i;
}

TEST(ParseRfc3339, InvertsFormatRfc3339) {
  for (base::SimTime t :
       {base::SimTime(0), 5 * base::kSecond, 400 * 24 * base::kHour + 3 * base::kMinute}) {
    auto parsed = ParseRfc3339(base::FormatRfc3339(t));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_FALSE(ParseRfc3339("yesterday").has_value());
  EXPECT_FALSE(ParseRfc3339("2026-13-01T00:00:00Z").has_value());
}

TEST(PodFromTemplate, CopiesLabelsAnnotationsSpecAndSetsTheController) {
  Json owner = {{"apiVersion", "apps/v1"},
                {"kind", "ReplicaSet"},
                {"metadata", {{"name", "rs"}, {"namespace", "ns"}, {"uid", "u1"}}}};
  Json tmpl = {
      {"metadata", {{"labels", {{"a", "b"}}}, {"annotations", {{"c", "d"}}}, {"name", "ignored"}}},
      {"spec", {{"containers", Json::array()}}}};
  Json pod = PodFromTemplate(tmpl, owner, "rs-");
  EXPECT_EQ(api::GenerateName(pod), "rs-");
  EXPECT_EQ(api::Name(pod), "");
  EXPECT_EQ(api::Namespace(pod), "ns");
  EXPECT_EQ(api::Labels(pod).at("a"), "b");
  EXPECT_EQ(api::Annotations(pod).at("c"), "d");
  EXPECT_TRUE(IsControlledBy(pod, owner));
  EXPECT_TRUE(api::GetControllerOf(pod)->blockOwnerDeletion);
}

TEST(PodPredicates, ActiveTerminalReady) {
  Json running = Pod("a", "n", "Running", true);
  EXPECT_TRUE(IsPodActive(running));
  EXPECT_TRUE(IsPodReady(running));
  Json done = Pod("b", "n", "Succeeded", false);
  EXPECT_TRUE(IsPodTerminal(done));
  EXPECT_FALSE(IsPodActive(done));
  running["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  EXPECT_FALSE(IsPodActive(running));
  EXPECT_EQ(RestartCount(Pod("c", "n", "Running", true, "", 4)), 4);
  EXPECT_TRUE(JsonAt(Json("not an object"), "/a/b").is_null());
}

}  // namespace
}  // namespace world
